//! The removal trap, read from the state: provider instances and configurations that the state still needs to
//! destroy resources but the configuration no longer has (`provider-instance-removed-with-resources`,
//! `provider-config-removed-with-resources`), and `unreadable-state`.
//!
//! OpenTofu binds each resource instance in the state to the provider instance that created it. A resource
//! instance that is no longer declared (its element was removed from its own `for_each`, or its block was deleted)
//! can only be destroyed through that provider instance; when it is gone too, `tofu plan` fails with "Provider
//! instance not present" or "Provider configuration not present", without a location. Here the binding is compared
//! with the provider expansions in effect (`instance_values`), and the finding goes where the fix is: the
//! provider's `for_each`.
//!
//! Unknown stays silent: a configuration whose `for_each` is unresolved or invalid, or a module that is not loaded,
//! is not compared.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use foreach_syntax::TextRange;
use smol_str::SmolStr;

use crate::base::FileRange;
use crate::db::{Db, Workspace, file_index, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::Provisional;
use crate::model::items::{ProviderBlock, ResourceMode};
use crate::model::module::Module;
use crate::module_eval::instance_values;
use crate::providers::expand::Expansion;
use crate::providers::local_names::{declared_local_names, provider_type};
use crate::state::address::normalise_source;
use crate::state::declared::{Declarations, Declared};
use crate::state::{RootState, StateBindings, StateKey};
use crate::tree::{CallTarget, ModuleTree, NodeId, module_tree};

/// How many addresses a message lists (each with its `-target`); the rest are counted.
const LISTED: usize = 10;

/// Every finding of every root module that has a state.
#[salsa::tracked(returns(clone))]
pub fn state_checks(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let states = ws.states(db);
    let mut out = Vec::new();
    if states.is_empty() {
        return Arc::new(out);
    }
    let tree = module_tree(db, ws);
    for root in &tree.roots {
        let dir = tree.node(*root).dir;
        match states.get(dir.path(db)) {
            None => {}
            Some(RootState::Unreadable { path, why, configured }) => {
                let m = module(db, dir);
                let Some(file) = m.files.first() else { continue };
                let shown = crate::paths::relative_path(path, dir.path(db));
                // A configured state (the editor's `state` setting) is not the root's local file.
                let which = if *configured {
                    format!("the state `{shown}` set for")
                } else {
                    format!("the local state `{shown}` of")
                };
                out.push(Diagnostic::new(
                    Code::UnreadableState,
                    FileRange::new(*file, TextRange::default()),
                    format!(
                        "{which} this root module cannot be read, so provider instances that still own resources \
                         are not checked: {why}"
                    ),
                ));
            }
            Some(RootState::Bindings(bindings)) => check_root(db, ws, &tree, *root, bindings, &mut out),
        }
    }
    Arc::new(out)
}

/// Where a module path of the state leads in the configuration.
enum Found {
    Node(NodeId),
    /// The module is not loaded (a remote source `tofu init` has not installed, a broken call): not compared.
    Unknown,
    /// A call on the path no longer exists; the deepest module that does.
    Removed(NodeId),
}

fn find_node<'a>(db: &dyn Db, tree: &ModuleTree, root: NodeId, calls: impl IntoIterator<Item = &'a str>) -> Found {
    let mut at = root;
    for call in calls {
        let node = tree.node(at);
        match node.children.iter().find(|c| c.call == call).map(|c| &c.target) {
            Some(CallTarget::Node(id)) => at = *id,
            Some(_) => return Found::Unknown,
            None if module(db, node.dir).module_call(call).is_some() => return Found::Unknown,
            None => return Found::Removed(at),
        }
    }
    Found::Node(at)
}

/// A provider configuration as the state names it: module path, provider type (normalised), alias.
type ConfigKey = (Vec<SmolStr>, String, Option<SmolStr>);

