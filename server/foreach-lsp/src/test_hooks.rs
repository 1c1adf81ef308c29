//! Test-only hooks, off unless the server is started with them (`FOREACH_LS_TEST_HOOKS=1` for the binary,
//! [`crate::ServeOptions::test_hooks`] in process). They let the reliability tests observe and disturb the server
//! from outside without any effect on normal use (`docs/reliability.md`):
//!
//! - the custom request `foreach-ls/documentText` answers the text and version the server holds for an open
//!   document, so a soak test can compare it with the text it expects after thousands of edits;
//! - a position request (hover, completion, ...) on a document containing [`PANIC_MARKER`] panics inside the
//!   analysis closure, and one containing [`SLOW_MARKER`] sleeps there, to test crash isolation and cancellation;
//! - a `didChange` that leaves [`LATE_SYNC_MARKER`] in a document reaches the analysis [`LATE_SYNC`] late, as on a
//!   loaded machine, to test that a request sent after it still answers from the new text;
//! - indexing a workspace folder that holds a file named [`SLOW_INDEX_MARKER`] takes [`SLOW`] longer, to test
//!   what the server does while a big workspace is still being indexed; one that holds [`SLOW_EVALUATION_MARKER`]
//!   takes [`SLOW`] longer after loading it, to test what is published once it is loaded; one that holds
//!   [`HELD_INDEX_MARKER`] stops after loading until the test removes that file (or [`HELD_AT_MOST`] has passed),
//!   so that a test can tell what was published before the workspace was loaded;
//! - the custom request `foreach-ls/lensComputations` answers how many times the instance lenses of a root module
//!   were computed (`foreach_ide::lens_computations`), so a test can check that a request without a change in
//!   between reuses the previous answer.
//!
//! Without the hooks the request answers `MethodNotFound` and the markers are ordinary text.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{TextDocumentIdentifier, Uri};

use crate::documents::Documents;

pub const DOCUMENT_TEXT: &str = "foreach-ls/documentText";
pub const LENS_COMPUTATIONS: &str = "foreach-ls/lensComputations";
pub const PANIC_MARKER: &str = "__foreach_ls_test_panic__";
pub const SLOW_MARKER: &str = "__foreach_ls_test_slow__";
pub const SLOW_INDEX_MARKER: &str = ".foreach-ls-test-slow-index";
pub const SLOW_EVALUATION_MARKER: &str = ".foreach-ls-test-slow-evaluation";
pub const HELD_INDEX_MARKER: &str = ".foreach-ls-test-held-index";
/// How long indexing waits at most for a test to remove [`HELD_INDEX_MARKER`].
pub const HELD_AT_MOST: Duration = Duration::from_secs(60);
pub const LATE_SYNC_MARKER: &str = "__foreach_ls_test_late_sync__";
/// How late a change leaving [`LATE_SYNC_MARKER`] reaches the analysis.
pub const LATE_SYNC: Duration = Duration::from_millis(300);
/// How long a request on a document with [`SLOW_MARKER`] takes.
pub const SLOW: Duration = Duration::from_secs(5);

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentTextParams {
    pub text_document: TextDocumentIdentifier,
}

#[derive(Debug, Serialize)]
pub struct DocumentText {
    pub text: String,
    pub version: i32,
}

/// Each hook takes whether the hooks are on (`State::test_hooks`) and what it reads, not the server state: the
/// state calls the hooks, so they must not depend on it.
pub fn document_text(enabled: bool, docs: &Documents, p: DocumentTextParams) -> Result<Option<DocumentText>> {
    if !enabled {
        return Err(Error::method_not_found());
    }
    let uri = &p.text_document.uri;
    Ok(docs.text(uri).zip(docs.version(uri)).map(|(text, version)| DocumentText { text: text.to_string(), version }))
}

#[derive(Debug, Deserialize)]
pub struct LensComputationsParams {
    /// The root module's directory.
    pub root: Uri,
}

/// Turns on the counting of lens computations (for the whole process: the counts are kept by root directory, so
/// servers of tests running side by side in other directories do not disturb each other).
pub fn start_counting(enabled: bool) {
    if enabled {
        foreach_ide::count_lens_computations();
    }
}

pub fn lens_computations(enabled: bool, p: LensComputationsParams) -> Result<usize> {
    if !enabled {
        return Err(Error::method_not_found());
    }
    let root = crate::convert::uri_to_path(&p.root).ok_or_else(|| Error::invalid_params("not a file URI"))?;
    Ok(foreach_ide::lens_computations(&root))
}

/// What a position request on `uri` must do before answering, decided on the async side (the document store is
/// not part of the analysis snapshot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disturbance {
    None,
    Panic,
    Slow,
}

pub fn disturbance(enabled: bool, docs: &Documents, uri: &Uri) -> Disturbance {
    if !enabled {
        return Disturbance::None;
    }
    match docs.text(uri) {
        Some(t) if t.contains(PANIC_MARKER) => Disturbance::Panic,
        Some(t) if t.contains(SLOW_MARKER) => Disturbance::Slow,
        _ => Disturbance::None,
    }
}

/// Runs inside the analysis closure, on the blocking thread, where a real analysis bug would panic.
pub fn disturb(d: Disturbance) {
    match d {
        Disturbance::None => {}
        Disturbance::Panic => panic!("test hook: forced panic in a request's analysis"),
        Disturbance::Slow => std::thread::sleep(SLOW),
    }
}

/// Runs on the indexing thread once the workspace is loaded, before anything of it is published.
pub fn slow_index<'a>(enabled: bool, root_paths: impl Iterator<Item = &'a std::path::Path>) {
    if !enabled {
        return;
    }
    let roots: Vec<&std::path::Path> = root_paths.collect();
    if roots.iter().any(|p| p.join(SLOW_INDEX_MARKER).exists()) {
        std::thread::sleep(SLOW);
    }
    let held = |p: &&std::path::Path| p.join(HELD_INDEX_MARKER).exists();
    let started = std::time::Instant::now();
    while roots.iter().any(held) && started.elapsed() < HELD_AT_MOST {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs on the indexing thread once the workspace is loaded and its open documents' lists are sent, before the
/// rest is evaluated.
pub fn slow_evaluation<'a>(enabled: bool, mut root_paths: impl Iterator<Item = &'a std::path::Path>) {
    if enabled && root_paths.any(|p| p.join(SLOW_EVALUATION_MARKER).exists()) {
        std::thread::sleep(SLOW);
    }
}

/// Runs in `didChange` before the new text goes to the analysis.
pub async fn late_sync(enabled: bool, docs: &Documents, uri: &Uri) {
    if enabled && docs.text(uri).is_some_and(|t| t.contains(LATE_SYNC_MARKER)) {
        tokio::time::sleep(LATE_SYNC).await;
    }
}
