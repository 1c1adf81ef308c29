//! `textDocument/documentSymbol`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let symbols = a.document_symbols(file)?;
            let out = symbols.iter().map(|s| convert::symbol(&index, s, snap.encoding)).collect();
            Ok(Some(DocumentSymbolResponse::Nested(out)))
        })
        .await
}
