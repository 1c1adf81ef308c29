//! Provider local names: which names a module declares, and which provider (source address) each one stands for.
//!
//! OpenTofu maps a local name to a provider through `required_providers` (in any file of the module); a name used
//! without an entry, by a `provider` block or as a resource type's prefix (`aws_s3_bucket` uses `aws`), stands for
//! `hashicorp/<name>`. Types are compared per module: the same name can be two providers in two modules.
//!
//! This file also reports `undeclared-provider`: a reference to a default configuration (`provider = awz`) whose
//! name no declaration uses but is close to one that is declared. Such a reference is valid syntax and means
//! `hashicorp/awz`, so it is a warning, and it stays quiet when any module above uses the name (a child may lean on
//! its callers' declarations) or when no declared name is close (a real provider used without a declaration).

use crate::state::address::normalise_source;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::chunks;
use crate::db::{Db, ModuleDir, Workspace, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::module::Module;
use crate::providers::config::{RefOwner, RefSiteInfo, dir_references, implied_provider};
use crate::suggest::closest;
use crate::tree::{ModuleTree, module_tree};

/// [`declared_local_names`] of one directory's module, memoised (the tree-wide checks read it for every node).
#[salsa::tracked(returns(clone))]
pub fn dir_local_names(db: &dyn Db, dir: ModuleDir) -> Arc<BTreeSet<String>> {
    Arc::new(declared_local_names(&module(db, dir)))
}

/// Every provider local name the module itself declares or uses by declaration: `required_providers` entries (and
/// their `configuration_aliases`), `provider` blocks, and the prefixes of its resource types.
pub fn declared_local_names(m: &Module) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for rp in &m.required_providers {
        out.insert(rp.local_name.clone());
        out.extend(rp.configuration_aliases.iter().map(|ca| ca.provider.clone()));
    }
    out.extend(m.providers.iter().map(|p| p.name.clone()));
    out.extend(m.resources.iter().map(|r| implied_provider(&r.ty).to_string()));
    out
}

/// The provider a local name stands for in this module, as a comparable source address (`hashicorp/aws`).
pub fn provider_type(m: &Module, local_name: &str) -> String {
    let source =
        m.required_providers.iter().rev().find(|rp| rp.local_name == local_name).and_then(|rp| rp.source.clone());
    match source {
        Some(s) => normalise_source(&s),
        None => format!("hashicorp/{}", local_name.to_lowercase()),
    }
}

/// `undeclared-provider` for every module directory of the tree, once per directory.
pub fn undeclared_providers(db: &dyn Db, ws: Workspace, tree: &ModuleTree) -> Vec<Diagnostic> {
    // The names declared along every path from a root down to each directory (a directory called from two places
    // sees both callers' names: any one declaring it is enough to stay quiet).
    // Built parents first (the tree lists a parent before its children), each node's set from its parent's and its
    // own directory's (memoised) names: walking up from every node instead made an edit of a big root module cost
    // nodes x root resources.
    let mut along: Vec<Arc<BTreeSet<String>>> = Vec::with_capacity(tree.nodes.len());
    let mut seen: HashMap<ModuleDir, BTreeSet<String>> = HashMap::new();
    let mut order: Vec<(ModuleDir, Arc<Vec<RefSiteInfo>>)> = Vec::new();
    let per_node = chunks::chunks(tree.nodes.len()).flat_map(|c| chunk_names_and_references(db, ws, c).to_vec());
    for (node, (dir_names, references)) in tree.nodes.iter().zip(per_node) {
        debug_assert!(
            node.parent.is_none_or(|p| (p.0 as usize) < along.len()),
            "a parent is listed before its children"
        );
        let names = match node.parent.and_then(|p| along.get(p.0 as usize)) {
            Some(parent) if dir_names.is_subset(parent) => parent.clone(),
            Some(parent) => Arc::new(parent.union(&dir_names).cloned().collect()),
            None => dir_names,
        };
        match seen.get_mut(&node.dir) {
            Some(all) => all.extend(names.iter().cloned()),
            None => {
                order.push((node.dir, references));
                seen.insert(node.dir, (*names).clone());
            }
        }
        along.push(names);
    }
    let mut out = Vec::new();
    for (dir, references) in order {
        out.extend(undeclared_in(&references, &seen[&dir]));
    }
    out
}

/// A directory's declared provider names and its provider references.
type NamesAndReferences = (Arc<BTreeSet<String>>, Arc<Vec<RefSiteInfo>>);

/// Each node's directory's declared names and provider references, for one chunk of nodes (`chunks.rs`): the
/// tree-wide check reads a few dozen of these instead of two memos per node, so that salsa confirms it after a
/// keystroke without visiting every directory.
#[salsa::tracked(returns(clone))]
fn chunk_names_and_references(db: &dyn Db, ws: Workspace, chunk: u32) -> Arc<Vec<NamesAndReferences>> {
    let tree = module_tree(db, ws);
    let nodes = &tree.nodes[chunks::items(chunk, tree.nodes.len())];
    Arc::new(nodes.iter().map(|n| (dir_local_names(db, n.dir), dir_references(db, n.dir))).collect())
}

fn undeclared_in(refs: &[RefSiteInfo], declared: &BTreeSet<String>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for site in refs {
        let r = &site.reference;
        // `providers` values are checked against the child's provider types (`passing.rs`); aliased references
        // need a block or `configuration_aliases`, which declare the name.
        if matches!(site.owner, RefOwner::ModuleCall(..)) || r.alias.is_some() || declared.contains(&r.name) {
            continue;
        }
        // Only a likely typo: a name far from every declared one is usually a real provider used without a
        // declaration (`google-beta` beside `google_*` resources), which OpenTofu installs as `hashicorp/<name>`.
        let Some(suggestion) = closest(&r.name, declared.iter().map(String::as_str)) else { continue };
        let msg = format!(
            "no `required_providers` entry, provider block or resource type in this module uses the provider name \
             `{}`, so OpenTofu reads it as the provider `hashicorp/{}`; did you mean `{suggestion}`?",
            r.name, r.name
        );
        out.push(Diagnostic::new(Code::UndeclaredProvider, crate::FileRange::new(r.file, r.name_range), msg));
    }
    out
}
