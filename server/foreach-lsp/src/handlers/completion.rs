//! `textDocument/completion`.

use std::sync::Arc;

use foreach_analysis::ide::FilePosition;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: CompletionParams) -> Result<Option<CompletionResponse>> {
    let p = p.text_document_position;
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_analysis(move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let offset = convert::offset(&index, p.position, snap.encoding);
            let items = a.completions(FilePosition { file, offset })?;
            if items.is_empty() {
                return Ok(None);
            }
            let items = items.iter().map(|i| convert::completion_item(&index, i, snap.encoding)).collect();
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
}
