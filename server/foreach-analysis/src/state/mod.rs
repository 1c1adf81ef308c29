//! What a root module's state says about provider bindings, in the compact form the checks need: every managed
//! resource instance object (current or deposed) and the provider configuration instance it was created through.
//!
//! The host reads and decodes the state file (`foreach-load`); this module owns the model and the address grammar,
//! so that the analysis gets already-parsed addresses and no JSON. Attributes, outputs and data sources are never
//! kept: a 50 MB state becomes a few megabytes here.

pub mod address;
pub mod checks;
pub mod declared;
pub mod queries;
pub mod too_similar;

use std::collections::HashMap;
use std::sync::Arc;

use smol_str::SmolStr;

pub use address::{ModuleStep, ProviderInstanceAddr, StateKey};

/// The state of one root module, as the host could read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootState {
    Bindings(Arc<StateBindings>),
    /// A state file that could not be read: reported as `unreadable-state`, and the root is checked without
    /// state. Either found next to the root, or (`configured`) named by an editor's `state` setting; a state given
    /// with `--state` that cannot be read stops the command instead.
    Unreadable {
        path: String,
        why: String,
        configured: bool,
    },
}

/// A managed resource in the state: its module instance path and `type.name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateResource {
    /// Shared between the resources of one module instance.
    pub module: Arc<[ModuleStep]>,
    pub ty: SmolStr,
    pub name: SmolStr,
}

impl StateResource {
    /// `module.a["x"].aws_s3_bucket.b`, as OpenTofu writes it.
    pub fn address(&self) -> String {
        let mut out = String::new();
        for (call, key) in self.module.iter() {
            out.push_str("module.");
            out.push_str(call);
            if let Some(k) = key {
                out.push_str(&k.bracketed());
            }
            out.push('.');
        }
        out.push_str(&self.ty);
        out.push('.');
        out.push_str(&self.name);
        out
    }

    /// The call names of the module path, without instance keys: the configuration module that declares it.
    pub fn module_calls(&self) -> impl Iterator<Item = &str> {
        self.module.iter().map(|(c, _)| c.as_str())
    }
}

/// One resource instance object bound to a provider instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateObject {
    /// Index into [`StateBindings::resources`].
    pub resource: u32,
    pub key: Option<StateKey>,
    /// The deposed key of an object left by a failed `create_before_destroy` replacement.
    pub deposed: Option<SmolStr>,
    /// Index into [`StateBindings::providers`].
    pub provider: u32,
}

/// Every managed resource instance object of a state and its provider instance, addresses interned.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StateBindings {
    pub providers: Vec<ProviderInstanceAddr>,
    pub resources: Vec<StateResource>,
    pub objects: Vec<StateObject>,
}

impl StateBindings {
    /// `module.a["x"].aws_s3_bucket.b["eu"]`.
    pub fn instance_address(&self, object: &StateObject) -> String {
        let mut out = self.resources[object.resource as usize].address();
        if let Some(k) = &object.key {
            out.push_str(&k.bracketed());
        }
        out
    }
}

/// Builds [`StateBindings`] while the host decodes a state, parsing each distinct address string once.
#[derive(Default)]
pub struct StateBuilder {
    bindings: StateBindings,
    providers: HashMap<String, u32>,
    modules: HashMap<String, Arc<[ModuleStep]>>,
}

impl StateBuilder {
    pub fn new() -> StateBuilder {
        StateBuilder::default()
    }

    /// Adds a managed resource (`module` as the state writes it, `""` for the root module); returns its index.
    pub fn resource(&mut self, module: &str, ty: &str, name: &str) -> Result<u32, String> {
        let steps = match self.modules.get(module) {
            Some(s) => s.clone(),
            None => {
                let parsed: Arc<[ModuleStep]> = address::parse_module_instance(module)
                    .map_err(|e| format!("resource `{ty}.{name}` has an invalid module address `{module}`: {e}"))?
                    .into();
                self.modules.insert(module.to_string(), parsed.clone());
                parsed
            }
        };
        let index = self.bindings.resources.len() as u32;
        self.bindings.resources.push(StateResource { module: steps, ty: ty.into(), name: name.into() });
        Ok(index)
    }

    /// Adds one object of `resource`, bound to the provider instance `provider` (as the state writes it); returns
    /// the index of that provider instance ([`StateBuilder::provider`]).
    pub fn object(
        &mut self,
        resource: u32,
        key: Option<StateKey>,
        deposed: Option<&str>,
        provider: &str,
    ) -> Result<u32, String> {
        let provider = match self.providers.get(provider) {
            Some(i) => *i,
            None => {
                let addr = address::parse_provider_instance(provider).map_err(|e| {
                    let r = &self.bindings.resources[resource as usize];
                    format!("resource `{}` has an invalid provider address `{provider}`: {e}", r.address())
                })?;
                let i = self.bindings.providers.len() as u32;
                self.bindings.providers.push(addr);
                self.providers.insert(provider.to_string(), i);
                i
            }
        };
        self.bindings.objects.push(StateObject { resource, key, deposed: deposed.map(SmolStr::new), provider });
        Ok(provider)
    }

    /// A provider instance added so far, by the index [`StateBuilder::object`] returned.
    pub fn provider(&self, index: u32) -> &ProviderInstanceAddr {
        &self.bindings.providers[index as usize]
    }

    pub fn finish(mut self) -> StateBindings {
        self.bindings.objects.shrink_to_fit();
        self.bindings.resources.shrink_to_fit();
        self.bindings
    }
}

impl StateBindings {
    /// For each provider instance (by index), how many resource instances are bound to it; the deposed objects of
    /// an instance count with it.
    pub fn instances_per_provider(&self) -> Vec<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut counts = vec![0; self.providers.len()];
        for o in &self.objects {
            if seen.insert((o.provider, o.resource, o.key.clone())) {
                counts[o.provider as usize] += 1;
            }
        }
        counts
    }

    /// The provider instances of one configuration, with how many resource instances each has (`counts` from
    /// [`StateBindings::instances_per_provider`]): the configuration in the module at `calls`, of provider `ty`
    /// (as `provider_type` gives it) and with `alias`. In state order.
    pub fn config_instances(
        &self,
        counts: &[usize],
        calls: &[String],
        ty: &str,
        alias: Option<&str>,
    ) -> Vec<(Option<StateKey>, usize)> {
        self.providers
            .iter()
            .zip(counts)
            .filter(|(p, n)| {
                **n > 0
                    && p.alias.as_deref() == alias
                    && p.module.iter().map(SmolStr::as_str).eq(calls.iter().map(String::as_str))
                    && address::normalise_source(&p.source) == ty
            })
            .map(|(p, n)| (p.key.clone(), *n))
            .collect()
    }
}
