//! `textDocument/completion`.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::ls_types::*;

use crate::convert;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: CompletionParams) -> Result<Option<CompletionResponse>> {
    let p = p.text_document_position;
    let snippets = state.caps().snippets;
    if let Some(project) = state.environments() {
        let per_env = state
            .at_position_per_environment(project, p.clone(), move |a, pos, index, encoding| {
                let list = a.completion_list(pos)?;
                let items: Vec<lsp::CompletionItem> =
                    list.items.iter().map(|i| convert::completion_item(index, i, encoding, snippets)).collect();
                Ok(Some((items, list.is_incomplete)))
            })
            .await?;
        if let Some(answers) = per_env {
            return Ok(union(answers));
        }
    }
    state
        .at_position(p, move |snap, pos, index| {
            let a = &snap.analysis;
            let list = a.completion_list(pos)?;
            if list.items.is_empty() {
                return Ok(None);
            }
            let items = list.items;
            // The analysis orders items (instance keys as OpenTofu orders them); clients sort by `sortText`.
            let items = items
                .iter()
                .enumerate()
                .map(|(n, i)| lsp::CompletionItem {
                    sort_text: Some(format!("{n:04}")),
                    ..convert::completion_item(index, i, snap.encoding, snippets)
                })
                .collect();
            if list.is_incomplete {
                // Cut to the best matches of what is typed: the client asks again as typing goes on.
                return Ok(Some(CompletionResponse::List(lsp::CompletionList { is_incomplete: true, items })));
            }
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
}

/// The items of every environment, each once (by label, in first-seen order); one that only some environments
/// offer (an instance key of prod only) names them in its detail.
fn union(answers: Vec<(String, (Vec<lsp::CompletionItem>, bool))>) -> Option<CompletionResponse> {
    let count = answers.len();
    let incomplete = answers.iter().any(|(_, (_, inc))| *inc);
    let mut items: Vec<(lsp::CompletionItem, Vec<String>)> = Vec::new();
    for (env, (list, _)) in answers {
        for item in list {
            match items.iter_mut().find(|(i, _)| i.label == item.label) {
                Some((_, envs)) => envs.push(env.clone()),
                None => items.push((item, vec![env.clone()])),
            }
        }
    }
    if items.is_empty() {
        return None;
    }
    let items: Vec<lsp::CompletionItem> = items
        .into_iter()
        .enumerate()
        .map(|(n, (mut item, envs))| {
            if envs.len() < count {
                let only = format!("only in {}", envs.join(", "));
                item.detail = Some(match item.detail.take() {
                    Some(d) => format!("{d} ({only})"),
                    None => only,
                });
            }
            item.sort_text = Some(format!("{n:04}"));
            item
        })
        .collect();
    Some(match incomplete {
        true => CompletionResponse::List(lsp::CompletionList { is_incomplete: true, items }),
        false => CompletionResponse::Array(items),
    })
}
