//! What a module call's `providers` map passes: each configuration must be of the provider the child expects under
//! that name (OpenTofu: "Provider type mismatch"). `providers = { aws = google }` is `provider-type-mismatch`; a
//! value whose name this module does not declare at all (`{ aws = euw1 }`, usually meant as `aws.euw1`) is
//! `unknown-provider-config`, since it names no provider the module knows.
//!
//! Needs the module tree (the child's declarations decide its types); a child that is not loaded is not checked.

use std::collections::HashMap;
use std::sync::Arc;

use crate::db::{Db, ModuleDir, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::module::Module;
use crate::providers::config::{ConfigTarget, RefOwner, dir_references, known_addresses, resolve_config};
use crate::providers::local_names::{declared_local_names, provider_type};
use crate::suggest::closest;
use crate::tree::{ModuleTree, TreeNode};
use crate::{FileRange, providers::reference::ProviderRef};

/// A parent directory's `providers` entries, grouped by call name: `(child-side name, reference)` for each.
/// Memoised per directory, so a root with hundreds of calls groups its references once, not once per child.
#[salsa::tracked(returns(clone))]
pub fn providers_entries_by_call(db: &dyn Db, dir: ModuleDir) -> Arc<HashMap<String, Vec<(String, ProviderRef)>>> {
    let pm = module(db, dir);
    let mut by_call: HashMap<String, Vec<(String, ProviderRef)>> = HashMap::new();
    for site in dir_references(db, dir).iter() {
        let RefOwner::ModuleCall(ci, child_name) = &site.owner else { continue };
        if let Some(c) = pm.module_calls.get(*ci) {
            by_call.entry(c.name.clone()).or_default().push((child_name.clone(), site.reference.clone()));
        }
    }
    Arc::new(by_call)
}

/// The `providers` map of the call that creates `node`, checked against the child's declarations.
pub fn providers_map_checks(db: &dyn Db, tree: &ModuleTree, node: &TreeNode) -> Vec<Diagnostic> {
    let (Some(parent), Some(call)) = (node.parent, node.call_path.last()) else { return Vec::new() };
    let parent_dir = tree.node(parent).dir;
    let entries = providers_entries_by_call(db, parent_dir);
    let Some(entries) = entries.get(call) else { return Vec::new() };
    let pm = module(db, parent_dir);
    let child = module(db, node.dir);
    entries.iter().filter_map(|(child_name, reference)| check_entry(&pm, &child, call, child_name, reference)).collect()
}

fn check_entry(pm: &Module, child: &Module, call: &str, child_name: &str, r: &ProviderRef) -> Option<Diagnostic> {
    let target = resolve_config(pm, &r.name, r.alias_name());
    // An aliased configuration that does not exist is reported where references are resolved.
    if target == ConfigTarget::Unknown {
        return None;
    }
    let key_name = child_name.split('.').next().unwrap_or(child_name);
    let expected = provider_type(child, key_name);
    let given = provider_type(pm, &r.name);
    if expected == given {
        return None;
    }
    let config_range = match &r.alias {
        Some((_, a)) => r.name_range.cover(*a),
        None => r.name_range,
    };
    let at = FileRange::new(r.file, config_range);
    let declared = declared_local_names(pm);
    let mut d = if target == ConfigTarget::ImplicitDefault && !declared.contains(&r.name) {
        let mut msg = format!(
            "no provider `{}` is declared in this module, and module `{call}` expects a configuration of `{expected}` \
             for `{child_name}`",
            r.name
        );
        let known = known_addresses(pm);
        // `{ aws = euw1 }` usually means the aliased configuration `aws.euw1`.
        let by_alias = known.iter().find(|a| a.split_once('.').is_some_and(|(_, alias)| alias == r.name));
        let suggestion = by_alias
            .map(String::as_str)
            .or_else(|| closest(&r.name, known.iter().map(String::as_str).chain(declared.iter().map(String::as_str))));
        if let Some(s) = suggestion {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        Diagnostic::new(Code::UnknownProviderConfig, at, msg)
    } else {
        let mut msg = format!(
            "`{}` is a configuration of provider `{given}`, but module `{call}` expects `{expected}` for \
             `{child_name}`",
            r.config_address()
        );
        if let Some(other) = same_provider_config(pm, &expected, r.alias_name()) {
            msg.push_str(&format!("; did you mean `{other}`?"));
        } else {
            msg.push_str(&format!("; pass a configuration of `{expected}`"));
        }
        Diagnostic::new(Code::ProviderTypeMismatch, at, msg)
    };
    if let Some(rp) = child.required_providers.iter().rev().find(|rp| rp.local_name == key_name) {
        d = d.with_related(rp.location, format!("module `{call}` requires `{key_name}` as `{expected}` here"));
    }
    Some(d)
}

/// A configuration of the parent module of provider `ty`: the one with the same alias if it has one, else the
/// default configuration of a local name that stands for `ty`.
fn same_provider_config(pm: &Module, ty: &str, alias: Option<&str>) -> Option<String> {
    let names: Vec<String> = declared_local_names(pm).into_iter().filter(|n| provider_type(pm, n) == ty).collect();
    if let Some(a) = alias
        && let Some(n) = names.iter().find(|n| resolve_config(pm, n, Some(a)) != ConfigTarget::Unknown)
    {
        return Some(format!("{n}.{a}"));
    }
    names.into_iter().next()
}
