//! `workspace/didChangeWatchedFiles`: files edited, created or deleted outside the editor (a `prod.tfvars`
//! changed by a script) update the analysis. Open documents keep their buffer text.

use std::sync::Arc;

use foreach_analysis::Change;
use tower_lsp_server::ls_types::{DidChangeWatchedFilesParams, FileChangeType};

use crate::convert::uri_to_path;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidChangeWatchedFilesParams) {
    let mut events = Vec::new();
    for e in p.changes {
        if state.docs.is_open(&e.uri) {
            continue;
        }
        if let Some(path) = uri_to_path(&e.uri) {
            events.push((path, e.typ == FileChangeType::DELETED));
        }
    }
    if events.is_empty() {
        return;
    }
    state
        .apply(move |_, _| {
            let mut change = Change::default();
            for (path, deleted) in events {
                if deleted || !std::path::Path::new(&path).is_file() {
                    change.removed_files.push(path);
                } else {
                    let text = foreach_load::read_text(path.as_ref());
                    change.files.push((path, text));
                }
            }
            change
        })
        .await;
}
