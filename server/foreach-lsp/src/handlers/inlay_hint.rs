//! `textDocument/inlayHint`: evaluated provider instance keys; for a client without code lenses, the instance
//! lenses too (`3 instances · 1 not in state` at the end of the `for_each` line, `code_lens.rs`).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    let lenses_as_hints = !state.caps().code_lens;
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let range = convert::text_range(&index, p.range, snap.encoding);
            let lenses = if lenses_as_hints { a.instance_lenses(file)? } else { Vec::new() };
            let lens_hints = lenses
                .into_iter()
                .map(|l| foreach_ide::InlayHint { offset: l.range.end(), label: format!(" {}", l.title) });
            let hints = a
                .inlay_hints(file)?
                .into_iter()
                .chain(lens_hints)
                .filter(|h| range.contains_inclusive(h.offset))
                .map(|h| InlayHint {
                    position: convert::position(&index, h.offset, snap.encoding),
                    label: InlayHintLabel::String(h.label),
                    kind: None,
                    text_edits: None,
                    tooltip: None,
                    padding_left: None,
                    padding_right: None,
                    data: None,
                })
                .collect();
            Ok(Some(hints))
        })
        .await
}
