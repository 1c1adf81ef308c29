//! Extracting the ```` ```hcl ```` blocks of a Markdown page (`docs/diagnostics/<code>.md`), each of which the
//! docs test runs as a one-file `main.tf` fixture, so the examples in the docs can never drift from the analysis.
//!
//! Only what CommonMark says about fenced code blocks at the top level: fences of three or more backticks or
//! tildes, indented at most three spaces, closed by a fence of the same character at least as long (or by the end
//! of the page). Blocks inside lists or quotes are not examples and are not looked at.

/// Every fenced block whose info string's first word is `hcl`, as `(line, content)`: `line` is the 0-based line of
/// the page on which the content starts (so block line `k` is page line `line + k`), and the content keeps its
/// line terminators.
pub fn markdown_hcl_blocks(md: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    // (fence char, fence length, fence indentation, is hcl, first content line, content)
    let mut open: Option<(char, usize, usize, bool, usize, String)> = None;
    for (index, line) in md.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        let indent = bare.len() - bare.trim_start_matches(' ').len();
        let rest = &bare[indent..];
        match &mut open {
            None => {
                let Some(fence) = rest.chars().next().filter(|c| indent <= 3 && (*c == '`' || *c == '~')) else {
                    continue;
                };
                let len = rest.chars().take_while(|&c| c == fence).count();
                let info = rest[len..].trim();
                if len < 3 || (fence == '`' && info.contains('`')) {
                    continue;
                }
                let is_hcl = info.split_whitespace().next() == Some("hcl");
                open = Some((fence, len, indent, is_hcl, index + 1, String::new()));
            }
            Some((fence, len, fence_indent, is_hcl, start, content)) => {
                let run = rest.chars().take_while(|c| c == fence).count();
                if indent <= 3 && run >= *len && rest[run..].trim().is_empty() {
                    if *is_hcl {
                        blocks.push((*start, std::mem::take(content)));
                    }
                    open = None;
                } else {
                    // Content lines lose up to the fence's own indentation, as CommonMark specifies.
                    let strip = indent.min(*fence_indent);
                    content.push_str(&line[strip..]);
                }
            }
        }
    }
    if let Some((_, _, _, true, start, content)) = open {
        blocks.push((start, content));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::markdown_hcl_blocks;

    #[test]
    fn extracts_hcl_blocks_with_their_starting_lines() {
        let md = "# unknown-provider-instance\n\n```hcl\nprovider \"aws\" {}\n```\n\ntext\n\n```json\n{}\n```\n\n\
                  ````hcl title=\"fixed\"\nx = \"```\"\n```\n````\n  ~~~hcl\n  a = 1\n    b = 2\n  ~~~\n";
        assert_eq!(
            markdown_hcl_blocks(md),
            vec![
                (3, "provider \"aws\" {}\n".to_string()),
                (13, "x = \"```\"\n```\n".to_string()),
                (17, "a = 1\n  b = 2\n".to_string()),
            ]
        );
    }

    #[test]
    fn unclosed_block_runs_to_the_end_and_other_languages_are_skipped() {
        assert_eq!(markdown_hcl_blocks("```terraform\na\n```\n```hcl\nb\r\n"), vec![(4, "b\r\n".to_string())]);
        assert_eq!(markdown_hcl_blocks("```hcl\n```\n"), vec![(1, String::new())]);
        assert_eq!(markdown_hcl_blocks("    ```hcl\n    x\n"), vec![]);
    }
}
