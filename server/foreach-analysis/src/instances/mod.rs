//! Every resource instance and module instance a root module declares, statically: the module instances of every
//! node of its tree (a repeated call's keys), the instance keys of every managed resource and module call in each,
//! the provider instance each works through, and the root's `moved` blocks. `diff` compares two of these, or one
//! with a state (`diff/`); the state's findings ask the same evaluation whether an instance is still declared
//! (`state/declared.rs`).
//!
//! It stays compact on a large workspace: blocks without `for_each`, `count` or `enabled` store nothing (one
//! instance, no key), and a block's keys are evaluated once per node, in the node's scope, unless they depend on
//! the `each` or `count` of a repeated call above it; then once per module instance (`scopes.rs`). Modules are
//! shared with the analysis (`Arc`), not copied. Data sources are left out: they are never destroyed.

pub mod keys;
pub mod moves;
pub mod providers;
pub mod scopes;

use std::collections::HashMap;
use std::sync::Arc;

use smol_str::SmolStr;

use crate::base::FileRange;
use crate::db::{Db, Workspace, module};
use crate::model::items::{Resource, ResourceMode};
use crate::model::module::Module;
use crate::providers::config::RefOwner;
use crate::state::ModuleStep;
use crate::tree::{CallTarget, ModuleTree, NodeId};
use keys::{Keys, Meta, block_keys};
use moves::{Import, Move, Removed, collect_imports, collect_moves, collect_removed};
use providers::{ProviderInstances, ProviderUse, Resolver};
use scopes::InstanceScopes;

/// A module instance path: `[("site", Some("eu"))]` for `module.site["eu"]`, empty for the root.
pub type ModulePath = Arc<[ModuleStep]>;

/// What a root module declares.
#[derive(Debug, Clone)]
pub struct DeclaredRoot {
    /// The root module's directory.
    pub dir: String,
    /// Every node of the root's tree, parents first; the root is the first.
    pub nodes: Vec<DeclaredNode>,
    /// The `moved` blocks of every module of the tree.
    pub moves: Vec<Move>,
    /// The `removed` blocks of every module of the tree.
    pub removed: Vec<Removed>,
    /// The root module's `import` blocks.
    pub imports: Vec<Import>,
    pub providers: ProviderInstances,
}

/// One node of the module tree: a module reached through a path of calls, with all its instances.
#[derive(Debug, Clone)]
pub struct DeclaredNode {
    /// The call names from the root.
    pub calls: Vec<SmolStr>,
    /// The node's parent, by index in [`DeclaredRoot::nodes`].
    pub parent: Option<usize>,
    pub module: Arc<Module>,
    /// The module instances whose keys are known.
    pub instances: Vec<ModulePath>,
    /// By instance path: its index in `instances`.
    instance_index: rustc_hash::FxHashMap<ModulePath, u32>,
    /// Module instances of the parent whose call's keys are not known: the parent's path and why.
    pub unknown: Vec<(ModulePath, Arc<str>)>,
    /// The managed resources with `for_each`, `count` or `enabled`, by index in `module.resources`: their keys.
    /// Every other managed resource has one instance without a key.
    keyed: HashMap<u32, PerInstance>,
    /// Each managed resource's provider (by index in `module.resources`; `None` for a data source or a malformed
    /// reference).
    pub providers: Vec<Option<Arc<ProviderUse>>>,
    /// The module calls, by index in `module.module_calls`.
    pub calls_of: Vec<DeclaredCall>,
    /// By call name: its index in `module.module_calls` (a root may have a thousand calls, and every module
    /// instance path is looked up step by step).
    call_index: rustc_hash::FxHashMap<SmolStr, u32>,
}

/// A module call of a node: its keys in each instance of the node, and where it leads.
#[derive(Debug, Clone)]
pub struct DeclaredCall {
    pub keys: PerInstance,
    /// The child node (index in [`DeclaredRoot::nodes`]), or why it is not followed.
    pub target: Result<usize, Arc<str>>,
    /// The provider of the first entry of its `providers` map, if any (for grouping its instances).
    pub provider: Option<Arc<ProviderUse>>,
}

/// Keys of a block: the same in every instance of its module, or per instance (by index in
/// [`DeclaredNode::instances`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerInstance {
    Same(Keys),
    Each(Vec<Keys>),
}

