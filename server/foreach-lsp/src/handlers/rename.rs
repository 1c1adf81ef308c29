//! `textDocument/prepareRename` and `textDocument/rename`. A refusal (a name used in a JSON file, an invalid new
//! name…) is answered as a request error carrying the analysis's reason, which editors show to the user.
//!
//! A root module's variable is also renamed in the project file's `-var` names (`foreach-ls.toml`, read by the
//! server, not the analysis: `foreach_load::project_rename`), in its open buffer's text when it is open, and in the
//! var files of the project file's environments that apply to its root (the analysis finds the keys in them).

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
    let project = match &state.lock_host().project {
        Some(Ok(p)) if !p.environments.is_empty() => Some(Arc::clone(p)),
        _ => None,
    };
    let project_file = project.as_ref().and_then(|p| {
        let uri = state.uris.uri(&foreach_load::path_string(&p.path))?;
        let text = match state.docs.text(&uri) {
            Some(open) => open.to_string(),
            None => std::fs::read_to_string(&p.path).ok()?,
        };
        Some((Arc::clone(p), uri, text))
    });
    let answer = state
        .at_position(p.text_document_position, move |snap, pos, _| {
            let a = &snap.analysis;
            let edits = match a.rename(pos, &new_name)? {
                Ok(edits) => edits,
                Err(reason) => return Ok(Some(Err(reason))),
            };
            let files = Files { analysis: a, encoding: snap.encoding, uris: &snap.uris };
            let edits_of_analysis: Vec<foreach_analysis::FileRange> = edits.iter().map(|e| e.location).collect();
            let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
            for e in &edits {
                let Some(loc) = files.location(e.location.file, e.location.range)? else { continue };
                changes.entry(loc.uri).or_default().push(TextEdit { range: loc.range, new_text: e.new_text.clone() });
            }
            if let Some((project, uri, text)) = &project_file
                && let Some(var) = a.root_variable(pos)?
            {
                let edits = match foreach_load::project_rename::variable_edits(project, text, &var, &new_name) {
                    Ok(edits) => edits,
                    Err(reason) => return Ok(Some(Err(reason))),
                };
                let index = foreach_syntax::LineIndex::new(text);
                for (r, new_text) in edits {
                    let r = foreach_syntax::TextRange::new((r.start as u32).into(), (r.end as u32).into());
                    let range = convert::range(&index, r, snap.encoding);
                    changes.entry(uri.clone()).or_default().push(TextEdit { range, new_text });
                }
                // The environments' var files: the analysis finds the keys; a file the rename already edits (one
                // below the root) is edited once.
                for file in foreach_load::project_rename::var_files(project, &var) {
                    let keys = match a.var_file_assignments(&file.path, &var.name)? {
                        Ok(keys) => keys,
                        Err(reason) => return Ok(Some(Err(reason))),
                    };
                    if let (false, Some(reason)) = (keys.is_empty(), file.refusal(&var)) {
                        return Ok(Some(Err(reason)));
                    }
                    for key in keys.into_iter().filter(|k| !edits_of_analysis.contains(k)) {
                        let Some(loc) = files.location(key.file, key.range)? else { continue };
                        changes
                            .entry(loc.uri)
                            .or_default()
                            .push(TextEdit { range: loc.range, new_text: new_name.clone() });
                    }
                }
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
