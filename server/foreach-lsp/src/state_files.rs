//! Which state file each root module is checked against in the editor (`docs/state.md`).
//!
//! The `state` setting names state files as `--state` does: a file for the root module at the workspace folder, or
//! a map of root directories to files, relative paths resolved in the folder; a folder's own setting replaces the
//! workspace-wide one. Every other root module uses its local state file, which `foreach-load` reads when the
//! workspace is indexed. The CLI's errors map to the editor as warnings: a configured file that cannot be read is
//! the `unreadable-state` warning on its root (as a local one is), and an entry that names no root module is a
//! warning message, since it has no file to be shown in.
//!
//! State files are watched (`watch.rs`): when one changes, is created or deleted, only the states of the roots
//! that use it are read again and sent as `Change::states`; nothing is re-indexed.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::atomic::Ordering;

use foreach_analysis::{AnalysisHost, Change};
use foreach_load::path_string;
use foreach_load::state::read_root_state;

use crate::config::Config;
use crate::state::{Root, State};

/// Root module directory -> the state file it uses and whether the setting names it.
pub type Sources = BTreeMap<String, (String, bool)>;

/// The configured state files, and the entries of the setting that apply to no root module.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Configured {
    /// Root module directory -> state file (absolute).
    pub files: BTreeMap<String, String>,
    /// In words, for a warning.
    pub problems: Vec<String>,
}

/// Resolves the `state` setting of every workspace folder against the root modules (`root_dirs`, canonical).
pub fn configured(roots: &[Root], config: &Config, root_dirs: &HashSet<String>) -> Configured {
    let mut out = Configured::default();
    // Each entry (with the folder it was set for, `None` for a workspace-wide one) and whether it named a root
    // module: a workspace-wide entry is tried in every folder and only reported if it fits in none.
    let mut used: BTreeMap<(Option<String>, Option<String>, String), bool> = BTreeMap::new();
    for root in roots {
        let own = config.folder(&root.path, root.name.as_deref()).and_then(|f| f.state.as_ref());
        let (setting, scope) = match (own, &config.state) {
            (Some(s), _) => (s, Some(path_string(&root.path))),
            (None, Some(s)) => (s, None),
            (None, None) => continue,
        };
        let Ok(folder) = root.path.canonicalize() else { continue };
        for (dir, file) in setting.entries() {
            let key = (scope.clone(), dir.map(str::to_string), file.to_string());
            let fits = used.entry(key).or_insert(false);
            let Ok(dir_path) = dir.map_or_else(|| Ok(folder.clone()), |d| folder.join(d).canonicalize()) else {
                continue;
            };
            let dir_path = path_string(&dir_path);
            if !root_dirs.contains(&dir_path) {
                continue;
            }
            *fits = true;
            let file_path = canonical_file(&folder.join(file));
            match out.files.get(&dir_path) {
                Some(other) if *other != file_path => out.problems.push(format!(
                    "the `state` setting gives two state files for the root module `{dir_path}`, `{other}` and \
                     `{file_path}`; the first is used"
                )),
                Some(_) => {}
                None => {
                    out.files.insert(dir_path, file_path);
                }
            }
        }
    }
    for ((scope, dir, file), fits) in used {
        if fits {
            continue;
        }
        let folder = scope.map_or_else(|| "any workspace folder".to_string(), |f| format!("the folder `{f}`"));
        out.problems.push(match dir {
            None => format!(
                "the `state` setting `{file}` is for the root module at the workspace folder, and {folder} is not \
                 one; name its directory instead: {{ \"ROOT_DIR\": \"{file}\" }}"
            ),
            Some(d) => format!(
                "the `state` setting names `{d}` for `{file}`, which is not the directory of a root module in {folder}"
            ),
        });
    }
    out
}

/// The change that gives the configured roots their states (read now; an unreadable file is `unreadable-state`).
pub fn read_configured(files: &BTreeMap<String, String>) -> Change {
    Change {
        states: files.iter().map(|(root, file)| (root.clone(), read_root_state(file, true))).collect(),
        ..Change::default()
    }
}

/// The state file of every root module: the configured one, else its local one (none with another backend).
pub fn sources(host: &AnalysisHost, configured: &BTreeMap<String, String>) -> Sources {
    let mut out: Sources = host.local_state_paths().into_iter().map(|(root, file)| (root, (file, false))).collect();
    for (root, file) in configured {
        out.insert(root.clone(), (file.clone(), true));
    }
    out
}

/// What to read again after files changed on disk: the roots whose state file is among `changed` or is not the
/// one read before (a `backend` block was edited), and the roots that no longer have one.
fn plan(old: &Sources, new: &Sources, changed: &HashSet<String>) -> (Vec<(String, String, bool)>, Vec<String>) {
    let read = new
        .iter()
        .filter(|(root, source)| changed.contains(&source.0) || old.get(*root) != Some(source))
        .map(|(root, (file, configured))| (root.clone(), file.clone(), *configured))
        .collect();
    let removed = old.keys().filter(|root| !new.contains_key(*root)).cloned().collect();
    (read, removed)
}

