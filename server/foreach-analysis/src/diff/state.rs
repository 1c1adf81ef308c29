//! The configuration against a state: each managed resource instance of the state, after the `moved` blocks, is
//! still declared (kept, moved, or rebound when the configuration now gives it another provider instance), no
//! longer declared (destroyed: through the provider instance the state records, which must still exist; a
//! module instance that is gone is destroyed with everything inside it), or not known. Every declared instance the
//! state lacks is created (a new module instance with everything inside it).

use std::collections::{BTreeMap, HashMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};

use std::sync::Arc;

use super::changes::{Action, Change, InsideProviders, RootDiff, Side, UnknownSet, block_address};
use super::declared_set::{Covered, DeclaredSet, LISTED};
use crate::instances::keys::Keys;
use crate::instances::moves::{InstanceAddress, follow};
use crate::instances::providers::{ProviderConfig, ProviderInstance, ProviderUse};
use crate::instances::{DeclaredRoot, Found, ModulePath};
use crate::state::{ModuleStep, StateBindings, StateKey};

/// What applying the configuration `current` would do to the instances of `state`.
pub fn compare_state(state: &StateBindings, current: &Arc<DeclaredRoot>) -> RootDiff {
    let mut out = RootDiff::default();
    // The declared instances the state has (after moves): node, module instance, resource index, key.
    let mut matched: FxHashSet<(usize, usize, usize, Option<StateKey>)> = FxHashSet::default();
    // Every module instance path holding a matched instance, with its prefixes.
    let mut occupied: FxHashSet<Vec<ModuleStep>> = FxHashSet::default();
    let mut gone_modules: BTreeMap<Vec<ModuleStep>, Change> = BTreeMap::new();
    let mut unknown: HashMap<(String, Arc<str>), UnknownSet> = HashMap::new();
    let providers: Vec<ProviderInstance> = state
        .providers
        .iter()
        .map(|p| {
            let local = current.providers.local_name(&p.module, &crate::state::address::normalise_source(&p.source));
            ProviderInstance { config: ProviderConfig::of_state(p, local).into(), key: p.key.clone() }
        })
        .collect();
    let mut seen = HashSet::new();
    for object in state.objects.iter().filter(|o| o.deposed.is_none()) {
        if !seen.insert((object.resource, object.key.clone())) {
            continue;
        }
        let r = &state.resources[object.resource as usize];
        let address = InstanceAddress {
            module: r.module.to_vec(),
            resource: Some((r.ty.clone(), r.name.clone(), object.key.clone())),
        };
        let old_provider = providers[object.provider as usize].clone();
        let (moved, by) = follow(&current.moves, address.clone());
        match current.find(&moved) {
            Found::Resource { node, instance, index } => {
                let key = moved.resource.as_ref().and_then(|(_, _, k)| k.clone());
                matched.insert((node, instance, index, key.clone()));
                for depth in 0..=moved.module.len() {
                    occupied.insert(moved.module[..depth].to_vec());
                }
                let n = &current.nodes[node];
                let new_provider = n.providers[index].as_ref().and_then(|u| u.instance(&n.instances[instance], &key));
                let rebound = new_provider.as_ref().is_some_and(|p| !p.same(&old_provider));
                if moved != address {
                    let mut c = Change::new(Action::Move, address);
                    c.to = Some(moved);
                    c.provider = new_provider.clone().or(Some(old_provider.clone()));
                    c.new_provider = if rebound { new_provider } else { None };
                    c.location = Some((Side::Current, n.resource_location(index)));
                    c.moved_by = by.map(|m| m.location);
                    out.changes.push(c);
                } else if rebound {
                    let mut c = Change::new(Action::Rebind, address);
                    c.provider = Some(old_provider);
                    c.new_provider = new_provider;
                    c.location = Some((Side::Current, n.resource_location(index)));
                    out.changes.push(c);
                }
            }
            Found::Not { depth } if depth < moved.module.len() => {
                // A module instance that is gone: destroyed with everything inside it.
                let prefix = moved.module[..=depth].to_vec();
                let blocking = current.providers.has(&old_provider) == Some(false);
                let c = gone_modules.entry(prefix.clone()).or_insert_with(|| {
                    let mut c =
                        Change::new(Action::Destroy, InstanceAddress { module: prefix.clone(), resource: None });
                    c.location = call_location(current, &prefix);
                    c.provider = Some(old_provider.clone());
                    c
                });
                if c.provider.as_ref() != Some(&old_provider) {
                    // Resources of several provider instances: grouped under none.
                    c.provider = c.provider.take().filter(|p| p.same(&old_provider));
                }
                c.blocking |= blocking;
                c.inside.push(address);
            }
            Found::Not { .. } => {
                let mut c = Change::new(Action::Destroy, address);
                c.blocking = current.providers.has(&old_provider) == Some(false);
                c.provider = Some(old_provider);
                c.location = resource_location(current, &moved);
                out.changes.push(c);
            }
            Found::At { .. } => {}
            Found::Unknown { why, call } => {
                // The block whose instances are not known: a module call on the path, or the resource.
                let (block, location) = match (call, &moved.resource) {
                    (Some(d), _) => (
                        block_address(&moved.module[..d], &format!("module.{}", moved.module[d].0)),
                        call_location(current, &moved.module[..=d]),
                    ),
                    (None, Some((ty, name, _))) => {
                        (block_address(&moved.module, &format!("{ty}.{name}")), resource_location(current, &moved))
                    }
                    (None, None) => continue,
                };
                unknown
                    .entry((block.clone(), why.clone()))
                    .or_insert_with(|| UnknownSet { address: block, why, location, instances: Vec::new() })
                    .instances
                    .push(address);
            }
        }
    }
    out.changes.extend(gone_modules.into_values());
    imports(current, &mut matched, &mut occupied, &mut out, &mut unknown);
    creates(current, &matched, &occupied, &mut out, &mut unknown);
    out.unknown.extend(unknown.into_values());
    out.forget(&current.removed);
    out.sort();
    out
}

