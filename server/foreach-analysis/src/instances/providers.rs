//! Through which provider instance each resource instance and module call instance works, as the state records
//! it: the configuration's module path, provider type and alias, and the instance key (`aws.by_region["eu"]`).
//!
//! The configuration comes from `providers/resolve.rs` (an explicit `provider` argument, inheritance, `providers`
//! maps); the key from the `SelectedKey`s of the block that selected it, the resource itself or a module call on
//! its path, by that block's instance key. Which instances each provider configuration has comes from the
//! expansions of `instance_values`, for telling whether a provider instance is still there.

use std::collections::HashMap;
use std::sync::Arc;

use smol_str::SmolStr;

use crate::db::{Db, Workspace, module};
use crate::eval::Value;
use crate::model::module::Module;
use crate::module_eval::instance_values;
use crate::providers::config::{RefOwner, implied_provider};
use crate::providers::expand::{Expansion, SelectedKey};
use crate::providers::local_names::provider_type;
use crate::providers::resolve::{Resolution, resolve};
use crate::state::address::normalise_source;
use crate::state::{ProviderInstanceAddr, StateKey};
use crate::tree::{ModuleTree, NodeId};

/// A provider configuration: the module that declares it (call names), its type as a comparable source address
/// (`hashicorp/aws`), its alias, and the local name the module gives it (for people).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProviderConfig {
    pub module: Vec<SmolStr>,
    pub ty: String,
    pub alias: Option<SmolStr>,
    pub local: SmolStr,
}

impl ProviderConfig {
    /// The configuration a state's provider address names, with the local name a module gives that type.
    pub fn of_state(addr: &ProviderInstanceAddr, local: Option<&str>) -> ProviderConfig {
        let ty = normalise_source(&addr.source);
        let local = local.map(SmolStr::new).unwrap_or_else(|| SmolStr::new(ty.rsplit('/').next().unwrap_or(&ty)));
        ProviderConfig { module: addr.module.clone(), ty, alias: addr.alias.clone(), local }
    }

    /// `aws.by_region`, `module.net.aws`.
    pub fn name(&self) -> String {
        let mut out: String = self.module.iter().map(|m| format!("module.{m}.")).collect();
        out.push_str(&self.local);
        if let Some(a) = &self.alias {
            out.push('.');
            out.push_str(a);
        }
        out
    }

    /// Whether both name the same configuration (the local names may differ between sides).
    pub fn same(&self, other: &ProviderConfig) -> bool {
        self.module == other.module && self.ty == other.ty && self.alias == other.alias
    }
}

/// One provider configuration instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProviderInstance {
    pub config: Arc<ProviderConfig>,
    pub key: Option<StateKey>,
}

impl ProviderInstance {
    /// `aws.by_region["eu"]`.
    pub fn name(&self) -> String {
        let mut out = self.config.name();
        if let Some(k) = &self.key {
            out.push_str(&k.bracketed());
        }
        out
    }

    pub fn same(&self, other: &ProviderInstance) -> bool {
        self.key == other.key && self.config.same(&other.config)
    }
}

/// How a block picks its provider instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderUse {
    pub config: Arc<ProviderConfig>,
    pub keys: KeySelection,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySelection {
    /// The configuration has no `for_each`: its one instance.
    Single,
    /// By the instance key of the block that selected it: the block itself (`from: None`) or the module call at
    /// step `from` of the module path.
    ByInstance { from: Option<usize>, keys: Arc<[SelectedKey]> },
    /// A configuration with `for_each` whose selected key is not known here.
    Unknown,
}

impl ProviderUse {
    /// The provider instance of the instance `key` of the block, in the module instance `path`; `None` when the key
    /// it selects is not known.
    pub fn instance(&self, path: &[crate::state::ModuleStep], key: &Option<StateKey>) -> Option<ProviderInstance> {
        let key = match &self.keys {
            KeySelection::Single => None,
            KeySelection::Unknown => return None,
            KeySelection::ByInstance { from, keys } => {
                let by = match from {
                    None => key,
                    Some(i) => &path.get(*i)?.1,
                };
                let selected = keys.iter().find(|k| is_label_of(k.instance.as_deref(), by))?.key.as_ref()?;
                Some(StateKey::Str(SmolStr::new(selected)))
            }
        };
        Some(ProviderInstance { config: self.config.clone(), key })
    }

