//! Files changed on disk, as the client reports them (`workspace/didChangeWatchedFiles`), brought into the analysis.
//!
//! Events are queued, not applied one notification at a time: a branch switch changes hundreds of files at once,
//! and clients report them in one notification or in many. One drain task at a time takes everything queued once
//! the events pause for [`SETTLE`] (at most [`MAX_WAIT`] after the first of them) and applies it in one go:
//! - a few files changed, created or deleted in directories already loaded are read again, and the states that use
//!   them refreshed (`state_files::refresh`);
//! - a storm (more than [`STORM`] files), an OpenTofu file created in a directory not loaded yet, a directory gone,
//!   or a file the loader reads with the workspace (`.terraform/environment`, `modules.json`, `foreach-ls.toml`)
//!   re-indexes the workspace (`workspace::index`): the new tree is loaded by the same loader as `check`, off the host
//!   lock while edits go on being answered from the old one, and swapped in whole, so what is published next is what
//!   `check` reports on the new tree. Reading 1,000 files one by one into the live analysis instead held every
//!   keystroke's diagnostics behind the whole workspace's.
//!
//! Open documents keep their buffer text either way: the editor's text wins until it is saved and closed.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use foreach_analysis::Change;
use tower_lsp_server::ls_types::{FileChangeType, FileEvent};

use crate::convert::uri_to_path;
use crate::state::State;
use crate::state_files::canonical_file;

/// How long the events must pause before they are applied.
pub const SETTLE: Duration = Duration::from_millis(20);
/// The longest the first queued event waits while more keep coming.
pub const MAX_WAIT: Duration = Duration::from_millis(250);
/// More files than this in one batch are a storm: the workspace is indexed again rather than patched file by file.
pub const STORM: usize = 64;

/// Queues the events of one notification and makes sure a drain task runs.
pub fn push(state: &Arc<State>, changes: Vec<FileEvent>) {
    let start = {
        let mut p = state.file_events.inner.lock().unwrap_or_else(|e| e.into_inner());
        for e in changes {
            let Some(path) = uri_to_path(&e.uri) else {
                tracing::debug!("ignored a file event for a URI that is not a file: {}", e.uri.as_str());
                continue;
            };
            p.events.insert(path, (e.typ == FileChangeType::DELETED, e.uri));
        }
        if p.events.is_empty() {
            return;
        }
        let now = Instant::now();
        p.first.get_or_insert(now);
        p.last = Some(now);
        !std::mem::replace(&mut p.draining, true)
    };
    if start {
        let s = Arc::clone(state);
        state.spawn_background(drain(s));
    }
}

/// Applies queued events, a batch at a time, until the queue is empty.
async fn drain(state: Arc<State>) {
    loop {
        loop {
            let wake = {
                let p = state.file_events.inner.lock().unwrap_or_else(|e| e.into_inner());
                match (p.first, p.last) {
                    (Some(first), Some(last)) => (last + SETTLE).min(first + MAX_WAIT),
                    _ => break,
                }
            };
            if Instant::now() >= wake {
                break;
            }
            tokio::time::sleep_until(wake.into()).await;
        }
        let batch = {
            let mut p = state.file_events.inner.lock().unwrap_or_else(|e| e.into_inner());
            if p.events.is_empty() {
                p.draining = false;
                return;
            }
            p.first = None;
            p.last = None;
            std::mem::take(&mut p.events)
        };
        apply(&state, batch).await;
    }
}

/// Why a batch needs the workspace indexed again, if it does.
fn reindex_reason(state: &State, batch: &HashMap<String, (bool, tower_lsp_server::ls_types::Uri)>) -> Option<String> {
    if state.roots.read().unwrap_or_else(|e| e.into_inner()).is_empty() {
        // No folder to index: files opened one by one are patched.
        return None;
    }
    if let Some(p) = batch.keys().find(|p| crate::watch::is_init_file(p) || crate::watch::is_project_file(p)) {
        return Some(format!("{p} changed"));
    }
    if batch.len() > STORM {
        return Some(format!("{} files changed on disk at once", batch.len()));
    }
    let host = state.lock_host();
    // Before the first indexing nothing is listed: there is nothing to compare with.
    host.listed_dirs.as_ref()?;
    for (path, (deleted, _)) in batch {
        let Some((dir, name)) = path.rsplit_once('/') else { continue };
        if foreach_syntax::FileKind::from_file_name(name).is_none() {
            continue;
        }
        let canonical_dir = canonical_file(Path::new(path)).rsplit_once('/').map(|(d, _)| d.to_string());
        let listed = host.is_listed(dir) || canonical_dir.as_deref().is_some_and(|d| host.is_listed(d));
        if *deleted && listed && !Path::new(dir).is_dir() {
            return Some(format!("the directory {dir} was removed"));
        }
        if !deleted && !listed {
            return Some(format!("{path} was created in a directory not loaded yet"));
        }
    }
    None
}

async fn apply(state: &Arc<State>, batch: HashMap<String, (bool, tower_lsp_server::ls_types::Uri)>) {
    if let Some(why) = reindex_reason(state, &batch) {
        tracing::info!("{why}: indexing the workspace again");
        crate::workspace::index(state).await;
        return;
    }
    // Every path named, as given and canonical (state file paths are compared with the analysis's canonical ones).
    let mut changed = HashSet::new();
    let mut events = Vec::new();
    for (path, (deleted, uri)) in batch {
        changed.insert(canonical_file(path.as_ref()));
        changed.insert(path.clone());
        if state.docs.is_open(&uri) {
            tracing::debug!("{path} changed on disk while open: the editor's text is kept");
        } else {
            events.push((path, deleted));
        }
    }
    let s = Arc::clone(state);
    let result = tokio::task::spawn_blocking(move || {
        let mut change = Change::default();
        for (path, deleted) in events {
            if deleted || !Path::new(&path).is_file() {
                change.removed_files.push(path);
            } else {
                let text = foreach_load::read_source(path.as_ref());
                change.files.push((path, text));
            }
        }
        crate::state_files::refresh(&s, change, &changed);
    })
    .await;
    if let Err(e) = result {
        tracing::error!("applying files changed on disk failed: {e}");
    }
    state.publisher.schedule();
}