/// The declared instances the state lacks that an `import` block adopts: imports, not creates (an import of an
/// instance the state has is a no-op for OpenTofu, and one of an undeclared address an error it reports itself).
fn imports(
    current: &DeclaredRoot,
    matched: &mut FxHashSet<(usize, usize, usize, Option<StateKey>)>,
    occupied: &mut FxHashSet<Vec<ModuleStep>>,
    out: &mut RootDiff,
    unknown: &mut HashMap<(String, Arc<str>), UnknownSet>,
) {
    for import in &current.imports {
        let targets = match &import.to {
            Ok(targets) => targets,
            Err(why) => {
                import_unknown(import, why, unknown);
                continue;
            }
        };
        for a in targets {
            let Found::Resource { node, instance, index } = current.find(a) else { continue };
            let key = a.resource.as_ref().and_then(|(_, _, k)| k.clone());
            if !matched.insert((node, instance, index, key.clone())) {
                continue;
            }
            for depth in 0..=a.module.len() {
                occupied.insert(a.module[..depth].to_vec());
            }
            let n = &current.nodes[node];
            let mut c = Change::new(Action::Import, a.clone());
            c.provider = n.providers[index].as_ref().and_then(|u| u.instance(&n.instances[instance], &key));
            c.location = Some((Side::Current, import.location));
            out.changes.push(c);
        }
    }
}

/// An `import` block whose instances are not known: the creates it may turn into imports are not known either.
pub(super) fn import_unknown(
    import: &crate::instances::moves::Import,
    why: &Arc<str>,
    unknown: &mut HashMap<(String, Arc<str>), UnknownSet>,
) {
    let why: Arc<str> = format!("which instances it adopts is not known: {why}").into();
    unknown.entry(("import block".to_string(), why.clone())).or_insert_with(|| UnknownSet {
        address: "import block".to_string(),
        why,
        location: Some((Side::Current, import.location)),
        instances: Vec::new(),
    });
}

