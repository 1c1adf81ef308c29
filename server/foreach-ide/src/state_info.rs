//! What the state says about a provider configuration, as hover shows it: how many resource instances the state of
//! the module instance's root binds to each instance of the configuration (the numbers `inspect` prints).

use foreach_analysis::db::{Db, Workspace, module};
use foreach_analysis::model::items::ProviderBlock;
use foreach_analysis::providers::local_names::provider_type;
use foreach_analysis::state::StateKey;
use foreach_analysis::state::queries::state_counts;
use foreach_analysis::tree::{NodeId, module_tree};

/// The instances of provider block `p` in module instance `node` that its root's state binds resource instances
/// to, with how many each; `None` when the root has no readable state.
pub(crate) fn bound_instances(
    db: &dyn Db,
    ws: Workspace,
    node: NodeId,
    p: &ProviderBlock,
) -> Option<Vec<(Option<StateKey>, usize)>> {
    let counts = state_counts(db, ws);
    if counts.is_empty() {
        return None;
    }
    let tree = module_tree(db, ws);
    let n = tree.node(node);
    let mut root = n;
    while let Some(parent) = root.parent {
        root = tree.node(parent);
    }
    let (bindings, per_provider) = counts.get(root.dir.path(db))?;
    let ty = provider_type(&module(db, n.dir), &p.name);
    Some(bindings.config_instances(per_provider, &n.call_path, &ty, p.alias_name().as_deref()))
}

/// `3 resource instances`.
pub(crate) fn instances(n: usize) -> String {
    if n == 1 { "1 resource instance".to_string() } else { format!("{n} resource instances") }
}
