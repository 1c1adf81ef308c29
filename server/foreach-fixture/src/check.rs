//! Matching actual diagnostics against a fixture's annotations, exactly and in both directions.
//!
//! The result is a list of [`Problem`]s, each carrying what a human (or `UPDATE_FIXTURES=1`) needs to fix it. The
//! matching is a maximum bipartite matching rather than first-fit, so that two diagnostics on the same range with
//! the same code are paired with the annotations whose message texts they actually contain, whatever the order.

use std::path::{Path, PathBuf};

use crate::actual::ActualDiagnostic;
use crate::annotation::Expectation;
use crate::fixture::Fixture;
use crate::position::Position;
use crate::suggest::{Suggestion, suggest};

/// One way in which a fixture disagrees with the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The fixture (or its `fixture.toml`) could not be read.
    Load { path: PathBuf, message: String },
    /// A malformed annotation, or one that can never match.
    Annotation { file: PathBuf, line: u32, column: u32, message: String },
    /// A diagnostic whose primary range spans lines; those are rejected outright.
    MultiLine { diagnostic: ActualDiagnostic },
    /// A diagnostic no annotation expects. `fix` is the annotation line to add, or why none can be written.
    Unexpected { diagnostic: ActualDiagnostic, fix: Result<Suggestion, String> },
    /// An annotation no diagnostic matches, with the unmatched diagnostics on the same code line (the likely
    /// near-misses: wrong severity, range, code or message).
    Missing { expectation: Expectation, nearby: Vec<ActualDiagnostic> },
}

/// Compares `actual` with the fixture's diagnostic annotations; `value`/`def` annotations are ignored here.
pub(crate) fn check(fixture: &Fixture, actual: &[ActualDiagnostic]) -> Vec<Problem> {
    let expectations = match fixture.expectations() {
        Ok(e) => e,
        Err(e) => {
            return vec![Problem::Annotation { file: e.file, line: e.line, column: e.column, message: e.message }];
        }
    };
    let mut problems = Vec::new();
    for e in &expectations {
        if let Expectation::Diagnostic { file, annotation_line, code, .. } = e
            && fixture.config.disabled_codes.contains(code)
        {
            problems.push(Problem::Annotation {
                file: file.clone(),
                line: *annotation_line,
                column: 0,
                message: format!("`{code}` is in `disabled_codes` of fixture.toml, so this annotation cannot match"),
            });
        }
    }
    if !problems.is_empty() {
        return problems;
    }

    let expected: Vec<&Expectation> =
        expectations.iter().filter(|e| matches!(e, Expectation::Diagnostic { .. })).collect();
    let (single, multi): (Vec<&ActualDiagnostic>, Vec<&ActualDiagnostic>) =
        actual.iter().partition(|d| d.range().is_single_line());
    problems.extend(multi.into_iter().map(|d| Problem::MultiLine { diagnostic: d.clone() }));

    let edges: Vec<Vec<usize>> =
        single.iter().map(|d| (0..expected.len()).filter(|&j| matches(expected[j], d)).collect()).collect();
    let owner = maximum_matching(&edges, expected.len());
    let matched_actual: Vec<bool> = {
        let mut m = vec![false; single.len()];
        owner.iter().flatten().for_each(|&i| m[i] = true);
        m
    };
    let unmatched: Vec<&ActualDiagnostic> =
        single.iter().zip(&matched_actual).filter(|(_, m)| !**m).map(|(d, _)| *d).collect();

    for (j, e) in expected.iter().enumerate() {
        if owner[j].is_none() {
            let nearby = unmatched
                .iter()
                .filter(|d| d.file == e.file() && d.start.line == e.range().start.line)
                .map(|d| (*d).clone())
                .collect();
            problems.push(Problem::Missing { expectation: (*e).clone(), nearby });
        }
    }
    for d in &unmatched {
        // Add `: message` only when another unmatched diagnostic would otherwise be indistinguishable.
        let ambiguous = unmatched
            .iter()
            .any(|o| !std::ptr::eq(*o, *d) && o.file == d.file && o.range() == d.range() && o.label() == d.label());
        let fix = suggest(fixture, d, ambiguous);
        problems.push(Problem::Unexpected { diagnostic: (*d).clone(), fix });
    }
    problems.sort_by_key(sort_key);
    problems
}

fn matches(e: &Expectation, d: &ActualDiagnostic) -> bool {
    let Expectation::Diagnostic { file, range, severity, code, message, .. } = e else { return false };
    file == &d.file
        && *range == d.range()
        && *severity == d.severity
        && *code == d.code
        && message.as_ref().is_none_or(|m| d.message.contains(m.as_str()))
}

/// Kuhn's augmenting paths: `edges[i]` lists the expectations actual `i` may match. Returns, per expectation, the
/// actual paired with it. Fixtures have a handful of diagnostics, so the quadratic worst case never matters.
fn maximum_matching(edges: &[Vec<usize>], n_expected: usize) -> Vec<Option<usize>> {
    fn augment(i: usize, edges: &[Vec<usize>], seen: &mut [bool], owner: &mut [Option<usize>]) -> bool {
        for &j in &edges[i] {
            if !seen[j] {
                seen[j] = true;
                if owner[j].is_none_or(|k| augment(k, edges, seen, owner)) {
                    owner[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; n_expected];
    for i in 0..edges.len() {
        augment(i, edges, &mut vec![false; n_expected], &mut owner);
    }
    owner
}

/// Reports read top to bottom per file, like a compiler's output.
fn sort_key(p: &Problem) -> (PathBuf, Position, u8) {
    match p {
        Problem::Load { path, .. } => (path.clone(), Position::default(), 0),
        Problem::Annotation { file, line, column, .. } => (file.clone(), Position::new(*line, *column), 1),
        Problem::MultiLine { diagnostic: d } => (d.file.clone(), d.start, 2),
        Problem::Missing { expectation: e, .. } => (e.file().to_path_buf(), e.range().start, 3),
        Problem::Unexpected { diagnostic: d, .. } => (d.file.clone(), d.start, 4),
    }
}

impl Problem {
    /// The file the problem is about, relative to the fixture directory (absolute for load errors).
    pub fn file(&self) -> &Path {
        match self {
            Problem::Load { path, .. } => path,
            Problem::Annotation { file, .. } => file,
            Problem::MultiLine { diagnostic } | Problem::Unexpected { diagnostic, .. } => &diagnostic.file,
            Problem::Missing { expectation, .. } => expectation.file(),
        }
    }
}
