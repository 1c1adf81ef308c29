//! The module tree: which directories are root modules, and which directory each module call loads.
//!
//! A call's `source` (and `version`) is evaluated statically in the caller's scope, as OpenTofu 1.8+ does at
//! `tofu init`: `./modules/${var.env}` follows the caller's variables, which come from its own caller's arguments
//! down to the root's `.tfvars` (`init_values.rs` words the diagnostics when it cannot be known). Local sources
//! (`./x`, `../x`) are followed directly. Registry and git sources are looked up in the root's
//! `.terraform/modules/modules.json` when `tofu init` has written it, and are otherwise left unresolved without an
//! error (we can't fetch them). A call that would load one of its own ancestors is a cycle: it is reported once and
//! not followed, so a module calling itself or a symlink loop ends with a diagnostic instead of a hang.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use crate::base::FileRange;
use crate::db::{Db, ModuleDir, Workspace, dir_index};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::budget::Budget;
use crate::eval::{EvalContext, Evaluator, ModuleScope};
use crate::init_values::{Field, Outcome, StaticText, classify, diagnose, known_text, outcome_text};
use crate::instance_scope::{CallerArgs, instance_scope};
use crate::model::items::{Arg, ModuleCall};
use crate::paths::{is_local_source, join_normalized};

pub use crate::tree_model::{CallTarget, ChildCall, MAX_TREE_NODES, ModuleTree, NodeId, TreeNode};

/// Where a module call's source leads, before the tree is built.
enum SourceDir {
    Dir(String),
    Remote,
    NotLiteral,
}

