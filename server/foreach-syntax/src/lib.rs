//! The syntax layer of foreach-ls: turns the text of one file into our own span-carrying [`ast`], never failing.
//!
//! It owns everything about *reading* HCL and JSON: hcl-edit, error recovery, BOM handling, the JSON syntax
//! mapping and the line index. It knows nothing of OpenTofu semantics (which blocks mean what), salsa, LSP or IO.

pub mod ast;
mod file_kind;

pub use file_kind::FileKind;
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
