//! `textDocument/foldingRange`: whole-line folds from the analysis (`ide/folding.rs`).

use std::sync::Arc;

use foreach_ide::FoldKind;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::uri_to_path;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let folds = a.folding_ranges(file)?;
            Ok(Some(
                folds
                    .iter()
                    .map(|f| FoldingRange {
                        start_line: f.start_line,
                        end_line: f.end_line,
                        kind: Some(match f.kind {
                            FoldKind::Comment => FoldingRangeKind::Comment,
                            FoldKind::Region => FoldingRangeKind::Region,
                        }),
                        ..FoldingRange::default()
                    })
                    .collect(),
            ))
        })
        .await
}
