//! Wrapping an expression in a function call (`toset(...)` around a list given to `for_each`).
//!
//! In native syntax the call goes around the expression's range. In JSON syntax the expression is a JSON value:
//! the call can only go inside a string that is one whole interpolation (`"${var.regions}"` becomes
//! `"${toset(var.regions)}"`); around anything else (a JSON array, a string with text around its interpolations)
//! it would leave the file invalid JSON, so there is no fix there.

use foreach_syntax::{FileKind, TextRange, TextSize};

use crate::base::{FileId, FileRange};
use crate::diagnostics::TextEdit;

/// The edits that make the expression at `range` (in `text`, a file of `kind`) the argument of `function`, or
/// `None` where that can't be written without breaking the file.
pub fn wrap_in_call(
    file: FileId,
    kind: FileKind,
    text: &str,
    range: TextRange,
    function: &str,
) -> Option<Vec<TextEdit>> {
    let written = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let (start, end) = if kind.is_json() {
        let inner = written.strip_prefix("\"${")?.strip_suffix("}\"")?;
        // `"${a}-${b}"` starts and ends like one interpolation; any second one (or a directive) rules it out.
        if inner.contains("${") || inner.contains("%{") || inner.trim().is_empty() {
            return None;
        }
        (range.start() + TextSize::from(3), range.end() - TextSize::from(2))
    } else {
        (range.start(), range.end())
    };
    let insert =
        |at: TextSize, new_text: String| TextEdit { location: FileRange::new(file, TextRange::empty(at)), new_text };
    Some(vec![insert(start, format!("{function}(")), insert(end, ")".to_string())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixes::apply_edits;

    fn wrapped(kind: FileKind, text: &str, expr: &str) -> Option<String> {
        let start = text.find(expr).unwrap();
        let range = TextRange::new(TextSize::from(start as u32), TextSize::from((start + expr.len()) as u32));
        let edits = wrap_in_call(FileId(0), kind, text, range, "toset")?;
        Some(apply_edits(text, &edits.iter().collect::<Vec<_>>()).text)
    }

    #[test]
    fn native_syntax_wraps_the_expression() {
        assert_eq!(
            wrapped(FileKind::Tf, "for_each = var.regions\n", "var.regions").unwrap(),
            "for_each = toset(var.regions)\n"
        );
    }

    #[test]
    fn json_wraps_inside_a_string_that_is_one_interpolation() {
        let text = r#"{"for_each": "${var.regions}"}"#;
        let out = wrapped(FileKind::TfJson, text, r#""${var.regions}""#).unwrap();
        assert_eq!(out, r#"{"for_each": "${toset(var.regions)}"}"#);
        serde_json::from_str::<serde_json::Value>(&out).expect("still JSON");
    }

    #[test]
    fn json_arrays_and_mixed_strings_get_no_edit() {
        assert_eq!(wrapped(FileKind::TfJson, r#"{"for_each": ["a", "b"]}"#, r#"["a", "b"]"#), None);
        let mixed = r#"{"for_each": "${var.a}-${var.b}"}"#;
        assert_eq!(wrapped(FileKind::TfJson, mixed, r#""${var.a}-${var.b}""#), None);
    }
}