fn check_root(
    db: &dyn Db,
    ws: Workspace,
    tree: &ModuleTree,
    root: NodeId,
    bindings: &StateBindings,
    out: &mut Vec<Diagnostic>,
) {
    let mut by_provider: Vec<Vec<u32>> = vec![Vec::new(); bindings.providers.len()];
    for (i, o) in bindings.objects.iter().enumerate() {
        by_provider[o.provider as usize].push(i as u32);
    }
    let mut configs: BTreeMap<ConfigKey, Vec<usize>> = BTreeMap::new();
    for (i, p) in bindings.providers.iter().enumerate() {
        if !by_provider[i].is_empty() {
            configs.entry((p.module.clone(), normalise_source(&p.source), p.alias.clone())).or_default().push(i);
        }
    }
    let files = file_index(db, ws);
    let text_of = |file: crate::FileId| files.get(&file).map(|f| f.text(db));
    let mut declarations = Declarations::new(db, ws, tree, root);
    for ((path, ty, alias), providers) in configs {
        let node = match find_node(db, tree, root, path.iter().map(SmolStr::as_str)) {
            Found::Node(id) => id,
            Found::Unknown => continue,
            Found::Removed(deepest) => {
                let all = providers.iter().flat_map(|p| by_provider[*p].iter().copied());
                let Some(trapped) = trapped(&mut declarations, bindings, all) else { continue };
                let objects = &trapped.objects;
                let m = module(db, tree.node(deepest).dir);
                let Some(file) = m.files.first() else { continue };
                let config = state_config_name(&m, &path, &ty, alias.as_deref());
                let location = FileRange::new(*file, TextRange::default());
                let gone = format!(
                    "module `{}`, which declared provider configuration `{config}`, is no longer in the configuration",
                    module_address(&path)
                );
                out.push(trapped.finish(config_removed(db, tree, root, bindings, objects, &config, &gone, location)));
                continue;
            }
        };
        let m = module(db, tree.node(node).dir);
        let block = m
            .providers
            .iter()
            .position(|p| p.alias_name().as_deref() == alias.as_deref() && provider_type(&m, &p.name) == ty);
        let Some(index) = block else {
            let is_root = tree.node(node).parent.is_none();
            let uses = declared_local_names(&m).iter().any(|n| provider_type(&m, n) == ty);
            // A default configuration exists without a block: always in a root module (OpenTofu adds an empty one),
            // and in any module that uses the provider.
            if alias.is_none() && (is_root || uses) {
                continue;
            }
            let all = providers.iter().flat_map(|p| by_provider[*p].iter().copied());
            let Some(trapped) = trapped(&mut declarations, bindings, all) else { continue };
            let location = m
                .providers
                .iter()
                .find(|p| provider_type(&m, &p.name) == ty)
                .map(|p| p.site.name_location())
                .or_else(|| m.files.first().map(|f| FileRange::new(*f, TextRange::default())));
            let Some(location) = location else { continue };
            let config = state_config_name(&m, &[], &ty, alias.as_deref());
            let gone = format!("this module no longer has provider configuration `{config}`");
            let d = config_removed(db, tree, root, bindings, &trapped.objects, &config, &gone, location);
            out.push(trapped.finish(d));
            continue;
        };
        let values = instance_values(db, ws, node);
        if !values.has_instances {
            continue;
        }
        let Some(expansion) = values.providers.expansions.get(index) else { continue };
        let block = &m.providers[index];
        for p in providers {
            let key = &bindings.providers[p].key;
            let present = match (expansion, key) {
                (Expansion::Keys(list), Some(StateKey::Str(k))) => list.iter().any(|i| i.key == k.as_str()),
                (Expansion::Keys(_), _) => false,
                (Expansion::Single, key) => key.is_none(),
                // Not known here: not compared.
                (Expansion::Unresolved(_) | Expansion::Invalid, _) => true,
            };
            if present {
                continue;
            }
            let Some(trapped) = trapped(&mut declarations, bindings, by_provider[p].iter().copied()) else { continue };
            // The expansion may rest on a default that may not be what runs.
            let trapped = trapped.resting_on(values.providers.provisional.get(index).cloned().flatten());
            {
                let location = match &block.for_each {
                    Some(fe) => {
                        let range = text_of(fe.file)
                            .map(|t| crate::similar::first_line(&t, fe.expr_range()))
                            .unwrap_or(fe.expr_range());
                        FileRange::new(fe.file, range)
                    }
                    None => block.site.name_location(),
                };
                let d = instance_removed(db, tree, root, bindings, &trapped.objects, block, key.as_ref(), location);
                out.push(trapped.finish(d));
            }
        }
    }
}

/// The objects a finding is about, and how sure it is.
struct Trapped {
    /// The orphans among the objects; when there are none, those of which it is not known whether they are.
    objects: Vec<u32>,
    /// Why it is not known whether `objects` are still declared; `None`: they are orphans.
    unknown: Option<String>,
    /// The defaults that may not be what runs that the verdict rests on.
    rests_on: Option<Arc<Provisional>>,
}

