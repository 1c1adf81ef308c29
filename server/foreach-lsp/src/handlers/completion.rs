//! `textDocument/completion`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: CompletionParams) -> Result<Option<CompletionResponse>> {
    let p = p.text_document_position;
    state
        .at_position(p, move |snap, pos, index| {
            let a = &snap.analysis;
            let items = a.completions(pos)?;
            if items.is_empty() {
                return Ok(None);
            }
            let items = items.iter().map(|i| convert::completion_item(index, i, snap.encoding)).collect();
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
}
