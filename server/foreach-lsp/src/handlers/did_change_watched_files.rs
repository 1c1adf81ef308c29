//! `workspace/didChangeWatchedFiles`: files edited, created or deleted outside the editor (a `prod.tfvars`
//! changed by a script) update the analysis; open documents keep their buffer text. A state file that changed (a
//! `tofu apply` wrote `terraform.tfstate`) is read again for the roots that use it (`state_files::refresh`). A
//! changed `.terraform/environment`, `.terraform/modules/modules.json` or `foreach-ls.toml` re-indexes the
//! workspace.

use std::collections::HashSet;
use std::sync::Arc;

use foreach_analysis::Change;
use tower_lsp_server::ls_types::{DidChangeWatchedFilesParams, FileChangeType};

use crate::convert::uri_to_path;
use crate::state::State;
use crate::state_files::canonical_file;

pub async fn run(state: &Arc<State>, p: DidChangeWatchedFilesParams) {
    let mut events = Vec::new();
    // Every path named, as given and canonical (state file paths are compared with the analysis's canonical ones).
    let mut changed = HashSet::new();
    for e in p.changes {
        let Some(path) = uri_to_path(&e.uri) else { continue };
        changed.insert(canonical_file(path.as_ref()));
        changed.insert(path.clone());
        if !state.docs.is_open(&e.uri) {
            events.push((path, e.typ == FileChangeType::DELETED));
        }
    }
    if changed.is_empty() {
        return;
    }
    // A workspace selected or modules installed (`tofu workspace select`, `tofu init`): both are read when the
    // workspace is loaded, and either can change every root's values and tree, so everything is loaded again.
    // The project file changes excludes, environments and severities: load everything again too.
    if changed.iter().any(|p| crate::watch::is_init_file(p) || crate::watch::is_project_file(p)) {
        crate::workspace::index(state).await;
        return;
    }
    let s = Arc::clone(state);
    let result = tokio::task::spawn_blocking(move || {
        let mut change = Change::default();
        for (path, deleted) in events {
            if deleted || !std::path::Path::new(&path).is_file() {
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