/// Of some objects bound to a provider instance that is gone, those that trap: the orphans. A declared resource
/// instance takes its provider from the configuration, so only orphans need the one the state records. When no
/// object is known to be an orphan but some may be, those; `None` when every object is declared.
fn trapped(
    declarations: &mut Declarations<'_>,
    bindings: &StateBindings,
    objects: impl Iterator<Item = u32>,
) -> Option<Trapped> {
    let mut orphans = Vec::new();
    let mut maybe = Vec::new();
    let mut why = None;
    let mut rests_on = None;
    for o in objects {
        match declarations.of(bindings, &bindings.objects[o as usize]) {
            Declared::Yes => {}
            Declared::No { rests_on: p } => {
                orphans.push(o);
                rests_on = Provisional::union(rests_on, p.as_ref());
            }
            Declared::Unknown(w) => {
                maybe.push(o);
                why.get_or_insert(w);
            }
        }
    }
    match (orphans.is_empty(), maybe.is_empty()) {
        (false, _) => Some(Trapped { objects: orphans, unknown: None, rests_on }),
        (true, false) => Some(Trapped { objects: maybe, unknown: why, rests_on: None }),
        (true, true) => None,
    }
}

impl Trapped {
    fn resting_on(mut self, p: Option<Arc<Provisional>>) -> Trapped {
        self.rests_on = Provisional::union(self.rests_on, p.as_ref());
        self
    }

    /// The finding as sure as it is: an info when whether the objects are orphans is not known, a provisional
    /// warning when the verdict rests on a default that may not be what runs.
    fn finish(&self, mut d: Diagnostic) -> Diagnostic {
        if let Some(why) = &self.unknown {
            let (these, are) = if self.objects.len() == 1 {
                ("this resource instance", "is")
            } else {
                ("these resource instances", "are")
            };
            d.severity = crate::diagnostics::Severity::Info;
            d.message =
                format!("whether {these} {are} still declared is not known here ({why}); if not, {}", d.message);
        } else if let Some(p) = &self.rests_on {
            p.settle(&mut d);
        }
        d
    }
}

/// `module.a.module.b`.
fn module_address(path: &[SmolStr]) -> String {
    path.iter().map(|c| format!("module.{c}")).collect::<Vec<_>>().join(".")
}

/// A removed configuration in the module's own terms (`aws.use1`, with the local name the module gives that
/// provider, else the type's name), prefixed by its module path when it is in a module that no longer exists.
fn state_config_name(m: &Module, path: &[SmolStr], ty: &str, alias: Option<&str>) -> String {
    let local = declared_local_names(m)
        .into_iter()
        .find(|n| provider_type(m, n) == ty)
        .unwrap_or_else(|| ty.rsplit('/').next().unwrap_or(ty).to_string());
    let name = match alias {
        Some(a) => format!("{local}.{a}"),
        None => local,
    };
    if path.is_empty() { name } else { format!("{}.{name}", module_address(path)) }
}

/// The instance addresses of some objects, each once, in state order, and how many of the objects are deposed.
fn instance_addresses(bindings: &StateBindings, objects: &[u32]) -> (Vec<String>, usize) {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut deposed = 0;
    for o in objects {
        let object = &bindings.objects[*o as usize];
        if object.deposed.is_some() {
            deposed += 1;
        }
        let address = bindings.instance_address(object);
        if seen.insert(address.clone()) {
            out.push(address);
        }
    }
    (out, deposed)
}

/// `N resource instance(s) created through {through} (`a`, `b`, `c`, and 2 more)`, and `it` or `them`.
fn describe(addresses: &[String], deposed: usize, through: &str) -> (String, &'static str) {
    let n = addresses.len();
    let (noun, pronoun) = if n == 1 { ("resource instance", "it") } else { ("resource instances", "them") };
    let deposed = match deposed {
        0 => String::new(),
        1 => ", 1 deposed object".to_string(),
        d => format!(", {d} deposed objects"),
    };
    let listed: Vec<String> = addresses.iter().take(3).map(|a| format!("`{a}`")).collect();
    let more = if n > 3 { format!(", and {} more", n - 3) } else { String::new() };
    (format!("{n} {noun} created through {through} ({}{more}{deposed})", listed.join(", ")), pronoun)
}

/// `tofu apply -destroy -target='A' -target='B'` for the first addresses (single-quoted for the shell).
fn destroy_command(addresses: &[String]) -> String {
    let targets: Vec<String> =
        addresses.iter().take(LISTED).map(|a| format!("-target='{}'", a.replace('\'', r"'\''"))).collect();
    let rest = if addresses.len() > LISTED {
        format!(" (and the {} other instances `tofu state list` shows)", addresses.len() - LISTED)
    } else {
        String::new()
    };
    format!("`tofu apply -destroy {}`{rest}", targets.join(" "))
}

