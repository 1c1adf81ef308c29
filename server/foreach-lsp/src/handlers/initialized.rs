//! `initialized`: watches OpenTofu files on disk (when the client can register watchers), starts the diagnostics
//! loop, pulls the settings per workspace folder (when the client supports it) and indexes the workspace in the
//! background.

use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use crate::state::State;

/// The files whose changes on disk matter.
pub const WATCH_GLOB: &str = "**/*.{tf,tofu,tfvars,tf.json,tofu.json,tfvars.json}";

pub async fn run(state: &Arc<State>, _: InitializedParams) {
    state.spawn_background(crate::diagnostics::run(Arc::clone(state)));
    if state.caps().watch_files {
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher { glob_pattern: GlobPattern::String(WATCH_GLOB.to_string()), kind: None }],
        };
        let registration = Registration {
            id: "foreach-ls/watch".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        let s = Arc::clone(state);
        state.spawn_background(async move {
            if let Err(e) = s.client.register_capability(vec![registration]).await {
                tracing::warn!("the client refused file watching: {e}");
            }
        });
    }
    let s = Arc::clone(state);
    state.spawn_background(async move {
        crate::pull_config::pull(&s).await;
        crate::workspace::index(&s).await
    });
}
