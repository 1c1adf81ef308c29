//! Pushing diagnostics: after each change (debounced, a few milliseconds of quiet, never more than 50), the whole
//! workspace's diagnostics are computed from a snapshot (salsa re-runs only what the change touched), grouped by
//! file, and published for every file whose list changed, including files that are not open and files whose
//! problems were fixed (an empty list clears them). Open documents' lists carry the version they were computed for.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use foreach_analysis::Cancellable;
use tokio::sync::Notify;
use tower_lsp_server::ls_types::{self as lsp, Uri};

use crate::config::Config;
use crate::convert::{Files, path_to_uri, uri_to_path};
use crate::state::{Snapshot, State};

#[derive(Default)]
pub struct Publisher {
    generation: AtomicU64,
    notify: Notify,
    published: tokio::sync::Mutex<HashMap<Uri, Vec<lsp::Diagnostic>>>,
}

/// One file's diagnostics, ready to send.
pub struct FileDiagnostics {
    pub uri: Uri,
    pub version: Option<i32>,
    pub items: Vec<lsp::Diagnostic>,
}

impl Publisher {
    /// Asks for diagnostics to be recomputed once the changes stop.
    pub fn schedule(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_one();
    }
}

/// The publishing loop; runs for the server's lifetime.
pub async fn run(state: Arc<State>) {
    loop {
        state.publisher.notify.notified().await;
        loop {
            let seen = state.publisher.generation.load(Ordering::SeqCst);
            tokio::time::sleep(state.config().debounce()).await;
            if state.publisher.generation.load(Ordering::SeqCst) == seen {
                break;
            }
        }
        if state.config().pull_diagnostics && state.caps().pull_diagnostics {
            let _ = state.client.workspace_diagnostic_refresh().await;
            continue;
        }
        publish_once(&state).await;
    }
}

async fn publish_once(state: &Arc<State>) {
    let config = state.config();
    let Ok((all, versions)) =
        state.with_analysis(move |snap| Ok((compute(snap, &config)?, snap.versions.clone()))).await
    else {
        // Cancelled by a newer change, which has scheduled another round.
        return;
    };
    let mut published = state.publisher.published.lock().await;
    let mut fresh: HashMap<Uri, Vec<lsp::Diagnostic>> = HashMap::new();
    for fd in all {
        if published.get(&fd.uri) != Some(&fd.items) {
            state.client.publish_diagnostics(fd.uri.clone(), fd.items.clone(), fd.version).await;
        }
        fresh.insert(fd.uri, fd.items);
    }
    for uri in published.keys() {
        if !fresh.contains_key(uri) {
            let version = uri_to_path(uri).and_then(|p| versions.get(&p).copied());
            state.client.publish_diagnostics(uri.clone(), Vec::new(), version).await;
        }
    }
    *published = fresh;
}

/// Every file's diagnostics in LSP form, with severity overrides applied.
pub fn compute(snap: &Snapshot, config: &Config) -> Cancellable<Vec<FileDiagnostics>> {
    let diags = snap.analysis.diagnostics()?;
    let files = Files { analysis: &snap.analysis, encoding: snap.encoding };
    let mut out: Vec<FileDiagnostics> = Vec::new();
    let mut i = 0;
    while i < diags.len() {
        let file = diags[i].location.file;
        let end = diags[i..].iter().position(|d| d.location.file != file).map_or(diags.len(), |n| i + n);
        let group = &diags[i..end];
        i = end;
        let Some(path) = snap.analysis.file_path(file)? else { continue };
        let Some(uri) = path_to_uri(&path) else { continue };
        let Some(index) = snap.analysis.line_index(file)? else { continue };
        let mut items = Vec::new();
        for d in group {
            let Some(severity) = config.severity_for(d.code.as_str(), d.severity) else { continue };
            let mut item = files.diagnostic(&index, d)?;
            item.severity = Some(crate::convert::severity(severity));
            items.push(item);
        }
        if !items.is_empty() {
            out.push(FileDiagnostics { uri, version: snap.versions.get(&path).copied(), items });
        }
    }
    Ok(out)
}
