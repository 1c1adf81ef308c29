//! The first diagnostics of a document opened while the workspace is being indexed.
//!
//! Nothing is published before the first indexing is installed (`diagnostics::compute`): a document's siblings are
//! missing until then, and a finding shown then withdrawn is worse than none. But a big workspace takes a second
//! to index, and a user who opens a file wants its mistakes at once. So `didOpen` (an editor restoring its files
//! opens them the same way) loads the document's own directory alone, beside the indexing, and publishes the
//! findings that directory's files decide by themselves (`foreach_analysis::checks::DIR_LOCAL_CODES`: syntax
//! errors, duplicates, undeclared references, ...), which the full index reports unchanged.
//!
//! Then, when the directory is surely a plain root module (`foreach_load::plain_root::first_look`: no module call
//! anywhere in the workspace can load it, it has no state, no wrapper, no reference to a called module's outputs and
//! no file function, and the settings give it no values of their own), the root's own instance is evaluated in that
//! same host, its module calls leading nowhere, and the findings it decides by itself
//! (`foreach_analysis::checks::ROOT_INSTANCE_CODES`: which provider instance each reference selects) are published
//! too: a provider key missing from the `.tfvars` shows in the time it takes to read the workspace's files, not to
//! index them. When the directory is a module, the same search finds the directories that decide its instances
//! (every directory on a path of calls from a root down to it, each without state, wrapper or file function, and
//! below those that read a called module's outputs, what they call): those are loaded into the host too, and what
//! the module's instances decide is published the same way (`foreach_analysis::checks::MODULE_INSTANCE_CODES`: the
//! provider codes and evaluation errors), its instances being the index's, from the same callers and values.
//! Everything else waits for the index, and so does everything in a directory the search is unsure of.
//!
//! What the search is unsure of comes with a third list, once the first indexing has loaded the whole workspace and
//! before it evaluates all of it ([`publish_loaded`]): each open document's directory and the instances of its
//! module, evaluated in the loaded host itself (`AnalysisHost::dir_diagnostics`), so each finding is one the index
//! reports too, from the same callers and values. On the dev corpus a module file's instance findings come about
//! half a second sooner that way.
//!
//! An edit while indexing publishes the lists again for the new text (`didChange`). With environments in the
//! project file the first list is the one their merge shows (every pass reports the same directory-local
//! findings), unless an environment is limited to some roots: which passes check a module then depends on its
//! callers, and nothing is published early. The values differ per environment, so the second list is not published.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foreach_analysis::checks::{MODULE_INSTANCE_CODES, ROOT_INSTANCE_CODES};
use foreach_analysis::{AnalysisHost, Diagnostic};
use foreach_load::environments::{self, Finding};
use foreach_load::plain_root::FirstLook;
use foreach_load::project::{Project, ProjectError};
use tower_lsp_server::ls_types::{self as lsp, Uri};

use crate::config::Config;

use crate::convert::uri_to_path;
use crate::state::{Snapshot, State};

/// Publishes the early lists (`compute`) of the open document `uri` (at `path`) for its newest text, unless the
/// index is installed first. Called by `didOpen` and by every `didChange` while the workspace is being indexed; runs
/// in the background, one computation per document at a time: one that ends after the text changed starts again
/// for the newest text, so a list for an older text is never published over a newer one.
pub fn spawn(state: &Arc<State>, uri: Uri, path: String, opened: bool) {
    // Not `indexed`: every keystroke comes here, and must not wait for the host lock.
    if state.indexed_once.load(std::sync::atomic::Ordering::SeqCst)
        || (state.config().pull_diagnostics && state.caps().pull_diagnostics)
    {
        return;
    }
    if !running(state).insert(uri.clone()) {
        // The running computation sees the new version when it ends, and starts again.
        return;
    }
    let s = Arc::clone(state);
    state.spawn_background(async move {
        let mut opened = opened;
        loop {
            let version = s.docs.version(&uri);
            if let Some(version) = version {
                // The lists come in stages (`compute`), each published as soon as it is ready.
                let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
                let computing = Arc::clone(&s);
                let (for_uri, for_path) = (uri.clone(), path.clone());
                let task = tokio::task::spawn_blocking(move || {
                    compute(&computing, &for_uri, &for_path, opened, &|items| drop(tx.send(items)))
                });
                opened = false;
                while let Some(items) = rx.recv().await {
                    publish(&s, &uri, version, items, false).await;
                }
                let _ = task.await;
            }
            // Decided under the lock `spawn` inserts under, after `didChange` stored the new version: either this
            // loop sees that version, or the next `spawn` finds no computation running and starts one.
            let mut guard = running(&s);
            if version.is_some() && s.docs.version(&uri) != version && !indexed(&s) {
                continue;
            }
            guard.remove(&uri);
            break;
        }
    });
}

