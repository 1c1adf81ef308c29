//! `textDocument/didOpen`: the buffer's text overrides the disk from now on. A document in a directory that no
//! indexing listed (outside every workspace folder) has its directory loaded, so that its module is complete.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::convert::uri_to_path;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidOpenTextDocumentParams) {
    let doc = p.text_document;
    state.docs.open(doc.uri.clone(), &doc.text, doc.version);
    let uri = doc.uri;
    state
        .apply(move |state, host| {
            let open: Vec<String> = state.docs.uris().iter().filter_map(uri_to_path).collect();
            host.list_document_dirs(&open);
            state.newest_text(&uri, host)
        })
        .await;
}
