//! `textDocument/semanticTokens/full`, `/full/delta` and `/range`: the analysis's tokens
//! (`foreach_ide::semantic_tokens`) in the protocol's relative encoding.
//!
//! Tokens spanning lines (heredocs, block comments) are split per line, since clients need not support multi-line
//! tokens. For deltas, the last full result of each document is kept here with its id; a delta is one edit
//! replacing what lies between the unchanged prefix and suffix. An unknown previous id gets full tokens.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use foreach_ide::{MODIFIERS, SemanticToken as AToken, TokenType};
use foreach_syntax::LineIndex;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::convert::{self, PositionEncoding, uri_to_path};
use crate::state::State;

/// The legend announced at initialisation; token types and modifiers are indices into it.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TokenType::ALL.iter().map(|t| SemanticTokenType::new(t.as_str())).collect(),
        token_modifiers: MODIFIERS.iter().map(|m| SemanticTokenModifier::new(m)).collect(),
    }
}

/// The capability announced at initialisation.
pub fn capability() -> SemanticTokensServerCapabilities {
    SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
        legend: legend(),
        range: Some(true),
        full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
        work_done_progress_options: WorkDoneProgressOptions::default(),
    })
}

/// The last full result per document URI: its id and tokens. Kept with the handler rather than in `State`, since
/// only this handler reads it; a stale entry only costs a full answer.
type LastResults = HashMap<String, (String, Vec<SemanticToken>)>;
static LAST: LazyLock<Mutex<LastResults>> = LazyLock::new(Default::default);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

pub async fn full(state: &Arc<State>, p: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
    let Some(data) = compute(state, &p.text_document.uri, None).await? else { return Ok(None) };
    let result_id = remember(&p.text_document.uri, data.clone());
    Ok(Some(SemanticTokensResult::Tokens(SemanticTokens { result_id: Some(result_id), data })))
}

pub async fn range(state: &Arc<State>, p: SemanticTokensRangeParams) -> Result<Option<SemanticTokensRangeResult>> {
    let Some(data) = compute(state, &p.text_document.uri, Some(p.range)).await? else { return Ok(None) };
    Ok(Some(SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data })))
}

pub async fn delta(state: &Arc<State>, p: SemanticTokensDeltaParams) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let uri = &p.text_document.uri;
    let Some(data) = compute(state, uri, None).await? else { return Ok(None) };
    let previous = {
        let last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        last.get(uri.as_str()).filter(|(id, _)| *id == p.previous_result_id).map(|(_, d)| d.clone())
    };
    let result_id = remember(uri, data.clone());
    let Some(old) = previous else {
        return Ok(Some(SemanticTokensFullDeltaResult::Tokens(SemanticTokens { result_id: Some(result_id), data })));
    };
    let prefix = old.iter().zip(&data).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(data.len()) - prefix;
    let suffix = old.iter().rev().zip(data.iter().rev()).take(max_suffix).take_while(|(a, b)| a == b).count();
    let edits = if prefix == old.len() && prefix == data.len() {
        Vec::new()
    } else {
        // Offsets and counts are in integers, five per token.
        vec![SemanticTokensEdit {
            start: (prefix * 5) as u32,
            delete_count: ((old.len() - prefix - suffix) * 5) as u32,
            data: Some(data[prefix..data.len() - suffix].to_vec()),
        }]
    };
    Ok(Some(SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta { result_id: Some(result_id), edits })))
}

fn remember(uri: &Uri, data: Vec<SemanticToken>) -> String {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed).to_string();
    LAST.lock().unwrap_or_else(|e| e.into_inner()).insert(uri.as_str().to_string(), (id.clone(), data));
    id
}

async fn compute(state: &Arc<State>, uri: &Uri, range: Option<Range>) -> Result<Option<Vec<SemanticToken>>> {
    let Some(path) = uri_to_path(uri) else { return Ok(None) };
    state
        .with_document(uri.clone(), move |snap| {
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let range = range.map(|r| convert::text_range(&index, r, snap.encoding));
            let tokens = a.semantic_tokens(file, range)?;
            Ok(Some(encode(&index, &tokens, snap.encoding)))
        })
        .await
}

/// The protocol's encoding: each token relative to the previous one, one token per line segment.
fn encode(index: &LineIndex, tokens: &[AToken], enc: PositionEncoding) -> Vec<SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    for t in tokens {
        let start = convert::position(index, t.range.start(), enc);
        let end = convert::position(index, t.range.end(), enc);
        for line in start.line..=end.line {
            let Some(line_range) = index.line_range(line) else { break };
            let from = if line == start.line { start.character } else { 0 };
            let to = if line == end.line {
                end.character
            } else {
                convert::position(index, line_range.end(), enc).character
            };
            if to <= from {
                continue;
            }
            let delta_line = line.saturating_sub(prev_line);
            let delta_start = if delta_line == 0 { from.saturating_sub(prev_col) } else { from };
            out.push(SemanticToken {
                delta_line,
                delta_start,
                length: to - from,
                token_type: t.kind.index(),
                token_modifiers_bitset: t.modifiers,
            });
            (prev_line, prev_col) = (line, from);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_ide::semantic_tokens_of;
    use foreach_syntax::FileKind;

    #[test]
    fn multi_line_tokens_are_split_per_line() {
        let text = "/* a\nbb */ x = 1\n";
        let index = LineIndex::new(text);
        let parsed = foreach_syntax::parse(text, FileKind::Tf);
        let toks = semantic_tokens_of(text, &parsed.body);
        let data = encode(&index, &toks, PositionEncoding::Utf16);
        let flat: Vec<[u32; 3]> = data.iter().map(|t| [t.delta_line, t.delta_start, t.length]).collect();
        // `/* a`, `bb */`, `x`, `=`, `1`.
        assert_eq!(flat, [[0, 0, 4], [1, 0, 5], [0, 6, 1], [0, 2, 1], [0, 2, 1]]);
    }
}
