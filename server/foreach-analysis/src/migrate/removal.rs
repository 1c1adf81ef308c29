//! Removing whole top-level blocks from a native HCL file (the old aliased `provider` blocks, the merged copies):
//! which text goes with a block, and one deletion per run of neighbouring blocks.
//!
//! A block takes its lines, the comments right above it (no blank line between, none on the line of the item
//! before: those describe the block) and a comment after its closing brace on the same line. Blocks with only
//! blank lines between them are deleted as one range, so that no two deletions of a file ever touch (overlapping
//! edits are dropped by whoever applies them, which once left the last of three blocks in place). Then blank
//! lines are evened out: the gap left is the one that was above the blocks, and a file does not end in blank
//! lines. Every comment that goes is reported, so that the user is told what disappeared.

use foreach_syntax::{TextRange, TextSize};

/// Where a removed comment was, relative to its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Above,
    Inside,
    After,
}

/// A comment removed with a block: the block's index in the input, where it was, and where it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RemovedComment {
    pub block: usize,
    pub place: Place,
    pub at: TextSize,
}

/// The deletions that remove `blocks` (ranges of top-level blocks of `text`), sorted and disjoint, and the
/// comments removed with them. `items` are the ranges of every top-level attribute and block of the file, `comments`
/// those of its comments (`foreach_syntax::format::comments`).
pub(super) fn removals(
    text: &str,
    items: &[TextRange],
    comments: &[TextRange],
    blocks: &[TextRange],
) -> (Vec<TextRange>, Vec<RemovedComment>) {
    let mut spans: Vec<(usize, usize, bool)> = Vec::new();
    let mut removed = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let (start, end) = (usize::from(block.start()), usize::from(block.end()));
        for c in comments.iter().filter(|c| block.contains_range(**c)) {
            removed.push(RemovedComment { block: i, place: Place::Inside, at: c.start() });
        }
        let line_start = line_start(text, start);
        let own_line = text[line_start..start].trim().is_empty();
        let mut span_start = start;
        if own_line {
            let (at, above) = comments_above(text, items, comments, *block);
            span_start = at;
            removed.extend(above.into_iter().map(|at| RemovedComment { block: i, place: Place::Above, at }));
        }
        // The rest of the closing brace's line: nothing, or a comment.
        let mut span_end = end;
        let mut whole_lines = own_line;
        if let Some(c) = comments.iter().find(|c| usize::from(c.start()) >= end) {
            let c_start = usize::from(c.start());
            if !text[end..c_start].contains('\n') && text[end..c_start].trim().is_empty() {
                removed.push(RemovedComment { block: i, place: Place::After, at: c.start() });
                span_end = usize::from(c.end());
            }
        }
        let rest = &text[span_end..];
        match rest.find('\n') {
            // A `#` comment ends with its line break.
            _ if span_end > end && text[..span_end].ends_with('\n') => {}
            Some(n) if rest[..n].trim().is_empty() => span_end += n + 1,
            None if rest.trim().is_empty() => span_end = text.len(),
            _ => whole_lines = false,
        }
        spans.push((span_start, span_end, whole_lines));
    }
    spans.sort_unstable();

    // Neighbours with only blank lines between them go as one.
    let mut merged: Vec<(usize, usize, bool)> = Vec::new();
    for (s, e, whole) in spans {
        match merged.last_mut() {
            Some(last) if s <= last.1 || text[last.1..s].trim().is_empty() => {
                last.1 = last.1.max(e);
                last.2 &= whole;
            }
            _ => merged.push((s, e, whole)),
        }
    }

    let mut out = Vec::new();
    for (mut s, mut e, whole) in merged {
        if whole {
            if text[e..].trim().is_empty() {
                // At the end of the file: the blank lines above go too, so that it ends after its last item.
                e = text.len();
                while s > 0 {
                    let prev = line_start_of(text, s - 1);
                    if prev < bom_len(text) || !text[prev..s].trim().is_empty() {
                        break;
                    }
                    s = prev;
                }
            } else if s <= bom_len(text) || text[line_start_of(text, s - 1)..s].trim().is_empty() {
                // A blank line above (or the start of the file): the blank lines below go, leaving the gap above.
                while let Some(n) = text[e..].find('\n') {
                    if !text[e..e + n].trim().is_empty() {
                        break;
                    }
                    e += n + 1;
                }
            }
        }
        out.push(TextRange::new(TextSize::from(s as u32), TextSize::from(e as u32)));
    }
    removed.sort_by_key(|c| c.at);
    (out, removed)
}

/// The comments right above a top-level block that starts its line: where the first of them starts its line (the
/// block's line start when there are none), and where each starts. A comment is right above when no blank line
/// separates it from the block and it is not on a line of the item before (that one is about the item).
fn comments_above(text: &str, items: &[TextRange], comments: &[TextRange], block: TextRange) -> (usize, Vec<TextSize>) {
    let start = usize::from(block.start());
    let block_line = line_start(text, start);
    let mut span_start = block_line;
    let mut found = Vec::new();
    let prev_end = items.iter().map(|r| usize::from(r.end())).filter(|e| *e <= start).max();
    for c in comments.iter().rev().filter(|c| usize::from(c.end()) <= block_line) {
        let (c_start, c_end) = (usize::from(c.start()), usize::from(c.end()));
        let c_line = line_start_of(text, c_start);
        let directly_above = text[c_line..c_start].trim().is_empty()
            && no_blank_line(&text[c_start..c_end], &text[c_end..span_start])
            && prev_end.is_none_or(|p| p <= c_line && text[p..c_line].contains('\n'));
        if !directly_above {
            break;
        }
        found.push(c.start());
        span_start = c_line;
    }
    found.reverse();
    (span_start, found)
}

