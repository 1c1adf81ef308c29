//! `textDocument/documentLink`: module `source` strings link to the local module's main file or the registry page
//! (`ide/document_links.rs`).

use std::sync::Arc;

use foreach_ide::LinkTarget;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, uri_to_path};
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
    let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
    state
        .with_document(p.text_document.uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let links = a.document_links(file)?;
            let out = links
                .iter()
                .filter_map(|l| {
                    let target = match &l.target {
                        LinkTarget::File(p) => snap.uris.uri(p)?,
                        LinkTarget::Url(u) => u.parse().ok()?,
                    };
                    Some(DocumentLink {
                        range: convert::range(&index, l.range, snap.encoding),
                        target: Some(target),
                        tooltip: None,
                        data: None,
                    })
                })
                .collect();
            Ok(Some(out))
        })
        .await
}
