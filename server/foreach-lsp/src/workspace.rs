//! Workspace indexing: loads every module under the workspace folders with `foreach-load` (the same loader as
//! `check`: git-ignored directories, skipped tool caches, exclude globs), then lays the open documents over the disk texts.
//! Reports `$/progress` when the client supports work-done progress.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use foreach_analysis::{AnalysisHost, Change, CliVariable, Settings};
use foreach_load::project::Project;
use foreach_load::{LoadOptions, OrderedVar, load, path_string};
use tower_lsp_server::ls_types::{MessageType, NumberOrString};

use crate::config::Config;
use crate::convert::uri_to_path;
use crate::state::{Root, State};

/// (Re-)reads the whole workspace, then publishes diagnostics.
pub async fn index(state: &Arc<State>) {
    let generation = state.index_generation.fetch_add(1, Ordering::SeqCst) + 1;
    let progress = if state.caps().work_done_progress {
        // A token per run: a client may refuse one it has seen before.
        let token = NumberOrString::String(format!("foreach-ls/index/{generation}"));
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
        let project = crate::state::discover_project(&roots);
        let loaded = load_roots(&roots, &config, project.as_ref().and_then(|p| p.as_ref().ok()));
        crate::test_hooks::slow_index(s.test_hooks, roots.iter().map(|r| r.path.as_path()));
        let ((mut host, listed_dirs), mut warnings) = match loaded {
            Ok(h) => (h, Vec::new()),
            Err(e) => ((AnalysisHost::new(), HashSet::new()), vec![e]),
        };
        // The loader read the local state files; the `state` setting replaces them.
        let configured = if warnings.is_empty() {
            crate::state_files::configured(&roots, &config, &host.root_dirs().into_iter().collect())
        } else {
            crate::state_files::Configured::default()
        };
        host.apply_change(crate::state_files::read_configured(&configured.files));
        warnings.extend(configured.problems);
        // The open documents' findings that the loaded workspace decides, before the rest is evaluated.
        let listed_dirs = Arc::new(listed_dirs);
        crate::early::publish_loaded(&s, generation, &mut host, &listed_dirs, project.as_ref());
        crate::test_hooks::slow_evaluation(s.test_hooks, roots.iter().map(|r| r.path.as_path()));
        // Diagnostics are computed here, before the host is shared (and after the state files, which change the
        // values), with the per-directory part on all cores: the first publish (and a document opened right after
        // indexing) then pays only for what the open documents change, not for the whole workspace (half a second
        // on the dev corpus; during a branch switch, every keystroke's diagnostics would wait for it).
        host.prime_diagnostics();
        let files = host.file_count();
        let mut guard = s.lock_host();
        if s.index_generation.load(Ordering::SeqCst) != generation {
            return (files, Vec::new(), None);
        }
        // The old analysis is dropped after the lock is released: freeing a whole workspace's queries takes a while,
        // and every keystroke waits for this lock.
        let old_host = std::mem::replace(&mut guard.host, host);
        guard.project = project;
        guard.versions.clear();
        guard.listed_dirs = Some(listed_dirs);
        s.indexed_once.store(true, Ordering::SeqCst);
        guard.state_sources = crate::state_files::sources(&guard.host, &configured.files);
        let watched: Vec<String> = configured.files.values().cloned().collect();
        guard.configured_states = configured.files;
        // Open buffers override the disk; the directories of those outside the folders are loaded too.
        let mut change = Change::default();
        for (uri, text, version) in s.docs.all() {
            if !s.analysable(&uri, &text) {
                continue;
            }
            if let Some(path) = uri_to_path(&uri) {
                guard.versions.insert(path.clone(), version);
                change.files.push((path, Ok(text.into())));
            }
        }
        let open: Vec<String> = change.files.iter().map(|(p, _)| p.clone()).collect();
        guard.list_document_dirs(&open);
        guard.host.apply_change(change);
        drop(guard);
        drop(old_host);
        (files, warnings, Some(watched))
    })
    .await;
    match result {
        Ok((_, _, None)) => {
            tracing::debug!("a newer indexing superseded this one");
            if let Some(p) = progress {
                p.finish_with_message("superseded").await;
            }
        }
        Ok((files, warnings, Some(watched))) => {
            // In the background: a client slow to answer must not hold back the diagnostics.
            let s = Arc::clone(state);
            state.spawn_background(async move { crate::watch::register_configured(&s, watched).await });
            for w in warnings {
                tracing::warn!("{w}");
                state.client.show_message(MessageType::WARNING, format!("foreach-ls: {w}")).await;
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

/// The loaded host and the directories it listed.
fn load_roots(
    roots: &[Root],
    config: &Config,
    project: Option<&Arc<Project>>,
) -> Result<(AnalysisHost, HashSet<String>), String> {
    if roots.is_empty() {
        return Ok((AnalysisHost::new(), HashSet::new()));
    }
    // Everything to load, in order, each with the folder it is limited to (`None`: every root).
    let mut vars: Vec<(OrderedVar, Option<&Path>)> = Vec::new();
    add_files(roots, &config.var_files, None, &mut vars);
    for (name, value) in &config.variables {
        vars.push((OrderedVar::Var(format!("{name}={value}")), None));
    }
    for root in roots {
        let Some(folder) = config.folder(&root.path, root.name.as_deref()) else { continue };
        add_files(roots, &folder.var_files, Some(root), &mut vars);
        for (name, value) in &folder.variables {
            vars.push((OrderedVar::Var(format!("{name}={value}")), Some(root.path.as_path())));
        }
    }
    let env_vars: Vec<(String, String)> =
        std::env::vars().filter_map(|(k, v)| k.strip_prefix("TF_VAR_").map(|n| (n.to_string(), v))).collect();
    // As on the command line: the setting, else `TF_WORKSPACE`, else each root's `.terraform/environment`.
    let workspace_name = config.workspace.clone().or_else(foreach_load::workspace_from_env);
    let paths: Vec<PathBuf> = roots.iter().map(|r| r.path.clone()).collect();
    let ordered_vars: Vec<OrderedVar> = vars.iter().map(|(v, _)| v.clone()).collect();
    let opts = LoadOptions {
        paths: &paths,
        excludes: &config.exclude,
        ordered_vars: &ordered_vars,
        env_vars: env_vars.clone(),
        workspace_name: workspace_name.clone(),
        states: &[],
        project_excludes: project.map(|p| (p.dir.as_path(), p.exclude.as_slice())),
        texts: foreach_load::KeepTexts::Compressed,
    };
    let loaded = load(&opts).map_err(|e| e.0)?;
    let mut host = loaded.host;
    if vars.iter().any(|(_, only)| only.is_some()) {
        // The loader read the files and applies every variable to every root; limit each folder's own.
        host.apply_change(Change {
            settings: Some(scoped_settings(&vars, env_vars, workspace_name)?),
            ..Change::default()
        });
    }
    Ok((host, loaded.listed_dirs))
}

/// Var files from settings, each with the folder it is limited to. A relative path names a file in each folder
/// (or in the one folder `only`), for that folder's roots; an absolute one applies wherever `only` says.
fn add_files<'a>(
    roots: &'a [Root],
    list: &[String],
    only: Option<&'a Root>,
    vars: &mut Vec<(OrderedVar, Option<&'a Path>)>,
) {
    for file in list {
        let p = PathBuf::from(file);
        if p.is_absolute() {
            vars.push((OrderedVar::File(p), only.map(|r| r.path.as_path())));
            continue;
        }
        for root in roots.iter().filter(|r| only.is_none_or(|o| o.path == r.path)) {
            let candidate = root.path.join(&p);
            if candidate.is_file() {
                vars.push((OrderedVar::File(candidate), Some(root.path.as_path())));
            }
        }
    }
}

/// The analysis settings for `vars`, as the loader builds them (canonical var file paths), with the entries of
/// one folder wrapped in [`CliVariable::Scoped`].
fn scoped_settings(
    vars: &[(OrderedVar, Option<&Path>)],
    env_variables: Vec<(String, String)>,
    workspace_name: Option<String>,
) -> Result<Settings, String> {
    let canonical = |p: &Path| p.canonicalize().map(|c| path_string(&c)).map_err(|e| format!("`{}`: {e}", p.display()));
    let mut cli_variables = Vec::new();
    for (v, only) in vars {
        let var = match v {
            OrderedVar::File(p) => CliVariable::File(canonical(p)?),
            OrderedVar::Var(text) => {
                let (name, value) = text.split_once('=').unwrap_or((text, ""));
                CliVariable::Value { name: name.trim().to_string(), value: value.to_string() }
            }
        };
        cli_variables.push(match only {
            Some(dir) => CliVariable::Scoped { under: canonical(dir)?, var: Box::new(var) },
            None => var,
        });
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    Ok(Settings { cli_variables, env_variables, workspace_name, root_workspaces: Vec::new(), cwd: path_string(&cwd) })
}
