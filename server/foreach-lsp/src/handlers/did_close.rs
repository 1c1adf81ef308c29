//! `textDocument/didClose`: the disk is the truth again (the file is re-read, or dropped if it is not on disk).

use std::sync::Arc;

use foreach_analysis::Change;
use tower_lsp_server::ls_types::DidCloseTextDocumentParams;

use crate::convert::uri_to_path;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidCloseTextDocumentParams) {
    let uri = p.text_document.uri;
    if !state.docs.close(&uri) {
        return;
    }
    let Some(path) = uri_to_path(&uri) else { return };
    state
        .apply(move |_, host| {
            host.versions.remove(&path);
            let mut change = Change::default();
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => change.files.push((path.clone(), foreach_load::read_source(path.as_ref()))),
                _ => change.removed_files.push(path),
            }
            change
        })
        .await;
}
