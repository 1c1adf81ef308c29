//! Code lenses on the `for_each` and `count` lines whose instance set differs from the state's: `3 instances · 1
//! not in state · 2 would be destroyed`, with the instances for the lens's command to list. It is the comparison
//! `foreach-ls diff` makes against the state (`foreach_analysis::diff`), over every root whose module tree holds the
//! file and that has a readable state. Nothing when no state is found, and nothing on a block whose instances are
//! not known statically (unknown is never guessed). The expansion and the comparison are one query per root
//! ([`root_counts`]), so the lens and inlay-hint requests that follow every scroll reuse them until something they
//! read changes.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use foreach_analysis::base::{FileId, FileRange};
use foreach_analysis::db::{Db, Workspace};
use foreach_analysis::diff::{Action, Side, compare_state, instance_address};
use foreach_analysis::instances::declared_root;
use foreach_analysis::state::RootState;
use foreach_analysis::tree::{CallTarget, ModuleTree, NodeId, module_tree};
use foreach_syntax::TextRange;

use super::{dir_of, source_file};

/// One lens: where (the `for_each`/`count` argument), its title, and the addresses its command lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceLens {
    pub range: TextRange,
    pub title: String,
    pub instances: Vec<String>,
}

/// What one `for_each`/`count` argument's lens counts, in one root or summed over the roots that use its module.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Counts {
    declared: usize,
    /// A block whose instances are not known in some module instance: no lens.
    unknown: bool,
    created: Vec<String>,
    destroyed: Vec<String>,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.declared += other.declared;
        self.unknown |= other.unknown;
        self.created.extend(other.created.iter().cloned());
        self.destroyed.extend(other.destroyed.iter().cloned());
    }
}

/// One root's counts, by the file and range of the `for_each`/`count` argument, for every file of its module tree.
type RootCounts = BTreeMap<(FileId, u32, u32), Counts>;

pub(crate) fn instance_lenses(db: &dyn Db, ws: Workspace, file: FileId) -> Vec<InstanceLens> {
    let states = ws.states(db);
    if states.is_empty() {
        return Vec::new();
    }
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    let Some(dir) = dir_of(db, ws, f) else { return Vec::new() };
    let tree = module_tree(db, ws);
    let mut by_range: BTreeMap<(u32, u32), Counts> = BTreeMap::new();
    for &root in &tree.roots {
        if !matches!(states.get(tree.node(root).dir.path(db)), Some(RootState::Bindings(_))) {
            continue;
        }
        if !nodes_under(&tree, root).into_iter().any(|id| tree.node(id).dir == dir) {
            continue;
        }
        let counts = root_counts(db, ws, root);
        for ((_, start, end), c) in counts.range((file, 0, 0)..=(file, u32::MAX, u32::MAX)) {
            by_range.entry((*start, *end)).or_default().add(c);
        }
    }
    by_range
        .into_iter()
        .filter(|(_, c)| !c.unknown && (!c.created.is_empty() || !c.destroyed.is_empty()))
        .map(|((start, end), c)| InstanceLens {
            range: TextRange::new(start.into(), end.into()),
            title: title(&c),
            instances: c
                .destroyed
                .iter()
                .map(|a| format!("would be destroyed: {a}"))
                .chain(c.created.iter().map(|a| format!("not in state: {a}")))
                .collect(),
        })
        .collect()
}

