//! `textDocument/signatureHelp`: the built-in function call around the cursor.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::state::State;

pub async fn run(state: &Arc<State>, p: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
    state
        .at_position(p.text_document_position_params, move |snap, pos, _| {
            let Some(h) = snap.analysis.signature_help(pos)? else { return Ok(None) };
            let parameters = h
                .params
                .iter()
                .map(|p| ParameterInformation { label: ParameterLabel::Simple(p.clone()), documentation: None })
                .collect();
            Ok(Some(SignatureHelp {
                signatures: vec![SignatureInformation {
                    label: h.label,
                    documentation: Some(Documentation::MarkupContent(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: h.documentation,
                    })),
                    parameters: Some(parameters),
                    active_parameter: Some(h.active_param as u32),
                }],
                active_signature: Some(0),
                active_parameter: Some(h.active_param as u32),
            }))
        })
        .await
}