impl PerInstance {
    pub fn get(&self, instance: usize) -> &Keys {
        static UNKNOWN: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
        match self {
            PerInstance::Same(k) => k,
            PerInstance::Each(v) => v.get(instance).unwrap_or_else(|| UNKNOWN.get_or_init(|| Keys::Unknown("".into()))),
        }
    }
}

impl DeclaredNode {
    /// The keys of managed resource `index` in instance `instance`.
    pub fn resource_keys(&self, index: usize, instance: usize) -> &Keys {
        static SINGLE: Keys = Keys::Single;
        match self.keyed.get(&(index as u32)) {
            Some(k) => k.get(instance),
            None => &SINGLE,
        }
    }

    /// The keys of managed resource `index`, if they are the same in every instance.
    pub fn resource_keys_everywhere(&self, index: usize) -> Option<&Keys> {
        static SINGLE: Keys = Keys::Single;
        match self.keyed.get(&(index as u32)) {
            Some(PerInstance::Same(k)) => Some(k),
            Some(PerInstance::Each(_)) => None,
            None => Some(&SINGLE),
        }
    }

    /// The index in `module.module_calls` of the call named `name`.
    pub fn call(&self, name: &str) -> Option<usize> {
        self.call_index.get(name).map(|i| *i as usize)
    }

    /// The index of module instance `path`.
    pub fn instance(&self, path: &[ModuleStep]) -> Option<usize> {
        self.instance_index.get(path).map(|i| *i as usize)
    }

    /// The managed resources of the module, with their index in `module.resources`.
    pub fn managed(&self) -> impl Iterator<Item = (usize, &Resource)> {
        self.module.resources.iter().map(|r| &**r).enumerate().filter(|(_, r)| r.mode == ResourceMode::Managed)
    }

    /// The managed resource `ty.name`, by index in `module.resources`.
    pub fn resource(&self, ty: &str, name: &str) -> Option<usize> {
        self.managed().find(|(_, r)| r.ty == ty && r.name == name).map(|(i, _)| i)
    }

    /// Where a resource's instances are decided: its `for_each`/`count`/`enabled`, else its name.
    pub fn resource_location(&self, index: usize) -> FileRange {
        let r = &self.module.resources[index];
        r.for_each().or(r.count()).or(r.enabled()).map(|a| a.location()).unwrap_or_else(|| r.site.name_location())
    }

    /// Where a call's instances are decided.
    pub fn call_location(&self, index: usize) -> FileRange {
        let c = &self.module.module_calls[index];
        c.for_each
            .as_deref()
            .or(c.count.as_deref())
            .or(c.enabled.as_deref())
            .map(|a| a.location())
            .unwrap_or_else(|| c.site.name_location())
    }
}

impl DeclaredRoot {
    /// A root that declares nothing: the other side of a root the change adds or deletes.
    pub fn empty(dir: String) -> DeclaredRoot {
        let path = ModulePath::from([]);
        let root = DeclaredNode {
            calls: Vec::new(),
            parent: None,
            module: Arc::new(Module::default()),
            instances: vec![path.clone()],
            instance_index: [(path, 0)].into_iter().collect(),
            unknown: Vec::new(),
            keyed: HashMap::new(),
            providers: Vec::new(),
            calls_of: Vec::new(),
            call_index: Default::default(),
        };
        DeclaredRoot {
            dir,
            nodes: vec![root],
            moves: Vec::new(),
            removed: Vec::new(),
            imports: Vec::new(),
            providers: ProviderInstances::default(),
        }
    }

