//! Code lenses on the `for_each` and `count` lines whose instance set differs from the state's: `3 instances · 1
//! not in state · 2 would be destroyed`, with the instances for the lens's command to list. It is the comparison
//! `foreach-ls diff` makes against the state (`foreach_analysis::diff`), over every root whose module tree holds the
//! file and that has a readable state. Nothing when no state is found, and nothing on a block whose instances are
//! not known statically (unknown is never guessed).

use std::collections::BTreeMap;

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace};
use foreach_analysis::diff::{Action, Side, compare_state};
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

#[derive(Default)]
struct Counts {
    declared: usize,
    /// A block whose instances are not known in some module instance: no lens.
    unknown: bool,
    created: Vec<String>,
    destroyed: Vec<String>,
}

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
        let Some(RootState::Bindings(bindings)) = states.get(tree.node(root).dir.path(db)) else { continue };
        if !nodes_under(&tree, root).into_iter().any(|id| tree.node(id).dir == dir) {
            continue;
        }
        let declared = declared_root(db, ws, &tree, root);
        for node in &declared.nodes {
            for (index, r) in node.managed() {
                let Some(arg) = r.for_each().or(r.count()) else { continue };
                let at = node.resource_location(index);
                if at.file != file || arg.location() != at {
                    continue;
                }
                let c = by_range.entry(key(at.range)).or_default();
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
                if at.file != file || arg.location() != at {
                    continue;
                }
                let c = by_range.entry(key(at.range)).or_default();
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
            let Some((Side::Current, at)) = change.location else { continue };
            let Some(c) = by_range.get_mut(&key(at.range)).filter(|_| at.file == file) else { continue };
            match change.action {
                Action::Create => c.created.push(change.address.to_string()),
                Action::Destroy => c.destroyed.push(change.address.to_string()),
                Action::Move | Action::Rebind | Action::Forget => {}
            }
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

fn key(range: TextRange) -> (u32, u32) {
    (range.start().into(), range.end().into())
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
