//! The configuration against a state: each managed resource instance of the state, after the `moved` blocks, is
//! still declared (kept, moved, or rebound when the configuration now gives it another provider instance), no
//! longer declared (destroyed: through the provider instance the state records, which must still exist; a
//! module instance that is gone is destroyed with everything inside it), or not known. Every declared instance the
//! state lacks is created (a new module instance with everything inside it).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::changes::{Action, Change, InsideProviders, RootDiff, Side, UnknownSet, block_address};
use crate::instances::keys::Keys;
use crate::instances::moves::{InstanceAddress, follow};
use crate::instances::providers::{ProviderConfig, ProviderInstance};
use crate::instances::{DeclaredRoot, Found, ModulePath};
use crate::state::{ModuleStep, StateBindings, StateKey};

/// What applying the configuration `current` would do to the instances of `state`.
pub fn compare_state(state: &StateBindings, current: &DeclaredRoot) -> RootDiff {
    let mut out = RootDiff::default();
    // The declared instances the state has (after moves): node, module instance, resource index, key.
    let mut matched: HashSet<(usize, usize, usize, Option<StateKey>)> = HashSet::new();
    // Every module instance path holding a matched instance, with its prefixes.
    let mut occupied: HashSet<Vec<ModuleStep>> = HashSet::new();
    let mut gone_modules: BTreeMap<Vec<ModuleStep>, Change> = BTreeMap::new();
    let mut unknown: HashMap<(String, std::sync::Arc<str>), UnknownSet> = HashMap::new();
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
    creates(current, &matched, &occupied, &mut out, &mut unknown);
    out.unknown.extend(unknown.into_values());
    out.forget(&current.removed);
    out.sort();
    out
}

/// Every declared instance the state lacks: a create, inside the outermost module instance that the state has
/// nothing of (created with everything in it), or on its own.
fn creates(
    current: &DeclaredRoot,
    matched: &HashSet<(usize, usize, usize, Option<StateKey>)>,
    occupied: &HashSet<Vec<ModuleStep>>,
    out: &mut RootDiff,
    unknown: &mut HashMap<(String, std::sync::Arc<str>), UnknownSet>,
) {
    let mut new_modules: BTreeMap<Vec<ModuleStep>, Change> = BTreeMap::new();
    let mut inside = InsideProviders::default();
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
                for key in keys.iter() {
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
