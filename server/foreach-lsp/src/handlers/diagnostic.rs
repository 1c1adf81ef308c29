//! `textDocument/diagnostic` (pull diagnostics, when the client supports them and `pullDiagnostics` is set).

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::uri_to_path;
use crate::diagnostics::compute_all;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
    let uri = p.text_document.uri;
    let path = uri_to_path(&uri);
    // The answer must reflect the edits sent before this request, which may still be on their way to the host.
    // Caught up without scheduling diagnostics: in pull mode a scheduled round asks the client to pull again.
    let s = Arc::clone(state);
    let caught_up = uri.clone();
    if let Err(e) = tokio::task::spawn_blocking(move || s.catch_up(&caught_up)).await {
        tracing::error!("bringing the analysis up to date failed: {e}");
    }
    let (all, _) = compute_all(state).await?;
    let items = match path {
        Some(_) => all.into_iter().find(|f| f.uri == uri).map(|f| f.items).unwrap_or_default(),
        None => Vec::new(),
    };
    Ok(DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
        related_documents: None,
        full_document_diagnostic_report: FullDocumentDiagnosticReport { result_id: None, items },
    })))
}
