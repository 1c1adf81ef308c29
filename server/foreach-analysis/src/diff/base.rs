//! The configuration against a base revision's: both declared with the same values (`instances/`), compared node by
//! node, module instance by module instance and block by block, so that only what differs is looked at key by key.
//! The current configuration's `moved` blocks apply to the base's addresses, as OpenTofu applies them to the
//! prior state: a base instance they carry to a declared address is a move, not a destroy and a create.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::changes::{Action, Change, InsideProviders, RootDiff, Side, UnknownSet, block_address};
use super::declared_set::{Covered, DeclaredSet, LISTED};
use super::state::{call_location, module_provider};
use crate::instances::keys::Keys;
use crate::instances::moves::{InstanceAddress, follow};
use crate::instances::{DeclaredNode, DeclaredRoot, Found};
use crate::state::{ModuleStep, StateKey};

/// What changing the configuration from `base` to `current` does to the root's instances.
pub fn compare_base(base: &Arc<DeclaredRoot>, current: &Arc<DeclaredRoot>) -> RootDiff {
    let mut cmp = Comparison {
        base,
        current,
        out: RootDiff::default(),
        matched: HashSet::new(),
        creates: Vec::new(),
        moved_to: HashSet::new(),
        unknown: HashMap::new(),
        agreeing: Default::default(),
    };
    for (bi, bn) in base.nodes.iter().enumerate() {
        cmp.node(bi, bn);
    }
    cmp.finish()
}

struct Comparison<'a> {
    base: &'a Arc<DeclaredRoot>,
    current: &'a Arc<DeclaredRoot>,
    out: RootDiff,
    /// The current module instances a base one maps to: (node, instance).
    matched: HashSet<(usize, usize)>,
    /// Create candidates inside matched module instances (a move may still carry something there).
    creates: Vec<Change>,
    /// The addresses moves carry base instances to.
    moved_to: HashSet<InstanceAddress>,
    unknown: HashMap<(String, Arc<str>), UnknownSet>,
    /// Whether two provider uses (by address: each node's are shared by all its module instances) select the same
    /// provider instance for every key: asked once per pair, not once per module instance.
    agreeing: rustc_hash::FxHashMap<(usize, usize), bool>,
}

