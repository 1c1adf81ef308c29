//! `workspace/symbol`: the top-level blocks of every loaded file matching the query (`ide/workspace_symbols.rs`).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, Files};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
    let query = p.query;
    state
        .with_analysis(move |snap| {
            let a = &snap.analysis;
            let files = Files { analysis: a, encoding: snap.encoding, uris: &snap.uris };
            let mut out = Vec::new();
            for (file, s) in a.workspace_symbols(&query)? {
                let Some(location) = files.location(file, s.selection_range)? else { continue };
                let Some(index) = a.line_index(file)? else { continue };
                let kind = convert::symbol(&index, &s, snap.encoding).kind;
                out.push(WorkspaceSymbol {
                    name: s.name.clone(),
                    kind,
                    tags: None,
                    container_name: None,
                    location: OneOf::Left(location),
                    data: None,
                });
            }
            Ok(Some(WorkspaceSymbolResponse::Nested(out)))
        })
        .await
}
