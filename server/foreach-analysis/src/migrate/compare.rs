//! What each aliased configuration of a provider evaluates to, per old alias or per instance key, so that a
//! migration can be checked: every instance of the new configuration must evaluate to what the old alias did.
//! Nested blocks are included (as objects; repeated ones as tuples), which `inspect` does not report.

use std::collections::BTreeMap;
use std::sync::Arc;

use foreach_syntax::Parse;
use foreach_syntax::ast::SmolStr;
use foreach_syntax::ast::{Block, Body};

use crate::db::{Db, SourceFile, Workspace, module, parse};
use crate::eval::value::Attrs;
use crate::eval::{EvalContext, ModuleScope, Value};
use crate::module_eval::{root_for_dir, scope_for_node};
use crate::tree::module_tree;

/// The aliased `provider "<provider>"` configurations of the root module in `dir`: by alias, or by instance key for
/// one with `for_each`, the object of its arguments and nested blocks. An argument set to `null` is left out, as a
/// provider treats it as not set. Empty when `dir` is not a root module.
pub fn configuration_values(db: &dyn Db, ws: Workspace, dir: &str, provider: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let Some(module_dir) = ws.dirs(db).iter().copied().find(|d| d.path(db) == dir) else { return out };
    let tree = module_tree(db, ws);
    let Some(node) = root_for_dir(&tree, module_dir) else { return out };
    let (scope, _) = scope_for_node(db, ws, tree.node(node));
    let files = loaded(db, module_dir);
    let mut blocks: Declared<'_> = Vec::new();
    for (f, p) in &files {
        for block in p.body.blocks_named("provider").filter(|b| b.label(0) == Some(provider)) {
            let Some(alias) = block.body.attribute("alias").and_then(|a| a.value.as_string_literal()) else {
                continue;
            };
            declare(&mut blocks, alias, *f, block);
        }
    }
    for (alias, bodies) in &blocks {
        // An override's `for_each` is ignored for providers (OpenTofu merges only the body).
        let (file, block) = bodies[0];
        for (key, ctx) in instances(&scope, file.id(db), &block.body) {
            let v = merged_value(db, &scope, bodies, &ctx, PROVIDER_META);
            out.insert(key.map_or_else(|| alias.clone(), |k| k.to_string()), v);
        }
    }
    out
}

/// The blocks of each address in the files OpenTofu loads: the primary block first, then each override of it.
type Declared<'a> = Vec<(String, Vec<(SourceFile, &'a Block)>)>;

fn declare<'a>(out: &mut Declared<'a>, address: String, f: SourceFile, block: &'a Block) {
    match out.iter_mut().find(|(a, _)| *a == address) {
        Some((_, bodies)) => bodies.push((f, block)),
        None => out.push((address, vec![(f, block)])),
    }
}

/// The configuration files OpenTofu loads, in the order it merges them: primary files, then override files (a
/// `.tf` file shadowed by a `.tofu` file of the same name is not loaded).
fn loaded(db: &dyn Db, dir: crate::db::ModuleDir) -> Vec<(SourceFile, Arc<Parse>)> {
    let m = module(db, dir);
    m.files
        .iter()
        .filter_map(|id| dir.files(db).iter().copied().find(|f| f.id(db) == *id))
        .map(|f| (f, parse(db, f)))
        .collect()
}

/// What a block evaluates to once its overrides are merged in, as OpenTofu merges them: an override's argument
/// replaces the base's (`null` unsets it), and its nested blocks of a type replace all the base's of that type.
fn merged_value(
    db: &dyn Db,
    scope: &ModuleScope,
    bodies: &[(SourceFile, &Block)],
    ctx: &EvalContext,
    meta: &[&str],
) -> Value {
    let mut attrs = Attrs::new();
    for (f, block) in bodies {
        let file = f.id(db);
        for a in block.body.attributes() {
            if !meta.contains(&a.key.name.as_str()) {
                attrs.remove(a.key.name.as_str());
            }
        }
        if let Value::Object(o) = body_value(scope, file, &block.body, ctx, meta) {
            for (k, v) in o.iter() {
                attrs.insert(k.clone(), v.clone());
            }
        }
    }
    Value::object(attrs)
}

