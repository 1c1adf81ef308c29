//! `textDocument/references`: the uses of a provider configuration.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::Files;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: ReferenceParams) -> Result<Option<Vec<Location>>> {
    let include_declaration = p.context.include_declaration;
    let p = p.text_document_position;
    state
        .at_position(p, move |snap, pos, _| {
            let a = &snap.analysis;
            let files = Files { analysis: a, encoding: snap.encoding, uris: &snap.uris };
            let mut out = Vec::new();
            for r in a.references(pos, include_declaration)? {
                if let Some(loc) = files.location(r.file, r.range)? {
                    out.push(loc);
                }
            }
            Ok(if out.is_empty() { None } else { Some(out) })
        })
        .await
}