    /// Whether the provider instance depends on the block's own instance key (`aws.by_region[each.key]`); otherwise
    /// every instance of the block in one module instance uses the same one.
    pub fn selects_by_own_key(&self) -> bool {
        matches!(self.keys, KeySelection::ByInstance { from: None, .. })
    }

    /// Whether `self` and `other` give every instance key that both select for the same provider instance (in the
    /// same module instance): the same configuration, selected by the same block, and the same provider key for
    /// every block instance both list. Keys only one side lists select nothing on the other (not a rebind). Lets a
    /// comparison skip the instance-by-instance check when a `for_each` only gained or lost keys.
    pub fn agrees_with(&self, other: &ProviderUse) -> bool {
        if !self.config.same(&other.config) {
            return false;
        }
        match (&self.keys, &other.keys) {
            (KeySelection::Single, KeySelection::Single) | (KeySelection::Unknown, KeySelection::Unknown) => true,
            (KeySelection::ByInstance { from: a, keys: ka }, KeySelection::ByInstance { from: b, keys: kb }) => {
                if a != b {
                    return false;
                }
                // The first entry of a label is the one `instance` finds.
                let theirs = first_selections(kb);
                first_selections(ka).into_iter().all(|(label, key)| theirs.get(&label).is_none_or(|k| *k == key))
            }
            _ => false,
        }
    }
}

/// Each block instance label's selected provider key, as [`ProviderUse::instance`] finds it (the first entry).
fn first_selections(keys: &[SelectedKey]) -> HashMap<Option<&str>, Option<&str>> {
    let mut out = HashMap::with_capacity(keys.len());
    for k in keys {
        out.entry(k.instance.as_deref()).or_insert(k.key.as_deref());
    }
    out
}

/// Whether `label` is how `SelectedKey::instance` writes the block instance key `key` (`providers/expand.rs`):
/// `["eu"]`, `[0]`, none. Compared in place: this runs for every instance of every block.
fn is_label_of(label: Option<&str>, key: &Option<StateKey>) -> bool {
    match (label, key) {
        (None, None) => true,
        (Some(l), Some(StateKey::Str(s))) => {
            l.strip_prefix("[\"").and_then(|l| l.strip_suffix("\"]")).is_some_and(|inner| inner == s.as_str())
        }
        (Some(l), Some(StateKey::Int(i))) => {
            l.strip_prefix('[').and_then(|l| l.strip_suffix(']')).is_some_and(|inner| inner.parse::<i64>() == Ok(*i))
        }
        _ => false,
    }
}

/// The instances of one provider configuration in the configuration.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigInstances {
    /// No `for_each`; its `region`, when known.
    Single(Option<String>),
    /// The keys of its `for_each`, each with its `region` when known.
    Keys(HashMap<SmolStr, Option<String>>),
    /// Not known here: taken to be there.
    Unknown,
}

/// Every provider configuration of a root's tree and its instances, for telling whether one is still there.
#[derive(Debug, Clone, Default)]
pub struct ProviderInstances {
    configs: HashMap<(Vec<SmolStr>, String, Option<SmolStr>), ConfigInstances>,
    /// By module (call names): the provider types it names, with their local names. A module that names a type
    /// has its default configuration, declared or implied.
    implied: HashMap<Vec<SmolStr>, Vec<(String, String)>>,
}

