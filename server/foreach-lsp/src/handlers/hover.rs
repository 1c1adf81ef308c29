//! `textDocument/hover`.

use std::sync::Arc;

use foreach_analysis::ide::FilePosition;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: HoverParams) -> Result<Option<Hover>> {
    let p = p.text_document_position_params;
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_analysis(move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let offset = convert::offset(&index, p.position, snap.encoding);
            let Some(h) = a.hover(FilePosition { file, offset })? else { return Ok(None) };
            Ok(Some(Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: h.markdown }),
                range: Some(convert::range(&index, h.range, snap.encoding)),
            }))
        })
        .await
}
