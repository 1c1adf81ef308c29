//! `textDocument/hover`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: HoverParams) -> Result<Option<Hover>> {
    let p = p.text_document_position_params;
    state
        .at_position(p, move |snap, pos, index| {
            let a = &snap.analysis;
            let Some(h) = a.hover(pos)? else { return Ok(None) };
            Ok(Some(Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: h.markdown }),
                range: Some(convert::range(index, h.range, snap.encoding)),
            }))
        })
        .await
}
