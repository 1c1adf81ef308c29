//! Provider configurations as the IDE shows them: for the first instance of the cursor's module, each provider
//! block's evaluated instances (keys and arguments) and the keys each reference selects. Used by hover and inlay
//! hints; the semantics are `providers::expand`'s.

use std::sync::Arc;

use crate::db::{Db, ModuleDir, Workspace, module};
use crate::eval::render::compact;
use crate::model::module::Module;
use crate::module_eval::tree_values;
use crate::providers::config::{RefSiteInfo, module_references};
use crate::providers::expand::{Expansion, InstanceProviders};
use crate::tree::{NodeId, module_tree};

pub(crate) struct ProviderInfo {
    pub module: Arc<Module>,
    pub refs: Vec<RefSiteInfo>,
    pub analysis: Arc<InstanceProviders>,
    /// `module.a` (empty for a root module), for saying which instance the values come from.
    pub address: String,
}

/// The provider analysis of the first instance of `dir` in the module tree.
pub(crate) fn provider_info(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Option<ProviderInfo> {
    let tree = module_tree(db, ws);
    let index = tree.nodes.iter().position(|n| n.dir == dir)?;
    let node = NodeId(index as u32);
    let address = tree.node(node).address();
    // The memoised per-instance analysis that the diagnostics came from, not a second evaluation.
    let analysis = tree_values(db, ws).instances.get(index)?.providers.clone();
    let m = module(db, dir);
    let (refs, _) = module_references(&m);
    Some(ProviderInfo { module: m, refs, analysis, address })
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
            let mut md = format!("{} instances:\n", instances.len());
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
