//! Static evaluation of every module instance in the tree, as OpenTofu's early evaluation sees it.
//!
//! A root module's variables get their winning assignment (`vars.rs`), evaluated as a constant; a child's get the
//! calling `module` block's argument, evaluated in the caller's static scope. Each instance then evaluates all its
//! variables and locals once, in a [`ModuleScope`] that memoises, detects cycles and explains unknowns. Instances are
//! evaluated parents first (the tree lists a parent before its children).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::base::FileId;
use crate::db::{Db, ModuleDir, Workspace, file_index, module};
use crate::diagnostics::Diagnostic;
use crate::eval::scope::{ModuleScope, ModuleStaticInputs};
use crate::eval::{EvalContext, Evaluator};
pub use crate::instance_scope::CallArgument;
use crate::instance_scope::{CallerArgs, call_argument_context, instance_scope, root_dir_of};
use crate::model::items::{Arg, ModuleCall};
use crate::providers::config::dir_references;
use crate::providers::expand::{InstanceProviders, analyse_instance};
use crate::tree::module_tree;
use crate::tree_model::{CallTarget, ModuleTree, NodeId, TreeNode};

/// The static values of one module instance.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceValues {
    // No variable or local values: a repository with thousands of root modules would keep every instance's values
    // (half of a `check`'s memory on the dev corpus) for the hovers that show a few of them; hover evaluates the
    // instances it shows again (`scope_for_node`), which costs one module's locals.
    /// Module call arguments evaluated in this instance's scope.
    pub call_arguments: Arc<CallArguments>,
    /// Provider `for_each` expansions and the instance keys each reference selects, in this instance.
    pub providers: Arc<InstanceProviders>,
    /// What evaluating this instance reported (invalid root assignments, evaluation errors, provider checks).
    pub diagnostics: Vec<Diagnostic>,
    /// False when a module call above this node has no instances (`count = 0`, an empty `for_each`, `enabled =
    /// false`): OpenTofu evaluates a module only per instance, so nothing of this node is evaluated and the other
    /// fields are empty.
    pub has_instances: bool,
    /// The calls of this instance known to have no instances; their arguments are not evaluated.
    pub calls_without_instances: Vec<String>,
    /// The calls of this instance that may or may not have instances (`count`, `for_each` or `enabled` not known
    /// statically).
    pub calls_maybe_without_instances: Vec<String>,
}

/// Each module call's arguments (in the block's order), by call name.
pub type CallArguments = BTreeMap<String, Arc<Vec<CallArgument>>>;

#[derive(Debug, Clone, Default)]
pub struct TreeValues {
    /// By tree node index.
    pub instances: Vec<Arc<InstanceValues>>,
}

/// Every instance's values, by tree node. Only gathers [`instance_values`], which does the work per instance: an
/// edit re-evaluates the edited module's instances (and the instances below them whose inputs changed), not the
/// whole tree. The gathering itself re-runs after every change that reaches any instance; it is a few memo lookups
/// per instance, so its result is not compared (`no_eq`). Hover, `inspect` and provider resolution read it; the
/// workspace's diagnostics gather the instances in chunks instead (`checks.rs`), so a keystroke does not run it.
#[salsa::tracked(returns(clone), no_eq)]
pub fn tree_values(db: &dyn Db, ws: Workspace) -> Arc<TreeValues> {
    let tree = module_tree(db, ws);
    let mut out = TreeValues::default();
    for index in 0..tree.nodes.len() {
        out.instances.push(instance_values(db, ws, NodeId(index as u32)));
    }
    Arc::new(out)
}

/// One tree node, read through a query of its own so that a change elsewhere in the tree (diagnostics of other
/// calls, another module's calls) does not reach the instances whose node is unchanged: salsa compares the node
/// and stops there.
///
/// Shared (`Arc`): every child instance reads its parent's node, and a root may have hundreds of children.
#[salsa::tracked(returns(clone))]
fn tree_node(db: &dyn Db, ws: Workspace, node: NodeId) -> Option<Arc<TreeNode>> {
    module_tree(db, ws).nodes.get(node.0 as usize).cloned()
}

