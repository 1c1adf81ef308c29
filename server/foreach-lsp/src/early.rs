//! The first diagnostics of a document opened while the workspace is being indexed.
//!
//! Nothing is published before the first indexing is installed (`diagnostics::compute`): a document's siblings are
//! missing until then, and a finding shown then withdrawn is worse than none. But a big workspace takes a second
//! to index, and a user who opens a file wants its mistakes at once. So `didOpen` (an editor restoring its files
//! opens them the same way) loads the document's own directory alone, beside the indexing, and publishes the
//! findings that directory's files decide by themselves (`foreach_analysis::checks::DIR_LOCAL_CODES`: syntax
//! errors, duplicates, undeclared references, ...), which the full index reports unchanged. Everything that needs
//! the callers or the modules called (instance values, provider keys, module outputs) waits for the index.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use foreach_analysis::AnalysisHost;
use foreach_load::environments::Finding;
use tower_lsp_server::ls_types::Uri;

use crate::convert::uri_to_path;
use crate::state::{Snapshot, State};

/// Publishes the directory-local findings of the open document `uri` (at `path`), unless the index is installed
/// first or the document changes meanwhile. Runs in the background.
pub fn spawn(state: &Arc<State>, uri: Uri, path: String) {
    if state.lock_host().listed_dirs.is_some() || (state.config().pull_diagnostics && state.caps().pull_diagnostics) {
        return;
    }
    let s = Arc::clone(state);
    state.spawn_background(async move {
        let Some(version) = s.docs.version(&uri) else { return };
        let computing = Arc::clone(&s);
        let (for_uri, for_path) = (uri.clone(), path.clone());
        let items = tokio::task::spawn_blocking(move || compute(&computing, &for_uri, &for_path)).await;
        let Ok(Some(items)) = items else { return };
        let mut published = s.publisher.published.lock().await;
        // Checked under the lock the publishing loop holds while it sends: once the index is installed, its own
        // round is the one to publish, and a list for an older text would be wrong.
        if s.lock_host().listed_dirs.is_some() || s.docs.version(&uri) != Some(version) || published.contains_key(&uri)
        {
            return;
        }
        if !items.is_empty() {
            s.client.publish_diagnostics(uri.clone(), items.clone(), Some(version)).await;
        }
        published.insert(uri, items);
    });
}

/// The document's directory-local findings in LSP form, as `diagnostics::compute` would give them (the project
/// file's and the settings' severities applied); `None` when they cannot be told apart from the rest (a project
/// file with environments, whose findings are merged per environment) or the directory is not there.
fn compute(state: &State, uri: &Uri, path: &str) -> Option<Vec<tower_lsp_server::ls_types::Diagnostic>> {
    let (dir, _) = path.rsplit_once('/')?;
    let dir = if dir.is_empty() { "/" } else { dir };
    let roots = state.roots.read().unwrap_or_else(|e| e.into_inner()).clone();
    let project = crate::workspace::discover_project(&roots);
    if matches!(&project, Some(Ok(p)) if !p.environments.is_empty()) {
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
    let skip: HashSet<String> = open.iter().map(|(p, _)| p.clone()).collect();
    let mut change = foreach_load::directory_change(Path::new(dir), &skip);
    if change.dirs.is_empty() {
        return None;
    }
    change.files.extend(open.into_iter().map(|(p, text)| (p, Ok(text.into()))));
    let mut host = AnalysisHost::new();
    host.apply_change(change);
    let findings: Vec<Finding> = host.dir_local_diagnostics(dir).into_iter().map(Finding::everywhere).collect();
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
