//! The first diagnostics of a document opened while the workspace is being indexed.
//!
//! Nothing is published before the first indexing is installed (`diagnostics::compute`): a document's siblings are
//! missing until then, and a finding shown then withdrawn is worse than none. But a big workspace takes a second
//! to index, and a user who opens a file wants its mistakes at once. So `didOpen` (an editor restoring its files
//! opens them the same way) loads the document's own directory alone, beside the indexing, and publishes the
//! findings that directory's files decide by themselves (`foreach_analysis::checks::DIR_LOCAL_CODES`: syntax
//! errors, duplicates, undeclared references, ...), which the full index reports unchanged. Everything that needs
//! the callers or the modules called (instance values, provider keys, module outputs) waits for the index. An edit
//! while indexing publishes the list again for the new text (`didChange`). With environments in the project file the
//! list is the one their merge shows (every pass reports the same directory-local findings), unless an environment
//! is limited to some roots: which passes check a module then depends on its callers, and nothing is published early.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use foreach_analysis::AnalysisHost;
use foreach_load::environments::{self, Finding};
use tower_lsp_server::ls_types::Uri;

use crate::convert::uri_to_path;
use crate::state::{Snapshot, State};

/// Publishes the directory-local findings of the open document `uri` (at `path`) for its newest text, unless the
/// index is installed first. Called by `didOpen` and by every `didChange` while the workspace is being indexed; runs
/// in the background, one computation per document at a time: one that ends after the text changed starts again
/// for the newest text, so a list for an older text is never published over a newer one.
pub fn spawn(state: &Arc<State>, uri: Uri, path: String) {
    if indexed(state) || (state.config().pull_diagnostics && state.caps().pull_diagnostics) {
        return;
    }
    if !running(state).insert(uri.clone()) {
        // The running computation sees the new version when it ends, and starts again.
        return;
    }
    let s = Arc::clone(state);
    state.spawn_background(async move {
        let (version, items) = loop {
            let version = s.docs.version(&uri);
            let computing = Arc::clone(&s);
            let (for_uri, for_path) = (uri.clone(), path.clone());
            let items = match version {
                Some(_) => tokio::task::spawn_blocking(move || compute(&computing, &for_uri, &for_path)).await,
                None => Ok(None),
            };
            // Decided under the lock `spawn` inserts under, after `didChange` stored the new version: either this
            // loop sees that version, or the next `spawn` finds no computation running and starts one.
            let mut guard = running(&s);
            if version.is_some() && s.docs.version(&uri) != version && !indexed(&s) {
                continue;
            }
            guard.remove(&uri);
            break (version, items);
        };
        let (Some(version), Ok(Some(items))) = (version, items) else { return };
        let mut published = s.publisher.published.lock().await;
        // Checked under the lock the publishing loop holds while it sends: once the index is installed, its own
        // round is the one to publish, and a list for an older text would be wrong.
        if indexed(&s) || s.docs.version(&uri) != Some(version) {
            return;
        }
        if published.get(&uri).map_or(!items.is_empty(), |before| *before != items) {
            s.client.publish_diagnostics(uri.clone(), items.clone(), Some(version)).await;
        }
        published.insert(uri, items);
    });
}

/// Whether the first indexing is installed (from then on the publishing loop publishes everything).
fn indexed(state: &State) -> bool {
    state.lock_host().listed_dirs.is_some()
}

fn running(state: &State) -> std::sync::MutexGuard<'_, HashSet<Uri>> {
    state.early_running.lock().unwrap_or_else(|e| e.into_inner())
}

/// The document's directory-local findings in LSP form, as `diagnostics::compute` would give them (the project
/// file's and the settings' severities applied, merged across its environments); `None` when the environments'
/// tags cannot be known before the module tree is (an environment limited to some roots), or the directory is not
/// there.
fn compute(state: &State, uri: &Uri, path: &str) -> Option<Vec<tower_lsp_server::ls_types::Diagnostic>> {
    let (dir, _) = path.rsplit_once('/')?;
    let dir = if dir.is_empty() { "/" } else { dir };
    let roots = state.roots.read().unwrap_or_else(|e| e.into_inner()).clone();
    let project = crate::workspace::discover_project(&roots);
    let environments: Vec<&str> = match &project {
        Some(Ok(p)) => p.environments.iter().map(|e| e.name.as_str()).collect(),
        _ => Vec::new(),
    };
    // An environment limited to some roots checks only the modules those roots call, so whether a module's finding
    // is tagged with it depends on who calls the module: known only once the whole tree is.
    if matches!(&project, Some(Ok(p)) if p.environments.iter().any(|e| e.roots.is_some())) {
        return None;
    }
    // The open documents of the directory keep their editor text; the rest is read from disk.
    let open: Vec<(String, Arc<str>)> = state
        .docs
        .all()
        .into_iter()
        .filter_map(|(u, text, _)| Some((uri_to_path(&u)?, text)))
        .filter(|(p, _)| p.rsplit_once('/').is_some_and(|(d, _)| d == dir))
        .collect();
    // A text too large to analyse while editing is not analysed here either (`State::analysable`).
    if open.iter().any(|(_, text)| text.len() > crate::state::MAX_ANALYSED_BYTES) {
        return None;
    }
    let skip: HashSet<String> = open.iter().map(|(p, _)| p.clone()).collect();
    let mut change = foreach_load::directory_change(Path::new(dir), &skip);
    if change.dirs.is_empty() {
        return None;
    }
    change.files.extend(open.into_iter().map(|(p, text)| (p, Ok(text.into()))));
    let mut host = AnalysisHost::new();
    host.apply_change(change);
    let local = host.dir_local_diagnostics(dir);
    let findings: Vec<Finding> = if environments.is_empty() {
        local.into_iter().map(Finding::everywhere).collect()
    } else {
        // Every environment applies to every root, and a directory-local finding does not depend on the values:
        // each pass of `environments::check` reports the same list for this directory, merged as it merges them.
        environments::merge(vec![local; environments.len()], &environments)
    };
    let snap = Snapshot {
        analysis: foreach_ide::Analysis::of(&host),
        versions: Default::default(),
        listed_dirs: Some(Arc::new(HashSet::from([dir.to_string()]))),
        encoding: state.encoding(),
        uris: state.uris.clone(),
    };
    let all = crate::diagnostics::compute(&snap, &state.config(), project.as_ref(), &findings).ok()?;
    Some(all.into_iter().find(|f| f.uri == *uri).map(|f| f.items).unwrap_or_default())
}
