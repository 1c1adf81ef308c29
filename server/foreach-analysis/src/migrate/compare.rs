//! What each aliased configuration of a provider evaluates to, per old alias or per instance key, so that a
//! migration can be checked: every instance of the new configuration must evaluate to what the old alias did.
//! Nested blocks are included (as objects; repeated ones as tuples), which `inspect` does not report.

use std::collections::BTreeMap;
use std::sync::Arc;

use foreach_syntax::ast::Body;

use crate::db::{Db, Workspace, parse};
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
    for f in module_dir.files(db).iter().filter(|f| f.kind(db).is_config()) {
        let p = parse(db, *f);
        let file = f.id(db);
        for block in p.body.blocks_named("provider").filter(|b| b.label(0) == Some(provider)) {
            let Some(alias) = block.body.attribute("alias").and_then(|a| a.value.as_string_literal()) else {
                continue;
            };
            match block.body.attribute("for_each") {
                None => {
                    out.insert(alias, body_value(&scope, file, &block.body, &EvalContext::default()));
                }
                Some(fe) => {
                    let each = scope.eval(file, &fe.value, &EvalContext::default());
                    let entries: Vec<(Arc<str>, Value)> = match each.unmarked() {
                        Value::Map(_, m) | Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
                        Value::Set(_, items) => {
                            items.iter().filter_map(|v| v.as_str().map(|s| (Arc::from(s), v.clone()))).collect()
                        }
                        _ => Vec::new(),
                    };
                    for (k, v) in entries {
                        let ctx = EvalContext { each: Some((Value::string(k.clone()), v)), ..EvalContext::default() };
                        out.insert(k.to_string(), body_value(&scope, file, &block.body, &ctx));
                    }
                }
            }
        }
    }
    out
}

fn body_value(scope: &ModuleScope, file: crate::FileId, body: &Body, ctx: &EvalContext) -> Value {
    let mut attrs = Attrs::new();
    for a in body.attributes() {
        if matches!(a.key.name.as_str(), "alias" | "for_each" | "count") {
            continue;
        }
        let v = scope.eval(file, &a.value, ctx);
        if !matches!(v.unmarked(), Value::Null(_)) {
            attrs.insert(Arc::from(a.key.name.as_str()), v);
        }
    }
    let mut idents: Vec<&str> = Vec::new();
    for b in body.blocks() {
        if !idents.contains(&b.ident.name.as_str()) {
            idents.push(&b.ident.name);
        }
    }
    for ident in idents {
        let values: Vec<Value> = body.blocks_named(ident).map(|b| body_value(scope, file, &b.body, ctx)).collect();
        let v = if values.len() == 1 { values[0].clone() } else { Value::Tuple(Arc::new(values)) };
        attrs.insert(Arc::from(ident), v);
    }
    Value::object(attrs)
}
