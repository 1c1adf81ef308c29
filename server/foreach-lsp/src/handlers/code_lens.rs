//! `textDocument/codeLens`: on each `for_each`/`count` line whose instances differ from the state's, `3 instances ·
//! 1 not in state · 2 would be destroyed` (`foreach_ide::Analysis::instance_lenses`). Its command,
//! `foreach-ls.listInstances`, lists them (`workspace/executeCommand`, below): the server shows them in a message,
//! so no client-side code is needed.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

/// The command of the lenses.
pub const LIST_INSTANCES: &str = "foreach-ls.listInstances";

pub async fn run(state: &Arc<State>, p: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let lenses = a
                .instance_lenses(file)?
                .into_iter()
                .map(|l| CodeLens {
                    range: convert::range(&index, l.range, snap.encoding),
                    command: Some(Command {
                        title: l.title.clone(),
                        command: LIST_INSTANCES.to_string(),
                        arguments: Some(vec![serde_json::json!(l.title), serde_json::json!(l.instances)]),
                    }),
                    data: None,
                })
                .collect();
            Ok(Some(lenses))
        })
        .await
}

/// `workspace/executeCommand` of [`LIST_INSTANCES`]: the lens's title and instances, one a line, in a message.
pub async fn execute(state: &Arc<State>, p: ExecuteCommandParams) -> Result<Option<LSPAny>> {
    if p.command != LIST_INSTANCES {
        return Ok(None);
    }
    let title = p.arguments.first().and_then(|t| t.as_str()).unwrap_or_default().to_string();
    let instances: Vec<String> = p
        .arguments
        .get(1)
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let message = std::iter::once(title).chain(instances).collect::<Vec<_>>().join("\n");
    state.client.show_message(MessageType::INFO, message).await;
    Ok(None)
}
