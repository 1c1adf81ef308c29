//! Small text helpers of the migration: which old alias an expression names, whether a file mentions a name, and
//! line numbers for messages.

use foreach_syntax::TextSize;
use foreach_syntax::ast::{Expr, ExprKind, TraversalOp};

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
