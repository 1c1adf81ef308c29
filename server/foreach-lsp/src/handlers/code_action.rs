//! `textDocument/codeAction`: the analysis's quick fixes for the diagnostics in the requested range, and the
//! refactorings on the block there (converting aliased providers into one `for_each` provider).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, Files, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: CodeActionParams) -> Result<Option<CodeActionResponse>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let range = convert::text_range(&index, p.range, snap.encoding);
            let files = Files { analysis: a, encoding: snap.encoding, uris: &snap.uris };
            let mut out = Vec::new();
            for assist in a.code_actions(file, range)? {
                if let Some(action) = files.code_action(&assist)? {
                    out.push(CodeActionOrCommand::CodeAction(action));
                }
            }
            for refactor in a.migrate_refactors(file, range)? {
                if let Some(action) = files.refactor_action(&refactor)? {
                    out.push(CodeActionOrCommand::CodeAction(action));
                }
            }
            Ok(Some(out))
        })
        .await
}
