//! A diagnostic as the analysis produced it, in the fixture's terms: what the matching (`check.rs`) and the
//! suggested rewrites (`suggest.rs`) both read.

use std::path::PathBuf;

use crate::position::{Position, Range};

/// A diagnostic as the analysis produced it, in the fixture's terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ActualDiagnostic {
    /// Relative to the fixture directory, e.g. `main.tf` or `modules/child/main.tf`.
    pub file: PathBuf,
    /// `error`, `warning`, `info` or `hint`.
    pub severity: String,
    /// The kebab-case code.
    pub code: String,
    pub message: String,
    /// 0-based line, 0-based column in characters.
    pub start: Position,
    /// Exclusive.
    pub end: Position,
}

impl ActualDiagnostic {
    pub fn new(
        file: impl Into<PathBuf>,
        severity: impl Into<String>,
        code: impl Into<String>,
        message: impl Into<String>,
        range: Range,
    ) -> ActualDiagnostic {
        ActualDiagnostic {
            file: file.into(),
            severity: severity.into(),
            code: code.into(),
            message: message.into(),
            start: range.start,
            end: range.end,
        }
    }

    pub fn range(&self) -> Range {
        Range::new(self.start, self.end)
    }

    /// `error[code]`, as annotations write it.
    pub fn label(&self) -> String {
        format!("{}[{}]", self.severity, self.code)
    }
}
