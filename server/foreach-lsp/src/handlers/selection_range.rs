//! `textDocument/selectionRange`: the analysis's chains of enclosing ranges (`ide/selection.rs`) as linked
//! `SelectionRange`s. A position outside every item gets an empty range at the position.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    let positions = p.positions;
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let offsets: Vec<_> = positions.iter().map(|pos| convert::offset(&index, *pos, snap.encoding)).collect();
            let chains = a.selection_ranges(file, &offsets)?;
            let out = chains
                .iter()
                .zip(&positions)
                .map(|(chain, pos)| {
                    // Built from the outermost inwards, each range the parent of the next.
                    let mut current: Option<SelectionRange> = None;
                    for r in chain.iter().rev() {
                        current = Some(SelectionRange {
                            range: convert::range(&index, *r, snap.encoding),
                            parent: current.map(Box::new),
                        });
                    }
                    current.unwrap_or(SelectionRange { range: Range { start: *pos, end: *pos }, parent: None })
                })
                .collect();
            Ok(Some(out))
        })
        .await
}