impl Comparison<'_> {
    fn node(&mut self, bi: usize, bn: &DeclaredNode) {
        for (path, why) in &bn.unknown {
            let call = bn.calls.last().map(|c| c.as_str()).unwrap_or_default();
            self.unknown_set(block_address(path, &format!("module.{call}")), why.clone(), None, Vec::new());
        }
        for (ii, path) in bn.instances.iter().enumerate() {
            let from = InstanceAddress { module: path.to_vec(), resource: None };
            let (to, by) = follow(&self.current.moves, from.clone());
            match self.current.find_module(&to.module) {
                Found::At { node, instance } => {
                    self.matched.insert((node, instance));
                    // Only where the move applies to this module instance itself, not to one above it.
                    if let Some(m) = by.filter(|m| m.at.len() + m.from.module.len() == path.len()) {
                        let mut c = Change::new(Action::Move, from);
                        c.to = Some(to.clone());
                        c.provider = module_provider(self.current, &to.module);
                        c.location = call_location(self.current, &to.module);
                        c.moved_by = Some(m.location);
                        self.out.changes.push(c);
                    }
                    self.blocks(bn, ii, path, node, instance, &to.module);
                }
                // Inside a module instance that is gone: reported there, with everything inside it.
                Found::Not { depth } if depth + 1 < path.len() => {}
                Found::Not { .. } => {
                    let mut c = Change::new(Action::Destroy, from);
                    c.provider = module_provider(self.base, path);
                    c.location = call_location(self.current, path)
                        .or_else(|| call_location(self.base, path).map(|(_, l)| (Side::Base, l)));
                    let set = DeclaredSet::new(self.base, Covered::Under { node: bi, path: path.clone() });
                    // Kept by reference when large, unless a `removed` block may forget some of it (`forget` then
                    // sorts the listed instances).
                    if set.len() > LISTED && self.current.removed.is_empty() {
                        let gone = |p: &crate::instances::providers::ProviderInstance| {
                            self.current.providers.has(p) == Some(false)
                        };
                        c.blocking |= set.any_provider(gone);
                        c.declared = Some(set);
                    } else {
                        for (address, provider) in instances_under(self.base, bi, path) {
                            c.blocking |= provider.is_some_and(|p| self.current.providers.has(&p) == Some(false));
                            c.inside.push(address);
                        }
                    }
                    self.out.changes.push(c);
                }
                Found::Resource { .. } => {}
                Found::Unknown { why, call } => {
                    // The call whose instances are not known: this module instance's, or one above it.
                    let instances = instances_under(self.base, bi, path).into_iter().map(|(a, _)| a).collect();
                    let depth = call.unwrap_or(path.len().saturating_sub(1)).min(path.len().saturating_sub(1));
                    let Some((name, _)) = path.get(depth) else { continue };
                    let location = call_location(self.current, &path[..=depth]);
                    self.unknown_set(
                        block_address(&path[..depth], &format!("module.{name}")),
                        why,
                        location,
                        instances,
                    );
                }
            }
        }
    }

    /// The resources of base module instance `path` (instance `bi_inst` of `bn`) against current module instance
    /// `cpath` (instance `ci_inst` of node `ci`).
    fn blocks(
        &mut self,
        bn: &DeclaredNode,
        bi_inst: usize,
        path: &[ModuleStep],
        ci: usize,
        ci_inst: usize,
        cpath: &[ModuleStep],
    ) {
        let current = self.current;
        let cn = &current.nodes[ci];
        let same_module = Arc::ptr_eq(&bn.module, &cn.module);
        let by_name: HashMap<(&str, &str), usize> = if same_module {
            HashMap::new()
        } else {
            cn.managed().map(|(i, r)| ((r.ty.as_str(), r.name.as_str()), i)).collect()
        };
        let mut seen_current = vec![false; cn.module.resources.len()];
        for (bidx, r) in bn.managed() {
            let cidx = if same_module { Some(bidx) } else { by_name.get(&(r.ty.as_str(), r.name.as_str())).copied() };
            let kb = bn.resource_keys(bidx, bi_inst);
            // Only named when its instances are not known: most blocks are compared without it.
            let block = || block_address(path, &format!("{}.{}", r.ty, r.name));
            if let Keys::Unknown(why) = kb {
                let location = cidx.map(|i| (Side::Current, cn.resource_location(i)));
                self.unknown_set(block(), why.clone(), location, Vec::new());
                if let Some(c) = cidx {
                    seen_current[c] = true;
                }
                continue;
            }
            let kc = match cidx {
                Some(c) => {
                    seen_current[c] = true;
                    cn.resource_keys(c, ci_inst)
                }
                None => &Keys::NONE,
            };
            if let Keys::Unknown(why) = kc {
                let instances = kb.iter().map(|k| resource(path, &r.ty, &r.name, k)).collect();
                let location = cidx.map(|i| (Side::Current, cn.resource_location(i)));
                self.unknown_set(block(), why.clone(), location, instances);
                continue;
            }
            let base_use = bn.providers[bidx].as_deref();
            let current_use = cidx.and_then(|c| cn.providers[c].as_deref());
            // The same provider instance for every key both sides declare: no rebind to look for key by key. (A
            // side whose provider is not known makes no rebind either: one needs both instances.)
            let same_provider = path == cpath
                && match (base_use, current_use) {
                    (Some(b), Some(c)) => *self
                        .agreeing
                        .entry((b as *const _ as usize, c as *const _ as usize))
                        .or_insert_with(|| b == c || b.agrees_with(c)),
                    _ => true,
                };
            if kb == kc && same_provider {
                continue;
            }
            for key in kb.iter() {
                if kc.contains(&key) == Some(true) {
                    // Kept: a rebind when its provider instance changes.
                    if same_provider {
                        continue;
                    }
                    let old = base_use.and_then(|u| u.instance(path, &key));
                    let new = current_use.and_then(|u| u.instance(cpath, &key));
                    if let (Some(old), Some(new)) = (old, new)
                        && !old.same(&new)
                    {
                        let mut c = Change::new(Action::Rebind, resource(path, &r.ty, &r.name, key));
                        c.provider = Some(old);
                        c.new_provider = Some(new);
                        c.location = cidx.map(|i| (Side::Current, cn.resource_location(i)));
                        self.out.changes.push(c);
                    }
                    continue;
                }
                let address = resource(path, &r.ty, &r.name, key.clone());
                let old = base_use.and_then(|u| u.instance(path, &key));
                self.gone(address, old, || match cidx {
                    Some(i) => Some((Side::Current, cn.resource_location(i))),
                    None => Some((Side::Base, bn.resource_location(bidx))),
                });
            }
            for key in kc.iter() {
                if kb.contains(&key) != Some(true) {
                    let new = current_use.and_then(|u| u.instance(cpath, &key));
                    let mut c = Change::new(Action::Create, resource(cpath, &r.ty, &r.name, key));
                    c.provider = new;
                    c.location = cidx.map(|i| (Side::Current, cn.resource_location(i)));
                    self.creates.push(c);
                }
            }
        }
        // Blocks only the current module has.
        for (cidx, r) in cn.managed() {
            if seen_current[cidx] {
                continue;
            }
            let kc = cn.resource_keys(cidx, ci_inst);
            if let Keys::Unknown(why) = kc {
                let block = block_address(cpath, &format!("{}.{}", r.ty, r.name));
                self.unknown_set(block, why.clone(), Some((Side::Current, cn.resource_location(cidx))), Vec::new());
                continue;
            }
            for key in kc.iter() {
                let mut c = Change::new(Action::Create, resource(cpath, &r.ty, &r.name, key.clone()));
                c.provider = cn.providers[cidx].as_ref().and_then(|u| u.instance(cpath, &key));
                c.location = Some((Side::Current, cn.resource_location(cidx)));
                self.creates.push(c);
            }
        }
    }

    /// A base resource instance not declared at its own address: moved, if a `moved` block carries it to a declared
    /// address; else destroyed.
    fn gone(
        &mut self,
        address: InstanceAddress,
        provider: Option<crate::instances::providers::ProviderInstance>,
        location: impl FnOnce() -> Option<(Side, crate::base::FileRange)>,
    ) {
        let (to, by) = follow(&self.current.moves, address.clone());
        if let (Some(m), Found::Resource { node, instance, index }) = (by, self.current.find(&to)) {
            let n = &self.current.nodes[node];
            let key = to.resource.as_ref().and_then(|(_, _, k)| k.clone());
            let new = n.providers[index].as_ref().and_then(|u| u.instance(&n.instances[instance], &key));
            let mut c = Change::new(Action::Move, address);
            c.new_provider = new.clone().filter(|n| provider.as_ref().is_some_and(|p| !p.same(n)));
            c.provider = new.or(provider);
            c.location = Some((Side::Current, n.resource_location(index)));
            c.moved_by = Some(m.location);
            self.moved_to.insert(to.clone());
            c.to = Some(to);
            self.out.changes.push(c);
            return;
        }
        let mut c = Change::new(Action::Destroy, address);
        c.blocking = provider.as_ref().is_some_and(|p| self.current.providers.has(p) == Some(false));
        c.provider = provider;
        c.location = location();
        self.out.changes.push(c);
    }

    fn unknown_set(
        &mut self,
        address: String,
        why: Arc<str>,
        location: Option<(Side, crate::base::FileRange)>,
        instances: Vec<InstanceAddress>,
    ) {
        self.unknown
            .entry((address.clone(), why.clone()))
            .or_insert_with(|| UnknownSet { address, why, location, instances: Vec::new() })
            .instances
            .extend(instances);
    }

    fn finish(mut self) -> RootDiff {
        let moved_to = std::mem::take(&mut self.moved_to);
        // What the current `import` blocks adopt: imports, not creates.
        let mut imported: HashMap<InstanceAddress, crate::base::FileRange> = HashMap::new();
        for import in &self.current.imports {
            match &import.to {
                Ok(targets) => imported.extend(targets.iter().map(|a| (a.clone(), import.location))),
                Err(why) => super::state::import_unknown(import, why, &mut self.unknown),
            }
        }
        let adopt = |mut c: Change| {
            if let Some(at) = imported.get(&c.address) {
                c.action = Action::Import;
                c.location = Some((Side::Current, *at));
            }
            c
        };
        let creates = std::mem::take(&mut self.creates);
        self.out.changes.extend(creates.into_iter().filter(|c| !moved_to.contains(&c.address)).map(adopt));
        // Current module instances no base one maps to: created with everything inside them.
        let mut new_modules: BTreeMap<Vec<ModuleStep>, Change> = BTreeMap::new();
        let mut inside = InsideProviders::default();
        // New module instances whose resource instances are kept as a set (`declared_set.rs`).
        let mut as_sets: HashSet<Vec<ModuleStep>> = HashSet::new();
        for (ci, cn) in self.current.nodes.iter().enumerate() {
            // A call whose instances are not known on the current side (on the base side too, or new).
            for (path, why) in &cn.unknown {
                let call = cn.calls.last().cloned().unwrap_or_default();
                let mut call_path = path.to_vec();
                call_path.push((call.clone(), None));
                let location = call_location(self.current, &call_path);
                self.unknown_set(block_address(path, &format!("module.{call}")), why.clone(), location, Vec::new());
            }
            for (ii, path) in cn.instances.iter().enumerate() {
                if self.matched.contains(&(ci, ii)) || path.is_empty() {
                    continue;
                }
                // Reported at the outermost new module instance.
                let outer = (1..=path.len()).find(|d| {
                    let prefix = &path[..*d];
                    self.current
                        .node_at(prefix.iter().map(|(c, _)| c.as_str()))
                        .and_then(|n| self.current.nodes[n].instance(prefix).map(|i| (n, i)))
                        .is_none_or(|at| !self.matched.contains(&at))
                });
                let Some(d) = outer else { continue };
                let in_set = as_sets.contains(&path[..d]);
                if d == path.len() && !in_set {
                    let set = DeclaredSet::new(self.current, Covered::Under { node: ci, path: path.clone() });
                    // A move or an import into the new module instance takes that instance out of it: listed one by one then.
                    let carried = moved_to.iter().chain(imported.keys()).any(|a| a.module.starts_with(path));
                    if set.len() > LISTED && !carried {
                        let mut c =
                            Change::new(Action::Create, InstanceAddress { module: path.to_vec(), resource: None });
                        c.provider = module_provider(self.current, path).or_else(|| set.provider());
                        c.location = call_location(self.current, path);
                        c.declared = Some(set);
                        self.out.changes.push(c);
                        as_sets.insert(path.to_vec());
                    }
                }
                if in_set || as_sets.contains(path.as_ref()) {
                    for (index, r) in cn.managed() {
                        if let Keys::Unknown(why) = cn.resource_keys(index, ii) {
                            let block = block_address(path, &format!("{}.{}", r.ty, r.name));
                            let location = Some((Side::Current, cn.resource_location(index)));
                            self.unknown_set(block, why.clone(), location, Vec::new());
                        }
                    }
                    continue;
                }
                let prefix = path[..d].to_vec();
                let change = new_modules.entry(prefix.clone()).or_insert_with(|| {
                    let mut c = Change::new(Action::Create, InstanceAddress { module: prefix.clone(), resource: None });
                    c.provider = module_provider(self.current, &prefix);
                    c.location = call_location(self.current, &prefix);
                    c
                });
                for (index, r) in cn.managed() {
                    match cn.resource_keys(index, ii) {
                        Keys::Unknown(why) => {
                            let block = block_address(path, &format!("{}.{}", r.ty, r.name));
                            let location = Some((Side::Current, cn.resource_location(index)));
                            self.unknown_set(block, why.clone(), location, Vec::new());
                        }
                        keys => {
                            for key in keys.iter() {
                                let a = resource(path, &r.ty, &r.name, key.clone());
                                if imported.contains_key(&a) {
                                    let mut c = Change::new(Action::Create, a);
                                    c.provider = cn.providers[index].as_ref().and_then(|u| u.instance(path, &key));
                                    self.out.changes.push(adopt(c));
                                } else if !moved_to.contains(&a) {
                                    let provider = cn.providers[index].as_ref().and_then(|u| u.instance(path, &key));
                                    inside.note(&prefix, provider);
                                    change.inside.push(a);
                                }
                            }
                        }
                    }
                }
            }
        }
        self.out.changes.extend(new_modules.into_values().map(|mut c| {
            inside.settle(&mut c);
            c
        }));
        self.out.unknown.extend(self.unknown.into_values());
        self.out.forget(&self.current.removed);
        self.out.sort();
        self.out
    }
}

fn resource(path: &[ModuleStep], ty: &str, name: &str, key: Option<StateKey>) -> InstanceAddress {
    InstanceAddress { module: path.to_vec(), resource: Some((ty.into(), name.into(), key)) }
}

/// Every resource instance of `root` inside the module instance `path` of node `node` (its own and its descendants'),
/// with its provider instance where known; instances whose keys are not known are left out.
fn instances_under(
    root: &DeclaredRoot,
    node: usize,
    path: &[ModuleStep],
) -> Vec<(InstanceAddress, Option<crate::instances::providers::ProviderInstance>)> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(ni) = stack.pop() {
        let n = &root.nodes[ni];
        for c in &n.calls_of {
            if let Ok(child) = c.target {
                stack.push(child);
            }
        }
        for (ii, p) in n.instances.iter().enumerate() {
            if !p.starts_with(path) {
                continue;
            }
            for (index, r) in n.managed() {
                for key in n.resource_keys(index, ii).iter() {
                    let provider = n.providers[index].as_ref().and_then(|u| u.instance(p, &key));
                    out.push((resource(p, &r.ty, &r.name, key), provider));
                }
            }
        }
    }
    out
}
