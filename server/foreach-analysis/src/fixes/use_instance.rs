//! The "use another instance" fix for `unknown-provider-instance` when the key is written as a string literal:
//! replace that literal with an instance's key.
//!
//! In native syntax the edit is the literal's range. In JSON syntax the reference is an HCL expression inside a
//! JSON string, and when the string has escapes (a literal key always has: `"aws.by_region[\"a\"]"`) every node of
//! it carries the whole string's range. There the string is decoded, the key replaced inside the decoded
//! expression, and the whole string written back with JSON's escapes, so the rest of the reference stays and the
//! file stays valid JSON.

use foreach_syntax::ast::{Expr, ExprKind, TraversalOp};
use foreach_syntax::{FileKind, TextRange};

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Fix, TextEdit};

use foreach_syntax::quote;

/// The edit replacing the literal key `key_expr` (in `text`, a file of `kind`) with `new_key`, or `None` when the
/// key is not a string literal or the JSON string around it cannot be rewritten safely.
pub fn replace_key(file: FileId, kind: FileKind, text: &str, key_expr: &Expr, new_key: &str) -> Option<TextEdit> {
    let old_key = key_expr.as_string_literal()?;
    let range = key_expr.range;
    let written = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let new_text = if kind.is_json() { json_string_with_key(written, &old_key, new_key)? } else { quote(new_key) };
    Some(TextEdit { location: FileRange::new(file, range), new_text })
}

/// The fix built from [`replace_key`].
pub fn use_instance(
    file: FileId,
    kind: FileKind,
    text: &str,
    key_expr: &Expr,
    new_key: &str,
    title: String,
) -> Option<Fix> {
    let edit = replace_key(file, kind, text, key_expr, new_key)?;
    Some(Fix { title, edits: vec![edit], automatic: false })
}

/// `token` is a whole JSON string (quotes included) holding an HCL expression in which the index key `old_key`
/// occurs exactly once; returns the JSON string with that key replaced by `new_key`.
fn json_string_with_key(token: &str, old_key: &str, new_key: &str) -> Option<String> {
    if token.len() < 2 || !token.starts_with('"') || !token.ends_with('"') {
        return None;
    }
    let decoded: String = serde_json::from_str(token).ok()?;
    let expr = foreach_syntax::parse_expr(&decoded).ok()?;
    let mut found = Vec::new();
    literal_index_keys(&expr, old_key, &mut found);
    let [at] = found.as_slice() else { return None };
    let (start, end) = (usize::from(at.start()), usize::from(at.end()));
    let replaced = format!("{}{}{}", decoded.get(..start)?, quote(new_key), decoded.get(end..)?);
    serde_json::to_string(&replaced).ok()
}

/// The ranges of the index steps `[ "<key>" ]` in `e` whose key is the literal `key`.
fn literal_index_keys(e: &Expr, key: &str, out: &mut Vec<TextRange>) {
    match &e.kind {
        ExprKind::Traversal { base, steps } => {
            literal_index_keys(base, key, out);
            for step in steps {
                if let TraversalOp::Index(k) = &step.op {
                    if k.as_string_literal().as_deref() == Some(key) {
                        out.push(k.range);
                    } else {
                        literal_index_keys(k, key, out);
                    }
                }
            }
        }
        ExprKind::Parenthesis(inner) => literal_index_keys(inner, key, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixes::apply_edits;

    fn fixed(text: &str, kind: FileKind, old: &str, new: &str) -> Option<String> {
        let parsed = foreach_syntax::parse(text, kind);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let mut key = None;
        find_key(&parsed.body, old, &mut key);
        let edit = replace_key(FileId(0), kind, text, &key?, new)?;
        Some(apply_edits(text, &[&edit]).text)
    }

    fn find_key(body: &foreach_syntax::ast::Body, old: &str, out: &mut Option<Expr>) {
        for b in body.blocks() {
            if let Some(a) = b.body.attribute("provider")
                && let ExprKind::Traversal { steps, .. } = &a.value.kind
            {
                for s in steps {
                    if let TraversalOp::Index(k) = &s.op
                        && k.as_string_literal().as_deref() == Some(old)
                    {
                        *out = Some((**k).clone());
                    }
                }
            }
            find_key(&b.body, old, out);
        }
    }

    #[test]
    fn native_keys_are_replaced_and_quoted() {
        let text = "resource \"a\" \"b\" {\n  provider = aws.by_region[\"euw\"]\n}\n";
        assert_eq!(
            fixed(text, FileKind::Tf, "euw", "euw1").unwrap(),
            "resource \"a\" \"b\" {\n  provider = aws.by_region[\"euw1\"]\n}\n"
        );
        assert!(fixed(text, FileKind::Tf, "euw", "a\"${b}").unwrap().contains("[\"a\\\"$${b}\"]"));
    }

    #[test]
    fn json_keys_are_replaced_inside_the_string() {
        let text = r#"{"resource": {"a": {"b": {"provider": "aws.by_region[\"euw\"]"}}}}"#;
        let new = fixed(text, FileKind::TfJson, "euw", "euw1").unwrap();
        assert_eq!(new, r#"{"resource": {"a": {"b": {"provider": "aws.by_region[\"euw1\"]"}}}}"#);
        // Keys that need escaping in HCL and then again in JSON.
        let new = fixed(text, FileKind::TfJson, "euw", "a\"b\\c").unwrap();
        assert_eq!(new, r#"{"resource": {"a": {"b": {"provider": "aws.by_region[\"a\\\"b\\\\c\"]"}}}}"#);
        let reparsed = foreach_syntax::parse(&new, FileKind::TfJson);
        assert!(reparsed.errors.is_empty(), "{:?}", reparsed.errors);
    }
}
