//! Text insertions that keep the layout around them: an item appended to an HCL object or tuple literal, a line
//! added after another one with its indentation. Each returns the offset and the text to insert; line breaks are
//! `\n` (the analysis writes them in the file's style), and nothing is guessed where the text does not match the
//! tree (`None`).

use foreach_syntax::TextSize;
use foreach_syntax::ast::{Expr, ExprKind};

/// Appends `item` (`key = value`) to the object literal `object`: on a line of its own, indented like the last
/// item, when that item has a line of its own; after the last item on the same line otherwise.
pub fn object_item(text: &str, object: &Expr, item: &str) -> Option<(TextSize, String)> {
    let ExprKind::Object(items) = &object.kind else { return None };
    let Some(last) = items.last() else {
        let inside = usize::from(object.range.start()) + 1;
        return (text.get(inside - 1..inside) == Some("{"))
            .then(|| (TextSize::from(inside as u32), format!(" {item} ")));
    };
    let key_start = usize::from(last.key.range().start());
    let line_start = text.get(..key_start)?.rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..key_start];
    let object_end = usize::from(object.range.end());
    let last_end = usize::from(last.value.range.end());
    let own_line = indent.chars().all(|c| c == ' ' || c == '\t') && line_start > usize::from(object.range.start());
    if own_line && let Some((at, _)) = line_end(text, last_end).filter(|(at, _)| *at < object_end) {
        let comma = if text[last_end..at].trim_start().starts_with(',') { "," } else { "" };
        return Some((TextSize::from(at as u32), format!("\n{indent}{item}{comma}")));
    }
    Some((TextSize::from(last_end as u32), format!(", {item}")))
}

/// Appends `element` to the tuple literal `tuple` (`[aws.a]` becomes `[aws.a, aws.b]`).
pub fn tuple_element(text: &str, tuple: &Expr, element: &str) -> Option<(TextSize, String)> {
    let ExprKind::Tuple(items) = &tuple.kind else { return None };
    match items.last() {
        Some(last) => Some((last.range.end(), format!(", {element}"))),
        None => {
            let inside = usize::from(tuple.range.start()) + 1;
            (text.get(inside - 1..inside) == Some("[")).then(|| (TextSize::from(inside as u32), element.to_string()))
        }
    }
}

/// Inserts `line` after the line holding `at` (before its line break), indented like the line holding `indent_of`.
/// `line` may have several lines; each is indented.
pub fn line_after(text: &str, at: TextSize, indent_of: TextSize, line: &str) -> Option<(TextSize, String)> {
    let start = usize::from(indent_of);
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..start];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let (end, _) = line_end(text, usize::from(at))?;
    let body: String = line.lines().map(|l| format!("\n{indent}{l}")).collect();
    Some((TextSize::from(end as u32), body))
}

/// The end of the line holding `offset` (before a `\r\n` or `\n`), and whether a line break follows it.
fn line_end(text: &str, offset: usize) -> Option<(usize, bool)> {
    let rest = text.get(offset..)?;
    Some(match rest.find('\n') {
        Some(i) => (offset + i - usize::from(rest[..i].ends_with('\r')), true),
        None => (text.len(), false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{FileId, FileRange};
    use crate::diagnostics::TextEdit;
    use crate::fixes::apply_edits;

    fn apply(text: &str, (at, new_text): (TextSize, String)) -> String {
        let edit = TextEdit { location: FileRange::new(FileId(0), foreach_syntax::TextRange::empty(at)), new_text };
        apply_edits(text, &[&edit]).text
    }

    #[test]
    fn object_items_follow_the_layout() {
        let check = |object: &str, want: &str| {
            let text = format!("{object}\n");
            let e = foreach_syntax::parse_expr(&text).unwrap();
            assert_eq!(apply(&text, object_item(&text, &e, "b = 2").unwrap()), format!("{want}\n"));
        };
        check("{ a = 1 }", "{ a = 1, b = 2 }");
        check("{ a = 1, }", "{ a = 1, b = 2, }");
        check("{}", "{ b = 2 }");
        check("{\n  a = 1 # one\n}", "{\n  a = 1 # one\n  b = 2\n}");
        check("{\n  a = 1,\n}", "{\n  a = 1,\n  b = 2,\n}");
        check("{\n  a = {\n    c = 3\n  }\n}", "{\n  a = {\n    c = 3\n  }\n  b = 2\n}");
    }

    #[test]
    fn tuple_elements_and_lines() {
        let text = "[aws.a]\n";
        let e = foreach_syntax::parse_expr(text).unwrap();
        assert_eq!(apply(text, tuple_element(text, &e, "aws.b").unwrap()), "[aws.a, aws.b]\n");
        let text = "[]\n";
        let e = foreach_syntax::parse_expr(text).unwrap();
        assert_eq!(apply(text, tuple_element(text, &e, "aws.b").unwrap()), "[aws.b]\n");
        let text = "m {\r\n  source = \"./x\"\r\n}\r\n";
        let at = TextSize::from(text.find("source").unwrap() as u32);
        assert_eq!(
            apply(text, line_after(text, at, at, "providers = {\n  a = b\n}").unwrap()),
            "m {\r\n  source = \"./x\"\n  providers = {\n    a = b\n  }\r\n}\r\n"
        );
    }
}