impl ProviderInstances {
    /// Whether the provider instance exists in the configuration (`None`: not known).
    pub fn has(&self, p: &ProviderInstance) -> Option<bool> {
        let c = &p.config;
        match self.configs.get(&(c.module.clone(), c.ty.clone(), c.alias.clone())) {
            Some(ConfigInstances::Single(_)) => Some(p.key.is_none()),
            Some(ConfigInstances::Keys(keys)) => Some(matches!(&p.key, Some(StateKey::Str(k)) if keys.contains_key(k))),
            Some(ConfigInstances::Unknown) => None,
            // A default configuration exists without a block: in a root module, and in any module that uses it.
            None if c.alias.is_none() && p.key.is_none() => Some(
                c.module.is_empty()
                    || self.implied.get(&c.module).is_some_and(|tys| tys.iter().any(|(t, _)| *t == c.ty)),
            ),
            None => Some(false),
        }
    }

    /// The `region` of the instance, when the configuration sets one that is known.
    pub fn region(&self, p: &ProviderInstance) -> Option<&str> {
        let c = &p.config;
        match (self.configs.get(&(c.module.clone(), c.ty.clone(), c.alias.clone()))?, &p.key) {
            (ConfigInstances::Single(r), None) => r.as_deref(),
            (ConfigInstances::Keys(keys), Some(StateKey::Str(k))) => keys.get(k)?.as_deref(),
            _ => None,
        }
    }

    /// The local name the module at `module` (call names) gives provider type `ty`, where it names it.
    pub fn local_name(&self, module: &[SmolStr], ty: &str) -> Option<&str> {
        self.implied.get(module)?.iter().find(|(t, _)| t == ty).map(|(_, local)| local.as_str())
    }

    /// Adds the provider configurations of one module instance (`node`, at `path`).
    pub(crate) fn add(&mut self, db: &dyn Db, ws: Workspace, node: NodeId, path: &[SmolStr], m: &Module) {
        let values = instance_values(db, ws, node);
        let region = |args: &[(String, Value)]| {
            args.iter().find(|(k, _)| k == "region").and_then(|(_, v)| v.as_str().map(str::to_string))
        };
        for (i, p) in m.providers.iter().enumerate() {
            let instances = match values.providers.expansions.get(i) {
                Some(Expansion::Single) => ConfigInstances::Single(None),
                Some(Expansion::Keys(list)) => ConfigInstances::Keys(
                    list.iter().map(|inst| (SmolStr::new(&inst.key), region(&inst.args))).collect(),
                ),
                _ => ConfigInstances::Unknown,
            };
            let alias = p.alias_name().map(SmolStr::new);
            self.configs.insert((path.to_vec(), provider_type(m, &p.name), alias), instances);
        }
        let used: Vec<(String, String)> = crate::providers::local_names::declared_local_names(m)
            .into_iter()
            .map(|n| (provider_type(m, &n), n))
            .collect();
        self.implied.insert(path.to_vec(), used);
    }
}

/// Resolves the provider of blocks in one module instance, each distinct implied provider once.
pub(crate) struct Resolver<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    tree: &'a ModuleTree,
    /// Shared by every block of the node that inherits the provider, so comparisons can tell them equal by address.
    implied: HashMap<(NodeId, String), Option<Arc<ProviderUse>>>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn new(db: &'a dyn Db, ws: Workspace, tree: &'a ModuleTree) -> Resolver<'a> {
        Resolver { db, ws, tree, implied: HashMap::new() }
    }

    /// The provider the block `owner` of `node` uses; `None` when its reference is malformed (reported elsewhere).
    pub(crate) fn block(&mut self, node: NodeId, m: &Module, owner: &RefOwner) -> Option<Arc<ProviderUse>> {
        let values = instance_values(self.db, self.ws, node);
        // A module call's provider: the first entry of its `providers` map.
        let explicit = values.providers.uses.iter().find(|u| match (&u.owner, owner) {
            (RefOwner::ModuleCall(a, _), RefOwner::ModuleCall(b, _)) => a == b,
            (a, b) => a == b,
        });
        match (explicit, owner) {
            (Some(u), _) => {
                let (name, alias) = split(&u.config);
                let r = resolve(self.db, self.ws, self.tree, node, &name, alias.as_deref(), u.keys.clone());
                Some(Arc::new(self.resolved(r)))
            }
            (None, RefOwner::Resource(i)) if m.resources[*i].provider().is_none() => {
                let name = implied_provider(&m.resources[*i].ty).to_string();
                if let Some(u) = self.implied.get(&(node, name.clone())) {
                    return u.clone();
                }
                let u =
                    Some(Arc::new(self.resolved(resolve(self.db, self.ws, self.tree, node, &name, None, Vec::new()))));
                self.implied.insert((node, name), u.clone());
                u
            }
            _ => None,
        }
    }

    fn resolved(&self, r: Resolution) -> ProviderUse {
        let declared_in = self.tree.node(r.declared_in);
        let m = module(self.db, declared_in.dir);
        let (name, alias) = split(&r.config);
        let config = ProviderConfig {
            module: declared_in.call_path.iter().map(SmolStr::new).collect(),
            ty: provider_type(&m, &name),
            alias: alias.as_deref().map(SmolStr::new),
            local: SmolStr::new(&name),
        };
        let block = m.providers.iter().find(|p| p.name == name && p.alias_name() == alias);
        let keys = match block {
            Some(b) if b.for_each.is_some() => {
                if r.keys.iter().any(|k| k.key.is_some()) {
                    KeySelection::ByInstance { from: r.keys_from, keys: r.keys.into() }
                } else {
                    KeySelection::Unknown
                }
            }
            _ => KeySelection::Single,
        };
        ProviderUse { config: Arc::new(config), keys }
    }
}

