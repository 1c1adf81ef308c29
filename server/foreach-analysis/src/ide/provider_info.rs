//! Provider configurations as the IDE shows them: for every instance of the cursor's module, each provider
//! block's evaluated instances (keys and arguments) and the keys each reference selects. Used by hover, inlay
//! hints and completion; the semantics are `providers::expand`'s.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::db::{Db, ModuleDir, Workspace};
use crate::eval::render::compact;
use crate::module_eval::tree_values;
use crate::providers::expand::{Expansion, InstanceProviders, ProviderInstance};
use crate::tree::module_tree;

/// One instance of a module in the module tree and its provider analysis.
pub(crate) struct ModuleInstance {
    /// `module.a` (empty for a root module).
    pub address: String,
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
            Some(ModuleInstance { address: n.address(), analysis: values.instances.get(i)?.providers.clone() })
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

/// Markdown for one provider block's expansion.
pub(crate) fn expansion_markdown(e: &Expansion, selected: &[String]) -> String {
    match e {
        Expansion::Single => "one instance (no `for_each`)\n".to_string(),
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
                md.push_str(&format!("- `{:?}`: {}{mark}\n", i.key, args.join(", ")));
            }
            if instances.len() > 12 {
                md.push_str(&format!("- … and {} more\n", instances.len() - 12));
            }
            md
        }
    }
}
