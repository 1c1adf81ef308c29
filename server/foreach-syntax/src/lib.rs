//! The syntax layer of foreach-ls: turns the text of one file into our own span-carrying [`ast`], never failing.
//!
//! It owns everything about *reading* HCL and JSON: the direct parser of valid files (`direct`), hcl-edit for the
//! rest and for every error, error recovery, BOM handling, the JSON syntax mapping, the line index and the
//! formatter. It knows nothing of OpenTofu semantics (which blocks mean what),
//! salsa, LSP or IO, and must never depend on another crate of the workspace but its hcl-edit fork: it is the
//! bottom layer.

pub mod ast;
mod convert;
mod direct;
mod file_kind;
pub mod format;
mod heredoc;
mod json;
mod line_index;
mod nesting;
mod packed;
mod packed_range;
mod quote;
mod recovery;
mod reuse;
mod reuse_inside;
mod scan;
mod shift;
mod strings;

#[doc(hidden)]
pub use direct::testing as parsers_for_tests;
pub use file_kind::FileKind;
pub use line_index::{ColumnEncoding, LineCol, LineIndex};
pub use packed::PackedExpr;
pub use quote::quote;
pub use reuse::{ItemCache, parse_reusing};
pub use text_size::{TextRange, TextSize};

/// The result of parsing one file: always a tree (possibly partial) plus the syntax errors found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parse {
    /// Everything that could be read, in source order (with recovery, a partial tree).
    pub body: ast::Body,
    /// Every syntax error, sorted by position; empty exactly when the file is valid.
    pub errors: Vec<SyntaxError>,
}

/// A syntax error with a precise range in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The offending token: one character, or an empty range at a line end or the end of the text (an error range
    /// never spans lines), never a whole block.
    pub range: TextRange,
    /// Lower-case, in our words, possibly followed by the parser's expectation (`expected `]``).
    pub message: String,
}

/// The UTF-8 byte order mark. Terraform skips it; hcl-edit does not, so we strip it and shift every range by its
/// length, keeping ranges relative to the original text.
pub(crate) const BOM: &str = "\u{feff}";

/// Parses one file. Never fails: syntax errors come back in [`Parse::errors`] next to whatever could be read.
pub fn parse(text: &str, kind: FileKind) -> Parse {
    let (src, base) = strip_bom(text);
    if kind.is_json() { json::parse(src, base, kind) } else { recovery::parse_body(src, base) }
}

/// Parses a standalone expression, such as a CLI `--var` value or an `eval` argument. Ranges are relative to
/// `text`.
pub fn parse_expr(text: &str) -> Result<ast::Expr, SyntaxError> {
    let (src, base) = strip_bom(text);
    if src.trim().is_empty() {
        let at = TextSize::try_from(text.len()).unwrap_or_default();
        return Err(SyntaxError { range: TextRange::empty(at), message: "expected an expression".to_owned() });
    }
    // Terraform allows whitespace and newlines around a standalone expression (`-var 'x=[1,\n2]\n'`); hcl-edit
    // does not, so parse the trimmed text and keep offsets relative to `text`.
    let trimmed = src.trim_start();
    let base = base + (src.len() - trimmed.len());
    let src = trimmed.trim_end();
    match hcl_edit::parser::parse_expr(src) {
        Ok(expr) => Ok(convert::Converter::new(src, base).expr(expr)),
        // hcl-edit bounds its own recursion, so the naive bracket count (which also counts brackets inside
        // strings) only words the error; it must never reject an expression that parses.
        Err(_) if let Some(at) = nesting::too_deep(src, recovery::MAX_NESTING) => {
            let start = TextSize::try_from(base + at).unwrap_or_default();
            let message = "nested too deeply: more than 256 levels of brackets".to_owned();
            Err(SyntaxError { range: TextRange::at(start, TextSize::from(1)), message })
        }
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
    let len = token_len(src, at);
    let start = TextSize::try_from(base + at).unwrap_or(TextSize::from(u32::MAX));
    let range = TextRange::at(start, TextSize::try_from(len).unwrap_or_default());
    let message = match (err.message(), src[at..].chars().next()) {
        // hcl-edit backtracks out of a half-typed traversal and then complains about what follows the valid part.
        ("expected newline or eof", Some('.')) => {
            "incomplete traversal: expected an attribute name, `*` or an index after `.`".to_owned()
        }
        ("expected newline or eof", Some('[')) => {
            "incomplete index: expected an expression or `*` and a closing `]`".to_owned()
        }
        ("expected newline or eof", _) => "unexpected text: expected a newline after the end of the item".to_owned(),
        (message, _) => format!("syntax error: {message}"),
    };
    SyntaxError { range, message }
}

/// The length of the character at `at`, the range an error there covers. A line break or the end of the text gives
/// an empty range instead, so that an error range never spans two lines.
pub(crate) fn token_len(src: &str, at: usize) -> usize {
    match src.get(at..).and_then(|rest| rest.chars().next()) {
        Some('\n' | '\r') | None => 0,
        Some(c) => c.len_utf8(),
    }
}