/// The start of the line `offset` is on (after a byte order mark on the first line).
fn line_start(text: &str, offset: usize) -> usize {
    line_start_of(text, offset).max(if offset >= bom_len(text) { bom_len(text) } else { 0 })
}

fn line_start_of(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 }
}

/// Whether no blank line lies between a comment and the line start after it: a `#` or `//` comment ends with its
/// line break, so nothing may follow; a `/* */` comment may be followed by the rest of its line.
fn no_blank_line(comment: &str, gap: &str) -> bool {
    if comment.ends_with('\n') { gap.is_empty() } else { gap.trim().is_empty() && gap.matches('\n').count() == 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with the blocks starting with each of `heads` removed (a block runs to the first `}` at a line
    /// start), and the places of the removed comments.
    fn removed(text: &str, heads: &[&str]) -> (String, Vec<Place>) {
        let parse = foreach_syntax::parse(text, foreach_syntax::FileKind::Tf);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let items: Vec<TextRange> = parse
            .body
            .structures
            .iter()
            .map(|s| match s {
                foreach_syntax::ast::Structure::Attribute(a) => a.range,
                foreach_syntax::ast::Structure::Block(b) => b.range,
            })
            .collect();
        let blocks: Vec<TextRange> = heads
            .iter()
            .map(|h| {
                let at = text.find(h).unwrap() as u32;
                *items.iter().find(|r| r.start() == TextSize::from(at)).expect("a block starts there")
            })
            .collect();
        let comments = foreach_syntax::format::comments(text);
        let (ranges, comments) = removals(text, &items, &comments, &blocks);
        let mut out = text.to_string();
        for r in ranges.iter().rev() {
            out.replace_range(std::ops::Range::<usize>::from(*r), "");
        }
        (out, comments.iter().map(|c| c.place).collect())
    }

    #[test]
    fn removing_a_block_takes_its_line_one_blank_line_and_the_comment_above() {
        let text = "a = 1\n\n# the eu copy\nprovider \"aws\" {\n}\n\nb = 2\n";
        assert_eq!(removed(text, &["provider"]), ("a = 1\n\nb = 2\n".to_string(), vec![Place::Above]));
        let crlf = "a = 1\r\n\r\nprovider \"aws\" {\r\n}\r\n\r\nb = 2\r\n";
        assert_eq!(removed(crlf, &["provider"]), ("a = 1\r\n\r\nb = 2\r\n".to_string(), vec![]));
        // At the end of a file without a final line break.
        let last = "a = 1\n\nprovider \"aws\" {}";
        assert_eq!(removed(last, &["provider"]).0, "a = 1\n");
        let last = "a = 1\n\nprovider \"aws\" {}\n";
        assert_eq!(removed(last, &["provider"]).0, "a = 1\n");
        // At the start.
        let first = "provider \"aws\" {}\n\na = 1\n";
        assert_eq!(removed(first, &["provider"]).0, "a = 1\n");
    }

    #[test]
    fn neighbouring_blocks_go_as_one_deletion() {
        // The last two of three blocks after another block: once two deletions that touched, and one was dropped.
        let text = "terraform {}\n\np \"a\" {}\n\np \"b\" {}\n\np \"c\" {}\n";
        assert_eq!(removed(text, &["p \"b\"", "p \"c\""]).0, "terraform {}\n\np \"a\" {}\n");
        let text = "p \"a\" {}\n\np \"b\" {}\n\n\np \"c\" {}\n\nx = 1\n";
        assert_eq!(removed(text, &["p \"b\"", "p \"c\""]).0, "p \"a\" {}\n\nx = 1\n");
        // The gap left is the one above the removed block.
        assert_eq!(removed(text, &["p \"a\"", "p \"c\""]).0, "p \"b\" {}\n\n\nx = 1\n");
    }

    #[test]
    fn comments_above_inside_and_after_go_with_the_block_and_others_stay() {
        let text =
            "a = 1 # about a\n/* eu,\n   copied */\n// more\np \"eu\" { # inside\n} # after\n\n# about b\n\nb = 2\n";
        assert_eq!(
            removed(text, &["p \"eu\""]),
            (
                "a = 1 # about a\n\n# about b\n\nb = 2\n".to_string(),
                vec![Place::Above, Place::Above, Place::Inside, Place::After]
            )
        );
        // A blank line between a comment and the block: the comment is not about the block.
        let text = "# header\n\np \"eu\" {}\n\nb = 2\n";
        assert_eq!(removed(text, &["p \"eu\""]), ("# header\n\nb = 2\n".to_string(), vec![]));
    }
}