/// Sends `items` as the list of `uri` at `version`, unless the index is installed or the text changed since, or
/// the loaded workspace's list ([`publish_loaded`]) was sent for this text: the other lists hold less.
async fn publish(s: &State, uri: &Uri, version: i32, items: Vec<lsp::Diagnostic>, loaded: bool) {
    let mut published = s.publisher.published.lock().await;
    // Checked under the lock the publishing loop holds while it sends: once the index is installed, its own round
    // is the one to publish, and a list for an older text would be wrong.
    if indexed(s) || s.docs.version(uri) != Some(version) {
        return;
    }
    {
        let mut loaded_versions = s.early_loaded.lock().unwrap_or_else(|e| e.into_inner());
        if loaded {
            loaded_versions.insert(uri.clone(), version);
        } else if loaded_versions.get(uri) == Some(&version) {
            return;
        }
    }
    if published.get(uri).map_or(!items.is_empty(), |before| *before != items) {
        s.client.publish_diagnostics(uri.clone(), items.clone(), Some(version)).await;
    }
    published.insert(uri.clone(), items);
}

/// Whether the first indexing is installed (from then on the publishing loop publishes everything).
fn indexed(state: &State) -> bool {
    state.lock_host().listed_dirs.is_some()
}

fn running(state: &State) -> std::sync::MutexGuard<'_, HashSet<Uri>> {
    state.early_running.lock().unwrap_or_else(|e| e.into_inner())
}

