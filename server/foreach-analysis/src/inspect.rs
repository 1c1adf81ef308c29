//! The data behind `foreach-ls inspect`: every provider configuration of every module instance with its instance
//! keys and each instance's evaluated arguments (a configuration without `for_each`: its own), and every resource, data source and module call with the
//! configuration it uses and the instance key each of its instances selects, and every module call with its
//! source and version as evaluated at `tofu init` and the directory it loads. Plain data; the CLI renders it.

use std::collections::HashMap;
use std::sync::Arc;

use crate::base::FileRange;
use crate::db::{Db, Workspace, module};
use crate::eval::{EvalContext, Evaluator, Value};
use crate::init_values::StaticText;
use crate::model::items::ProviderBlock;
use crate::module_eval::tree_values;
use crate::providers::config::RefOwner;
use crate::providers::expand::{Expansion, SelectedKey};
use crate::providers::local_names::provider_type;
use crate::providers::resolve::{How, all_uses};
use crate::state::{RootState, StateBindings, StateKey};
use crate::tree::{CallTarget, TreeNode, module_tree};
use crate::versions::reading::{dir_versions, root_versions};

#[derive(Debug, Clone)]
pub struct ProviderReport {
    /// `""` for a root module, else `module.a.module.b`.
    pub module: String,
    pub dir: String,
    pub name: String,
    pub alias: Option<String>,
    pub location: FileRange,
    pub expansion: Expansion,
    /// For a configuration without `for_each` (in a module instance that has instances): its arguments evaluated
    /// in the module instance (unknown where not static). With `for_each`, each instance has its own, in
    /// `expansion`.
    pub arguments: Vec<(String, Value)>,
    /// False when the module instance has none (a call above it with `count = 0`, an empty `for_each` or
    /// `enabled = false`): nothing in it is evaluated.
    pub module_has_instances: bool,
    /// When its root module has a state: the provider instances of this configuration that the state binds
    /// resource instances to, with how many each (in the configuration or not).
    pub state: Option<Vec<(Option<StateKey>, usize)>>,
}

#[derive(Debug, Clone)]
pub struct BlockReport {
    pub module: String,
    /// `aws_s3_bucket.logs`, `data.aws_region.here`, or `module.child` (with the child-side provider name in
    /// `passes`).
    pub address: String,
    pub location: FileRange,
    pub passes: Option<String>,
    pub explicit: bool,
    /// The configuration used: the declaring module's address and `name.alias`.
    pub declared_in: String,
    pub config: String,
    /// False when nothing declares it (an implied, unconfigured default).
    pub declared: bool,
    pub via: Vec<String>,
    pub keys: Vec<SelectedKey>,
}

/// A module call in one instance of its caller.
#[derive(Debug, Clone)]
pub struct ModuleCallReport {
    /// The calling module instance: `""` for a root module.
    pub module: String,
    /// The call's full address, `module.a.module.app`.
    pub address: String,
    pub location: FileRange,
    /// As evaluated in this instance of the caller (or why not known); `None` without the argument.
    pub source: Option<StaticText>,
    pub version: Option<StaticText>,
    /// The directory loaded (absolute), when the call is part of the tree.
    pub dir: Option<String>,
    pub target: CallTarget,
    /// False when the call is known to have no instances, or its calling module has none.
    pub has_instances: bool,
}

#[derive(Debug, Clone, Default)]
pub struct InspectReport {
    pub providers: Vec<ProviderReport>,
    pub blocks: Vec<BlockReport>,
    pub modules: Vec<ModuleCallReport>,
    pub versions: Vec<VersionReport>,
}

/// Which OpenTofu releases a module instance admits and needs (`versions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionReport {
    pub module: String,
    pub dir: String,
    /// What the module's own constraints admit, as each release reads them: "1.9.0 and later".
    pub admitted: String,
    /// What the constraints of its root's whole tree admit.
    pub tree_admitted: String,
    /// The oldest release that has every construct the module uses (as each release sees its files), if any
    /// listed release does.
    pub minimum: Option<String>,
    /// The constructs that set the minimum: what they are, where, and the release they need.
    pub needs: Vec<(String, FileRange, String)>,
}

/// A root's state bindings and how many resource instances each provider instance has.
type RootCounts = (Arc<StateBindings>, Vec<usize>);

