//! The queries over the state model: where each root keeps its local state, and how many resource instances each
//! provider instance binds. Apart from the model (`mod.rs`), which the database's inputs hold and so must not
//! depend on the database.

use std::collections::HashMap;
use std::sync::Arc;

use super::{RootState, StateBindings};
use crate::db::{Db, Workspace, module};

/// Where OpenTofu keeps the state of each root module when it is local: for each root directory, the path of the
/// state file of the workspace in effect (the one chosen explicitly, else the one `tofu workspace select` left in
/// `.terraform/environment`, else `default`). `terraform.tfstate` for `default`, else
/// `terraform.tfstate.d/<workspace>/terraform.tfstate`; a `backend "local"` block's literal `path` and
/// `workspace_dir` move them. A root with another backend (or a `cloud` block) keeps no local state.
pub fn local_state_paths(db: &dyn Db, ws: Workspace) -> Vec<(String, String)> {
    let tree = crate::tree::module_tree(db, ws);
    let mut out = Vec::new();
    for root in &tree.roots {
        let dir = tree.node(*root).dir;
        let m = module(db, dir);
        let mut path = "terraform.tfstate".to_string();
        let mut workspace_dir = "terraform.tfstate.d".to_string();
        if let Some(block) = m.backends.last().map(|b| &b.block) {
            if block.ident.name != "backend" || block.label(0) != Some("local") {
                continue;
            }
            let literal = |name: &str| block.body.attribute(name).and_then(|a| a.value.as_string_literal());
            path = literal("path").unwrap_or(path);
            workspace_dir = literal("workspace_dir").unwrap_or(workspace_dir);
        }
        let dir_path = dir.path(db);
        let workspace = crate::vars::root_workspace(db, ws, dir).unwrap_or_else(|| "default".to_string());
        let relative =
            if workspace == "default" { path } else { format!("{workspace_dir}/{workspace}/terraform.tfstate") };
        let full =
            if relative.starts_with('/') { relative } else { crate::paths::join_normalized(dir_path, &relative) };
        out.push((dir_path.clone(), full));
    }
    out
}

/// A root's readable state and how many resource instances it binds to each of its provider instances (by index).
pub type RootCounts = (Arc<StateBindings>, Arc<[usize]>);

/// [`RootCounts`] of every root module whose state could be read, by root directory. Memoised: hover asks on every
/// provider reference, and counting is linear in the state.
#[salsa::tracked(returns(clone))]
pub fn state_counts(db: &dyn Db, ws: Workspace) -> Arc<HashMap<String, RootCounts>> {
    let counts = ws
        .states(db)
        .iter()
        .filter_map(|(root, state)| match state {
            RootState::Bindings(b) => Some((root.clone(), (b.clone(), Arc::from(b.instances_per_provider())))),
            RootState::Unreadable { .. } => None,
        })
        .collect();
    Arc::new(counts)
}
