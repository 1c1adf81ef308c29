//! What every layer of foreach-ls shares, below the evaluator and the analysis: which file ([`FileId`]), which range
//! in it ([`FileRange`]), the one diagnostic type with the registry of its stable codes ([`Diagnostic`], [`Code`]),
//! and closest-name suggestions ("did you mean").
//!
//! It depends on the syntax layer only, for text ranges and file kinds, and must never depend on salsa, on the
//! evaluator or on the analysis: they all build on it.

pub mod base;
pub mod diagnostics;
pub mod suggest;

pub use base::{FileId, FileRange, FileText};
pub use diagnostics::{Code, Diagnostic, Fix, Related, Severity, TextEdit};
