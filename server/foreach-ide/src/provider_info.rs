//! Provider configurations as the IDE shows them: for every instance of the cursor's module, each provider
//! block's evaluated instances (keys and arguments) and the keys each reference selects. Used by hover, inlay
//! hints and completion; the semantics are `providers::expand`'s.

use std::collections::BTreeMap;
use std::sync::Arc;

use foreach_analysis::db::{Db, ModuleDir, Workspace};
use foreach_analysis::eval::render::compact;
use foreach_analysis::module_eval::tree_values;
use foreach_analysis::providers::expand::{Expansion, InstanceProviders, ProviderInstance};
use foreach_analysis::state::StateKey;
use foreach_analysis::tree::{NodeId, module_tree};

/// One instance of a module in the module tree and its provider analysis.
pub(crate) struct ModuleInstance {
    /// `module.a` (empty for a root module).
    pub address: String,
    pub node: NodeId,
    pub analysis: Arc<InstanceProviders>,
}

/// The provider analysis of every instance of `dir` in the module tree, in tree order (a module called twice has
/// two; a module outside every root's tree has none).
pub(crate) fn module_instances(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Vec<ModuleInstance> {
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    tree.nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.dir == dir)
        .filter_map(|(i, n)| {
            Some(ModuleInstance {
                address: n.address(),
                node: NodeId(i as u32),
                analysis: values.instances.get(i)?.providers.clone(),
            })
        })
        .collect()
}

/// One instance key of a provider block, across the instances of its module.
pub(crate) struct UnionKey<'a> {
    pub key: String,
    /// The provider instance in the first module instance that has this key.
    pub first: &'a ProviderInstance,
    /// The addresses of the module instances that have this key.
    pub modules: Vec<&'a str>,
}

/// The instance keys of provider block `block` in every module instance, deduplicated and sorted as OpenTofu
/// orders instance keys (string keys by their bytes, like Go's `sort.Strings`).
pub(crate) fn union_keys(instances: &[ModuleInstance], block: usize) -> Vec<UnionKey<'_>> {
    let mut by_key: BTreeMap<&str, UnionKey<'_>> = BTreeMap::new();
    for mi in instances {
        let Some(Expansion::Keys(keys)) = mi.analysis.expansions.get(block) else { continue };
        for pi in keys {
            by_key
                .entry(pi.key.as_str())
                .or_insert_with(|| UnionKey { key: pi.key.clone(), first: pi, modules: Vec::new() })
                .modules
                .push(mi.address.as_str());
        }
    }
    by_key.into_values().collect()
}

/// `"a", "b"` (at most `max`, then `…`).
pub(crate) fn key_list(keys: &[&str], max: usize) -> String {
    let mut parts: Vec<String> = keys.iter().take(max).map(|k| format!("{k:?}")).collect();
    if keys.len() > max {
        parts.push(format!("… ({} keys)", keys.len()));
    }
    parts.join(", ")
}

/// Markdown for one provider block's expansion. With `state` (the instances its root's state binds resource
/// instances to, from `state_info::bound_instances`), each instance says how many, and the instances the state
/// still binds but the configuration no longer has are listed after them.
pub(crate) fn expansion_markdown(
    e: &Expansion,
    selected: &[String],
    state: Option<&[(Option<StateKey>, usize)]>,
) -> String {
    let bound = |key: Option<&str>| {
        let n = state?.iter().find(|(k, _)| k.as_ref().map(state_key_text) == key.map(Some)).map_or(0, |(_, n)| *n);
        Some(match n {
            0 => " · no resource instances in the state".to_string(),
            n => format!(" · {} in the state", super::state_info::instances(n)),
        })
    };
    // The state's instances that the configuration has: none when its instances are unknown.
    let has = |key: &Option<StateKey>| match (e, key) {
        (Expansion::Single, None) => true,
        (Expansion::Keys(instances), Some(k)) => instances.iter().any(|i| Some(i.key.as_str()) == state_key_text(k)),
        _ => false,
    };
    let mut md = match e {
        Expansion::Single => format!("one instance (no `for_each`){}\n", bound(None).unwrap_or_default()),
        Expansion::Unresolved(why) => format!("instances unknown: {}\n", why.join("; ")),
        Expansion::Invalid => "instances unknown: `for_each` is not valid here\n".to_string(),
        Expansion::Keys(instances) => {
            let mut md = match instances.len() {
                1 => "1 instance:\n".to_string(),
                n => format!("{n} instances:\n"),
            };
            for i in instances.iter().take(12) {
                let mark = if selected.contains(&i.key) { " ← selected" } else { "" };
                let args: Vec<String> = i.args.iter().map(|(n, v)| format!("{n} = {}", compact(v))).collect();
                let state = bound(Some(&i.key)).unwrap_or_default();
                md.push_str(&format!("- `{:?}`: {}{mark}{state}\n", i.key, args.join(", ")));
            }
            if instances.len() > 12 {
                md.push_str(&format!("- … and {} more\n", instances.len() - 12));
            }
            md
        }
    };
    let others: Vec<&(Option<StateKey>, usize)> = state.unwrap_or_default().iter().filter(|(k, _)| !has(k)).collect();
    if !others.is_empty() {
        md.push_str(match e {
            Expansion::Single | Expansion::Keys(_) => {
                "\nno longer in the configuration, but the state binds resource instances to them (`tofu plan` \
                 fails until they are destroyed):\n"
            }
            _ => "\nthe state binds resource instances to:\n",
        });
        for (key, n) in others.iter().take(12) {
            let key = key.as_ref().map_or_else(|| "no key".to_string(), |k| format!("`{}`", k.bracketed()));
            md.push_str(&format!("- {key}: {}\n", super::state_info::instances(*n)));
        }
        if others.len() > 12 {
            md.push_str(&format!("- … and {} more\n", others.len() - 12));
        }
    }
    md
}

/// A provider instance key of the state as the configuration's keys are written (they are always strings).
fn state_key_text(k: &StateKey) -> Option<&str> {
    match k {
        StateKey::Str(s) => Some(s.as_str()),
        StateKey::Int(_) => None,
    }
}
