//! Module calls across directories: the directories a call loads and the calls that load a directory, read from
//! the module tree (every instance of a module is one node, so results are deduplicated by directory).

use std::collections::BTreeSet;

use foreach_analysis::db::{Db, ModuleDir, Workspace};
use foreach_analysis::tree::{CallTarget, module_tree};

/// The directories a module call of `dir` named `call` loads (one per distinct target, usually one).
pub(crate) fn child_dirs(db: &dyn Db, ws: Workspace, dir: ModuleDir, call: &str) -> Vec<ModuleDir> {
    let tree = module_tree(db, ws);
    let mut out: Vec<ModuleDir> = Vec::new();
    for node in tree.nodes.iter().filter(|n| n.dir == dir) {
        for c in node.children.iter().filter(|c| c.call == call) {
            if let CallTarget::Node(id) = c.target {
                let d = tree.node(id).dir;
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// The module calls (caller directory, call name) that load `dir`.
pub(crate) fn callers(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Vec<(ModuleDir, String)> {
    let tree = module_tree(db, ws);
    let mut out = BTreeSet::new();
    for node in tree.nodes.iter() {
        for c in &node.children {
            if let CallTarget::Node(id) = c.target
                && tree.node(id).dir == dir
            {
                out.insert((node.dir.path(db).clone(), c.call.clone()));
            }
        }
    }
    let dirs = foreach_analysis::db::dir_index(db, ws);
    out.into_iter().filter_map(|(p, call)| dirs.get(&p).map(|d| (*d, call))).collect()
}
