//! The static scope of one module instance of a repeated call: `module.site["eu"]` rather than `module.site`.
//!
//! The module tree has one node per call path, and its scope (`module_eval::scope_for_node`) leaves the calls'
//! `each` and `count` unknown, since the RFC keeps them out of everything evaluated early. The instances a resource
//! declares are evaluated at plan time, with `each` known: `module "site" { for_each = var.sites; buckets =
//! each.value.buckets }` declares the buckets of each site. Where a block's instances are not known in the node's
//! scope, this builds the scope of each module instance on the path, its calls' arguments evaluated with that
//! instance's `each.key`/`each.value` or `count.index`, parents first and each once.

use std::collections::HashMap;
use std::rc::Rc;

use crate::db::{Db, Workspace, module};
use crate::eval::{EvalContext, ModuleScope, Value};
use crate::instance_scope::{CallerArgs, instance_scope};
use crate::module_eval::scope_for_node;
use crate::providers::expand::instance_keys;
use crate::state::{ModuleStep, StateKey};
use crate::tree::{ModuleTree, NodeId};

/// The scopes of module instances, by module instance path, built on demand.
pub struct InstanceScopes<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    tree: &'a ModuleTree,
    /// The node scopes (each/count unknown), by node.
    nodes: HashMap<NodeId, Rc<ModuleScope>>,
    /// The scopes of module instances under a repeated call, by path.
    keyed: HashMap<Vec<ModuleStep>, Rc<ModuleScope>>,
}

impl<'a> InstanceScopes<'a> {
    pub fn new(db: &'a dyn Db, ws: Workspace, tree: &'a ModuleTree) -> InstanceScopes<'a> {
        InstanceScopes { db, ws, tree, nodes: HashMap::new(), keyed: HashMap::new() }
    }

    /// The scope of `node` with its calls' `each` and `count` unknown: exact for every instance of a node no
    /// repeated call leads to.
    pub fn node(&mut self, node: NodeId) -> Rc<ModuleScope> {
        let (db, ws, tree) = (self.db, self.ws, self.tree);
        self.nodes.entry(node).or_insert_with(|| Rc::new(scope_for_node(db, ws, tree.node(node)).0)).clone()
    }

    /// The scope of the module instance `path` of `node` (its steps are the node's call path with keys); `None`
    /// when a key on the path is not one of its call's instances.
    pub fn instance(&mut self, node: NodeId, path: &[ModuleStep]) -> Option<Rc<ModuleScope>> {
        if path.iter().all(|(_, key)| key.is_none()) {
            return Some(self.node(node));
        }
        if let Some(scope) = self.keyed.get(path) {
            return Some(scope.clone());
        }
        let n = self.tree.node(node);
        let parent = n.parent?;
        let (last, parent_path) = path.split_last()?;
        let parent_scope = self.instance(parent, parent_path)?;
        let parent_module = module(self.db, self.tree.node(parent).dir);
        let call = parent_module.module_call(&last.0)?;
        let origin = format!("module.{} argument", last.0);
        let ctx = match &last.1 {
            None => EvalContext { origin, ..EvalContext::default() },
            Some(StateKey::Int(i)) => EvalContext { count: Some(Value::int(*i)), origin, ..EvalContext::default() },
            Some(StateKey::Str(k)) => {
                let for_each = call.for_each.as_deref()?;
                let all = parent_scope.eval(
                    for_each.file,
                    &for_each.expr(),
                    &EvalContext { origin: "for_each".into(), ..EvalContext::default() },
                );
                let (_, value) = instance_keys(&all).ok()?.into_iter().find(|(key, _)| key == k.as_str())?;
                EvalContext { each: Some((Value::string(k.as_str()), value)), origin, ..EvalContext::default() }
            }
        };
        let tree = self.tree;
        let (db, ws) = (self.db, self.ws);
        let node_of = |id: NodeId| tree.nodes.get(id.0 as usize).cloned();
        let caller = CallerArgs::Keyed { node_of: &node_of, parent_scope: &parent_scope, ctx };
        let scope = Rc::new(instance_scope(db, ws, n, caller, &mut Vec::new()));
        self.keyed.insert(path.to_vec(), scope.clone());
        Some(scope)
    }
}
