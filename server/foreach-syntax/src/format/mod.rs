//! Formatting in the canonical style of `tofu fmt` / `terraform fmt`, byte for byte.
//!
//! Both format with HCL's hclwrite on the tokens of HCL's scanner, after a few rewrites of their own; this module
//! does the same on our own token stream, never through hcl-edit's printer (which does not give back the source
//! byte for byte). `lex` makes the tokens, `tidy` makes the rewrites (quoted labels, `"${x}"` → `x`, legacy
//! variable types), `layout` sets the whitespace. Files with syntax errors are not formatted: the formatter would
//! guess at structure that is not there.

mod layout;
mod lex;
mod tidy;

use crate::{FileKind, SyntaxError, TextRange, TextSize};

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The text is not valid native HCL; the first syntax error.
    Syntax(SyntaxError),
    /// JSON files (`*.tf.json`, `*.tfvars.json`) are not formatted, as by `tofu fmt`.
    NotNativeSyntax,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(err) => write!(f, "{}", err.message),
            FormatError::NotNativeSyntax => write!(f, "only native HCL files are formatted, not JSON"),
        }
    }
}

/// The text formatted as `tofu fmt` formats it, or why it cannot be. Valid input always formats; the result is
/// often the input itself (compare to know whether a file needs formatting).
pub fn format(text: &str, kind: FileKind) -> Result<String, FormatError> {
    if kind.is_json() {
        return Err(FormatError::NotNativeSyntax);
    }
    // `parse` finds no error exactly when hcl-edit accepts the text and it does not end right after a heredoc
    // (`recovery::parse_body`'s fast path); asking that directly skips building our tree on a valid file.
    let (src, base) = match text.strip_prefix(crate::BOM) {
        Some(rest) => (rest, crate::BOM.len()),
        None => (text, 0),
    };
    if hcl_edit::parser::parse_body(src).is_err() || crate::recovery::heredoc_at_end_of_file(src, base).is_some() {
        let parse = crate::parse(text, kind);
        let err = parse.errors.into_iter().next().unwrap_or_else(|| SyntaxError {
            range: TextRange::empty(TextSize::from(0)),
            message: "syntax error".to_owned(),
        });
        return Err(FormatError::Syntax(err));
    }
    Ok(format_valid(text))
}

/// Formats a text already known to parse.
fn format_valid(text: &str) -> String {
    let (bom, src) = match text.strip_prefix(crate::BOM) {
        Some(rest) => (crate::BOM, rest),
        None => ("", text),
    };
    let tokens = lex::lex(src);
    let tidy = tidy::Tidy::run(&tokens, src);
    let (mut out_tokens, extra) = (tidy.out, tidy.extra);
    layout::layout(&mut out_tokens, src, &extra);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    out.push_str(bom);
    for t in &out_tokens {
        for _ in 0..t.spaces {
            out.push(' ');
        }
        out.push_str(t.text(src, &extra));
    }
    out
}

/// The ranges of the comments of a native HCL text (`#` and `//` comments with the line break that ends them,
/// `/* */` comments without), found by the formatter's scanner, so that strings and heredocs holding `#` are not
/// taken for comments. Meant for text that parses; in other text it finds what that scanner finds.
pub fn comments(text: &str) -> Vec<TextRange> {
    let (src, base) = match text.strip_prefix(crate::BOM) {
        Some(rest) => (rest, crate::BOM.len() as u32),
        None => (text, 0),
    };
    lex::lex(src)
        .iter()
        .filter(|t| t.kind == lex::Kind::Comment)
        .map(|t| TextRange::new(TextSize::from(base + t.start), TextSize::from(base + t.end)))
        .collect()
}

/// A replacement of `range` (in the old text) by `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: TextRange,
    pub text: String,
}

/// The edits that turn `text` into its formatted form, small ones (an editor applies them without moving the
/// cursor or folds elsewhere): one per changed line, trimmed to the bytes that differ. Empty when the text is
/// already formatted.
pub fn edits(text: &str, kind: FileKind) -> Result<Vec<Edit>, FormatError> {
    let formatted = format(text, kind)?;
    Ok(diff(text, &formatted))
}

/// The edits of [`edits`] that lie in the top-level blocks and attributes `range` touches (whole ones: formatting
/// part of a block would be half an answer), for `textDocument/rangeFormatting`.
pub fn range_edits(text: &str, kind: FileKind, range: TextRange) -> Result<Vec<Edit>, FormatError> {
    let all = edits(text, kind)?;
    let body = crate::parse(text, kind).body;
    let mut spans: Vec<TextRange> = Vec::new();
    for item in &body.structures {
        let r = match item {
            crate::ast::Structure::Attribute(a) => a.range,
            crate::ast::Structure::Block(b) => b.range,
        };
        if r.start() <= range.end() && range.start() <= r.end() {
            // From the start of its first line, so that its indentation is formatted too.
            let line_start = text[..usize::from(r.start())].rfind('\n').map_or(0, |at| at + 1);
            spans.push(TextRange::new(TextSize::from(line_start as u32), r.end()));
        }
    }
    Ok(all.into_iter().filter(|e| spans.iter().any(|s| s.contains_range(e.range))).collect())
}

/// Line-by-line edits from `old` to `new` when they have as many lines (formatting only changes spaces within
/// lines, but for the rare unwrapped multi-line interpolation), else one edit over the span that differs.
fn diff(old: &str, new: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    if old == new {
        return out;
    }
    let (old_lines, new_lines) = (old.split_inclusive('\n'), new.split_inclusive('\n'));
    if old_lines.clone().count() == new_lines.clone().count() {
        let mut at = 0;
        for (a, b) in old_lines.zip(new_lines) {
            if a != b {
                out.push(trimmed_edit(a, b, at));
            }
            at += a.len();
        }
    } else {
        out.push(trimmed_edit(old, new, 0));
    }
    out
}

/// The edit replacing `old` (at offset `base`) by `new`, without their common start and end.
fn trimmed_edit(old: &str, new: &str, base: usize) -> Edit {
    let mut prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let mut suffix = old_rest.bytes().rev().zip(new_rest.bytes().rev()).take_while(|(a, b)| a == b).count();
    while !old_rest.is_char_boundary(old_rest.len() - suffix) || !new_rest.is_char_boundary(new_rest.len() - suffix) {
        suffix -= 1;
    }
    let start = TextSize::from((base + prefix) as u32);
    let end = TextSize::from((base + old.len() - suffix) as u32);
    Edit { range: TextRange::new(start, end), text: new_rest[..new_rest.len() - suffix].to_owned() }
}

#[cfg(test)]
mod tests;
