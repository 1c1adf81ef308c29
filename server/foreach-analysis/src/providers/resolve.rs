//! Which provider configuration — and which of its instances — every resource, data source and module call of every
//! module instance uses, walking up the module tree: an explicit `provider` argument, the implied default of the
//! resource type's provider, a configuration passed in by the caller's `providers` map, or the default inherited
//! from the caller when the call has no `providers` map (aliased configurations are never inherited).

use crate::db::{Db, Workspace, module};
use crate::module_eval::tree_values;
use crate::providers::config::{RefOwner, implied_provider};
use crate::providers::expand::SelectedKey;
use crate::tree::{ModuleTree, NodeId, module_tree};

/// How a block came to use its configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// `provider = aws.x` in the block itself.
    Explicit,
    /// No `provider` argument: the default configuration of the type's provider.
    Implied,
}

/// Where a configuration is finally declared, and through which hops it got here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The module instance that declares the configuration (or has it implied, when nothing declares it).
    pub declared_in: NodeId,
    /// `aws.by_region` in that module.
    pub config: String,
    /// Whether a `provider` block declares it (else it is an implied, unconfigured default).
    pub declared: bool,
    /// The module calls it was passed or inherited through, innermost first (`module.a`).
    pub via: Vec<String>,
    /// The instance keys selected, per instance of the selecting block, where known.
    pub keys: Vec<SelectedKey>,
    /// Which block selected `keys`: `None` for the block itself, `Some(i)` for the module call at step `i` of the
    /// module path (its `providers` map), whose instance keys `keys` are then by.
    pub keys_from: Option<usize>,
}

/// Resolves `name.alias` as seen from `node`, starting with the keys selected at the reference (if any).
pub fn resolve(
    db: &dyn Db,
    ws: Workspace,
    tree: &ModuleTree,
    node: NodeId,
    name: &str,
    alias: Option<&str>,
    keys: Vec<SelectedKey>,
) -> Resolution {
    let values = tree_values(db, ws);
    let mut current = node;
    let mut name = name.to_string();
    let mut alias = alias.map(str::to_string);
    let mut keys = keys;
    let mut keys_from = None;
    let mut via = Vec::new();
    // Bounded by the tree depth: each step goes to the parent.
    loop {
        let n = tree.node(current);
        let m = module(db, n.dir);
        let address = match &alias {
            Some(a) => format!("{name}.{a}"),
            None => name.clone(),
        };
        if m.providers.iter().any(|p| p.name == name && p.alias_name() == alias) {
            return Resolution { declared_in: current, config: address, declared: true, via, keys, keys_from };
        }
        let Some(parent) = n.parent else {
            return Resolution { declared_in: current, config: address, declared: false, via, keys, keys_from };
        };
        let pm = module(db, tree.node(parent).dir);
        let call_name = n.call_path.last().cloned().unwrap_or_default();
        let Some((call_index, call)) = pm.module_calls.iter().enumerate().find(|(_, c)| c.name == call_name) else {
            return Resolution { declared_in: current, config: address, declared: false, via, keys, keys_from };
        };
        via.push(format!("module.{call_name}"));
        if call.providers.is_some() {
            let parent_values = &values.instances[parent.0 as usize];
            let passed =
                parent_values.providers.uses.iter().find(
                    |u| matches!(&u.owner, RefOwner::ModuleCall(i, child) if *i == call_index && *child == address),
                );
            match passed {
                Some(u) => {
                    let (n2, a2) = match u.config.split_once('.') {
                        Some((n2, a2)) => (n2.to_string(), Some(a2.to_string())),
                        None => (u.config.clone(), None),
                    };
                    name = n2;
                    alias = a2;
                    if !u.keys.is_empty() {
                        keys = u.keys.clone();
                        keys_from = Some(n.call_path.len() - 1);
                    }
                    current = parent;
                }
                // A `providers` map turns inheritance off: an unlisted configuration is an implied empty one.
                None => {
                    return Resolution { declared_in: current, config: address, declared: false, via, keys, keys_from };
                }
            }
        } else if alias.is_none() {
            current = parent;
        } else {
            return Resolution { declared_in: current, config: address, declared: false, via, keys, keys_from };
        }
    }
}

/// What a resource or module call uses, for every block of every module instance.
#[derive(Debug, Clone)]
pub struct BlockUse {
    pub node: NodeId,
    pub owner: RefOwner,
    pub how: How,
    pub resolution: Resolution,
}

pub fn all_uses(db: &dyn Db, ws: Workspace) -> Vec<BlockUse> {
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    let mut out = Vec::new();
    for (i, node) in tree.nodes.iter().enumerate() {
        let id = NodeId(i as u32);
        let m = module(db, node.dir);
        let uses = &values.instances[i].providers.uses;
        for (ri, r) in m.resources.iter().enumerate() {
            let explicit = uses.iter().find(|u| u.owner == RefOwner::Resource(ri));
            let (name, alias, keys, how) = match explicit {
                Some(u) => {
                    let (n, a) = split(&u.config);
                    (n, a, u.keys.clone(), How::Explicit)
                }
                None if r.provider().is_some() => continue, // malformed reference, reported elsewhere
                None => (implied_provider(&r.ty).to_string(), None, Vec::new(), How::Implied),
            };
            let resolution = resolve(db, ws, &tree, id, &name, alias.as_deref(), keys);
            out.push(BlockUse { node: id, owner: RefOwner::Resource(ri), how, resolution });
        }
        for u in uses.iter().filter(|u| matches!(u.owner, RefOwner::ModuleCall(..))) {
            let (n, a) = split(&u.config);
            let resolution = resolve(db, ws, &tree, id, &n, a.as_deref(), u.keys.clone());
            out.push(BlockUse { node: id, owner: u.owner.clone(), how: How::Explicit, resolution });
        }
    }
    out
}

fn split(config: &str) -> (String, Option<String>) {
    match config.split_once('.') {
        Some((n, a)) => (n.to_string(), Some(a.to_string())),
        None => (config.to_string(), None),
    }
}