/// The meta-arguments of a provider configuration, which are not part of what it evaluates to.
const PROVIDER_META: &[&str] = &["alias", "for_each", "count"];
/// The meta-arguments of resources, data sources and module calls.
const BLOCK_META: &[&str] = &["provider", "providers", "for_each", "count", "depends_on", "lifecycle"];

/// What the resources, data sources and module calls of the root module in `dir` evaluate to, per instance
/// address (`aws_vpc.use1`, `aws_vpc.this["use1"]`, `module.net["use1"]`): the object of their arguments and
/// nested blocks, meta-arguments left out; and the `(from, to)` addresses of its `moved` blocks, as written. Empty
/// when `dir` is not a root module. The migration tests compare the instances of merged blocks with the old blocks.
pub fn block_values(db: &dyn Db, ws: Workspace, dir: &str) -> (BTreeMap<String, Value>, Vec<(String, String)>) {
    let (mut out, mut moved) = (BTreeMap::new(), Vec::new());
    let Some(module_dir) = ws.dirs(db).iter().copied().find(|d| d.path(db) == dir) else { return (out, moved) };
    let tree = module_tree(db, ws);
    let Some(node) = root_for_dir(&tree, module_dir) else { return (out, moved) };
    let (scope, _) = scope_for_node(db, ws, tree.node(node));
    let files = loaded(db, module_dir);
    let mut blocks: Declared<'_> = Vec::new();
    for (f, p) in &files {
        let text = f.text(db);
        let text: &str = &text;
        for block in p.body.blocks() {
            let address = match (block.ident.name.as_str(), block.label(0), block.label(1)) {
                ("resource", Some(t), Some(n)) => format!("{t}.{n}"),
                ("data", Some(t), Some(n)) => format!("data.{t}.{n}"),
                ("module", Some(n), None) => format!("module.{n}"),
                ("moved", _, _) => {
                    // In JSON an address with escapes (`"aws_vpc.this[\"use1\"]"`) has its string's range.
                    let side = |k: &str| {
                        let t = block
                            .body
                            .attribute(k)
                            .and_then(|a| text.get(std::ops::Range::<usize>::from(a.value.range)))?;
                        Some(serde_json::from_str::<String>(t).unwrap_or_else(|_| t.to_string()))
                    };
                    if let (Some(from), Some(to)) = (side("from"), side("to")) {
                        moved.push((from, to));
                    }
                    continue;
                }
                _ => continue,
            };
            declare(&mut blocks, address, *f, block);
        }
    }
    for (address, bodies) in &blocks {
        // The instances follow the last `for_each` of the base block and its overrides.
        let (file, block) =
            bodies.iter().rev().find(|(_, b)| b.body.attribute("for_each").is_some()).unwrap_or(&bodies[0]);
        for (key, ctx) in instances(&scope, file.id(db), &block.body) {
            let v = merged_value(db, &scope, bodies, &ctx, BLOCK_META);
            out.insert(key.map_or_else(|| address.clone(), |k| format!("{address}[\"{k}\"]")), v);
        }
    }
    (out, moved)
}

/// The instances of a block: one without a key, or one per element of its `for_each` with `each` bound.
fn instances(scope: &ModuleScope, file: crate::FileId, body: &Body) -> Vec<(Option<SmolStr>, EvalContext)> {
    let Some(fe) = body.attribute("for_each") else { return vec![(None, EvalContext::default())] };
    let each = scope.eval(file, &fe.value, &EvalContext::default());
    let entries: Vec<(SmolStr, Value)> = match each.unmarked() {
        Value::Map(_, m) | Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        Value::Set(_, items) => {
            items.iter().filter_map(|v| v.as_str().map(|s| (SmolStr::from(s), v.clone()))).collect()
        }
        _ => Vec::new(),
    };
    entries
        .into_iter()
        .map(|(k, v)| (Some(k.clone()), EvalContext { each: Some((Value::string(k), v)), ..EvalContext::default() }))
        .collect()
}

