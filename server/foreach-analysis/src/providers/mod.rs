//! Provider iteration: provider blocks with `for_each`, their instances, and every reference to them.
//!
//! - [`reference`] parses `provider = …` / `providers = { … }` references by the RFC's grammar;
//! - [`config`] resolves a reference to a configuration of its module and lists every reference site;
//! - [`checks`] checks one module's declarations (no evaluation);
//! - [`expand`] evaluates, per module instance, each `for_each` into instance keys and each selected key;
//! - [`missing_key`] names the real instance keys in `missing-provider-instance-key` findings;
//! - [`local_names`] knows which provider each local name stands for (and reports names nothing declares);
//! - [`passing`] checks that a call's `providers` map passes configurations of the providers the child expects;
//! - this file checks what needs the module tree: configured providers in modules called with repetition, and
//!   `configuration_aliases` the caller does not pass.

pub mod checks;
pub mod config;
pub mod expand;
pub mod local_names;
pub mod missing_key;
pub mod not_inherited;
pub mod passing;
pub mod reference;
pub mod resolve;
pub mod test_files;
pub mod unknown_instance;

use std::collections::HashSet;
use std::sync::Arc;

use crate::base::FileRange;
use crate::chunks;
use crate::db::{Db, Workspace, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::items::ModuleCall;
use crate::tree::{ModuleTree, NodeId, module_tree};

/// The meta-argument that makes a call repeat (or defer), where OpenTofu reports configured providers below it.
fn repetition_site(call: &ModuleCall) -> Option<(FileRange, &'static str)> {
    if let Some(a) = &call.count {
        return Some((a.expr_location(), "count"));
    }
    if let Some(a) = &call.for_each {
        return Some((a.expr_location(), "for_each"));
    }
    if let Some(a) = &call.enabled {
        return Some((a.expr_location(), "enabled"));
    }
    if let Some(a) = &call.depends_on {
        let first = match &a.expr().kind {
            foreach_syntax::ast::ExprKind::Tuple(items) if !items.is_empty() => FileRange::new(a.file, items[0].range),
            _ => a.expr_location(),
        };
        return Some((first, "depends_on"));
    }
    None
}

/// The provider checks that need the module tree, gathered from [`node_provider_checks`] (one memo per tree node,
/// so an edit re-checks only the nodes that read the edited module) and [`tree_undeclared_providers`]. A
/// configured provider below a repeated call is reported once per call and configuration, however many instances
/// of the call's module lead to it.
#[salsa::tracked(returns(clone))]
pub fn tree_provider_checks(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let tree = module_tree(db, ws);
    let mut out = Vec::new();
    let mut reported: HashSet<(FileRange, FileRange)> = HashSet::new();
    for chunk in chunks::chunks(tree.nodes.len()) {
        for d in chunk_provider_checks(db, ws, chunk).iter() {
            if d.code == Code::ProviderInExpandedModule
                && let Some(r) = d.related.first()
                && !reported.insert((d.location, r.location))
            {
                continue;
            }
            out.push(d.clone());
        }
    }
    out.extend(tree_undeclared_providers(db, ws).iter().cloned());
    Arc::new(out)
}

/// The tree checks of one chunk of nodes, in node order (`chunks.rs`: a keystroke re-runs one chunk, not a
/// gathering over every instance).
#[salsa::tracked(returns(clone))]
fn chunk_provider_checks(db: &dyn Db, ws: Workspace, chunk: u32) -> Arc<Vec<Diagnostic>> {
    let nodes = chunks::items(chunk, module_tree(db, ws).nodes.len());
    Arc::new(nodes.flat_map(|index| node_provider_checks(db, ws, NodeId(index as u32)).to_vec()).collect())
}

/// Provider names nothing declares, counting the callers' declarations (`local_names.rs`): it reads only each
/// directory's declared names, so an edit that declares no new name stops before it.
#[salsa::tracked(returns(clone))]
fn tree_undeclared_providers(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    Arc::new(local_names::undeclared_providers(db, ws, &module_tree(db, ws)))
}

/// The tree checks of one node: configured providers in its module when a call above it repeats, the
/// `configuration_aliases` its call does not pass, and the `providers` map of its call (`passing.rs`).
#[salsa::tracked(returns(clone))]
fn node_provider_checks(db: &dyn Db, ws: Workspace, id: NodeId) -> Arc<Vec<Diagnostic>> {
    let tree = module_tree(db, ws);
    let node = tree.node(id);
    let mut out = Vec::new();
    let m = module(db, node.dir);
    let configured: Vec<_> = m.providers.iter().filter(|p| p.is_configured()).collect();
    if !configured.is_empty() {
        for (call, via) in ancestor_calls(db, &tree, node) {
            if let Some((site, meta)) = repetition_site(&call) {
                for p in &configured {
                    let through = if via.is_empty() { String::new() } else { format!(" (through `{via}`)") };
                    out.push(
                        Diagnostic::new(
                            Code::ProviderInExpandedModule,
                            site,
                            format!(
                                "module `{}` is called with `{meta}`, but it{through} configures provider `{}` \
                                 itself; a module with its own provider configuration can't be repeated or \
                                 deferred. Declare the provider in the root module and pass it in with \
                                 `providers = {{ {} = … }}`",
                                call.name, p.name, p.name
                            ),
                        )
                        .with_related(p.site.name_location(), "the provider configuration inside the module"),
                    );
                }
            }
        }
    }
    if let Some(parent) = node.parent {
        let pm = module(db, tree.node(parent).dir);
        if let Some(call) = node.call_path.last().and_then(|c| pm.module_call(c)) {
            let passed = passed_names(call);
            for ca in m.required_providers.iter().flat_map(|rp| rp.configuration_aliases.iter()) {
                let name = format!("{}.{}", ca.provider, ca.alias);
                if !passed.contains(&name) {
                    let at = call.providers.as_ref().map(|p| p.key_location()).unwrap_or(call.site.name_location());
                    out.push(
                        Diagnostic::new(
                            Code::MissingConfigurationAlias,
                            at,
                            format!(
                                "module `{}` expects the provider configuration `{name}` to be passed in; add \
                                 `{name} = <configuration>` to this call's `providers`",
                                call.name
                            ),
                        )
                        .with_related(ca.location, "declared in `configuration_aliases` here"),
                    );
                }
            }
        }
    }
    out.extend(passing::providers_map_checks(db, &tree, node));
    Arc::new(out)
}

/// The calls from the root down to `node`, innermost first, each with the path of calls between it and the node.
fn ancestor_calls(
    db: &dyn Db,
    tree: &ModuleTree,
    node: &crate::tree::TreeNode,
) -> Vec<(std::sync::Arc<ModuleCall>, String)> {
    let mut out = Vec::new();
    let mut n = node;
    let mut below: Vec<String> = Vec::new();
    while let Some(parent) = n.parent {
        let calls = crate::db::module_calls(db, tree.node(parent).dir);
        if let Some(call) = n.call_path.last().and_then(|c| calls.iter().find(|m| &m.name == c)) {
            let via = below.iter().rev().map(|c| format!("module.{c}")).collect::<Vec<_>>().join(".");
            out.push((call.clone(), via));
        }
        if let Some(c) = n.call_path.last() {
            below.push(c.clone());
        }
        n = tree.node(parent);
    }
    out
}

/// The child-side names a call's `providers` map passes (`aws`, `aws.src`).
fn passed_names(call: &ModuleCall) -> HashSet<String> {
    let mut out = HashSet::new();
    if let Some(p) = &call.providers
        && let foreach_syntax::ast::ExprKind::Object(items) = &p.expr().unparenthesized().kind
    {
        for item in items {
            match &item.key {
                foreach_syntax::ast::ObjectKey::Ident(i) => {
                    out.insert(i.name.to_string());
                }
                foreach_syntax::ast::ObjectKey::Expr(e) => {
                    if let Some(name) = reference::providers_key_name(e) {
                        out.insert(name);
                    }
                }
            }
        }
    }
    out
}
