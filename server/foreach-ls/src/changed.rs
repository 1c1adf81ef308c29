//! `check --changed FILE...`: which root modules to check for a set of changed files (what pre-commit passes).
//!
//! A file in a root module selects that root. A file in a called module selects the roots that call it, directly
//! or through other modules, so the module is checked with its callers' values (checked alone, its variables
//! would be unknown and most of its provider keys unchecked). Callers are found by loading everything under the
//! current directory once; only the selected roots are then checked, as `check ROOT...` would.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use foreach_analysis::tree::{ModuleTree, NodeId, module_tree};
use foreach_load::{LoadError, LoadOptions, load, path_string};

/// The root module directories that contain or call the modules holding `files`, deduplicated and sorted.
/// Files in no module (a README, a directory without OpenTofu files) select nothing.
pub fn roots_for(files: &[PathBuf], opts: &LoadOptions<'_>) -> Result<Vec<PathBuf>, LoadError> {
    let cwd = std::env::current_dir().map_err(|e| LoadError(format!("cannot read the current directory: {e}")))?;
    let dirs: Vec<PathBuf> = files.iter().filter_map(|f| containing_dir(&cwd.join(f))).collect();
    // Search for callers under the current directory, plus any changed file's directory outside it.
    let mut search = vec![cwd.clone()];
    search.extend(dirs.iter().filter(|d| !d.starts_with(&cwd)).cloned());
    let loaded = load(&LoadOptions {
        paths: &search,
        excludes: opts.excludes,
        ordered_vars: opts.ordered_vars,
        env_vars: opts.env_vars.clone(),
        workspace_name: opts.workspace_name.clone(),
        states: &[],
        project_excludes: opts.project_excludes,
        texts: opts.texts,
    })?;
    let tree = module_tree(loaded.host.db(), loaded.host.workspace());
    let db = loaded.host.db();

    let mut roots = BTreeSet::new();
    for dir in &dirs {
        // The nearest enclosing module: a test file in `tests/` belongs to the module above it.
        let Some(nodes) = dir.ancestors().map(|d| nodes_in(&tree, db, d)).find(|n| !n.is_empty()) else { continue };
        for node in nodes {
            let mut id = node;
            while let Some(parent) = tree.node(id).parent {
                id = parent;
            }
            roots.insert(PathBuf::from(tree.node(id).dir.path(db)));
        }
    }
    Ok(roots.into_iter().collect())
}

/// The canonical directory a changed path is in (itself for a directory); a deleted file's directory if it
/// still exists.
fn containing_dir(path: &Path) -> Option<PathBuf> {
    let dir = if path.is_dir() { path } else { path.parent()? };
    dir.canonicalize().ok()
}

/// Every place in the tree where the module in `dir` is used (a module called twice appears twice).
fn nodes_in(tree: &ModuleTree, db: &dyn foreach_analysis::db::Db, dir: &Path) -> Vec<NodeId> {
    let dir = path_string(dir);
    (0..tree.nodes.len() as u32).map(NodeId).filter(|&id| tree.node(id).dir.path(db) == &dir).collect()
}
