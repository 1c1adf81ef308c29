//! The analysis core of foreach-ls: every piece of OpenTofu semantics lives here.
//!
//! It does no IO and never fails: the CLI and the language server feed file texts in, and read diagnostics, values
//! and IDE answers out. It knows nothing of LSP, tokio or terminals.

pub mod base;
pub mod diagnostics;
pub mod eval;

pub use base::{FileId, FileRange};
pub use diagnostics::{Code, Diagnostic, Related, Severity};
