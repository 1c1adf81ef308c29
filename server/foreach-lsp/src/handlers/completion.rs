//! `textDocument/completion`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::ls_types::*;

use crate::convert;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: CompletionParams) -> Result<Option<CompletionResponse>> {
    let p = p.text_document_position;
    let snippets = state.caps().snippets;
    state
        .at_position(p, move |snap, pos, index| {
            let a = &snap.analysis;
            let list = a.completion_list(pos)?;
            if list.items.is_empty() {
                return Ok(None);
            }
            let items = list.items;
            // The analysis orders items (instance keys as OpenTofu orders them); clients sort by `sortText`.
            let items = items
                .iter()
                .enumerate()
                .map(|(n, i)| lsp::CompletionItem {
                    sort_text: Some(format!("{n:04}")),
                    ..convert::completion_item(index, i, snap.encoding, snippets)
                })
                .collect();
            if list.is_incomplete {
                // Cut to the best matches of what is typed: the client asks again as typing goes on.
                return Ok(Some(CompletionResponse::List(lsp::CompletionList { is_incomplete: true, items })));
            }
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
}
