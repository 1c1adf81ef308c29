//! `workspace/didChangeWorkspaceFolders`: folders added or removed at runtime. The workspace is re-read with the
//! new folders (the modules of added ones are indexed, those of removed ones dropped), and diagnostics are
//! republished: files that are gone get an empty list, which clears them in the editor.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeWorkspaceFoldersParams;

use crate::state::{Root, State};

pub async fn run(state: &Arc<State>, p: DidChangeWorkspaceFoldersParams) {
    let changed = {
        let mut roots = state.roots.write().unwrap_or_else(|e| e.into_inner());
        let before = roots.clone();
        let removed: Vec<Root> = p.event.removed.iter().filter_map(Root::of_folder).collect();
        roots.retain(|r| !removed.iter().any(|x| x.path == r.path));
        for added in p.event.added.iter().filter_map(Root::of_folder) {
            if !roots.iter().any(|r| r.path == added.path) {
                roots.push(added);
            }
        }
        *roots != before
    };
    if changed {
        // The new folders may have settings of their own.
        crate::pull_config::pull(state).await;
        crate::workspace::index(state).await;
    }
}