/// The static values of one module instance: its variables (from the root's assignments or the calling block's
/// arguments), its locals, its module call arguments and its provider expansions and references.
#[salsa::tracked(returns(clone))]
pub fn instance_values(db: &dyn Db, ws: Workspace, id: NodeId) -> Arc<InstanceValues> {
    let Some(node) = tree_node(db, ws, id) else { return Arc::new(InstanceValues::without_instances()) };
    if !has_instances(db, ws, id) {
        return Arc::new(InstanceValues::without_instances());
    }
    let mut diags = Vec::new();
    let scope = memoised_scope(db, ws, &node, &mut diags);
    scope.evaluate_every_declaration();
    let module = module(db, node.dir);
    let mut call_arguments = CallArguments::new();
    let mut calls_without_instances = Vec::new();
    let mut calls_maybe_without_instances = Vec::new();
    for call in &module.module_calls {
        let ctx = call_argument_context(&node, &call.name);
        if known_to_have_no_instances(&scope, call, &ctx) {
            calls_without_instances.push(call.name.clone());
            continue;
        }
        let certain = known_to_have_instances(&scope, call, &ctx);
        if !certain {
            calls_maybe_without_instances.push(call.name.clone());
        }
        // Arguments exist to give the called module's variables their values: a call whose module is not loaded
        // (a registry or git source `tofu init` has not installed here) has nothing to read them, and OpenTofu
        // evaluates them only while planning, with the values it has then (defaults here may be overridden by a
        // var file this check was not given).
        let loaded = node.children.iter().any(|c| c.call == call.name && matches!(c.target, CallTarget::Node(_)));
        if !loaded {
            continue;
        }
        // OpenTofu evaluates a call's arguments once per instance, so their errors are real only if the call has
        // instances. When that is not known statically (`count = var.enabled ? 1 : 0` with no value for
        // `var.enabled`) an argument that fails only when there are none (`var.options.engine` with `options`
        // null unless enabled) is no mistake: the values still reach the child, their errors are dropped.
        diags.extend(scope.take_diagnostics());
        let arguments: Vec<CallArgument> = call
            .inputs
            .iter()
            .map(|input| {
                let expr = input.expr();
                CallArgument {
                    name: input.name.name.clone(),
                    value: scope.eval(input.file, &expr, &ctx),
                    location: input.location(),
                    provisional: scope.provisional(&expr),
                }
            })
            .collect();
        let argument_diags = scope.take_diagnostics();
        if certain {
            diags.extend(argument_diags);
        }
        call_arguments.insert(call.name.clone(), Arc::new(arguments));
    }
    let refs = dir_references(db, node.dir);
    let files = file_index(db, ws);
    let file_text = |id: FileId| files.get(&id).map(|f| (f.text(db), f.kind(db)));
    let mut providers = analyse_instance(&module, &scope, &refs, &node.address(), &file_text);
    suggest_environments(db, ws, &node, &mut providers);
    diags.extend(providers.diagnostics.iter().cloned());
    diags.extend(scope.take_diagnostics());
    if !instances_certain(db, ws, id) {
        // Everything this instance reports holds only if it exists, which is not known: its variables' values
        // (`null` where the caller passes an option it leaves unset when the call is off) may be ones OpenTofu
        // never evaluates.
        diags.clear();
    }
    Arc::new(InstanceValues {
        call_arguments: Arc::new(call_arguments),
        providers: Arc::new(providers),
        diagnostics: diags,
        has_instances: true,
        calls_without_instances,
        calls_maybe_without_instances,
    })
}

