//! Workspace indexing: loads every module under the workspace folders with `foreach-load` (the same loader as
//! `check`: `.gitignore`, skipped tool caches, exclude globs), then lays the open documents over the disk texts.
//! Reports `$/progress` when the client supports work-done progress.

use std::path::PathBuf;
use std::sync::Arc;

use foreach_analysis::{AnalysisHost, Change};
use foreach_load::{LoadOptions, OrderedVar, load};
use tower_lsp_server::ls_types::{MessageType, NumberOrString};

use crate::config::Config;
use crate::convert::uri_to_path;
use crate::state::State;

/// (Re-)reads the whole workspace, then publishes diagnostics.
pub async fn index(state: &Arc<State>) {
    let progress = if state.caps().work_done_progress {
        let token = NumberOrString::String("foreach-ls/index".to_string());
        match state.client.create_work_done_progress(token.clone()).await {
            Ok(()) => Some(state.client.progress(token, "foreach-ls: indexing").begin().await),
            Err(_) => None,
        }
    } else {
        None
    };
    let started = std::time::Instant::now();
    let roots = state.roots.read().unwrap_or_else(|e| e.into_inner()).clone();
    let config = state.config();
    let s = Arc::clone(state);
    let result = tokio::task::spawn_blocking(move || {
        let loaded = load_roots(&roots, &config);
        let (host, error) = match loaded {
            Ok(h) => (h, None),
            Err(e) => (AnalysisHost::new(), Some(e)),
        };
        let files = host.file_count();
        let mut guard = s.lock_host();
        guard.host = host;
        guard.versions.clear();
        // Open buffers override the disk.
        let mut change = Change::default();
        for (uri, text, version) in s.docs.all() {
            if let Some(path) = uri_to_path(&uri) {
                guard.versions.insert(path.clone(), version);
                change.files.push((path, Ok(text)));
            }
        }
        guard.host.apply_change(change);
        (files, error)
    })
    .await;
    match result {
        Ok((files, error)) => {
            if let Some(e) = error {
                state.client.show_message(MessageType::WARNING, format!("foreach-ls: {e}")).await;
            }
            tracing::info!("indexed {files} files in {:?}", started.elapsed());
            if let Some(p) = progress {
                p.finish_with_message(format!("{files} files")).await;
            }
        }
        Err(e) => tracing::error!("indexing failed: {e}"),
    }
    state.publisher.schedule();
}

fn load_roots(roots: &[PathBuf], config: &Config) -> Result<AnalysisHost, String> {
    if roots.is_empty() {
        return Ok(AnalysisHost::new());
    }
    let mut ordered_vars = Vec::new();
    for file in &config.var_files {
        let p = PathBuf::from(file);
        if p.is_absolute() {
            ordered_vars.push(OrderedVar::File(p));
        } else {
            ordered_vars.extend(roots.iter().map(|r| r.join(&p)).filter(|p| p.is_file()).map(OrderedVar::File));
        }
    }
    for (name, value) in &config.variables {
        ordered_vars.push(OrderedVar::Var(format!("{name}={value}")));
    }
    let env_vars: Vec<(String, String)> =
        std::env::vars().filter_map(|(k, v)| k.strip_prefix("TF_VAR_").map(|n| (n.to_string(), v))).collect();
    let workspace_name = config
        .workspace
        .clone()
        .or_else(|| std::env::var("TF_WORKSPACE").ok())
        .unwrap_or_else(|| "default".to_string());
    let opts =
        LoadOptions { paths: roots, excludes: &config.exclude, ordered_vars: &ordered_vars, env_vars, workspace_name };
    load(&opts).map(|l| l.host).map_err(|e| e.0)
}