    /// The node reached through these call names.
    pub fn node_at<'s>(&self, calls: impl IntoIterator<Item = &'s str>) -> Option<usize> {
        let mut at = 0;
        for call in calls {
            let node = self.nodes.get(at)?;
            let index = node.call(call)?;
            at = *node.calls_of.get(index)?.target.as_ref().ok()?;
        }
        Some(at)
    }

    /// What the configuration says of a module instance path: where it is, or why not.
    pub fn find_module(&self, path: &[ModuleStep]) -> Found {
        let mut node = 0;
        let mut instance = 0;
        for (depth, (call, key)) in path.iter().enumerate() {
            let n = &self.nodes[node];
            let Some(ci) = n.call(call) else {
                return Found::Not { depth };
            };
            let c = &n.calls_of[ci];
            match c.keys.get(instance).contains(key) {
                None => {
                    let why = c.keys.get(instance).unknown().unwrap_or_default().into();
                    return Found::Unknown { why, call: Some(depth) };
                }
                Some(false) => return Found::Not { depth },
                Some(true) => {}
            }
            let child = match &c.target {
                Ok(child) => *child,
                Err(why) => return Found::Unknown { why: why.clone(), call: Some(depth) },
            };
            node = child;
            match self.nodes[node].instance(&path[..=depth]) {
                Some(i) => instance = i,
                None => {
                    let why = "the module instance's keys are not known here".into();
                    return Found::Unknown { why, call: Some(depth) };
                }
            }
        }
        Found::At { node, instance }
    }

    /// What the configuration says of a resource instance.
    pub fn find(&self, address: &moves::InstanceAddress) -> Found {
        let (node, instance) = match self.find_module(&address.module) {
            Found::At { node, instance } => (node, instance),
            other => return other,
        };
        let Some((ty, name, key)) = &address.resource else { return Found::At { node, instance } };
        let n = &self.nodes[node];
        let Some(index) = n.resource(ty, name) else { return Found::Not { depth: address.module.len() } };
        match n.resource_keys(index, instance) {
            Keys::Unknown(why) => Found::Unknown { why: why.clone(), call: None },
            keys if keys.contains(key) == Some(true) => Found::Resource { node, instance, index },
            _ => Found::Not { depth: address.module.len() },
        }
    }
}

/// Where an address is in the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A module instance.
    At { node: usize, instance: usize },
    /// A resource instance: its node, module instance and index in `module.resources`.
    Resource { node: usize, instance: usize, index: usize },
    /// Not declared: the first `depth` steps of the module path are (`depth` equal to the path's length: the
    /// module instance is, the resource instance is not).
    Not { depth: usize },
    /// Not known statically: why, and where: the module call at step `call` of the module path (its instances are
    /// not known, or it is not followed), or (`None`) the resource's own instances.
    Unknown { why: Arc<str>, call: Option<usize> },
}

/// Everything root `root` declares.
pub fn declared_root(db: &dyn Db, ws: Workspace, tree: &ModuleTree, root: NodeId) -> DeclaredRoot {
    let mut scopes = InstanceScopes::new(db, ws, tree);
    let mut resolver = Resolver::new(db, ws, tree);
    let mut out = DeclaredRoot {
        dir: tree.node(root).dir.path(db).clone(),
        nodes: Vec::new(),
        moves: collect_moves(db, ws, tree, root),
        removed: collect_removed(db, ws, tree, root),
        imports: Vec::new(),
        providers: ProviderInstances::default(),
    };
    out.imports = collect_imports(db, ws, tree, root, &scopes.node(root));
    // Parents first: a node's instances come from its parent's call keys.
    let mut queue: std::collections::VecDeque<(NodeId, Option<(usize, usize)>)> = [(root, None)].into();
    while let Some((id, parent)) = queue.pop_front() {
        let tree_node = tree.node(id);
        let m = module(db, tree_node.dir);
        let calls: Vec<SmolStr> = tree_node.call_path.iter().map(SmolStr::new).collect();
        let (instances, unknown) = match parent {
            None => (vec![ModulePath::from([])], Vec::new()),
            Some((p, call)) => child_instances(&out.nodes[p], call, calls.last().cloned().unwrap_or_default()),
        };
        let instance_index = instances.iter().enumerate().map(|(i, p)| (p.clone(), i as u32)).collect();
        let index = out.nodes.len();
        let mut node = DeclaredNode {
            calls,
            parent: parent.map(|(p, _)| p),
            module: m.clone(),
            instances,
            instance_index,
            unknown,
            keyed: HashMap::new(),
            providers: Vec::new(),
            calls_of: Vec::new(),
            // The first of two calls of one name, as a linear search finds it (a duplicate is an error elsewhere).
            call_index: m
                .module_calls
                .iter()
                .enumerate()
                .rev()
                .map(|(i, c)| (SmolStr::new(&c.name), i as u32))
                .collect(),
        };
        if *crate::module_eval::has_instances(db, ws, id) {
            out.providers.add(db, ws, id, &node.calls, &m);
        }
        let prefix = tree_node.address();
        let qualified = |own: String| if prefix.is_empty() { own } else { format!("{prefix}.{own}") };
        for (i, r) in m.resources.iter().enumerate() {
            let managed = r.mode == ResourceMode::Managed;
            let provider = if managed { resolver.block(id, &m, &RefOwner::Resource(i)) } else { None };
            node.providers.push(provider);
            let meta = Meta { for_each: r.for_each(), count: r.count(), enabled: r.enabled() };
            if !managed || meta.is_empty() {
                continue;
            }
            let what = format!("`{}`", qualified(r.address()));
            node.keyed.insert(i as u32, keys_per_instance(&mut scopes, id, &node.instances, &what, meta));
        }
        for (i, c) in m.module_calls.iter().enumerate() {
            let meta =
                Meta { for_each: c.for_each.as_deref(), count: c.count.as_deref(), enabled: c.enabled.as_deref() };
            let what = format!("`{}`", qualified(format!("module.{}", c.name)));
            let keys = if meta.is_empty() {
                PerInstance::Same(Keys::Single)
            } else {
                keys_per_instance(&mut scopes, id, &node.instances, &what, meta)
            };
            let target = match tree_node.children.iter().find(|ch| ch.call == c.name).map(|ch| &ch.target) {
                Some(CallTarget::Node(child)) => {
                    queue.push_back((*child, Some((index, i))));
                    // The child's index: every node queued before it gets one first.
                    Ok(usize::MAX)
                }
                _ => Err(Arc::from(format!("module `{}` is not loaded here", qualified(format!("module.{}", c.name))))),
            };
            let provider = resolver.block(id, &m, &RefOwner::ModuleCall(i, String::new()));
            node.calls_of.push(DeclaredCall { keys, target, provider });
        }
        out.nodes.push(node);
    }
    link_children(&mut out);
    out
}