/// Adds to each `provider-for-each-unresolved` that waits for input values the root's var files that OpenTofu does
/// not load by itself, and how to check with each: they are usually one environment's values (`envs/prod.tfvars`).
fn suggest_environments(db: &dyn Db, ws: Workspace, node: &TreeNode, providers: &mut InstanceProviders) {
    use crate::providers::expand::Expansion;
    // One diagnostic per unresolved expansion, in the same order (`expand::explain_unknown`).
    let waiting: Vec<bool> = providers
        .expansions
        .iter()
        .filter_map(|e| match e {
            Expansion::Unresolved(names) => Some(names.iter().any(|n| !n.ends_with("()"))),
            _ => None,
        })
        .collect();
    if !waiting.contains(&true) {
        return;
    }
    let root = root_dir_of(node, |n| tree_node(db, ws, n));
    let files = crate::vars::unloaded_var_files(db, ws, root);
    if files.is_empty() {
        return;
    }
    const SHOWN: usize = 4;
    let mut named: Vec<String> = files.iter().take(SHOWN).map(|f| format!("`{f}`")).collect();
    if files.len() > SHOWN {
        named.push(format!("{} more", files.len() - SHOWN));
    }
    let example = &files[0];
    let env = example.rsplit('/').next().unwrap_or(example).split('.').next().unwrap_or("prod");
    let hint = format!(
        "; this root module has var files that OpenTofu loads only with -var-file ({}): list them as environments \
         in foreach-ls.toml (`[environments.{env}]` with `var_files = [\"{example}\"]`, paths relative to \
         foreach-ls.toml) to check each",
        named.join(", ")
    );
    let mut unresolved = waiting.into_iter();
    for d in providers.diagnostics.iter_mut().filter(|d| d.code == crate::Code::ProviderForEachUnresolved) {
        if unresolved.next() == Some(true) {
            d.message.push_str(&hint);
        }
    }
}

impl InstanceValues {
    fn without_instances() -> InstanceValues {
        InstanceValues {
            call_arguments: Arc::default(),
            providers: Arc::new(InstanceProviders {
                expansions: Vec::new(),
                provisional: Vec::new(),
                uses: Vec::new(),
                diagnostics: Vec::new(),
            }),
            diagnostics: Vec::new(),
            has_instances: false,
            calls_without_instances: Vec::new(),
            calls_maybe_without_instances: Vec::new(),
        }
    }
}

/// Whether the node has instances: a root does; a child does when its parent does and the call that creates it is
/// not known to have none. A query of its own, so that an edit to the parent that leaves this answer alone stops
/// here.
#[salsa::tracked]
pub fn has_instances(db: &dyn Db, ws: Workspace, id: NodeId) -> bool {
    let Some(node) = tree_node(db, ws, id) else { return false };
    let Some(parent) = node.parent else { return true };
    let call = node.call_path.last().map(String::as_str).unwrap_or_default();
    let parent_values = instance_values(db, ws, parent);
    parent_values.has_instances && !parent_values.calls_without_instances.iter().any(|c| c == call)
}

/// Whether the node is known to exist: a root is; a child is when its parent is and the call that creates it is
/// known to have instances. A query of its own, like [`has_instances`].
#[salsa::tracked]
pub fn instances_certain(db: &dyn Db, ws: Workspace, id: NodeId) -> bool {
    let Some(node) = tree_node(db, ws, id) else { return false };
    let Some(parent) = node.parent else { return true };
    let call = node.call_path.last().map(String::as_str).unwrap_or_default();
    *instances_certain(db, ws, parent)
        && !instance_values(db, ws, parent).calls_maybe_without_instances.iter().any(|c| c == call)
}

/// A call whose `count` is known to be 0, whose `for_each` is a known empty collection, or whose `enabled` is known
/// to be false. Anything not known statically may have instances. Evaluation problems of these meta-arguments are
/// not reported here: OpenTofu evaluates them at plan time, with values we may not know.
fn known_to_have_no_instances(scope: &ModuleScope, call: &ModuleCall, ctx: &EvalContext) -> bool {
    let quietly = |arg: &Arg| {
        let mut ev = Evaluator::new(scope, arg.file, ctx, Default::default());
        ev.eval(&arg.expr())
    };
    if let Some(count) = call.count.as_deref()
        && quietly(count).as_number().is_some_and(|n| n.is_zero())
    {
        return true;
    }
    if let Some(for_each) = call.for_each.as_deref() {
        let v = quietly(for_each);
        if (v.as_seq().is_some() || v.as_attrs().is_some()) && v.is_wholly_known() && v.is_empty() {
            return true;
        }
    }
    call.enabled.as_deref().is_some_and(|enabled| quietly(enabled).as_bool() == Some(false))
}

