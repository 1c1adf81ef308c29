//! The failure report: every mismatch as `path:line:col` (1-based, clickable), with the annotation line to paste or
//! the near-misses found, then a one-line summary. Plain text, no colours, so it reads the same in CI logs.

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::actual::ActualDiagnostic;
use crate::annotation::Expectation;
use crate::check::Problem;

/// Why a fixture failed. `Display` is the report to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixtureFailure {
    /// The fixture directory as given (empty for an in-memory fixture).
    pub dir: PathBuf,
    pub problems: Vec<Problem>,
    /// Files `UPDATE_FIXTURES=1` rewrote before giving up on the remaining problems.
    pub updated: Vec<PathBuf>,
}

impl std::error::Error for FixtureFailure {}

impl fmt::Display for FixtureFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.dir.as_os_str().is_empty() { "<in memory>".into() } else { self.dir.display().to_string() };
        writeln!(f, "fixture `{name}` does not match its annotations")?;
        for p in &self.problems {
            writeln!(f)?;
            f.write_str(&self.describe(p))?;
        }
        writeln!(f)?;
        if !self.updated.is_empty() {
            let files: Vec<String> = self.updated.iter().map(|p| p.display().to_string()).collect();
            writeln!(f, "UPDATE_FIXTURES rewrote {}; the problems above are left to fix by hand", files.join(", "))?;
        }
        let count = |pred: fn(&Problem) -> bool| self.problems.iter().filter(|p| pred(p)).count();
        let parts = [
            (count(|p| matches!(p, Problem::Unexpected { .. })), "unexpected"),
            (count(|p| matches!(p, Problem::Missing { .. })), "missing"),
            (count(|p| matches!(p, Problem::MultiLine { .. })), "multi-line"),
            (count(|p| matches!(p, Problem::Annotation { .. })), "invalid annotation"),
            (count(|p| matches!(p, Problem::Load { .. })), "unreadable"),
        ];
        let parts: Vec<String> = parts.iter().filter(|(n, _)| *n > 0).map(|(n, what)| format!("{n} {what}")).collect();
        let n = self.problems.len();
        write!(f, "{n} problem{}: {}", if n == 1 { "" } else { "s" }, parts.join(", "))?;
        if self.updated.is_empty()
            && self
                .problems
                .iter()
                .any(|p| matches!(p, Problem::Unexpected { fix: Ok(_), .. } | Problem::Missing { .. }))
        {
            write!(f, "\nrerun with UPDATE_FIXTURES=1 to rewrite the annotations, then review the diff")?;
        }
        Ok(())
    }
}

impl FixtureFailure {
    fn path(&self, file: &Path) -> String {
        self.dir.join(file).display().to_string()
    }

    fn describe(&self, p: &Problem) -> String {
        let mut s = String::new();
        match p {
            Problem::Load { path, message } => {
                let _ = writeln!(s, "{}: cannot load the fixture: {message}", path.display());
            }
            Problem::Annotation { file, line, column, message } => {
                let _ = writeln!(s, "{}:{}:{}: invalid annotation: {message}", self.path(file), line + 1, column + 1);
            }
            Problem::MultiLine { diagnostic: d } => {
                let _ = writeln!(
                    s,
                    "{}:{}: {} spans lines {}; a primary range must be on one line: {}",
                    self.path(&d.file),
                    d.start,
                    d.label(),
                    d.range(),
                    d.message
                );
            }
            Problem::Unexpected { diagnostic: d, fix } => {
                let _ = writeln!(s, "{}:{}: unexpected {}: {}", self.path(&d.file), d.start, d.label(), d.message);
                match fix {
                    Ok(fix) => {
                        let _ = match fix.under_line {
                            Some(line) => writeln!(s, "  expect it by adding this line under line {}:", line + 1),
                            None => writeln!(s, "  expect it by adding this line at the end of the file:"),
                        };
                        let _ = writeln!(s, "{}", fix.text);
                    }
                    Err(why) => {
                        let _ = writeln!(s, "  it cannot be annotated: {why}");
                    }
                }
            }
            Problem::Missing { expectation, nearby } => {
                let Expectation::Diagnostic { file, range, annotation_line, severity, code, message } = expectation
                else {
                    return s;
                };
                let text = message.as_ref().map(|m| format!(" with message containing \"{m}\"")).unwrap_or_default();
                let _ = writeln!(
                    s,
                    "{}:{}: missing {severity}[{code}] at {range}{text} (annotation on line {})",
                    self.path(file),
                    range.start,
                    annotation_line + 1
                );
                for d in nearby {
                    let _ = writeln!(s, "  found on that line instead: {} at {}: {}", d.label(), d.range(), d.message);
                    let _ = writeln!(s, "    differs in {}", differences(expectation, d));
                }
                if nearby.is_empty() {
                    let _ = writeln!(s, "  no diagnostic was reported on that line");
                }
            }
        }
        s
    }
}

fn differences(e: &Expectation, d: &ActualDiagnostic) -> String {
    let Expectation::Diagnostic { range, severity, code, message, .. } = e else { return String::new() };
    let mut diff = Vec::new();
    if *range != d.range() {
        diff.push("range");
    }
    if *severity != d.severity {
        diff.push("severity");
    }
    if *code != d.code {
        diff.push("code");
    }
    if message.as_ref().is_some_and(|m| !d.message.contains(m.as_str())) {
        diff.push("message");
    }
    diff.join(", ")
}
