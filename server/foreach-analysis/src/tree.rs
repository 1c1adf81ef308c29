//! The module tree: which directories are root modules, and which directory each module call loads.
//!
//! Local sources (`./x`, `../x`) are followed directly. Registry and git sources are looked up in the root's
//! `.terraform/modules/modules.json` when `tofu init` has written it, and are otherwise left unresolved without an
//! error (we can't fetch them). A call that would load one of its own ancestors is a cycle: it is reported once and
//! not followed, so a module calling itself or a symlink loop ends with a diagnostic instead of a hang.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::base::FileRange;
use crate::db::{Db, ModuleDir, Workspace, dir_index, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::items::ModuleCall;
use crate::paths::{is_local_source, join_normalized};

/// An upper bound on module instances in the tree: a diamond of calls can otherwise grow exponentially.
pub const MAX_TREE_NODES: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// One module in the tree: a root module, or a module call's target reached through a path of calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    pub dir: ModuleDir,
    pub parent: Option<NodeId>,
    /// The call names from the root (`["common", "helper"]` for `module.common.module.helper`).
    pub call_path: Vec<String>,
    pub children: Vec<ChildCall>,
}

impl TreeNode {
    /// `module.common.module.helper`, or `""` for a root.
    pub fn address(&self) -> String {
        self.call_path.iter().map(|c| format!("module.{c}")).collect::<Vec<_>>().join(".")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildCall {
    pub call: String,
    pub target: CallTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallTarget {
    /// Loaded and part of the tree.
    Node(NodeId),
    /// A registry/git source not installed by `tofu init` here, or a source we cannot evaluate yet.
    Unresolved,
    /// Reported: missing directory, cycle, or tree too large.
    Broken,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleTree {
    pub nodes: Vec<TreeNode>,
    pub roots: Vec<NodeId>,
    pub diagnostics: Vec<Diagnostic>,
    /// Local directories that calls point to but the host has not loaded yet.
    pub unloaded_dirs: Vec<String>,
}

impl ModuleTree {
    pub fn node(&self, id: NodeId) -> &TreeNode {
        &self.nodes[id.0 as usize]
    }
}

/// Where a module call's source leads, before the tree is built.
enum SourceDir {
    Dir(String),
    Remote,
    NotLiteral,
}

fn call_source(parent_dir: &str, call: &ModuleCall) -> SourceDir {
    let Some(source) = call.source.as_ref() else { return SourceDir::NotLiteral };
    match source.expr.as_string_literal() {
        Some(s) if is_local_source(&s) => SourceDir::Dir(join_normalized(parent_dir, &s)),
        Some(_) => SourceDir::Remote,
        None => SourceDir::NotLiteral,
    }
}

/// `modules.json` as written by `tofu init`: module key (`a.b`) -> directory relative to the root.
fn manifest_dirs(text: &str) -> HashMap<String, String> {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return HashMap::new() };
    let mut out = HashMap::new();
    for m in json.get("Modules").and_then(|m| m.as_array()).into_iter().flatten() {
        if let (Some(key), Some(dir)) = (m.get("Key").and_then(|k| k.as_str()), m.get("Dir").and_then(|d| d.as_str())) {
            out.insert(key.to_string(), dir.to_string());
        }
    }
    out
}

#[salsa::tracked(returns(clone))]
pub fn module_tree(db: &dyn Db, ws: Workspace) -> Arc<ModuleTree> {
    let index = dir_index(db, ws);
    let mut tree = ModuleTree::default();
    let mut unloaded: HashSet<String> = HashSet::new();

    // A directory is a root unless some loaded module calls it through a local source, or it was installed by
    // `tofu init` (under `.terraform/`).
    let config_dirs: Vec<ModuleDir> = ws
        .dirs(db)
        .iter()
        .copied()
        .filter(|d| d.exists(db) && d.files(db).iter().any(|f| f.kind(db).is_config()))
        .collect();
    let mut called: HashSet<String> = HashSet::new();
    for dir in &config_dirs {
        for call in &module(db, *dir).module_calls {
            if let SourceDir::Dir(target) = call_source(dir.path(db), call) {
                match index.get(&target) {
                    Some(d) if d.path(db) != dir.path(db) => {
                        called.insert(d.path(db).clone());
                    }
                    Some(_) => {}
                    None => {
                        unloaded.insert(target);
                    }
                }
            }
        }
    }
    let mut roots: Vec<ModuleDir> = config_dirs
        .iter()
        .copied()
        .filter(|d| !called.contains(d.path(db)) && !d.path(db).contains("/.terraform/"))
        .collect();
    roots.sort_by(|a, b| a.path(db).cmp(b.path(db)));

    let mut builder =
        Builder { db, ws, index: &index, tree: &mut tree, unloaded: &mut unloaded, reported: HashSet::new() };
    for root in &roots {
        builder.add_root(*root);
    }
    // Directories only reachable through a cycle have no root: analyse each such directory as a root of its own so
    // that nothing loaded is silently skipped.
    let reached: HashSet<String> = builder.tree.nodes.iter().map(|n| n.dir.path(db).clone()).collect();
    for dir in &config_dirs {
        if !reached.contains(dir.path(db)) && !dir.path(db).contains("/.terraform/") {
            builder.add_root(*dir);
        }
    }
    let mut unloaded: Vec<String> = unloaded.into_iter().collect();
    unloaded.sort();
    tree.unloaded_dirs = unloaded;
    Arc::new(tree)
}

struct Builder<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    index: &'a HashMap<String, ModuleDir>,
    tree: &'a mut ModuleTree,
    unloaded: &'a mut HashSet<String>,
    /// Call sites already reported, so a shared module's problem is reported once, not once per instance.
    reported: HashSet<(FileRange, Code)>,
}

impl Builder<'_> {
    fn push(&mut self, node: TreeNode) -> Option<NodeId> {
        if self.tree.nodes.len() >= MAX_TREE_NODES {
            return None;
        }
        let id = NodeId(self.tree.nodes.len() as u32);
        self.tree.nodes.push(node);
        Some(id)
    }

    fn report(&mut self, diag: Diagnostic) {
        if self.reported.insert((diag.location, diag.code)) {
            self.tree.diagnostics.push(diag);
        }
    }

    fn add_root(&mut self, dir: ModuleDir) {
        let Some(id) = self.push(TreeNode { dir, parent: None, call_path: Vec::new(), children: Vec::new() }) else {
            return;
        };
        self.tree.roots.push(id);
        let manifest = self.ws.manifests(self.db).get(dir.path(self.db)).map(|t| manifest_dirs(t)).unwrap_or_default();
        // Iterative depth-first walk: module trees can be deep, recursion would risk the stack.
        let mut stack = vec![id];
        while let Some(node_id) = stack.pop() {
            let children = self.expand(node_id, dir, &manifest);
            stack.extend(children.into_iter().rev());
        }
    }

    /// Resolves the calls of one node, adding child nodes; returns the new children to walk.
    fn expand(&mut self, node_id: NodeId, root: ModuleDir, manifest: &HashMap<String, String>) -> Vec<NodeId> {
        let db = self.db;
        let node = self.tree.node(node_id).clone();
        let module = module(db, node.dir);
        let mut new_children = Vec::new();
        for call in &module.module_calls {
            let mut call_path = node.call_path.clone();
            call_path.push(call.name.clone());
            let target_path = match call_source(node.dir.path(db), call) {
                SourceDir::Dir(p) => Some(p),
                SourceDir::Remote => manifest.get(&call_path.join(".")).map(|rel| join_normalized(root.path(db), rel)),
                SourceDir::NotLiteral => None,
            };
            let target = match target_path {
                None => CallTarget::Unresolved,
                Some(path) => self.resolve(node_id, &node, call, call_path, &path, &mut new_children),
            };
            self.tree.nodes[node_id.0 as usize].children.push(ChildCall { call: call.name.clone(), target });
        }
        new_children
    }

    fn resolve(
        &mut self,
        node_id: NodeId,
        node: &TreeNode,
        call: &ModuleCall,
        call_path: Vec<String>,
        path: &str,
        new_children: &mut Vec<NodeId>,
    ) -> CallTarget {
        let db = self.db;
        let source_loc = call.source.as_ref().map(|s| s.expr_location()).unwrap_or(call.site.name_location());
        let Some(dir) = self.index.get(path).copied() else {
            self.unloaded.insert(path.to_string());
            return CallTarget::Unresolved;
        };
        if !dir.exists(db) || !dir.files(db).iter().any(|f| f.kind(db).is_config()) {
            let why = if dir.exists(db) { "has no .tf or .tofu files" } else { "does not exist" };
            self.report(Diagnostic::new(
                Code::ModuleNotFound,
                source_loc,
                format!("module `{}` loads `{}`, which {why}; fix the `source` path", call.name, dir.path(db)),
            ));
            return CallTarget::Broken;
        }
        // Cycle: the target is this node's directory or one of its ancestors'.
        let mut ancestor = Some(node_id);
        while let Some(a) = ancestor {
            let anode = self.tree.node(a);
            if anode.dir == dir {
                let chain = node.call_path.iter().chain(std::iter::once(&call.name)).map(|c| format!("module.{c}"));
                self.report(Diagnostic::new(
                    Code::ModuleCycle,
                    source_loc,
                    format!(
                        "module `{}` loads `{}`, which is already being loaded by this chain of calls ({}); OpenTofu \
                         would recurse forever",
                        call.name,
                        dir.path(db),
                        chain.collect::<Vec<_>>().join(" -> ")
                    ),
                ));
                return CallTarget::Broken;
            }
            ancestor = anode.parent;
        }
        match self.push(TreeNode { dir, parent: Some(node_id), call_path, children: Vec::new() }) {
            Some(child) => {
                new_children.push(child);
                CallTarget::Node(child)
            }
            None => {
                self.report(Diagnostic::new(
                    Code::ModuleTreeTooLarge,
                    source_loc,
                    format!(
                        "the module tree has more than {MAX_TREE_NODES} module instances; foreach-ls stops following \
                         calls here"
                    ),
                ));
                CallTarget::Broken
            }
        }
    }
}