/// Related locations: each resource block of the objects that is still in the configuration.
fn related_resources(
    db: &dyn Db,
    tree: &ModuleTree,
    root: NodeId,
    bindings: &StateBindings,
    objects: &[u32],
    provider: &str,
    mut d: Diagnostic,
) -> Diagnostic {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for o in objects {
        *counts.entry(bindings.objects[*o as usize].resource).or_default() += 1;
    }
    let mut seen = BTreeSet::new();
    for (resource, n) in counts {
        let r = &bindings.resources[resource as usize];
        let Found::Node(node) = find_node(db, tree, root, r.module_calls()) else { continue };
        let m = module(db, tree.node(node).dir);
        let Some(block) =
            m.resources.iter().find(|x| x.mode == ResourceMode::Managed && x.ty == r.ty && x.name == r.name)
        else {
            continue;
        };
        let location = block.site.name_location();
        if !seen.insert((location.file, location.range.start())) {
            continue;
        }
        let objects = if n == 1 { "1 object".to_string() } else { format!("{n} objects") };
        d = d.with_related(
            location,
            format!("`{}` has {objects} in the state created through `{provider}`", r.address()),
        );
    }
    d
}

#[allow(clippy::too_many_arguments)]
fn instance_removed(
    db: &dyn Db,
    tree: &ModuleTree,
    root: NodeId,
    bindings: &StateBindings,
    objects: &[u32],
    block: &ProviderBlock,
    key: Option<&StateKey>,
    location: FileRange,
) -> Diagnostic {
    let (addresses, deposed) = instance_addresses(bindings, objects);
    let config = match block.alias_name() {
        Some(a) => format!("{}.{a}", block.name),
        None => block.name.clone(),
    };
    let instance = format!("{config}{}", key.map(StateKey::bracketed).unwrap_or_default());
    let destroy = destroy_command(&addresses);
    let message = match key {
        Some(k) => {
            let shown = match k {
                StateKey::Str(s) => foreach_syntax::quote(s),
                StateKey::Int(i) => i.to_string(),
            };
            let (what, them) = describe(&addresses, deposed, &format!("provider instance `{instance}`"));
            if block.for_each.is_some() {
                format!(
                    "this `for_each` no longer has the key {shown}, but the state still has {what}: `tofu plan` \
                     fails with \"Provider instance not present\"; either put {shown} back, destroy {them} first with \
                     {destroy}, then remove {shown} again; or keep {shown} here and remove the element from the \
                     resources' own `for_each` instead (filter it out with an `enabled` attribute or `setsubtract`)"
                )
            } else {
                format!(
                    "`{config}` no longer has `for_each`, but the state still has {what}: `tofu plan` fails with \
                     \"Provider instance not present\"; put the `for_each` with {shown} back, destroy {them} first \
                     with {destroy}, then remove it again"
                )
            }
        }
        None => {
            let (what, them) = describe(&addresses, deposed, &format!("`{config}` when it had a single instance"));
            format!(
                "this configuration now has `for_each`, but the state still has {what}: `tofu plan` fails with \
                 \"Provider instance not present\"; go back to the single-instance configuration, destroy {them} with \
                 {destroy}, then add `for_each`"
            )
        }
    };
    let d = Diagnostic::new(Code::ProviderInstanceRemovedWithResources, location, message);
    related_resources(db, tree, root, bindings, objects, &instance, d)
}

#[allow(clippy::too_many_arguments)]
fn config_removed(
    db: &dyn Db,
    tree: &ModuleTree,
    root: NodeId,
    bindings: &StateBindings,
    objects: &[u32],
    config: &str,
    gone: &str,
    location: FileRange,
) -> Diagnostic {
    let (addresses, deposed) = instance_addresses(bindings, objects);
    let (what, them) = describe(&addresses, deposed, "it");
    let destroy = destroy_command(&addresses);
    let message = format!(
        "{gone}, but the state still has {what}: `tofu plan` fails with \"Provider configuration not present\"; put \
         it back, destroy {them} first with {destroy}, then remove it again (or `tofu state rm` {them} to forget \
         without destroying)"
    );
    let d = Diagnostic::new(Code::ProviderConfigRemovedWithResources, location, message);
    related_resources(db, tree, root, bindings, objects, config, d)
}