fn split(config: &str) -> (String, Option<String>) {
    match config.split_once('.') {
        Some((n, a)) => (n.to_string(), Some(a.to_string())),
        None => (config.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_instance(alias: &str, pairs: &[(&str, &str)]) -> ProviderUse {
        let config = ProviderConfig {
            module: Vec::new(),
            ty: "hashicorp/aws".into(),
            alias: Some(alias.into()),
            local: "aws".into(),
        };
        let keys: Vec<SelectedKey> = pairs
            .iter()
            .map(|(i, k)| SelectedKey { instance: Some(format!("[\"{i}\"]")), key: Some(k.to_string()) })
            .collect();
        ProviderUse { config: Arc::new(config), keys: KeySelection::ByInstance { from: None, keys: keys.into() } }
    }

    #[test]
    fn uses_agree_when_every_shared_key_selects_the_same_instance() {
        let base = by_instance("r", &[("eu", "eu"), ("us", "us"), ("ap", "ap")]);
        // A key dropped (or added): the others keep their provider instance.
        assert!(base.agrees_with(&by_instance("r", &[("eu", "eu"), ("us", "us")])));
        assert!(by_instance("r", &[("eu", "eu")]).agrees_with(&base));
        // A kept key that now selects another provider instance is a rebind.
        assert!(!base.agrees_with(&by_instance("r", &[("eu", "euw1"), ("us", "us")])));
        // Another configuration.
        assert!(!base.agrees_with(&by_instance("other", &[("eu", "eu"), ("us", "us"), ("ap", "ap")])));
        // Of a label listed twice, the first entry is the one `instance` finds.
        let twice = by_instance("r", &[("eu", "eu"), ("eu", "x")]);
        assert!(twice.agrees_with(&by_instance("r", &[("eu", "eu")])));
        assert!(by_instance("r", &[("eu", "eu")]).agrees_with(&twice));
        let eu = Some(StateKey::Str("eu".into()));
        assert_eq!(twice.instance(&[], &eu).and_then(|p| p.key), eu);
    }

    #[test]
    fn labels_match_the_keys_expand_writes() {
        let s = |k: &str| Some(StateKey::Str(k.into()));
        assert!(is_label_of(Some("[\"eu\"]"), &s("eu")));
        assert!(!is_label_of(Some("[\"eu\"]"), &s("e")));
        assert!(is_label_of(Some("[0]"), &Some(StateKey::Int(0))));
        assert!(!is_label_of(Some("[0]"), &s("0")));
        assert!(is_label_of(None, &None));
        assert!(!is_label_of(None, &s("eu")));
        assert!(!is_label_of(Some("[\"eu\"]"), &None));
    }
}