pub fn inspect(db: &dyn Db, ws: Workspace) -> InspectReport {
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    let mut report = InspectReport::default();
    // Per root directory: its state's bindings and how many resource instances each provider instance has.
    let mut states: HashMap<String, Option<RootCounts>> = HashMap::new();
    for (i, node) in tree.nodes.iter().enumerate() {
        let m = module(db, node.dir);
        let mut root = node.as_ref();
        while let Some(p) = root.parent {
            root = tree.node(p);
        }
        let state =
            states.entry(root.dir.path(db).clone()).or_insert_with(|| match ws.states(db).get(root.dir.path(db)) {
                Some(RootState::Bindings(b)) => Some((b.clone(), b.instances_per_provider())),
                _ => None,
            });
        let has_instances = values.instances[i].has_instances;
        let single: Vec<&ProviderBlock> = m.providers.iter().filter(|p| p.for_each.is_none()).map(|p| &**p).collect();
        let mut arguments = if has_instances && !single.is_empty() {
            single_provider_arguments(db, ws, node, &single)
        } else {
            Vec::new()
        }
        .into_iter();
        for (pi, p) in m.providers.iter().enumerate() {
            report.providers.push(ProviderReport {
                module: node.address(),
                dir: node.dir.path(db).clone(),
                name: p.name.clone(),
                alias: p.alias_name(),
                location: p.site.name_location(),
                expansion: values.instances[i].providers.expansions.get(pi).cloned().unwrap_or(Expansion::Invalid),
                arguments: if p.for_each.is_none() { arguments.next().unwrap_or_default() } else { Vec::new() },
                module_has_instances: has_instances,
                state: state.as_ref().map(|(b, counts)| {
                    b.config_instances(counts, &node.call_path, &provider_type(&m, &p.name), p.alias_name().as_deref())
                }),
            });
        }
        for child in &node.children {
            let Some(call) = m.module_call(&child.call) else { continue };
            let address = node.call_path.iter().chain([&child.call]).map(|c| format!("module.{c}"));
            report.modules.push(ModuleCallReport {
                module: node.address(),
                address: address.collect::<Vec<_>>().join("."),
                location: call.site.name_location(),
                source: child.source.clone(),
                version: child.version.clone(),
                dir: match child.target {
                    CallTarget::Node(id) => Some(tree.node(id).dir.path(db).clone()),
                    _ => None,
                },
                target: child.target.clone(),
                has_instances: values.instances[i].has_instances
                    && !values.instances[i].calls_without_instances.contains(&child.call),
            });
        }
    }
    for u in all_uses(db, ws) {
        let node = tree.node(u.node);
        let m = module(db, node.dir);
        let (address, location, passes) = match &u.owner {
            RefOwner::Resource(i) => (m.resources[*i].address(), m.resources[*i].site.name_location(), None),
            RefOwner::ModuleCall(i, child) => {
                let c = &m.module_calls[*i];
                (format!("module.{}", c.name), c.site.name_location(), Some(child.clone()))
            }
            RefOwner::Import(_) => continue,
        };
        report.blocks.push(BlockReport {
            module: node.address(),
            address,
            location,
            passes,
            explicit: u.how == How::Explicit,
            declared_in: tree.node(u.resolution.declared_in).address(),
            config: u.resolution.config,
            declared: u.resolution.declared,
            via: u.resolution.via,
            keys: u.resolution.keys,
        });
    }
    report.versions = version_reports(db, ws);
    report
}

fn version_reports(db: &dyn Db, ws: Workspace) -> Vec<VersionReport> {
    let tree = module_tree(db, ws);
    let roots = root_versions(db, ws);
    let mut out = Vec::new();
    for node in &tree.nodes {
        let mut root = node.as_ref();
        while let Some(p) = root.parent {
            root = tree.node(p);
        }
        let tree_admitted = roots
            .iter()
            .find(|r| std::ptr::eq(tree.node(r.root), root))
            .map(|r| r.admitted.describe())
            .unwrap_or_default();
        let v = dir_versions(db, node.dir);
        let (minimum, needs) = match v.minimum_and_why() {
            Some((min, uses)) => (
                Some(min.short()),
                uses.iter()
                    .map(|u| (u.feature.name(), FileRange::new(u.file, u.range), u.feature.opentofu().short()))
                    .collect(),
            ),
            None => (None, Vec::new()),
        };
        out.push(VersionReport {
            module: node.address(),
            dir: node.dir.path(db).clone(),
            admitted: v.admitted().describe(),
            tree_admitted,
            minimum,
            needs,
        });
    }
    out
}

/// The arguments of the provider blocks `providers` (none with `for_each`), evaluated in the module instance
/// `node`, in order. Quietly: `check` reports what evaluating provider configurations finds, not `inspect`.
fn single_provider_arguments(
    db: &dyn Db,
    ws: Workspace,
    node: &TreeNode,
    providers: &[&ProviderBlock],
) -> Vec<Vec<(String, Value)>> {
    let (scope, _) = crate::module_eval::scope_for_node(db, ws, node);
    providers
        .iter()
        .map(|p| {
            let name = match p.alias_name() {
                Some(a) => format!("{}.{a}", p.name),
                None => p.name.clone(),
            };
            let ctx = EvalContext { origin: format!("provider `{name}`"), ..EvalContext::default() };
            p.config
                .iter()
                .map(|a| {
                    (a.name.name.to_string(), Evaluator::new(&scope, a.file, &ctx, Default::default()).eval(&a.expr()))
                })
                .collect()
        })
        .collect()
}

/// An instance argument's value, or `None` when it is not known statically.
pub fn known(v: &Value) -> Option<&Value> {
    if v.first_unknown().is_some() { None } else { Some(v) }
}
