//! `textDocument/definition`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::Files;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
    let p = p.text_document_position_params;
    state
        .at_position(p, move |snap, pos, _| {
            let a = &snap.analysis;
            let files = Files { analysis: a, encoding: snap.encoding, uris: &snap.uris };
            let mut out = Vec::new();
            for t in a.goto_definition(pos)? {
                if let Some(loc) = files.location(t.file, t.focus_range)? {
                    out.push(loc);
                }
            }
            Ok(if out.is_empty() { None } else { Some(GotoDefinitionResponse::Array(out)) })
        })
        .await
}