/// The document's early lists in LSP form, as `diagnostics::compute` would give them (the project file's and the
/// settings' severities applied, merged across its environments), each given to `send` when ready: first its
/// directory's own findings, then, when the directory is a plain root or a module whose instances the search can
/// decide (`first_look`), those plus what the module's own instances decide. `opened`: the document was just opened (not
/// edited since the last lists). Nothing when the environments' tags cannot be known before the module tree is (an
/// environment limited to some roots), or the directory is not there.
fn compute(state: &State, uri: &Uri, path: &str, opened: bool, send: &dyn Fn(Vec<lsp::Diagnostic>)) {
    let dir = foreach_analysis::paths::parent(path);
    if dir.is_empty() {
        return;
    }
    let roots = state.roots.read().unwrap_or_else(|e| e.into_inner()).clone();
    let project = crate::state::discover_project(&roots);
    let environments: Vec<&str> = match &project {
        Some(Ok(p)) => p.environments.iter().map(|e| e.name.as_str()).collect(),
        _ => Vec::new(),
    };
    // An environment limited to some roots checks only the modules those roots call, so whether a module's finding
    // is tagged with it depends on who calls the module: known only once the whole tree is.
    if matches!(&project, Some(Ok(p)) if p.environments.iter().any(|e| e.roots.is_some())) {
        return;
    }
    let open: HashMap<String, Arc<str>> =
        state.docs.all().into_iter().filter_map(|(u, text, _)| Some((uri_to_path(&u)?, text))).collect();
    // A text too large to analyse while editing is not analysed here either (`State::analysable`).
    let in_dir = |p: &str| p.rsplit_once('/').is_some_and(|(d, _)| d == dir);
    if open.iter().any(|(p, text)| in_dir(p) && text.len() > crate::state::MAX_ANALYSED_BYTES) {
        return;
    }
    let config = state.config();
    let folders: Vec<PathBuf> = roots.iter().map(|r| r.path.clone()).collect();
    std::thread::scope(|scope| {
        // The workspace's files are read and searched beside the analysis of the first list.
        let look = (environments.is_empty() && plain_settings(&config))
            .then(|| scope.spawn(|| foreach_load::plain_root::first_look(&folders, Path::new(dir), &open)));
        let Some(change) = dir_change(dir, &open) else { return };
        let mut host = AnalysisHost::new();
        host.apply_change(change);
        let listed = Arc::new(HashSet::from([dir.to_string()]));
        let in_lsp_form = |host: &AnalysisHost, local: Vec<Diagnostic>| {
            let findings: Vec<Finding> = if environments.is_empty() {
                local.into_iter().map(Finding::everywhere).collect()
            } else {
                // Every environment applies to every root, and a directory-local finding does not depend on the
                // values: each pass of `environments::check` reports the same list for this directory, merged as
                // it merges them.
                environments::merge(vec![local; environments.len()], &environments)
            };
            lsp_form(state, host, &listed, &config, project.as_ref(), uri, &findings)
        };
        let local = host.dir_local_diagnostics(dir);
        let Some(first) = in_lsp_form(&host, local.clone()) else { return };
        // Exclude globs (the settings', the project file's) keep directories out of the index that the search does
        // not know of: a module's roots could be among them.
        let excluded = !config.exclude.is_empty() || matches!(&project, Some(Ok(p)) if !p.exclude.is_empty());
        let join = |p: std::thread::ScopedJoinHandle<'_, FirstLook>| match p.join() {
            Ok(FirstLook::Module { .. }) if excluded => FirstLook::Unsure,
            Ok(look) => look,
            Err(_) => FirstLook::Unsure,
        };
        // When the module's instances can be evaluated, the first list is skipped if the search is over by now,
        // and after an edit always: it would take the instances' findings away until the second list is sent. A
        // document just opened has nothing to lose, and gets the first list at once.
        let mut look = look;
        let known = look.take_if(|p| !opened || p.is_finished()).map(join);
        if known.as_ref().is_none_or(|k| *k == FirstLook::Unsure) {
            send(first);
        }
        let codes = match known.unwrap_or_else(|| look.map_or(FirstLook::Unsure, join)) {
            FirstLook::Unsure => return,
            // The root evaluated alone (its module calls lead nowhere here): only the codes its own instance
            // decides.
            FirstLook::PlainRoot => ROOT_INSTANCE_CODES,
            // The module evaluated with the directories that decide its instances (`first_look`): its instances
            // are the index's (their own calls lead nowhere here unless their outputs are read).
            FirstLook::Module { dirs } => {
                for other in dirs.iter().filter(|d| d.as_path() != Path::new(dir)) {
                    let Some(change) = dir_change(&foreach_load::path_string(other), &open) else { return };
                    host.apply_change(change);
                }
                MODULE_INSTANCE_CODES
            }
        };
        let file = host.file_id(path);
        let mut all = local;
        // Only the directory's findings: each one `diagnostics` reports for it too, without the callers' own (a
        // generated root's hundreds of module calls took 100 ms more).
        let found = host.dir_diagnostics(dir);
        all.extend(found.into_iter().filter(|d| Some(d.location.file) == file && codes.contains(&d.code)));
        all.sort_by_key(|d| (d.location.file, d.location.range.start(), d.location.range.end()));
        if let Some(items) = in_lsp_form(&host, all) {
            send(items);
        }
    });
}

/// The change that loads the directory `dir`: the open documents among its files (in `open`) with their editor
/// text, the rest read from disk. `None` when the directory is not there.
fn dir_change(dir: &str, open: &HashMap<String, Arc<str>>) -> Option<foreach_analysis::Change> {
    let here: Vec<(String, Arc<str>)> = open
        .iter()
        .filter(|(p, _)| p.rsplit_once('/').is_some_and(|(d, _)| d == dir))
        .map(|(p, t)| (p.clone(), Arc::clone(t)))
        .collect();
    let skip: HashSet<String> = here.iter().map(|(p, _)| p.clone()).collect();
    let mut change = foreach_load::directory_change(Path::new(dir), &skip);
    if change.dirs.is_empty() {
        return None;
    }
    change.files.extend(here.into_iter().map(|(p, text)| (p, Ok(text.into()))));
    Some(change)
}

