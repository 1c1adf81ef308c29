//! File watchers the server registers with the client (`workspace/didChangeWatchedFiles`, when the client can
//! register them dynamically): OpenTofu files and local state files everywhere, and the state files the `state`
//! setting names, which can have any name and be anywhere (re-registered when they change).

use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use crate::state::State;

/// The files whose changes on disk matter.
pub const WATCH_GLOB: &str = "**/*.{tf,tofu,tfvars,tf.json,tofu.json,tfvars.json}";

/// Local state files: `terraform.tfstate`, `terraform.tfstate.d/<workspace>/terraform.tfstate`, and a local
/// backend's `path` in the usual naming.
pub const STATE_GLOB: &str = "**/*.tfstate";

/// The project file (`docs/configuration.md`): a change re-indexes the workspace.
pub const PROJECT_GLOB: &str = "**/foreach-ls.toml";

/// Whether `path` is a project file.
pub fn is_project_file(path: &str) -> bool {
    path.rsplit('/').next() == Some(foreach_load::project::PROJECT_FILE)
}

/// What `tofu workspace select` and `tofu init` leave in a root's data directory: the selected workspace and the
/// installed modules. Loaded with the workspace, so a change re-indexes it.
pub const INIT_GLOBS: [&str; 2] = ["**/.terraform/environment", "**/.terraform/modules/modules.json"];

/// Whether `path` is one of [`INIT_GLOBS`].
pub fn is_init_file(path: &str) -> bool {
    path.ends_with("/.terraform/environment") || path.ends_with("/.terraform/modules/modules.json")
}

const WATCH_ID: &str = "foreach-ls/watch";
const STATES_ID: &str = "foreach-ls/watch-states";
const METHOD: &str = "workspace/didChangeWatchedFiles";

/// Registers the watchers of OpenTofu files and local state files (in the background).
pub fn register(state: &Arc<State>) {
    if !state.caps().watch_files {
        return;
    }
    let watchers = [WATCH_GLOB, STATE_GLOB, PROJECT_GLOB]
        .iter()
        .chain(INIT_GLOBS.iter())
        .map(|g| FileSystemWatcher { glob_pattern: GlobPattern::String(g.to_string()), kind: None })
        .collect();
    let registration = registration(WATCH_ID, watchers);
    let s = Arc::clone(state);
    state.spawn_background(async move {
        if let Err(e) = s.client.register_capability(vec![registration]).await {
            tracing::warn!("the client refused file watching: {e}");
        }
    });
}

/// Watches the state files the `state` setting names, replacing the previous registration when they changed.
pub async fn register_configured(state: &Arc<State>, files: Vec<String>) {
    if !state.caps().watch_files {
        return;
    }
    let previous = {
        let mut watched = state.watched_states.lock().unwrap_or_else(|e| e.into_inner());
        if *watched == files {
            return;
        }
        std::mem::replace(&mut *watched, files.clone())
    };
    if !previous.is_empty() {
        let unregistration = Unregistration { id: STATES_ID.to_string(), method: METHOD.to_string() };
        if let Err(e) = state.client.unregister_capability(vec![unregistration]).await {
            tracing::warn!("the client refused to drop the watchers of configured state files: {e}");
        }
    }
    if files.is_empty() {
        return;
    }
    let relative = state.caps().relative_patterns;
    let watchers = files.iter().filter_map(|f| watcher(f, relative)).collect();
    if let Err(e) = state.client.register_capability(vec![registration(STATES_ID, watchers)]).await {
        tracing::warn!("the client refused to watch the configured state files: {e}");
    }
}

/// A watcher of one file: relative to its directory when the client supports that (a file outside the workspace
/// folders is then watched too), else any file of that name in the workspace (the server picks its own).
fn watcher(file: &str, relative: bool) -> Option<FileSystemWatcher> {
    let (dir, name) = file.rsplit_once('/')?;
    let glob_pattern = match crate::convert::path_to_uri(if dir.is_empty() { "/" } else { dir }) {
        Some(base) if relative => {
            GlobPattern::Relative(RelativePattern { base_uri: OneOf::Right(base), pattern: name.to_string() })
        }
        _ => GlobPattern::String(format!("**/{name}")),
    };
    Some(FileSystemWatcher { glob_pattern, kind: None })
}

fn registration(id: &str, watchers: Vec<FileSystemWatcher>) -> Registration {
    Registration {
        id: id.to_string(),
        method: METHOD.to_string(),
        register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions { watchers }).ok(),
    }
}
