//! `textDocument/documentHighlight`: the occurrences of the name under the cursor in its file
//! (`ide/highlight.rs`); the declaration is a write, uses are reads.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
    state
        .at_position(p.text_document_position_params, move |snap, pos, index| {
            let found = snap.analysis.document_highlights(pos)?;
            Ok((!found.is_empty()).then(|| {
                found
                    .iter()
                    .map(|h| DocumentHighlight {
                        range: convert::range(index, h.range, snap.encoding),
                        kind: Some(if h.declaration {
                            DocumentHighlightKind::WRITE
                        } else {
                            DocumentHighlightKind::READ
                        }),
                    })
                    .collect()
            }))
        })
        .await
}
