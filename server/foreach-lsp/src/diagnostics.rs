//! Pushing diagnostics: after each change the whole workspace's diagnostics are computed from a snapshot (salsa
//! re-runs only what the change touched), grouped by file, and published for every file whose list changed,
//! including files that are not open and files whose problems were fixed (an empty list clears them). Open
//! documents' lists carry the version they were computed for.
//!
//! When to publish: a change that follows a quiet moment (no other change within the debounce time) is published
//! at once, so a single keystroke is answered as fast as the analysis allows; a burst of changes (typing, a
//! search-and-replace, a branch switch) waits for `debounceMs` of quiet (at most 50 ms) and is published once. A
//! change arriving while diagnostics are being computed cancels that computation (salsa), so starting at once
//! never delays the newer change.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_ide::Cancellable;
use foreach_load::environments::{self, Finding};
use foreach_load::project::{Project, ProjectError};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{self as lsp, Uri};

use crate::config::Config;
use crate::convert::{ClientUris, Files, uri_to_path};
use crate::state::{Snapshot, State};

/// One file's diagnostics, ready to send.
pub struct FileDiagnostics {
    pub uri: Uri,
    pub version: Option<i32>,
    pub items: Vec<lsp::Diagnostic>,
}

/// The publishing loop; runs for the server's lifetime.
pub async fn run(state: Arc<State>) {
    let mut done = 0;
    loop {
        state.publisher.notify.notified().await;
        let generation = loop {
            let (generation, wait) = state.publisher.next(state.config().debounce());
            if wait.is_zero() {
                break generation;
            }
            tokio::time::sleep(wait).await;
        };
        // A wake-up left by a change that the previous round already covered.
        if generation == done {
            continue;
        }
        if state.config().pull_diagnostics && state.caps().pull_diagnostics {
            let _ = state.client.workspace_diagnostic_refresh().await;
            done = generation;
            continue;
        }
        if publish_once(&state).await {
            done = generation;
        }
    }
}

/// Computes and sends; false when a newer change cancelled the computation (that change has scheduled another
/// round).
async fn publish_once(state: &Arc<State>) -> bool {
    // Before the first indexing nothing is computed, and the lists `early.rs` published must stay.
    if state.lock_host().listed_dirs.is_none() {
        return true;
    }
    let Ok((all, versions)) = compute_all(state).await else {
        return false;
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
    true
}

/// Every file's diagnostics in LSP form, and the document versions they were computed for. With environments in
/// the project file, the workspace is checked once per environment and the findings merged as `check` merges
/// them (`foreach_load::environments`): that runs under the host lock, since it changes the settings input, and
/// so cannot be cancelled by an edit (which waits for it).
pub async fn compute_all(state: &Arc<State>) -> Result<(Vec<FileDiagnostics>, HashMap<String, i32>)> {
    let config = state.config();
    let project = state.lock_host().project.clone();
    let with_environments = match &project {
        Some(Ok(p)) if !p.environments.is_empty() => Some(Arc::clone(p)),
        _ => None,
    };
    match with_environments {
        None => {
            state
                .with_analysis(move |snap| {
                    let findings: Vec<Finding> =
                        snap.analysis.diagnostics()?.iter().cloned().map(Finding::everywhere).collect();
                    Ok((compute(snap, &config, project.as_ref(), &findings)?, snap.versions.clone()))
                })
                .await
        }
        Some(p) => {
            state
                .with_host(
                    move |host| {
                        let envs = environments::selected(&p, None);
                        environments::check(host, &p, &envs).unwrap_or_else(|e| {
                            tracing::warn!("cannot check the environments: {}", e.0);
                            host.diagnostics().into_iter().map(Finding::everywhere).collect()
                        })
                    },
                    move |snap, findings| {
                        Ok((compute(snap, &config, project.as_ref(), &findings)?, snap.versions.clone()))
                    },
                )
                .await
        }
    }
}

/// `findings` per file in LSP form, with the severity overrides of the project file and then of the editor's
/// settings applied, and the project file's own error if it has one. Only files in listed directories (see
/// [`crate::state::Host::listed_dirs`]); nothing before the first indexing.
pub fn compute(
    snap: &Snapshot,
    config: &Config,
    project: Option<&std::result::Result<Arc<Project>, ProjectError>>,
    findings: &[Finding],
) -> Cancellable<Vec<FileDiagnostics>> {
    let Some(listed) = &snap.listed_dirs else { return Ok(Vec::new()) };
    let files = Files { analysis: &snap.analysis, encoding: snap.encoding, uris: &snap.uris };
    let mut out: Vec<FileDiagnostics> = Vec::new();
    if let Some(Err(e)) = project {
        out.extend(project_error(e, &snap.uris));
    }
    let project = project.and_then(|p| p.as_ref().ok());
    let mut i = 0;
    while i < findings.len() {
        let file = findings[i].diagnostic.location.file;
        let end =
            findings[i..].iter().position(|f| f.diagnostic.location.file != file).map_or(findings.len(), |n| i + n);
        let group = &findings[i..end];
        i = end;
        let Some(path) = snap.analysis.file_path(file)? else { continue };
        if !path.rsplit_once('/').is_some_and(|(dir, _)| listed.contains(dir)) {
            continue;
        }
        let Some(uri) = snap.uris.uri(&path) else { continue };
        let Some(index) = snap.analysis.line_index(file)? else { continue };
        let mut items = Vec::new();
        for f in group {
            let mut d = std::borrow::Cow::Borrowed(&f.diagnostic);
            if let Some(p) = project
                && !p.override_severity(d.to_mut())
            {
                continue;
            }
            let Some(severity) = config.severity_for(d.code.as_str(), d.severity) else { continue };
            let mut item = files.diagnostic(&index, &d)?;
            item.severity = Some(crate::convert::severity(severity));
            if !f.environments.is_empty() {
                item.message = format!("({}) {}", f.environments.join(", "), item.message);
            }
            items.push(item);
        }
        if !items.is_empty() {
            out.push(FileDiagnostics { uri, version: snap.versions.get(&path).copied(), items });
        }
    }
    Ok(out)
}

/// A project file that cannot be used, as an error on the file where it goes wrong.
fn project_error(e: &ProjectError, uris: &ClientUris) -> Option<FileDiagnostics> {
    let uri = uris.uri(&foreach_load::path_string(&e.path))?;
    let at = lsp::Position { line: e.line.saturating_sub(1) as u32, character: e.column.saturating_sub(1) as u32 };
    let end = lsp::Position { line: at.line, character: at.character + 1 };
    let item = lsp::Diagnostic {
        range: lsp::Range { start: at, end },
        severity: Some(lsp::DiagnosticSeverity::ERROR),
        source: Some("foreach-ls".to_string()),
        message: format!("{}; foreach-ls ignores this project file until it is fixed", e.message),
        ..lsp::Diagnostic::default()
    };
    Some(FileDiagnostics { uri, version: None, items: vec![item] })
}