fn body_value(scope: &ModuleScope, file: crate::FileId, body: &Body, ctx: &EvalContext, meta: &[&str]) -> Value {
    let mut attrs = Attrs::new();
    for a in body.attributes() {
        if meta.contains(&a.key.name.as_str()) {
            continue;
        }
        let v = scope.eval(file, &a.value, ctx);
        if !matches!(v.unmarked(), Value::Null(_)) {
            attrs.insert(a.key.name.clone(), v);
        }
    }
    let mut blocks: Vec<(String, Vec<Value>)> = Vec::new();
    for b in body.blocks().filter(|b| !meta.contains(&b.ident.name.as_str())) {
        let found: Vec<(String, Value)> = if b.ident.name == "dynamic" {
            let Some(label) = b.label(0) else { continue };
            dynamic_values(scope, file, label, &b.body, ctx).into_iter().map(|v| (label.to_string(), v)).collect()
        } else {
            vec![(b.ident.name.to_string(), body_value(scope, file, &b.body, ctx, meta))]
        };
        for (ident, v) in found {
            match blocks.iter_mut().find(|(i, _)| *i == ident) {
                Some((_, vs)) => vs.push(v),
                None => blocks.push((ident, vec![v])),
            }
        }
    }
    for (ident, values) in blocks {
        let v = if values.len() == 1 { values[0].clone() } else { Value::Tuple(Arc::new(values)) };
        attrs.insert(SmolStr::from(ident.as_str()), v);
    }
    Value::object(attrs)
}

/// The blocks a `dynamic "<label>"` block generates, for the shape `migrate` writes: its `content` arguments are
/// either `<label>.value.<name>` (read from the element) or free of the iterator. The evaluator has no dynamic-block
/// iterator, so this is as far as comparing goes.
fn dynamic_values(scope: &ModuleScope, file: crate::FileId, label: &str, body: &Body, ctx: &EvalContext) -> Vec<Value> {
    let Some(for_each) = body.attribute("for_each") else { return Vec::new() };
    let Some(content) = body.blocks_named("content").next() else { return Vec::new() };
    let elements: Vec<Value> = match scope.eval(file, &for_each.value, ctx).unmarked() {
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => items.to_vec(),
        Value::Map(_, m) | Value::Object(m) => m.values().cloned().collect(),
        _ => Vec::new(),
    };
    elements
        .into_iter()
        .map(|element| {
            let mut attrs = Attrs::new();
            for a in content.body.attributes() {
                let v = match iterator_field(&a.value, label) {
                    Some(name) => match element.unmarked() {
                        Value::Object(m) | Value::Map(_, m) => {
                            m.get(name).cloned().unwrap_or(Value::Null(crate::eval::types::Type::Dynamic))
                        }
                        _ => Value::Null(crate::eval::types::Type::Dynamic),
                    },
                    None => scope.eval(file, &a.value, ctx),
                };
                if !matches!(v.unmarked(), Value::Null(_)) {
                    attrs.insert(a.key.name.clone(), v);
                }
            }
            Value::object(attrs)
        })
        .collect()
}

/// `name` when `expr` is exactly `<label>.value.<name>`.
fn iterator_field<'a>(expr: &'a foreach_syntax::ast::Expr, label: &str) -> Option<&'a str> {
    use foreach_syntax::ast::{ExprKind, TraversalOp};
    let ExprKind::Traversal { base, steps } = &expr.kind else { return None };
    let ExprKind::Variable(root) = &base.kind else { return None };
    match steps.as_slice() {
        [a, b] if root.name == label => match (&a.op, &b.op) {
            (TraversalOp::GetAttr(v), TraversalOp::GetAttr(n)) if v.name == "value" => Some(n.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}
