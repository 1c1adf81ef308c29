//! `initialized`: watches OpenTofu files and state files on disk (when the client can register watchers, `watch.rs`),
//! starts the diagnostics loop, pulls the settings per workspace folder (when the client supports it) and indexes
//! the workspace in the background.

use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use crate::state::State;

pub async fn run(state: &Arc<State>, _: InitializedParams) {
    state.spawn_background(crate::diagnostics::run(Arc::clone(state)));
    crate::watch::register(state);
    let s = Arc::clone(state);
    state.spawn_background(async move {
        crate::pull_config::pull(&s).await;
        crate::workspace::index(&s).await
    });
}
