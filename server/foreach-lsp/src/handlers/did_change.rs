//! `textDocument/didChange`: applies incremental (or full) changes to the rope in version order, then sends the
//! newest text to the analysis. While the workspace is being indexed, the document's directory-local findings are
//! published again for the new text (`early.rs`).

use std::sync::Arc;
use std::time::Duration;

use tower_lsp_server::ls_types::DidChangeTextDocumentParams;

use crate::documents::EditOutcome;
use crate::state::State;

/// How long changes that arrived ahead of a missing version wait before being applied anyway.
const GAP_TIMEOUT: Duration = Duration::from_millis(200);

pub async fn run(state: &Arc<State>, p: DidChangeTextDocumentParams) {
    let uri = p.text_document.uri;
    match state.docs.change(&uri, p.text_document.version, p.content_changes, state.encoding()) {
        EditOutcome::Applied { .. } => {
            crate::test_hooks::late_sync(state.test_hooks, &state.docs, &uri).await;
            refresh_early(state, &uri);
            state.sync_document(uri).await
        }
        EditOutcome::Waiting => {
            let s = Arc::clone(state);
            state.spawn_background(async move {
                tokio::time::sleep(GAP_TIMEOUT).await;
                if let EditOutcome::Applied { .. } = s.docs.flush_pending(&uri, s.encoding()) {
                    refresh_early(&s, &uri);
                    s.sync_document(uri).await;
                }
            });
        }
        EditOutcome::Ignored if !state.docs.is_open(&uri) => {
            tracing::warn!("ignored a didChange for {}, which is not open (no didOpen came before it)", uri.as_str())
        }
        EditOutcome::Ignored => tracing::debug!("ignored a stale or repeated didChange for {}", uri.as_str()),
    }
}

/// The early findings for the new text, while the workspace is being indexed (`early::spawn` does nothing after).
fn refresh_early(state: &Arc<State>, uri: &tower_lsp_server::ls_types::Uri) {
    if let Some(path) = crate::convert::uri_to_path(uri) {
        crate::early::spawn(state, uri.clone(), path, false);
    }
}