/// Every declared instance the state lacks: a create, inside the outermost module instance that the state has
/// nothing of (created with everything in it), or on its own. Large sets are kept by reference (`declared_set.rs`):
/// the resource instances of a new module instance, and, in a module instance the state has some of, the blocks it
/// has none of that work through one provider instance (one change each such set).
fn creates(
    current: &Arc<DeclaredRoot>,
    matched: &FxHashSet<(usize, usize, usize, Option<StateKey>)>,
    occupied: &FxHashSet<Vec<ModuleStep>>,
    out: &mut RootDiff,
    unknown: &mut HashMap<(String, Arc<str>), UnknownSet>,
) {
    let mut new_modules: BTreeMap<Vec<ModuleStep>, Change> = BTreeMap::new();
    let mut inside = InsideProviders::default();
    // New module instances whose resource instances are kept as a set: nothing under them is listed.
    let mut as_sets: HashSet<Vec<ModuleStep>> = HashSet::new();
    // The blocks of a module instance that the state has an instance of.
    let partly: FxHashSet<(usize, usize, usize)> = matched.iter().map(|(n, i, r, _)| (*n, *i, *r)).collect();
    for (ni, node) in current.nodes.iter().enumerate() {
        for (path, why) in &node.unknown {
            let call = node.calls.last().cloned().unwrap_or_default();
            let block = block_address(path, &format!("module.{call}"));
            let mut call_path = path.to_vec();
            call_path.push((call, None));
            unknown.entry((block.clone(), why.clone())).or_insert_with(|| UnknownSet {
                address: block,
                why: why.clone(),
                location: call_location(current, &call_path),
                instances: Vec::new(),
            });
        }
        for (ii, path) in node.instances.iter().enumerate() {
            // The outermost module instance on the path that the state has nothing of.
            let new_at = (1..=path.len()).find(|d| !occupied.contains(&path[..*d]));
            let in_set = new_at.is_some_and(|d| as_sets.contains(&path[..d]));
            if new_at == Some(path.len()) && !in_set {
                let set = DeclaredSet::new(current, Covered::Under { node: ni, path: path.clone() });
                if set.len() > LISTED {
                    let mut c = Change::new(Action::Create, InstanceAddress { module: path.to_vec(), resource: None });
                    c.location = call_location(current, path);
                    c.provider = module_provider(current, path).or_else(|| set.provider());
                    c.declared = Some(set);
                    out.changes.push(c);
                    as_sets.insert(path.to_vec());
                }
            }
            let in_set = in_set || as_sets.contains(path.as_ref());
            // The blocks the state has none of, by the provider use they share (its instance is the same for all
            // their instances here); uses that select the same instance are merged below.
            let mut groups: FxHashMap<Option<*const ProviderUse>, (Vec<u32>, usize)> = FxHashMap::default();
            let mut one_by_one = Vec::new();
            for (index, r) in node.managed() {
                let keys = node.resource_keys(index, ii);
                if let Keys::Unknown(why) = keys {
                    let block = block_address(path, &format!("{}.{}", r.ty, r.name));
                    unknown.entry((block.clone(), why.clone())).or_insert_with(|| UnknownSet {
                        address: block,
                        why: why.clone(),
                        location: Some((Side::Current, node.resource_location(index))),
                        instances: Vec::new(),
                    });
                    continue;
                }
                if in_set {
                    continue;
                }
                let provider = node.providers[index].as_ref();
                if new_at.is_none()
                    && !partly.contains(&(ni, ii, index))
                    && !provider.is_some_and(|u| u.selects_by_own_key())
                {
                    let group = groups.entry(provider.map(Arc::as_ptr)).or_default();
                    group.0.push(index as u32);
                    group.1 += keys.len().unwrap_or(0);
                } else {
                    one_by_one.push(index);
                }
            }
            let mut by_instance: Vec<(Option<ProviderInstance>, Vec<u32>, usize)> = Vec::new();
            for (_, (resources, count)) in groups {
                let first = resources[0] as usize;
                let provider = node.providers[first].as_ref().and_then(|u| u.instance(path, &None));
                match by_instance.iter_mut().find(|(p, _, _)| match (p, &provider) {
                    (Some(a), Some(b)) => a.same(b),
                    (a, b) => a.is_none() && b.is_none(),
                }) {
                    Some((_, r, n)) => {
                        r.extend(resources);
                        *n += count;
                    }
                    None => by_instance.push((provider, resources, count)),
                }
            }
            for (provider, mut resources, count) in by_instance {
                resources.sort_unstable();
                // One such list per module instance of a large workspace: no spare capacity kept.
                resources.shrink_to_fit();
                if count <= LISTED {
                    one_by_one.extend(resources.into_iter().map(|i| i as usize));
                    continue;
                }
                let mut c = Change::new(Action::Create, InstanceAddress { module: path.to_vec(), resource: None });
                c.location = resources.first().map(|i| (Side::Current, node.resource_location(*i as usize)));
                c.provider = provider;
                c.declared = Some(DeclaredSet::new(current, Covered::Blocks { node: ni, instance: ii, resources }));
                out.changes.push(c);
            }
            one_by_one.sort_unstable();
            for index in one_by_one {
                let r = &node.module.resources[index];
                for key in node.resource_keys(index, ii).iter() {
                    if matched.contains(&(ni, ii, index, key.clone())) {
                        continue;
                    }
                    let provider = node.providers[index].as_ref().and_then(|u| u.instance(path, &key));
                    let address =
                        InstanceAddress { module: path.to_vec(), resource: Some((r.ty.clone(), r.name.clone(), key)) };
                    match new_at {
                        Some(d) => {
                            let prefix = path[..d].to_vec();
                            let c = new_modules.entry(prefix.clone()).or_insert_with(|| {
                                let mut c = Change::new(
                                    Action::Create,
                                    InstanceAddress { module: prefix.clone(), resource: None },
                                );
                                c.location = call_location(current, &prefix);
                                c.provider = module_provider(current, &prefix);
                                c
                            });
                            c.inside.push(address);
                            inside.note(&prefix, provider);
                        }
                        None => {
                            let mut c = Change::new(Action::Create, address);
                            c.provider = provider;
                            c.location = Some((Side::Current, node.resource_location(index)));
                            out.changes.push(c);
                        }
                    }
                }
            }
        }
    }
    out.changes.extend(new_modules.into_values().map(|mut c| {
        inside.settle(&mut c);
        c
    }));
}

