//! Which provider configuration a reference names inside one module, and every reference site of a module.
//!
//! OpenTofu resolves references against the provider blocks declared in the *same* module, plus the
//! configurations the module receives (`configuration_aliases`), plus the implied default configuration of each
//! provider. Keys can only select instances of a `for_each` block declared in the same module: a configuration
//! received from the caller is always a single instance inside the child.

use std::sync::Arc;

use foreach_syntax::ast::{ExprKind, ObjectKey};

use crate::db::{Db, ModuleDir, module};
use crate::diagnostics::Diagnostic;
use crate::model::items::{Arg, ResourceMode};
use crate::model::module::Module;
use crate::providers::reference::{ProviderRef, RefSite, parse_provider_ref};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigTarget {
    /// A `provider` block of this module (index into `Module::providers`).
    Block(usize),
    /// Received from the caller through `configuration_aliases`.
    PassedIn,
    /// The default configuration of a provider, implied when no block declares it.
    ImplicitDefault,
    /// No such configuration.
    Unknown,
}

pub fn resolve_config(module: &Module, name: &str, alias: Option<&str>) -> ConfigTarget {
    if let Some(i) = module.providers.iter().position(|p| p.name == name && p.alias_name().as_deref() == alias) {
        return ConfigTarget::Block(i);
    }
    match alias {
        None => ConfigTarget::ImplicitDefault,
        Some(a) => {
            let passed = module
                .required_providers
                .iter()
                .flat_map(|rp| rp.configuration_aliases.iter())
                .any(|ca| ca.provider == name && ca.alias == a);
            if passed { ConfigTarget::PassedIn } else { ConfigTarget::Unknown }
        }
    }
}

/// Every `name.alias` the module can refer to, for "did you mean" suggestions.
pub fn known_addresses(module: &Module) -> Vec<String> {
    let mut out: Vec<String> = module
        .providers
        .iter()
        .map(|p| match p.alias_name() {
            Some(a) => format!("{}.{a}", p.name),
            None => p.name.clone(),
        })
        .collect();
    for rp in &module.required_providers {
        out.extend(rp.configuration_aliases.iter().map(|ca| format!("{}.{}", ca.provider, ca.alias)));
    }
    out.sort();
    out.dedup();
    out
}

/// Who holds a provider reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefOwner {
    /// `resource`/`data`/`ephemeral` block (index into `Module::resources`).
    Resource(usize),
    /// A value in a module call's `providers` map: (index into `Module::module_calls`, the child-side name, e.g.
    /// `aws` or `aws.src`).
    ModuleCall(usize, String),
    /// An `import` block (index into `Module::others`): parsed, but OpenTofu does not check its keys.
    Import(usize),
}

/// One parsed reference and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefSiteInfo {
    pub owner: RefOwner,
    pub reference: ProviderRef,
}

/// [`module_references`] of one directory's module, memoised: instances of a module and the tree-wide checks read
/// them for every node, and an edit changes only the edited directory's.
#[salsa::tracked(returns(clone))]
pub fn dir_references(db: &dyn Db, dir: ModuleDir) -> Arc<Vec<RefSiteInfo>> {
    Arc::new(module_references(&module(db, dir)).0)
}

/// All provider references of a module, parsed; malformed ones are reported in the returned diagnostics.
pub fn module_references(module: &Module) -> (Vec<RefSiteInfo>, Vec<Diagnostic>) {
    let mut refs = Vec::new();
    let mut diags = Vec::new();
    for (i, r) in module.resources.iter().enumerate() {
        if let Some(p) = r.provider() {
            let (parsed, d) = parse_provider_ref(p.file, &p.expr(), RefSite::ProviderArgument);
            diags.extend(d);
            if let Some(reference) = parsed {
                refs.push(RefSiteInfo { owner: RefOwner::Resource(i), reference });
            }
        }
    }
    for (i, o) in module.others.iter().enumerate() {
        if o.kind == "import"
            && let Some(p) = &o.provider
        {
            let (parsed, d) = parse_provider_ref(p.file, &p.expr(), RefSite::ProviderArgument);
            diags.extend(d);
            if let Some(reference) = parsed {
                refs.push(RefSiteInfo { owner: RefOwner::Import(i), reference });
            }
        }
    }
    for (i, call) in module.module_calls.iter().enumerate() {
        if let Some(providers) = &call.providers {
            let map = providers.expr();
            for (child_name, value) in providers_entries(providers, &map, &mut diags) {
                let (parsed, d) = parse_provider_ref(providers.file, value, RefSite::ProvidersValue);
                diags.extend(d);
                if let Some(reference) = parsed {
                    refs.push(RefSiteInfo { owner: RefOwner::ModuleCall(i, child_name), reference });
                }
            }
        }
    }
    (refs, diags)
}

/// The `(child name, value expression)` pairs of a `providers = { aws = aws.x, aws.src = aws.y }` map. The keys
/// are parsed as references too (they must not carry instance keys).
fn providers_entries<'a>(
    providers: &Arg,
    map: &'a foreach_syntax::ast::Expr,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, &'a foreach_syntax::ast::Expr)> {
    let ExprKind::Object(items) = &map.unparenthesized().kind else {
        diags.push(Diagnostic::new(
            crate::Code::InvalidProviderReference,
            providers.expr_location(),
            "`providers` must be a map of provider configurations, as in `{ aws = aws.by_region[each.key] }`",
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let name = match &item.key {
            ObjectKey::Ident(i) => Some(i.name.to_string()),
            ObjectKey::Expr(e) => {
                let (parsed, d) = parse_provider_ref(providers.file, e, RefSite::ProvidersKey);
                diags.extend(d);
                parsed.map(|r| r.config_address())
            }
        };
        if let Some(name) = name {
            out.push((name, &item.value));
        }
    }
    out
}

/// The provider local name a resource type implies: `aws_s3_bucket` -> `aws`.
pub fn implied_provider(resource_type: &str) -> &str {
    resource_type.split('_').next().unwrap_or(resource_type)
}

/// Whether a resource mode is checked for instance keys (OpenTofu checks resource, data and ephemeral blocks).
pub fn mode_checks_keys(mode: ResourceMode) -> bool {
    matches!(mode, ResourceMode::Managed | ResourceMode::Data | ResourceMode::Ephemeral)
}

/// The alias to give provider `name`'s `for_each` block that has none: the one the module's references already use
/// for it when they name exactly one configuration that does not exist (`aws.by_region[each.key]` written before
/// the alias), else `by_region` as the diagnostic's message suggests (numbered when that configuration exists).
pub fn suggested_alias(module: &Module, name: &str) -> String {
    alias_in_use(module, name).unwrap_or_else(|| free_alias(module, name))
}

/// `by_region`, or `by_region_2`, … when the provider already has a configuration of that name.
fn free_alias(module: &Module, name: &str) -> String {
    (1..)
        .map(|n| if n == 1 { "by_region".to_string() } else { format!("by_region_{n}") })
        .find(|a| resolve_config(module, name, Some(a)) == ConfigTarget::Unknown)
        .unwrap_or_default()
}

/// The single undeclared alias the module's references use for provider `name`.
fn alias_in_use(module: &Module, name: &str) -> Option<String> {
    let (refs, _) = module_references(module);
    let mut aliases: Vec<&str> = refs
        .iter()
        .filter(|r| r.reference.name == name)
        .filter_map(|r| r.reference.alias_name())
        .filter(|a| resolve_config(module, name, Some(a)) == ConfigTarget::Unknown)
        .collect();
    aliases.sort_unstable();
    aliases.dedup();
    match aliases.as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    }
}
