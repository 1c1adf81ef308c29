//! Whether a resource instance the state records is still declared by the configuration, after its `moved` blocks.
//!
//! OpenTofu takes the provider of a declared resource instance from the configuration (its `provider` argument, or
//! inheritance); the provider the state records is used only for orphans, the instances that are no longer
//! declared and must be destroyed (`NodeAbstractResource.ProvidedBy` and `resolveProvider` in OpenTofu's
//! `internal/tofu`). So a provider instance that is gone traps only orphans. An instance is declared when every
//! module call on its path still exists and has its instance key, and its resource block exists and has its key;
//! the keys come from the `for_each`, `count` and `enabled` of the blocks, evaluated statically in the module
//! instance (`instances/keys.rs`; in the scope of `module.a["x"]` itself where they depend on the repeated call's
//! `each`, `instances/scopes.rs`), after the `moved` blocks (`instances/moves.rs`). Where they are not known
//! statically (a `for_each` over a data source), whether it is declared is not known either, and the check says so
//! instead of guessing.

use std::collections::HashMap;
use std::sync::Arc;

use super::{StateBindings, StateKey, StateObject};
use crate::db::{Db, Workspace, module};
use crate::eval::Provisional;
use crate::instances::keys::{Keys, Meta, block_keys};
use crate::instances::moves::{InstanceAddress, Move, collect_moves, follow};
use crate::instances::scopes::InstanceScopes;
use crate::model::items::ResourceMode;
use crate::tree::{CallTarget, ModuleTree, NodeId};

/// What the configuration says of one resource instance of the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Declared {
    Yes,
    /// An orphan; `rests_on` are the defaults that may not be what runs the verdict rests on (`eval/provisional.rs`).
    No {
        rests_on: Option<Arc<Provisional>>,
    },
    /// Not known statically; why, in words (`the `for_each` of `aws_s3_bucket.b` …`).
    Unknown(String),
}

/// Answers [`Declared`] for the objects of one root module's state, evaluating each module instance once.
pub struct Declarations<'a> {
    db: &'a dyn Db,
    tree: &'a ModuleTree,
    root: NodeId,
    moves: Vec<Move>,
    scopes: InstanceScopes<'a>,
    by_resource: HashMap<(u32, Option<StateKey>), Declared>,
}

impl<'a> Declarations<'a> {
    pub fn new(db: &'a dyn Db, ws: Workspace, tree: &'a ModuleTree, root: NodeId) -> Declarations<'a> {
        let moves = collect_moves(db, ws, tree, root);
        Declarations { db, tree, root, moves, scopes: InstanceScopes::new(db, ws, tree), by_resource: HashMap::new() }
    }

    /// Whether `object` is still declared.
    pub fn of(&mut self, bindings: &StateBindings, object: &StateObject) -> Declared {
        let key = (object.resource, object.key.clone());
        if let Some(d) = self.by_resource.get(&key) {
            return d.clone();
        }
        let r = &bindings.resources[object.resource as usize];
        let address = InstanceAddress {
            module: r.module.to_vec(),
            resource: Some((r.ty.clone(), r.name.clone(), object.key.clone())),
        };
        let (address, _) = follow(&self.moves, address);
        let d = self.declared(&address);
        self.by_resource.insert(key, d.clone());
        d
    }

    fn declared(&mut self, address: &InstanceAddress) -> Declared {
        let mut node = self.root;
        let mut rests_on = None;
        for (depth, (call, key)) in address.module.iter().enumerate() {
            let m = module(self.db, self.tree.node(node).dir);
            let Some(c) = m.module_call(call) else { return Declared::No { rests_on } };
            let what = format!("module `{call}`");
            let meta =
                Meta { for_each: c.for_each.as_deref(), count: c.count.as_deref(), enabled: c.enabled.as_deref() };
            match self.has_key(node, &address.module[..depth], &what, meta, key) {
                Verdict::Yes(p) => rests_on = Provisional::union(rests_on, p.as_ref()),
                Verdict::No(p) => return Declared::No { rests_on: Provisional::union(rests_on, p.as_ref()) },
                Verdict::Unknown(why) => return Declared::Unknown(why),
            }
            let child = self.tree.node(node).children.iter().find(|ch| ch.call == call.as_str()).map(|ch| &ch.target);
            match child {
                Some(CallTarget::Node(id)) => node = *id,
                _ => return Declared::Unknown(format!("module `{call}` is not loaded here")),
            }
        }
        let Some((ty, name, key)) = &address.resource else { return Declared::Yes };
        let m = module(self.db, self.tree.node(node).dir);
        let Some(block) =
            m.resources.iter().find(|r| r.mode == ResourceMode::Managed && r.ty == *ty && r.name == *name)
        else {
            return Declared::No { rests_on };
        };
        let what = format!("`{ty}.{name}`");
        let meta = Meta { for_each: block.for_each(), count: block.count(), enabled: block.enabled() };
        match self.has_key(node, &address.module, &what, meta, key) {
            Verdict::Yes(_) => Declared::Yes,
            Verdict::No(p) => Declared::No { rests_on: Provisional::union(rests_on, p.as_ref()) },
            Verdict::Unknown(why) => Declared::Unknown(why),
        }
    }

    /// Whether a block with these `for_each`, `count` and `enabled` has the instance `key`, evaluated in the module
    /// instance `path` of `node` (with the `each` of the repeated calls on the path, where they matter).
    fn has_key(
        &mut self,
        node: NodeId,
        path: &[crate::state::ModuleStep],
        what: &str,
        meta: Meta<'_>,
        key: &Option<StateKey>,
    ) -> Verdict {
        let (mut keys, mut rests_on) = block_keys(&self.scopes.node(node), what, meta);
        if matches!(keys, Keys::Unknown(_))
            && let Some(scope) = self.scopes.instance(node, path)
        {
            (keys, rests_on) = block_keys(&scope, what, meta);
        }
        match keys.contains(key) {
            Some(true) => Verdict::Yes(rests_on),
            Some(false) => Verdict::No(rests_on),
            None => Verdict::Unknown(keys.unknown().unwrap_or_default().to_string()),
        }
    }
}

enum Verdict {
    Yes(Option<Arc<Provisional>>),
    No(Option<Arc<Provisional>>),
    Unknown(String),
}