/// A root's declared instances compared with its state, counted per `for_each`/`count` argument.
///
/// A query: expanding every instance of a root is the costly part of a lens, and the editor asks for lenses (or
/// inlay hints) of each visible file again after every keystroke and scroll. Salsa keeps the answer until something
/// it read changes (a file of the root's module tree, the state, the settings and variables, all inputs of the
/// workspace), so no hand-made cache and generation counter can miss an invalidation; an edit that changes no count
/// still re-runs it, but then the lenses of every other file of the root reuse the new answer.
#[salsa::tracked(returns(clone))]
fn root_counts(db: &dyn Db, ws: Workspace, root: NodeId) -> Arc<RootCounts> {
    computed(db, ws, root);
    let tree = module_tree(db, ws);
    let states = ws.states(db);
    let Some(RootState::Bindings(bindings)) = states.get(tree.node(root).dir.path(db)) else {
        return Arc::new(RootCounts::new());
    };
    let mut by_range = RootCounts::new();
    let declared = Arc::new(declared_root(db, ws, &tree, root));
    for node in &declared.nodes {
        for (index, r) in node.managed() {
            let Some(arg) = r.for_each().or(r.count()) else { continue };
            let at = node.resource_location(index);
            if arg.location() != at {
                continue;
            }
            let c = by_range.entry(key(at)).or_default();
            for ii in 0..node.instances.len() {
                match node.resource_keys(index, ii).len() {
                    Some(n) => c.declared += n,
                    None => c.unknown = true,
                }
            }
            c.unknown |= !node.unknown.is_empty();
        }
        for (index, call) in node.module.module_calls.iter().enumerate() {
            let Some(arg) = call.for_each.as_deref().or(call.count.as_deref()) else { continue };
            let at = node.call_location(index);
            if arg.location() != at {
                continue;
            }
            let c = by_range.entry(key(at)).or_default();
            for ii in 0..node.instances.len() {
                match node.calls_of[index].keys.get(ii).len() {
                    Some(n) => c.declared += n,
                    None => c.unknown = true,
                }
            }
            c.unknown |= !node.unknown.is_empty();
        }
    }
    let diff = compare_state(bindings, &declared);
    for change in &diff.changes {
        // Each instance of the blocks the state has none of counts at the line of its own block.
        if let Some(set) = change.declared.as_ref().filter(|_| change.is_blocks()) {
            set.visit(|node, index, path, instance_key| {
                if let Some(c) = by_range.get_mut(&key(node.resource_location(index))) {
                    c.created.push(instance_address(node, index, path, instance_key).to_string());
                }
            });
            continue;
        }
        let Some((Side::Current, at)) = change.location else { continue };
        let Some(c) = by_range.get_mut(&key(at)) else { continue };
        match change.action {
            Action::Create => c.created.push(change.address.to_string()),
            Action::Destroy => c.destroyed.push(change.address.to_string()),
            // An import creates nothing (and is located at its `import` block).
            Action::Move | Action::Rebind | Action::Forget | Action::Import => {}
        }
    }
    Arc::new(by_range)
}

fn key(at: FileRange) -> (FileId, u32, u32) {
    (at.file, at.range.start().into(), at.range.end().into())
}

/// How many times [`root_counts`] ran, by root directory, once [`count_lens_computations`] has been called (the
/// language server's test hooks do): a test checks with it that a second request reuses the first one's answer.
/// `None` in normal use, so nothing is counted nor kept.
static COMPUTED: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

fn computed(db: &dyn Db, ws: Workspace, root: NodeId) {
    if COMPUTED.lock().unwrap_or_else(|e| e.into_inner()).is_none() {
        return;
    }
    let dir = module_tree(db, ws).node(root).dir.path(db).clone();
    if let Some(counts) = COMPUTED.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        *counts.entry(dir).or_default() += 1;
    }
}

/// Starts counting the computations of the lenses (test hooks only).
pub fn count_lens_computations() {
    COMPUTED.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new);
}

/// How many times the lenses of the root at directory `root` were computed since counting started.
pub fn lens_computations(root: &str) -> usize {
    COMPUTED.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|c| c.get(root).copied()).unwrap_or(0)
}

/// `3 instances · 1 not in state · 2 would be destroyed`.
fn title(c: &Counts) -> String {
    let mut parts = vec![if c.declared == 1 { "1 instance".to_string() } else { format!("{} instances", c.declared) }];
    if !c.created.is_empty() {
        parts.push(format!("{} not in state", c.created.len()));
    }
    if !c.destroyed.is_empty() {
        parts.push(format!("{} would be destroyed", c.destroyed.len()));
    }
    parts.join(" · ")
}

/// Every node of the tree under `root` (itself included).
pub(crate) fn nodes_under(tree: &ModuleTree, root: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        out.push(id);
        stack.extend(tree.node(id).children.iter().filter_map(|c| match c.target {
            CallTarget::Node(child) => Some(child),
            _ => None,
        }));
    }
    out
}