/// Applies `files` (OpenTofu files changed on disk), then re-reads the states `plan` names and drops the others'.
/// The states are read outside the host lock, one refresh at a time; an indexing started meanwhile reads them all
/// itself, and this refresh's result is dropped.
pub fn refresh(state: &State, files: Change, changed: &HashSet<String>) {
    let _one_at_a_time = state.state_reads.lock().unwrap_or_else(|e| e.into_inner());
    let generation = state.index_generation.load(Ordering::SeqCst);
    let (read, removed) = {
        let mut host = state.lock_host();
        host.host.apply_change(files);
        if host.listed_dirs.is_none() {
            // Not indexed yet: the indexing reads every state.
            return;
        }
        let new = sources(&host.host, &host.configured_states);
        let plan = plan(&host.state_sources, &new, changed);
        host.state_sources = new;
        plan
    };
    if read.is_empty() && removed.is_empty() {
        return;
    }
    let mut states: Vec<_> = removed.into_iter().map(|root| (root, None)).collect();
    for (root, file, configured) in read {
        tracing::info!("reading the state of `{root}` again from `{file}`");
        states.push((root, read_root_state(&file, configured)));
    }
    let mut host = state.lock_host();
    if state.index_generation.load(Ordering::SeqCst) == generation {
        host.host.apply_change(Change { states, ..Change::default() });
    }
}

/// `path` with its directory canonicalised when it exists (the file itself may not exist yet), so that it compares
/// equal to the paths of the analysis, which are canonical.
pub fn canonical_file(path: &Path) -> String {
    match (path.parent().map(Path::canonicalize), path.file_name()) {
        (Some(Ok(dir)), Some(name)) => path_string(&dir.join(name)),
        _ => path_string(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_state_is_read_again_when_its_file_changed_or_another_file_is_used() {
        let source = |f: &str, c: bool| (f.to_string(), c);
        let old: Sources = [("/a".into(), source("/a/terraform.tfstate", false)), ("/b".into(), source("/s", true))]
            .into_iter()
            .collect();
        let changed: HashSet<String> = ["/a/terraform.tfstate".to_string()].into_iter().collect();
        let (read, removed) = plan(&old, &old, &changed);
        assert_eq!(read, [("/a".to_string(), "/a/terraform.tfstate".to_string(), false)]);
        assert!(removed.is_empty());
        // `a` selected another workspace, `b` has a backend that keeps no local state, `c` is new.
        let new: Sources = [
            ("/a".into(), source("/a/terraform.tfstate.d/prod/terraform.tfstate", false)),
            ("/c".into(), source("/c/terraform.tfstate", false)),
        ]
        .into_iter()
        .collect();
        let (read, removed) = plan(&old, &new, &HashSet::new());
        assert_eq!(read.len(), 2);
        assert_eq!(removed, ["/b"]);
    }

    #[test]
    fn a_file_for_the_folder_or_a_map_of_root_directories() {
        let tmp = std::env::temp_dir().join(format!("foreach-lsp-state-files-{}", std::process::id()));
        for d in ["a", "b/envs/prod", "b/envs/dev"] {
            std::fs::create_dir_all(tmp.join(d)).unwrap();
        }
        let tmp = tmp.canonicalize().unwrap();
        let at = |p: &str| path_string(&tmp.join(p));
        let roots: Vec<Root> =
            ["a", "b"].iter().map(|n| Root { path: tmp.join(n), name: Some(n.to_string()) }).collect();
        let root_dirs: HashSet<String> = [at("a"), at("b/envs/prod"), at("b/envs/dev")].into_iter().collect();
        let config = Config::from_json(&json!({
            "state": "pulled.tfstate",
            "folders": {"b": {"state": {"envs/prod": "prod.tfstate", "envs/none": "x.tfstate"}}}
        }));
        let c = configured(&roots, &config, &root_dirs);
        assert_eq!(c.files.len(), 2, "{c:?}");
        assert_eq!(c.files[&at("a")], at("a/pulled.tfstate"));
        assert_eq!(c.files[&at("b/envs/prod")], at("b/prod.tfstate"));
        assert_eq!(c.problems.len(), 1, "{c:?}");
        assert!(c.problems[0].contains("`envs/none`"), "{c:?}");

        // Workspace-wide: a plain file fits folder `a` only, which is enough; a folder that is no root is reported
        // when the setting is its own.
        let config = Config::from_json(&json!({"state": "pulled.tfstate"}));
        assert_eq!(configured(&roots, &config, &root_dirs).problems, Vec::<String>::new());
        let config = Config::from_json(&json!({"folders": {"b": {"state": "pulled.tfstate"}}}));
        let c = configured(&roots, &config, &root_dirs);
        assert!(c.files.is_empty());
        assert!(c.problems[0].contains("ROOT_DIR"), "{c:?}");
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
