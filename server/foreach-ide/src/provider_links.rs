//! Definitions across a module call's provider hand-over: the left side of a `providers` map (`aws.east` in
//! `providers = { aws.east = aws.x }`) names a configuration of the child, declared by its `configuration_aliases`
//! entry (or its `provider` block, or its `required_providers` entry); a `configuration_aliases` entry is given its
//! configuration by the callers' `providers` maps, which is where going to its definition leads.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{ExprKind, ObjectItem, ObjectKey, TraversalOp};

use foreach_analysis::db::{Db, ModuleDir, Workspace, module};
use foreach_analysis::model::refs::traversal_root;

use super::calls::{callers, child_dirs};
use super::results::NavigationTarget;
use super::{FilePosition, touches};

/// `None` when the cursor is on neither a `providers` map key nor a `configuration_aliases` entry.
pub(crate) fn provider_link_targets(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    pos: FilePosition,
) -> Option<Vec<NavigationTarget>> {
    let m = module(db, dir);
    for c in &m.module_calls {
        let Some(p) = c.providers.as_ref().filter(|p| p.file == pos.file) else { continue };
        let ExprKind::Object(items) = &p.expr().kind else { continue };
        let Some(item) = items.iter().find(|i| touches(i.key.range(), pos.offset)) else { continue };
        let (name, alias) = key_name(item)?;
        let mut out = Vec::new();
        for child in child_dirs(db, ws, dir, &c.name) {
            out.extend(child_declaration(db, child, &name, alias.as_deref()));
        }
        return Some(out);
    }
    for rp in &m.required_providers {
        let Some(ca) = rp
            .configuration_aliases
            .iter()
            .find(|ca| ca.location.file == pos.file && touches(ca.location.range, pos.offset))
        else {
            continue;
        };
        let mut out = Vec::new();
        for (caller, call) in callers(db, ws, dir) {
            let cm = module(db, caller);
            for c in cm.module_calls.iter().filter(|c| c.name == call) {
                let Some(p) = c.providers.as_ref() else { continue };
                let ExprKind::Object(items) = &p.expr().kind else { continue };
                for item in items {
                    if key_name(item).is_some_and(|(n, a)| n == ca.provider && a.as_deref() == Some(ca.alias.as_str()))
                    {
                        let key = item.key.range();
                        out.push(NavigationTarget {
                            file: p.file,
                            full_range: TextRange::new(key.start(), item.value.range.end()),
                            focus_range: key,
                        });
                    }
                }
            }
        }
        return Some(out);
    }
    None
}

/// The configuration a `providers` map key names: `aws` or `aws.east`.
pub(crate) fn key_name(item: &ObjectItem) -> Option<(String, Option<String>)> {
    match &item.key {
        ObjectKey::Ident(i) => Some((i.name.to_string(), None)),
        ObjectKey::Expr(e) => traversal_name(e),
    }
}

/// The configuration an expression names when written `aws` or `aws.east` (no instance key).
pub(crate) fn traversal_name(e: &foreach_syntax::ast::Expr) -> Option<(String, Option<String>)> {
    match &e.kind {
        ExprKind::Traversal { base, steps } => {
            let root = traversal_root(base)?;
            match steps.as_slice() {
                [s] => match &s.op {
                    TraversalOp::GetAttr(a) => Some((root.name.to_string(), Some(a.name.to_string()))),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => traversal_root(e).map(|r| (r.name.to_string(), None)),
    }
}

/// Where the child declares the configuration `name.alias`.
fn child_declaration(db: &dyn Db, child: ModuleDir, name: &str, alias: Option<&str>) -> Vec<NavigationTarget> {
    let m = module(db, child);
    let mut out: Vec<NavigationTarget> = m
        .required_providers
        .iter()
        .flat_map(|rp| rp.configuration_aliases.iter())
        .filter(|ca| ca.provider == name && Some(ca.alias.as_str()) == alias)
        .map(|ca| NavigationTarget {
            file: ca.location.file,
            full_range: ca.location.range,
            focus_range: ca.location.range,
        })
        .collect();
    if out.is_empty() {
        out.extend(
            m.providers.iter().filter(|p| p.name == name && p.alias_name().as_deref() == alias).map(|p| {
                NavigationTarget { file: p.site.file, full_range: p.site.range, focus_range: p.site.name_range }
            }),
        );
    }
    if out.is_empty() && alias.is_none() {
        out.extend(m.required_providers.iter().filter(|rp| rp.local_name == name).map(|rp| NavigationTarget {
            file: rp.location.file,
            full_range: rp.location.range,
            focus_range: rp.location.range,
        }));
    }
    out
}
