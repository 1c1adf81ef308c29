//! Small text helpers of the migration: which old alias an expression names, the range a removed block takes,
//! whether a file mentions a name, and line numbers for messages.

use foreach_syntax::ast::{Expr, ExprKind, TraversalOp};
use foreach_syntax::{TextRange, TextSize};

/// The old alias `expr` refers to, when it is exactly `P.alias`.
pub(super) fn alias_reference(expr: &Expr, provider: &str, old: &[String]) -> Option<String> {
    let ExprKind::Traversal { base, steps } = &expr.kind else { return None };
    let ExprKind::Variable(root) = &base.kind else { return None };
    if root.name != provider || steps.len() != 1 {
        return None;
    }
    let TraversalOp::GetAttr(name) = &steps[0].op else { return None };
    old.iter().find(|a| **a == name.name).cloned()
}

/// The range to delete for a removed block: from the start of its line (with the comment lines right above it,
/// which describe it) through its line break, and one blank line after it, so that no gap of blank lines is left
/// behind. The flag says whether a comment is removed.
pub(super) fn removal_range(text: &str, range: TextRange) -> (TextRange, bool) {
    let start = usize::from(range.start());
    let mut line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let own_line = text[line_start..start].trim().is_empty();
    let mut comment = false;
    while own_line && line_start > 0 {
        let prev_start = text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        let prev = text[prev_start..line_start].trim();
        if prev.starts_with('#') || prev.starts_with("//") {
            line_start = prev_start;
            comment = true;
        } else {
            break;
        }
    }
    let mut start = if own_line { line_start } else { start };
    // The last block of a file takes the blank line above it instead, so that the file does not end in one.
    if own_line && text[usize::from(range.end())..].trim().is_empty() && start > 0 {
        let prev_start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if text[prev_start..start].trim().is_empty() {
            start = prev_start;
        }
    }
    let mut end = usize::from(range.end());
    let rest = &text[end..];
    let eol = rest.find('\n').map(|i| i + 1);
    if let Some(n) = eol
        && rest[..n].trim().is_empty()
    {
        end += n;
        let rest = &text[end..];
        if let Some(m) = rest.find('\n')
            && rest[..m].trim().is_empty()
            && start == line_start
        {
            end += m + 1;
        }
    }
    (TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)), comment)
}

/// Whether `text` holds `provider.alias` as a whole name (not `aws.use10` for `aws.use1`): a textual look at files
/// migrate does not parse as references.
pub(super) fn mentions(text: &str, provider: &str, alias: &str) -> bool {
    let needle = format!("{provider}.{alias}");
    let name_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(&needle).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + needle.len()..].chars().next();
        !before.is_some_and(|c| name_char(c) || c == '.') && !after.is_some_and(name_char)
    })
}

/// Whether `s` is an HCL name (what an alias must be; it becomes a key of the map and of references).
pub(super) fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// The 1-based line of `offset`.
pub(super) fn line_of(text: &str, offset: TextSize) -> usize {
    let at = usize::from(offset).min(text.len());
    text.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn removed(text: &str, block: &str) -> (String, bool) {
        let start = text.find(block).unwrap();
        let range = TextRange::at(TextSize::from(start as u32), TextSize::from(block.len() as u32));
        let (r, comment) = removal_range(text, range);
        let mut out = text.to_string();
        out.replace_range(std::ops::Range::<usize>::from(r), "");
        (out, comment)
    }

    #[test]
    fn removing_a_block_takes_its_line_one_blank_line_and_the_comment_above() {
        let text = "a = 1\n\n# the eu copy\nprovider \"aws\" {\n}\n\nb = 2\n";
        assert_eq!(removed(text, "provider \"aws\" {\n}"), ("a = 1\n\nb = 2\n".to_string(), true));
        let crlf = "a = 1\r\n\r\nprovider \"aws\" {\r\n}\r\n\r\nb = 2\r\n";
        assert_eq!(removed(crlf, "provider \"aws\" {\r\n}"), ("a = 1\r\n\r\nb = 2\r\n".to_string(), false));
        // At the end of a file without a final line break.
        let last = "a = 1\n\nprovider \"aws\" {}";
        assert_eq!(removed(last, "provider \"aws\" {}"), ("a = 1\n".to_string(), false));
        let last = "a = 1\n\nprovider \"aws\" {}\n";
        assert_eq!(removed(last, "provider \"aws\" {}"), ("a = 1\n".to_string(), false));
    }

    #[test]
    fn mentions_whole_names_only() {
        assert!(mentions("{\"provider\": \"aws.use1\"}", "aws", "use1"));
        assert!(!mentions("{\"provider\": \"aws.use10\"}", "aws", "use1"));
        assert!(!mentions("{\"provider\": \"myaws.use1\"}", "aws", "use1"));
    }

    #[test]
    fn line_of_counts_from_one() {
        assert_eq!(line_of("a\nb\n", TextSize::from(2)), 2);
        assert_eq!(line_of("a", TextSize::from(99)), 1);
    }
}