/// A call without `count`, `for_each` or `enabled`, or one whose meta-arguments are known well enough to say it
/// has instances (a known non-zero `count`, a known non-empty collection, `enabled` known true).
fn known_to_have_instances(scope: &ModuleScope, call: &ModuleCall, ctx: &EvalContext) -> bool {
    let quietly = |arg: &Arg| {
        let mut ev = Evaluator::new(scope, arg.file, ctx, Default::default());
        ev.eval(&arg.expr())
    };
    let count_known = call.count.as_deref().is_none_or(|count| quietly(count).as_number().is_some());
    let for_each_known = call.for_each.as_deref().is_none_or(|for_each| {
        let v = quietly(for_each);
        v.as_seq().is_some() || v.as_attrs().is_some()
    });
    let enabled_known = call.enabled.as_deref().is_none_or(|enabled| quietly(enabled).as_bool() == Some(true));
    count_known && for_each_known && enabled_known
}

/// The arguments of one module call in one instance: what the called instances' variables read. A firewall per
/// call: an edit in the instance's module that leaves a call's argument values alone (most edits) stops here
/// instead of re-evaluating every instance below that call.
#[salsa::tracked(returns(clone))]
fn call_arguments(db: &dyn Db, ws: Workspace, id: NodeId, call: String) -> Arc<Vec<CallArgument>> {
    instance_values(db, ws, id).call_arguments.get(&call).cloned().unwrap_or_default()
}

/// The static scope of one instance, for evaluating further expressions in it (the `eval` command, hovers).
pub fn scope_for_node(db: &dyn Db, ws: Workspace, node: &TreeNode) -> (ModuleScope, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let scope = memoised_scope(db, ws, node, &mut diags);
    (scope, diags)
}

/// An instance's scope once the tree is built: nodes and the calling block's arguments come from the memoised
/// queries.
fn memoised_scope(db: &dyn Db, ws: Workspace, node: &TreeNode, diags: &mut Vec<Diagnostic>) -> ModuleScope {
    let node_of = |id: NodeId| tree_node(db, ws, id);
    let arguments = |id: NodeId, call: String| call_arguments(db, ws, id, call);
    instance_scope(db, ws, node, CallerArgs::Memoised { node_of: &node_of, arguments: &arguments }, diags)
}

/// The scope of a directory that holds no root module (no `.tf` files): no variables and no locals, only literals,
/// functions and `path.*`, as `tofu console` evaluates in an empty directory. `dir` is absolute.
pub fn empty_root_scope(db: &dyn Db, ws: Workspace, dir: &str) -> ModuleScope {
    let workspace_root = ws
        .read_roots(db)
        .iter()
        .find(|r| dir == r.as_str() || dir.starts_with(&format!("{r}/")))
        .cloned()
        .unwrap_or_else(|| dir.to_string());
    ModuleScope::new(ModuleStaticInputs {
        module_label: String::new(),
        variables: Vec::new(),
        locals: Vec::new(),
        path_module: ".".to_string(),
        path_root: ".".to_string(),
        path_cwd: dir.to_string(),
        workspace: ws.settings(db).workspace_name.clone(),
        workspace_root,
        files: db.file_reader(),
        budget: Default::default(),
    })
}

/// The root node whose directory is `dir`, if `dir` is a root module.
pub fn root_for_dir(tree: &ModuleTree, dir: ModuleDir) -> Option<NodeId> {
    tree.roots.iter().copied().find(|r| tree.node(*r).dir == dir)
}
