//! `textDocument/formatting` and `textDocument/rangeFormatting`: the canonical style of `tofu fmt`
//! (`foreach_syntax::format`, `docs/formatting.md`) as small edits of the open document's text.
//!
//! A document with a syntax error gets no edits (as `tofu fmt` leaves such a file alone; the diagnostics already
//! say where the error is). JSON and non-OpenTofu files get none either. A range formats the whole top-level blocks
//! and attributes it touches.

use std::sync::Arc;

use foreach_syntax::FileKind;
use foreach_syntax::format::{self, Edit};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn document(state: &Arc<State>, p: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
    Ok(edits(state, &p.text_document.uri, None))
}

pub async fn range(state: &Arc<State>, p: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
    Ok(edits(state, &p.text_document.uri, Some(p.range)))
}

fn edits(state: &State, uri: &Uri, range: Option<Range>) -> Option<Vec<TextEdit>> {
    let path = uri_to_path(uri)?;
    let name = path.rsplit(['/', '\\']).next().unwrap_or_default();
    let kind = FileKind::from_file_name(name).filter(|k| !k.is_json())?;
    let text = state.docs.text(uri)?;
    let index = foreach_syntax::LineIndex::new(&text);
    let enc = state.encoding();
    let result = match range {
        None => format::edits(&text, kind),
        Some(r) => format::range_edits(&text, kind, convert::text_range(&index, r, enc)),
    };
    let edits: Vec<Edit> = result.ok()?;
    Some(
        edits.into_iter().map(|e| TextEdit { range: convert::range(&index, e.range, enc), new_text: e.text }).collect(),
    )
}
