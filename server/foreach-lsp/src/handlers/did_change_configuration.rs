//! `workspace/didChangeConfiguration`: new settings; the workspace is re-read when they change what is loaded or
//! how it evaluates, otherwise only diagnostics are republished (severity overrides). Clients that answer
//! `workspace/configuration` often send `settings: null` here and expect the server to pull: it does, per folder.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeConfigurationParams;

use crate::config::Config;
use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidChangeConfigurationParams) {
    let mut reindex = false;
    if p.settings.is_object() {
        let new = Config::from_json(&p.settings);
        let old = std::mem::replace(&mut *state.config.write().unwrap_or_else(|e| e.into_inner()), new.clone());
        reindex = old.needs_reindex(&new);
    }
    reindex |= crate::pull_config::pull(state).await;
    if reindex {
        crate::workspace::index(state).await;
    } else {
        state.publisher.schedule();
    }
}
