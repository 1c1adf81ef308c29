//! Test-only support: loads fixture directories, parses the inline `# ^^^ error[code]` annotations and compares
//! them with the diagnostics the analysis produces, in both directions.
//!
//! The grammar and the rules are specified in `testdata/README.md`; this crate is their only implementation. It is
//! independent of how diagnostics are produced: callers run the analysis themselves and pass the results in as
//! [`ActualDiagnostic`]s (plain data: path, severity, code, message, character positions), so the harness never
//! changes when the analysis does.
//!
//! ```no_run
//! # use foreach_fixture::*;
//! # fn analyse(_: &Fixture) -> Vec<ActualDiagnostic> { Vec::new() }
//! # let dir = std::path::Path::new("testdata/provider-for-each/unknown-key");
//! let fixture = Fixture::load(dir).unwrap();
//! let actual = analyse(&fixture);
//! if let Err(failure) = check_fixture(dir, &actual) {
//!     panic!("{failure}");
//! }
//! ```

mod actual;
mod annotation;
mod check;
mod fixture;
mod markdown;
mod position;
mod report;
mod suggest;
mod update;

use std::path::Path;

pub use actual::ActualDiagnostic;
pub use annotation::{AnnotationError, Expectation, SEVERITIES, parse_annotations};
pub use check::Problem;
pub use fixture::{Fixture, FixtureConfig, FixtureFile, LoadError, discover_fixtures};
pub use markdown::markdown_hcl_blocks;
pub use position::{Position, Range};
pub use report::FixtureFailure;
pub use suggest::Suggestion;

/// Whether a failing check rewrites the annotations (`UPDATE_FIXTURES=1`) or only reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Check,
    Update,
}

impl Mode {
    /// `Update` when `UPDATE_FIXTURES` is set to anything but empty or `0`.
    pub fn from_env() -> Mode {
        match std::env::var_os("UPDATE_FIXTURES") {
            Some(v) if !v.is_empty() && v != "0" => Mode::Update,
            _ => Mode::Check,
        }
    }
}

/// Checks the fixture in `dir` against `actual`, in the mode `UPDATE_FIXTURES` selects. `Ok` when every diagnostic
/// matches an annotation and every diagnostic annotation a diagnostic (or, in update mode, when the rewrite fixed
/// every mismatch).
pub fn check_fixture(dir: &Path, actual: &[ActualDiagnostic]) -> Result<(), FixtureFailure> {
    check_fixture_in(dir, actual, Mode::from_env())
}

/// [`check_fixture`] with an explicit mode (tests cannot safely set environment variables).
pub fn check_fixture_in(dir: &Path, actual: &[ActualDiagnostic], mode: Mode) -> Result<(), FixtureFailure> {
    let fail = |problems, updated| Err(FixtureFailure { dir: dir.to_path_buf(), problems, updated });
    let fixture = match Fixture::load(dir) {
        Ok(f) => f,
        Err(e) => return fail(vec![Problem::Load { path: e.path, message: e.message }], Vec::new()),
    };
    let problems = check::check(&fixture, actual);
    if problems.is_empty() {
        return Ok(());
    }
    if mode == Mode::Check {
        return fail(problems, Vec::new());
    }
    match update::update(&fixture, problems) {
        Ok((updated, remaining)) if remaining.is_empty() => {
            // Passing silently would hide that files changed; test output shows this with `--nocapture` or on failure.
            for file in &updated {
                eprintln!("UPDATE_FIXTURES: rewrote the annotations of {}", dir.join(file).display());
            }
            Ok(())
        }
        Ok((updated, remaining)) => fail(remaining, updated),
        Err(e) => {
            fail(vec![Problem::Load { path: dir.to_path_buf(), message: format!("rewriting failed: {e}") }], Vec::new())
        }
    }
}

impl Fixture {
    /// Checks an already loaded (possibly in-memory) fixture; never rewrites anything.
    pub fn check(&self, actual: &[ActualDiagnostic]) -> Result<(), FixtureFailure> {
        let problems = check::check(self, actual);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(FixtureFailure { dir: self.dir.clone(), problems, updated: Vec::new() })
        }
    }
}