/// Sets each call's target to its child's index: nodes were added in the order their calls were queued.
fn link_children(out: &mut DeclaredRoot) {
    let mut next = 1;
    for n in 0..out.nodes.len() {
        for c in 0..out.nodes[n].calls_of.len() {
            if out.nodes[n].calls_of[c].target.is_ok() {
                out.nodes[n].calls_of[c].target = Ok(next);
                next += 1;
            }
        }
    }
}

/// The instances of the child of call `call` (index in the parent's calls) named `name`: for each instance of the
/// parent, one per key of the call there.
fn child_instances(
    parent: &DeclaredNode,
    call: usize,
    name: SmolStr,
) -> (Vec<ModulePath>, Vec<(ModulePath, Arc<str>)>) {
    let keys = &parent.calls_of[call].keys;
    let mut instances = Vec::new();
    let mut unknown: Vec<(ModulePath, Arc<str>)> = Vec::new();
    for (i, path) in parent.instances.iter().enumerate() {
        match keys.get(i) {
            Keys::Unknown(why) => unknown.push((path.clone(), why.clone())),
            k => {
                for key in k.iter() {
                    let mut p = path.to_vec();
                    p.push((name.clone(), key));
                    instances.push(ModulePath::from(p));
                }
            }
        }
    }
    // What is not known above stays unknown below.
    for (path, why) in &parent.unknown {
        unknown.push((path.clone(), why.clone()));
    }
    (instances, unknown)
}

/// A block's keys: from the node's scope when they do not depend on a repeated call's `each` or `count`, else
/// evaluated in each module instance.
fn keys_per_instance(
    scopes: &mut InstanceScopes<'_>,
    node: NodeId,
    instances: &[ModulePath],
    what: &str,
    meta: Meta<'_>,
) -> PerInstance {
    let (keys, _) = block_keys(&scopes.node(node), what, meta);
    let repeated = instances.iter().any(|p| p.iter().any(|(_, k)| k.is_some()));
    if !matches!(keys, Keys::Unknown(_)) || !repeated {
        return PerInstance::Same(keys);
    }
    let per: Vec<Keys> = instances
        .iter()
        .map(|path| match scopes.instance(node, path) {
            Some(scope) => block_keys(&scope, what, meta).0,
            None => keys.clone(),
        })
        .collect();
    if per.windows(2).all(|w| w[0] == w[1]) && !per.is_empty() {
        return PerInstance::Same(per[0].clone());
    }
    PerInstance::Each(per)
}
