//! `textDocument/definition`.

use std::sync::Arc;

use foreach_analysis::ide::FilePosition;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, Files, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
    let p = p.text_document_position_params;
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_analysis(move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let offset = convert::offset(&index, p.position, snap.encoding);
            let files = Files { analysis: a, encoding: snap.encoding };
            let mut out = Vec::new();
            for t in a.goto_definition(FilePosition { file, offset })? {
                if let Some(loc) = files.location(t.file, t.focus_range)? {
                    out.push(loc);
                }
            }
            Ok(if out.is_empty() { None } else { Some(GotoDefinitionResponse::Array(out)) })
        })
        .await
}