/// The list of `uri` among `findings` of `host`, as the publishing loop would send it (`diagnostics::compute`).
fn lsp_form(
    state: &State,
    host: &AnalysisHost,
    listed: &Arc<HashSet<String>>,
    config: &Config,
    project: Option<&Result<Arc<Project>, ProjectError>>,
    uri: &Uri,
    findings: &[Finding],
) -> Option<Vec<lsp::Diagnostic>> {
    let snap = Snapshot {
        analysis: foreach_ide::Analysis::of(host),
        versions: Default::default(),
        listed_dirs: Some(Arc::clone(listed)),
        encoding: state.encoding(),
        uris: state.uris.clone(),
    };
    let all = crate::diagnostics::compute(&snap, config, project, findings).ok()?;
    Some(all.into_iter().find(|f| f.uri == *uri).map(|f| f.items).unwrap_or_default())
}

/// Publishes the list of each open document from the first indexing's `host` once it has loaded the workspace
/// (`listed` directories, the `project` file found), before it evaluates the rest: the findings of the document's
/// directory and of its module's instances (`AnalysisHost::dir_diagnostics`). Lays the open documents' texts over
/// the disk's in `host` first, as installing it does (which then finds them unchanged). Called on the indexing
/// thread; returns once the lists are sent. Nothing for a later indexing (the installed index publishes then), for
/// one a newer indexing replaces (the workspace folders changed: other callers), with pull diagnostics, or with
/// environments in the project file (their values differ: `compute`).
pub fn publish_loaded(
    state: &State,
    generation: u64,
    host: &mut AnalysisHost,
    listed: &Arc<HashSet<String>>,
    project: Option<&Result<Arc<Project>, ProjectError>>,
) {
    if state.indexed_once.load(std::sync::atomic::Ordering::SeqCst)
        || state.index_generation.load(std::sync::atomic::Ordering::SeqCst) != generation
        || (state.config().pull_diagnostics && state.caps().pull_diagnostics)
        || matches!(project, Some(Ok(p)) if !p.environments.is_empty())
    {
        return;
    }
    // Only documents in the loaded directories: installing the index loads the directories of the others first.
    let in_listed_dir = |path: &str| {
        let dir = foreach_analysis::paths::parent(path);
        listed.contains(dir).then(|| dir.to_string())
    };
    let docs: Vec<(Uri, String, String, Arc<str>, i32)> = state
        .docs
        .all()
        .into_iter()
        .filter(|(uri, text, _)| state.analysable(uri, text))
        .filter_map(|(uri, text, version)| {
            let path = uri_to_path(&uri)?;
            Some((uri, in_listed_dir(&path)?, path, text, version))
        })
        .collect();
    if docs.is_empty() {
        return;
    }
    let mut change = foreach_analysis::Change::default();
    change.files.extend(docs.iter().map(|(_, _, path, text, _)| (path.clone(), Ok(Arc::clone(text).into()))));
    host.apply_change(change);
    let config = state.config();
    let runtime = tokio::runtime::Handle::current();
    for (uri, dir, _, _, version) in docs {
        let findings: Vec<Finding> = host.dir_diagnostics(&dir).into_iter().map(Finding::everywhere).collect();
        let Some(items) = lsp_form(state, host, listed, &config, project, &uri, &findings) else { continue };
        runtime.block_on(publish(state, &uri, version, items, true));
    }
}

/// Whether the settings give the roots no values of their own (var files, variables, a workspace, a state), and
/// neither does the environment (`TF_VAR_…`, `TF_WORKSPACE`): a root loaded alone then has the values the index
/// gives it.
fn plain_settings(config: &Config) -> bool {
    let folders_plain =
        config.folders.values().all(|f| f.var_files.is_empty() && f.variables.is_empty() && f.state.is_none());
    let env_plain = std::env::vars_os().all(|(k, _)| {
        let k = k.to_string_lossy();
        !k.starts_with("TF_VAR_") && k != "TF_WORKSPACE"
    });
    folders_plain
        && env_plain
        && config.var_files.is_empty()
        && config.variables.is_empty()
        && config.workspace.is_none()
        && config.state.is_none()
}
