//! `textDocument/didOpen`: the buffer's text overrides the disk from now on.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidOpenTextDocumentParams) {
    let doc = p.text_document;
    state.docs.open(doc.uri.clone(), &doc.text, doc.version);
    state.sync_document(doc.uri).await;
}