/// Where the call of the last step of a module instance path decides its instances, if the call is declared.
pub(super) fn call_location(current: &DeclaredRoot, path: &[ModuleStep]) -> Option<(Side, crate::base::FileRange)> {
    let (last, parent) = path.split_last()?;
    let node = current.node_at(parent.iter().map(|(c, _)| c.as_str()))?;
    let n = &current.nodes[node];
    let index = n.call(&last.0)?;
    Some((Side::Current, n.call_location(index)))
}

/// Where a resource block decides its instances, if the block is declared.
fn resource_location(current: &DeclaredRoot, address: &InstanceAddress) -> Option<(Side, crate::base::FileRange)> {
    let (ty, name, _) = address.resource.as_ref()?;
    let node = current.node_at(address.module.iter().map(|(c, _)| c.as_str()))?;
    let n = &current.nodes[node];
    Some((Side::Current, n.resource_location(n.resource(ty, name)?)))
}

/// The provider instance a module instance's call passes it (the first entry of its `providers` map).
pub(super) fn module_provider(root: &DeclaredRoot, path: &[ModuleStep]) -> Option<ProviderInstance> {
    let (last, parent) = path.split_last()?;
    let node = root.node_at(parent.iter().map(|(c, _)| c.as_str()))?;
    let n = &root.nodes[node];
    let index = n.call(&last.0)?;
    let parent_path: ModulePath = parent.into();
    n.calls_of[index].provider.as_ref()?.instance(&parent_path, &last.1)
}
