//! With a state, the `too-similar-for-each` warning says whether the trap is armed right now: which of the
//! provider's instances the state binds resources to (removing one of those elements fails the plan), or that none
//! own resources yet.
//!
//! The warning itself is computed per module instance without the state (`providers/expand.rs`), so that a new state
//! does not re-evaluate the configuration; this pass only adds a sentence to the finished warnings, finding the
//! provider through the warning's related location (the provider's `for_each`).

use std::collections::{BTreeMap, HashMap};

use crate::base::FileRange;
use crate::db::{Db, Workspace, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::module_eval::instance_values;
use crate::providers::expand::Expansion;
use crate::providers::local_names::provider_type;
use crate::state::{RootState, StateKey};
use crate::tree::{NodeId, module_tree};

pub fn annotate(db: &dyn Db, ws: Workspace, diags: &mut [Diagnostic]) {
    let states = ws.states(db);
    if !states.values().any(|s| matches!(s, RootState::Bindings(_))) {
        return;
    }
    let targets: Vec<usize> = diags
        .iter()
        .enumerate()
        .filter(|(_, d)| d.code == Code::TooSimilarForEach && !d.related.is_empty())
        .map(|(i, _)| i)
        .collect();
    if targets.is_empty() {
        return;
    }
    // Each provider `for_each` of a module instance whose root has a state: the provider instances the state binds
    // resource instances to, and how many each (summed over the module's instances in every root).
    let tree = module_tree(db, ws);
    let mut counts_by_root = HashMap::new();
    let mut owned: HashMap<FileRange, BTreeMap<String, usize>> = HashMap::new();
    for (index, node) in tree.nodes.iter().enumerate() {
        let mut root = node.as_ref();
        while let Some(p) = root.parent {
            root = tree.node(p);
        }
        let Some(RootState::Bindings(bindings)) = states.get(root.dir.path(db)) else { continue };
        let counts =
            counts_by_root.entry(root.dir.path(db).clone()).or_insert_with(|| bindings.instances_per_provider());
        let m = module(db, node.dir);
        let values = instance_values(db, ws, NodeId(index as u32));
        for (pi, p) in m.providers.iter().enumerate() {
            let Some(fe) = &p.for_each else { continue };
            // Keys already removed are the other findings'; this is about removing one of those still there.
            let configured = values.providers.expansions.get(pi).and_then(Expansion::keys);
            let keys = owned.entry(fe.expr_location()).or_default();
            let ty = provider_type(&m, &p.name);
            for (key, n) in bindings.config_instances(counts, &node.call_path, &ty, p.alias_name().as_deref()) {
                if let Some(StateKey::Str(k)) = key
                    && configured.as_ref().is_none_or(|c| c.contains(&k.as_str()))
                {
                    *keys.entry(k.to_string()).or_default() += n;
                }
            }
        }
    }
    for i in targets {
        let d = &mut diags[i];
        let Some(keys) = owned.get(&d.related[0].location) else { continue };
        let sentence = if keys.is_empty() {
            "; the state has no resources created through its instances yet, so removing an element does not fail \
             the plan right now"
                .to_string()
        } else {
            let listed: Vec<String> = keys
                .iter()
                .map(|(k, n)| {
                    let what =
                        if *n == 1 { "1 resource instance".to_string() } else { format!("{n} resource instances") };
                    format!("{} ({what})", foreach_syntax::quote(k))
                })
                .collect();
            format!(
                "; right now the state has resources created through its instances {}: removing one of these elements \
                 makes the plan fail",
                listed.join(", ")
            )
        };
        d.message.push_str(&sentence);
    }
}