fn call_source(parent_dir: &str, call: &ModuleCall) -> SourceDir {
    let Some(source) = call.source.as_ref() else { return SourceDir::NotLiteral };
    match source.expr().as_string_literal() {
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
        for call in dir.tree_calls(db).iter() {
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

    // Computed sources (`./modules/${var.env}`) are only known once the tree is walked: a directory they reach is
    // a child, not a root. `build` skips a candidate root already reached from an earlier one (roots are sorted, so
    // a caller usually comes before the directories under it); a root reached only from a later one is dropped
    // and the tree rebuilt (bounded: every pass removes at least one root).
    let mut tree = loop {
        let mut tree = ModuleTree::default();
        build(db, ws, &index, &mut tree, &mut unloaded, &roots, &config_dirs);
        let children: HashSet<ModuleDir> = tree.nodes.iter().filter(|n| n.parent.is_some()).map(|n| n.dir).collect();
        if !tree.roots.iter().any(|r| children.contains(&tree.node(*r).dir)) {
            break tree;
        }
        roots.retain(|r| !children.contains(r));
    };
    let mut unloaded: Vec<String> = unloaded.into_iter().collect();
    unloaded.sort();
    tree.unloaded_dirs = unloaded;
    Arc::new(tree)
}

/// Builds the tree from `roots`; every loaded directory not reached from them becomes a root of its own.
fn build(
    db: &dyn Db,
    ws: Workspace,
    index: &HashMap<String, ModuleDir>,
    tree: &mut ModuleTree,
    unloaded: &mut HashSet<String>,
    roots: &[ModuleDir],
    config_dirs: &[ModuleDir],
) {
    let mut builder = Builder {
        db,
        ws,
        index,
        tree,
        unloaded,
        reported: HashSet::new(),
        scopes: HashMap::new(),
        init_reports: HashMap::new(),
        reached: HashSet::new(),
    };
    for root in roots {
        if !builder.reached.contains(root) {
            builder.add_root(*root);
        }
    }
    // Directories only reachable through a cycle have no root: analyse each such directory as a root of its own so
    // that nothing loaded is silently skipped.
    let reached: HashSet<String> = builder.tree.nodes.iter().map(|n| n.dir.path(db).clone()).collect();
    for dir in config_dirs {
        if !reached.contains(dir.path(db)) && !dir.path(db).contains("/.terraform/") {
            builder.add_root(*dir);
        }
    }
    builder.finish_init_reports();
}

struct Builder<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    index: &'a HashMap<String, ModuleDir>,
    tree: &'a mut ModuleTree,
    unloaded: &'a mut HashSet<String>,
    /// Call sites already reported, so a shared module's problem is reported once, not once per instance.
    reported: HashSet<(FileRange, Code)>,
    /// Static scopes of the nodes with computed sources or versions (and their ancestors), built on demand: a tree
    /// of literal sources needs none. `tree_values` builds its own scopes later, to the same values.
    scopes: HashMap<NodeId, Rc<ModuleScope>>,
    /// Source/version diagnostics by site: the index of the reported one and the other call addresses with the
    /// same problem (a module called twice has one `source` line but two addresses, like the RFC's
    /// `common_first.helper` and `common_second.helper`).
    init_reports: HashMap<(FileRange, Code), (usize, Vec<String>)>,
    /// Directories with a node in the tree so far.
    reached: HashSet<ModuleDir>,
}

impl Builder<'_> {
    fn push(&mut self, node: TreeNode) -> Option<NodeId> {
        if self.tree.nodes.len() >= MAX_TREE_NODES {
            return None;
        }
        let id = NodeId(self.tree.nodes.len() as u32);
        self.reached.insert(node.dir);
        self.tree.nodes.push(Arc::new(node));
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
        let calls = node.dir.tree_calls(db).clone();
        let mut new_children = Vec::new();
        for call in calls.iter() {
            let mut call_path = node.call_path.clone();
            call_path.push(call.name.clone());
            let address = call_path.iter().map(|c| format!("module.{c}")).collect::<Vec<_>>().join(".");
            let source = self.eval_field(node_id, call.source.as_deref(), Field::ModuleSource { address: &address });
            let version = self.eval_field(node_id, call.version.as_deref(), Field::ModuleVersion { address: &address });
            let target_path = match source.as_ref().and_then(StaticText::known) {
                Some(s) if is_local_source(s) => Some(join_normalized(node.dir.path(db), s)),
                Some(_) => manifest.get(&call_path.join(".")).map(|rel| join_normalized(root.path(db), rel)),
                None => None,
            };
            let target = match target_path {
                None => CallTarget::Unresolved,
                Some(path) => self.resolve(node_id, &node, call, call_path, &path, &mut new_children),
            };
            Arc::make_mut(&mut self.tree.nodes[node_id.0 as usize]).children.push(ChildCall {
                call: call.name.clone(),
                target,
                source,
                version,
            });
        }
        new_children
    }

    /// Evaluates a `source` or `version` in the caller's static scope, reporting why when it is not known.
    fn eval_field(&mut self, node_id: NodeId, arg: Option<&Arg>, field: Field<'_>) -> Option<StaticText> {
        let arg = arg?;
        // The common case, a literal, needs no scope.
        if let Some(s) = arg.expr().as_string_literal() {
            return Some(StaticText::Known(s));
        }
        let scope = self.scope(node_id);
        let ctx = EvalContext { each: None, count: None, origin: field.origin() };
        let mut ev = Evaluator::new(&*scope, arg.file, &ctx, Budget::default());
        let value = ev.eval(&arg.expr());
        for d in std::mem::take(&mut ev.diagnostics) {
            self.report(d);
        }
        let outcome = classify(&value, &|_| false, false);
        if let Outcome::Known(v) = &outcome
            && let Err(e) = known_text(v)
        {
            let what = field.subject();
            self.report(Diagnostic::new(Code::EvaluationError, arg.expr_location(), format!("{what} {e}")));
            return Some(StaticText::Unknown(format!("the value {e}")));
        }
        if let Some(d) = diagnose(field, arg.expr_location(), &outcome) {
            self.report_init(d, field.address());
        }
        Some(outcome_text(&outcome))
    }

    /// Reports a source/version diagnostic once per site, remembering the other addresses that share it.
    fn report_init(&mut self, diag: Diagnostic, address: &str) {
        let key = (diag.location, diag.code);
        if let Some((_, others)) = self.init_reports.get_mut(&key) {
            if !others.iter().any(|a| a == address) {
                others.push(address.to_string());
            }
            return;
        }
        if self.reported.insert(key) {
            self.init_reports.insert(key, (self.tree.diagnostics.len(), Vec::new()));
            self.tree.diagnostics.push(diag);
        }
    }

    /// Names the other calls that share a reported source problem in its message.
    fn finish_init_reports(&mut self) {
        for (index, others) in self.init_reports.values() {
            if others.is_empty() {
                continue;
            }
            let list: Vec<String> = others.iter().map(|a| format!("`{a}`")).collect();
            self.tree.diagnostics[*index].message.push_str(&format!(" (the same for {})", list.join(", ")));
        }
    }

    /// The static scope of a node, building its ancestors' first (iteratively: trees can be deep).
    fn scope(&mut self, id: NodeId) -> Rc<ModuleScope> {
        let mut missing = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            if self.scopes.contains_key(&c) {
                break;
            }
            missing.push(c);
            cur = self.tree.node(c).parent;
        }
        for c in missing.into_iter().rev() {
            let node = self.tree.node(c);
            let parent = node.parent.and_then(|p| self.scopes.get(&p).cloned());
            let caller = CallerArgs::Building { tree: self.tree, parent_scope: parent.as_deref() };
            // Problems with the values themselves are reported by `tree_values`, not here.
            let scope = instance_scope(self.db, self.ws, node, caller, &mut Vec::new());
            self.scopes.insert(c, Rc::new(scope));
        }
        self.scopes[&id].clone()
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
