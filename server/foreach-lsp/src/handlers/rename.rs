//! `textDocument/prepareRename` and `textDocument/rename`. A refusal (a name used in a JSON file, an invalid new
//! name…) is answered as a request error carrying the analysis's reason, which editors show to the user.

use std::collections::HashMap;
use std::sync::Arc;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use crate::convert::{self, Files};
use crate::state::State;

pub async fn prepare(state: &Arc<State>, p: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
    let answer = state
        .at_position(p, move |snap, pos, index| {
            Ok(Some(snap.analysis.prepare_rename(pos)?.map(|r| convert::range(index, r, snap.encoding))))
        })
        .await?;
    match answer {
        None => Ok(None),
        Some(Ok(range)) => Ok(Some(PrepareRenameResponse::Range(range))),
        Some(Err(reason)) => Err(refused(reason)),
    }
}

pub async fn run(state: &Arc<State>, p: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let new_name = p.new_name;
    let answer = state
        .at_position(p.text_document_position, move |snap, pos, _| {
            let a = &snap.analysis;
            let edits = match a.rename(pos, &new_name)? {
                Ok(edits) => edits,
                Err(reason) => return Ok(Some(Err(reason))),
            };
            let files = Files { analysis: a, encoding: snap.encoding };
            let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
            for e in &edits {
                let Some(loc) = files.location(e.location.file, e.location.range)? else { continue };
                changes.entry(loc.uri).or_default().push(TextEdit { range: loc.range, new_text: e.new_text.clone() });
            }
            Ok(Some(Ok(WorkspaceEdit { changes: Some(changes), ..Default::default() })))
        })
        .await?;
    match answer {
        None => Ok(None),
        Some(Ok(edit)) => Ok(Some(edit)),
        Some(Err(reason)) => Err(refused(reason)),
    }
}

fn refused(reason: String) -> Error {
    Error { code: tower_lsp_server::jsonrpc::ErrorCode::InvalidRequest, message: reason.into(), data: None }
}
