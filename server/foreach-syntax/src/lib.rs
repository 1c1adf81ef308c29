//! The syntax layer of foreach-ls: turns the text of one file into our own span-carrying [`ast`], never failing.
//!
//! It owns everything about *reading* HCL and JSON: hcl-edit, error recovery, BOM handling, the JSON syntax
//! mapping and the line index. It knows nothing of OpenTofu semantics (which blocks mean what), salsa, LSP or IO.

pub mod ast;
mod convert;
mod file_kind;
mod json;
mod line_index;
mod nesting;
mod recovery;
mod scan;

pub use file_kind::FileKind;
pub use line_index::{ColumnEncoding, LineCol, LineIndex};
pub use text_size::{TextRange, TextSize};

/// The result of parsing one file: always a tree (possibly partial) plus the syntax errors found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parse {
    pub body: ast::Body,
    pub errors: Vec<SyntaxError>,
}

/// A syntax error with a precise range in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub range: TextRange,
    pub message: String,
}

/// The UTF-8 byte order mark. Terraform skips it; hcl-edit does not, so we strip it and shift every range by its
/// length, keeping ranges relative to the original text.
const BOM: &str = "\u{feff}";

/// Parses one file. Never fails: syntax errors come back in [`Parse::errors`] next to whatever could be read.
pub fn parse(text: &str, kind: FileKind) -> Parse {
    let (src, base) = strip_bom(text);
    if kind.is_json() { json::parse(src, base, kind) } else { recovery::parse_body(src, base) }
}

/// Parses a standalone expression, such as a CLI `--var` value or an `eval` argument. Ranges are relative to
/// `text`.
pub fn parse_expr(text: &str) -> Result<ast::Expr, SyntaxError> {
    let (src, base) = strip_bom(text);
    match hcl_edit::parser::parse_expr(src) {
        Ok(expr) => Ok(convert::Converter::new(src, base).expr(expr)),
        Err(err) => Err(syntax_error(src, base, &err)),
    }
}

fn strip_bom(text: &str) -> (&str, usize) {
    match text.strip_prefix(BOM) {
        Some(rest) => (rest, BOM.len()),
        None => (text, 0),
    }
}

/// Turns hcl-edit's error into ours: one character at the failing offset (an empty range at the end of the text).
fn syntax_error(src: &str, base: usize, err: &hcl_edit::parser::Error) -> SyntaxError {
    let mut at = err.location().offset().min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    let len = src[at..].chars().next().map_or(0, char::len_utf8);
    let start = TextSize::try_from(base + at).unwrap_or(TextSize::from(u32::MAX));
    let range = TextRange::at(start, TextSize::try_from(len).unwrap_or_default());
    SyntaxError { range, message: format!("syntax error: {}", err.message()) }
}
