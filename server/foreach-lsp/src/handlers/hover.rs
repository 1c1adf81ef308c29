//! `textDocument/hover`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: HoverParams) -> Result<Option<Hover>> {
    let p = p.text_document_position_params;
    if let Some(project) = state.environments() {
        let per_env = state
            .at_position_per_environment(project, p.clone(), |a, pos, index, encoding| {
                Ok(a.hover(pos)?.map(|h| (h.markdown, convert::range(index, h.range, encoding))))
            })
            .await?;
        if let Some(answers) = per_env {
            return Ok(merge(answers));
        }
    }
    state
        .at_position(p, move |snap, pos, index| {
            let a = &snap.analysis;
            let Some(h) = a.hover(pos)? else { return Ok(None) };
            Ok(Some(Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: h.markdown }),
                range: Some(convert::range(index, h.range, snap.encoding)),
            }))
        })
        .await
}

/// One hover from the hovers of each environment: the same text once, else each environment's under its name (the
/// instance keys and evaluated arguments differ between them).
fn merge(answers: Vec<(String, (String, Range))>) -> Option<Hover> {
    let (_, (_, range)) = answers.first()?;
    let range = *range;
    let value = if answers.iter().all(|(_, (m, _))| *m == answers[0].1.0) {
        answers[0].1.0.clone()
    } else {
        answers.iter().map(|(env, (m, _))| format!("**{env}**\n\n{m}")).collect::<Vec<_>>().join("\n\n---\n\n")
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
        range: Some(range),
    })
}
