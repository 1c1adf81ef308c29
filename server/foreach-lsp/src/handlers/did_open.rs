//! `textDocument/didOpen`: the buffer's text overrides the disk from now on. A document in a directory that no
//! indexing listed (outside every workspace folder) has its directory loaded, so that its module is complete.
//! While the workspace is still being indexed, its early lists are published at once (`early.rs`: its directory's own
//! findings, and for a plain root what its own instance decides).
//! Then, in the background, the document is readied for editing (`AnalysisHost::prepare_editing`), so that its
//! first keystrokes cost what later ones do.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::convert::uri_to_path;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidOpenTextDocumentParams) {
    let doc = p.text_document;
    state.docs.open(doc.uri.clone(), &doc.text, doc.version);
    let uri = doc.uri;
    let path = uri_to_path(&uri);
    if let Some(path) = &path {
        state.uris.remember(path.clone(), &uri);
        // Before the text reaches the host: the early lists need only the document store.
        crate::early::spawn(state, uri.clone(), path.clone(), true);
    }
    state
        .apply(move |state, host| {
            let open: Vec<String> = state.docs.uris().iter().filter_map(uri_to_path).collect();
            host.list_document_dirs(&open);
            state.newest_text(&uri, host)
        })
        .await;
    let Some(path) = path else { return };
    let state = Arc::clone(state);
    // Not awaited: the parse (tens of milliseconds for a big generated file) runs without the host, and an edit that
    // arrives meanwhile is parsed as before (the store keeps whichever items are newer).
    drop(tokio::task::spawn_blocking(move || {
        let work = state.lock_host().host.prepare_editing(&path);
        if let Some(work) = work {
            work();
        }
    }));
}
