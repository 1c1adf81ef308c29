//! Resource instances a change covers, kept by reference to the configuration's declaration instead of address by
//! address. A large workspace against a state that holds little of it creates a million resource instances: listing
//! each as its own address and provider instance cost seconds and hundreds of megabytes before anything was
//! printed. A set is counted when it is made and spelled out only by what prints every instance (JSON, the editor's
//! instance list); the text formats show its first few.
//!
//! Only large sets are kept this way (more than [`LISTED`] instances): a small one is listed as before, so the
//! common case reads the same in every format.

use std::sync::Arc;

use crate::instances::moves::InstanceAddress;
use crate::instances::providers::ProviderInstance;
use crate::instances::{DeclaredNode, DeclaredRoot, ModulePath};
use crate::state::StateKey;

/// A set of at most this many instances is listed address by address.
pub const LISTED: usize = 10;

/// Which declared instances a set holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Covered {
    /// Every resource instance at or under the module instance `path` of node `node` (a new module instance).
    Under { node: usize, path: ModulePath },
    /// Every instance of these resources (by index in `module.resources`) of node `node`, in its module instance
    /// `instance`.
    Blocks { node: usize, instance: usize, resources: Vec<u32> },
}

/// Declared instances of `root`, with their number.
#[derive(Debug, Clone)]
pub struct DeclaredSet {
    root: Arc<DeclaredRoot>,
    covered: Covered,
    count: usize,
}

impl PartialEq for DeclaredSet {
    fn eq(&self, other: &DeclaredSet) -> bool {
        Arc::ptr_eq(&self.root, &other.root) && self.covered == other.covered
    }
}

impl Eq for DeclaredSet {}

impl DeclaredSet {
    pub fn new(root: &Arc<DeclaredRoot>, covered: Covered) -> DeclaredSet {
        let mut set = DeclaredSet { root: Arc::clone(root), covered, count: 0 };
        let mut count = 0;
        set.visit_keys(|_, _, _, keys| count += keys);
        set.count = count;
        set
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn covered(&self) -> &Covered {
        &self.covered
    }

    pub fn root(&self) -> &DeclaredRoot {
        &self.root
    }

    /// Each resource instance: its node, resource index, module instance path and key, in declaration order
    /// (nodes parents first, resources as written, keys sorted).
    pub fn visit(&self, mut f: impl FnMut(&DeclaredNode, usize, &ModulePath, Option<StateKey>)) {
        self.each_block(|node, index, path, ii| {
            for key in node.resource_keys(index, ii).iter() {
                f(node, index, path, key);
            }
        });
    }

    /// The first `n` instances' addresses, in declaration order.
    pub fn first(&self, n: usize) -> Vec<InstanceAddress> {
        let mut out = Vec::with_capacity(n.min(self.count));
        self.each_block(|node, index, path, ii| {
            // Blocks after the first `n` instances are passed over without looking at their keys.
            for key in node.resource_keys(index, ii).iter().take(n - out.len()) {
                out.push(instance_address(node, index, path, key));
            }
        });
        out
    }

    /// Every instance's address, in address order.
    pub fn addresses(&self) -> Vec<InstanceAddress> {
        let mut out = Vec::with_capacity(self.count);
        self.visit(|node, index, path, key| out.push(instance_address(node, index, path, key)));
        out.sort();
        out
    }

    /// Whether `a` is one of the instances.
    pub fn contains(&self, a: &InstanceAddress) -> bool {
        let mut found = false;
        self.each_block(|node, index, path, ii| {
            if found || path.as_ref() != a.module.as_slice() {
                return;
            }
            let r = &node.module.resources[index];
            if let Some((ty, name, key)) = &a.resource
                && ty.as_str() == r.ty.as_str()
                && name.as_str() == r.name.as_str()
            {
                found = node.resource_keys(index, ii).contains(key) == Some(true);
            }
        });
        found
    }

    /// The provider instance every instance of the set works through, when they all use the same one.
    pub fn provider(&self) -> Option<ProviderInstance> {
        let mut first: Option<ProviderInstance> = None;
        let mut same = true;
        self.each_block(|node, index, path, ii| {
            if !same {
                return;
            }
            let keys = node.resource_keys(index, ii);
            let Some(u) = node.providers.get(index).and_then(|u| u.as_deref()) else {
                same = keys.is_empty();
                return;
            };
            let mut check = |p: Option<ProviderInstance>| match (p, &first) {
                (None, _) => same = false,
                (Some(p), None) => first = Some(p),
                (Some(p), Some(f)) => same &= p.same(f),
            };
            if u.selects_by_own_key() {
                keys.iter().for_each(|key| check(u.instance(path, &key)));
            } else if !keys.is_empty() {
                // The same for every key of the block.
                check(u.instance(path, &None));
            }
        });
        if same { first } else { None }
    }

    /// Whether the provider instance of some instance of the set satisfies `f` (each block's provider instance
    /// is found once when it does not depend on the instance's own key).
    pub fn any_provider(&self, mut f: impl FnMut(&ProviderInstance) -> bool) -> bool {
        let mut found = false;
        self.each_block(|node, index, path, ii| {
            if found {
                return;
            }
            let Some(u) = node.providers.get(index).and_then(|u| u.as_deref()) else { return };
            let keys = node.resource_keys(index, ii);
            if u.selects_by_own_key() {
                found = keys.iter().any(|key| u.instance(path, &key).is_some_and(|p| f(&p)));
            } else if !keys.is_empty() {
                found = u.instance(path, &None).is_some_and(|p| f(&p));
            }
        });
        found
    }

    fn visit_keys(&self, mut f: impl FnMut(&DeclaredNode, usize, &ModulePath, usize)) {
        self.each_block(|node, index, path, ii| f(node, index, path, node.resource_keys(index, ii).len().unwrap_or(0)));
    }

    /// Each block of the set in each module instance: its node, resource index, module instance path and the
    /// instance's index in the node.
    fn each_block(&self, mut f: impl FnMut(&DeclaredNode, usize, &ModulePath, usize)) {
        match &self.covered {
            Covered::Blocks { node, instance, resources } => {
                let n = &self.root.nodes[*node];
                let Some(path) = n.instances.get(*instance) else { return };
                for index in resources {
                    f(n, *index as usize, path, *instance);
                }
            }
            Covered::Under { node, path } => {
                let mut stack = vec![*node];
                let mut order = Vec::new();
                while let Some(ni) = stack.pop() {
                    order.push(ni);
                    let n = &self.root.nodes[ni];
                    stack.extend(n.calls_of.iter().rev().filter_map(|c| c.target.as_ref().ok().copied()));
                }
                // Parents first, as the nodes are stored.
                order.sort_unstable();
                for ni in order {
                    let n = &self.root.nodes[ni];
                    for (ii, p) in n.instances.iter().enumerate() {
                        if !p.starts_with(path) {
                            continue;
                        }
                        for (index, _) in n.managed() {
                            f(n, index, p, ii);
                        }
                    }
                }
            }
        }
    }
}

/// The address of instance `key` of resource `index` of `node` in its module instance `path`, as [`DeclaredSet::visit`]
/// gives them.
pub fn instance_address(
    node: &DeclaredNode,
    index: usize,
    path: &ModulePath,
    key: Option<StateKey>,
) -> InstanceAddress {
    let r = &node.module.resources[index];
    InstanceAddress { module: path.to_vec(), resource: Some((r.ty.as_str().into(), r.name.as_str().into(), key)) }
}
