//! Document highlight: every occurrence in one file of the variable, local, module call, resource, data source
//! or provider configuration under the cursor, its declaration marked as a write.

use foreach_syntax::TextRange;
use foreach_syntax::ast::*;

use foreach_analysis::db::{Db, Workspace, parse};

use super::{FilePosition, source_file, touches};

/// What a name refers to, by OpenTofu address.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Var(String),
    Local(String),
    Module(String),
    /// `resource`, `data` or `ephemeral`, type and name.
    Managed(&'static str, String, String),
    /// Provider local name and alias (`None`: the default configuration).
    Provider(String, Option<String>),
}

/// One occurrence: where, and whether it declares the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub declaration: bool,
}

pub(crate) fn highlights(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Vec<Highlight> {
    let Some(f) = source_file(db, ws, pos.file) else { return Vec::new() };
    if f.kind(db).is_json() {
        return Vec::new();
    }
    let parsed = parse(db, f);
    let mut all = Vec::new();
    collect_body(&parsed.body, &mut all, false);
    let Some((target, _, _)) = all.iter().find(|(_, r, _)| touches(*r, pos.offset)) else { return Vec::new() };
    let target = target.clone();
    all.into_iter()
        .filter(|(t, _, _)| *t == target)
        .map(|(_, range, declaration)| Highlight { range, declaration })
        .collect()
}

type Found = Vec<(Target, TextRange, bool)>;

fn collect_body(body: &Body, out: &mut Found, in_locals: bool) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => {
                if in_locals {
                    out.push((Target::Local(a.key.name.to_string()), a.key.range, true));
                }
                let provider_ref = matches!(a.key.name.as_str(), "provider" | "providers");
                collect_expr(&a.value, out, provider_ref);
            }
            Structure::Block(b) => {
                let l = |i: usize| b.labels.get(i);
                match (b.ident.name.as_str(), l(0), l(1)) {
                    ("variable", Some(n), _) => out.push((Target::Var(n.value.to_string()), n.range, true)),
                    ("module", Some(n), _) => out.push((Target::Module(n.value.to_string()), n.range, true)),
                    (kind @ ("resource" | "data" | "ephemeral"), Some(t), Some(n)) => {
                        let kind = match kind {
                            "resource" => "resource",
                            "data" => "data",
                            _ => "ephemeral",
                        };
                        let target = Target::Managed(kind, t.value.to_string(), n.value.to_string());
                        out.push((target, TextRange::new(t.range.start(), n.range.end()), true));
                    }
                    ("provider", Some(n), _) => {
                        let alias = b.body.attribute("alias");
                        let name = alias.and_then(|a| a.value.as_string_literal());
                        let range = alias.map_or(n.range, |a| a.value.range);
                        out.push((Target::Provider(n.value.to_string(), name), range, true));
                    }
                    _ => {}
                }
                collect_body(&b.body, out, b.ident.name == "locals");
            }
        }
    }
}

fn collect_expr(e: &Expr, out: &mut Found, provider_ref: bool) {
    let attr = |steps: &[TraversalStep], i: usize| match steps.get(i).map(|s| &s.op) {
        Some(TraversalOp::GetAttr(id)) => Some(id.clone()),
        _ => None,
    };
    match &e.kind {
        ExprKind::Variable(root) if provider_ref => {
            out.push((Target::Provider(root.name.to_string(), None), root.range, false));
        }
        ExprKind::Traversal { base, steps } if let ExprKind::Variable(root) = &base.kind => {
            let span = |id: &Ident| TextRange::new(root.range.start(), id.range.end());
            let target = match (root.name.as_str(), attr(steps, 0), attr(steps, 1)) {
                (_, Some(a), _) if provider_ref => {
                    Some((Target::Provider(root.name.to_string(), Some(a.name.to_string())), span(&a)))
                }
                ("var", Some(a), _) => Some((Target::Var(a.name.to_string()), span(&a))),
                ("local", Some(a), _) => Some((Target::Local(a.name.to_string()), span(&a))),
                ("module", Some(a), _) => Some((Target::Module(a.name.to_string()), span(&a))),
                ("data", Some(t), Some(n)) => {
                    Some((Target::Managed("data", t.name.to_string(), n.name.to_string()), span(&n)))
                }
                ("ephemeral", Some(t), Some(n)) => {
                    Some((Target::Managed("ephemeral", t.name.to_string(), n.name.to_string()), span(&n)))
                }
                ("each" | "count" | "path" | "terraform" | "self", _, _) => None,
                (ty, Some(n), _) => Some((Target::Managed("resource", ty.to_string(), n.name.to_string()), span(&n))),
                _ => None,
            };
            if let Some((t, r)) = target {
                out.push((t, r, false));
            }
            for s in steps {
                if let TraversalOp::Index(i) = &s.op {
                    collect_expr(i, out, false);
                }
            }
        }
        _ => {
            for c in children(e) {
                collect_expr(c, out, provider_ref && !matches!(e.kind, ExprKind::FuncCall(_)));
            }
        }
    }
}

/// The direct sub-expressions of `e`.
fn children(e: &Expr) -> Vec<&Expr> {
    let mut v: Vec<&Expr> = Vec::new();
    match &e.kind {
        ExprKind::Tuple(items) => v.extend(items),
        ExprKind::Object(items) => {
            for i in items {
                if let ObjectKey::Expr(k) = &i.key {
                    v.push(k);
                }
                v.push(&i.value);
            }
        }
        ExprKind::Traversal { base, steps } => {
            v.push(base);
            v.extend(steps.iter().filter_map(|s| match &s.op {
                TraversalOp::Index(i) => Some(&**i),
                _ => None,
            }));
        }
        ExprKind::FuncCall(f) => v.extend(&f.args),
        ExprKind::Parenthesis(i) => v.push(i),
        ExprKind::Conditional { cond, then_expr, else_expr } => v.extend([&**cond, then_expr, else_expr]),
        ExprKind::Unary { operand, .. } => v.push(operand),
        ExprKind::Binary { lhs, rhs, .. } => v.extend([&**lhs, rhs]),
        ExprKind::For(f) => {
            v.push(&f.collection);
            v.extend(&f.key_expr);
            v.push(&f.value_expr);
            v.extend(&f.cond);
        }
        ExprKind::Template(t) => template_children(t, &mut v),
        _ => {}
    }
    v
}

fn template_children<'a>(t: &'a Template, v: &mut Vec<&'a Expr>) {
    for p in &t.parts {
        match p {
            TemplatePart::Interpolation(x) => v.push(x),
            TemplatePart::If(i) => {
                v.push(&i.cond);
                template_children(&i.then_part, v);
                if let Some(e) = &i.else_part {
                    template_children(e, v);
                }
            }
            TemplatePart::For(f) => {
                v.push(&f.collection);
                template_children(&f.body, v);
            }
            TemplatePart::Literal { .. } => {}
        }
    }
}

#[cfg(test)]
pub(crate) fn highlights_of(text: &str, offset: u32) -> Vec<(String, bool)> {
    let parsed = foreach_syntax::parse(text, foreach_syntax::FileKind::Tf);
    let mut all = Vec::new();
    collect_body(&parsed.body, &mut all, false);
    let at = foreach_syntax::TextSize::from(offset);
    let Some((target, _, _)) = all.iter().find(|(_, r, _)| touches(*r, at)).cloned() else { return Vec::new() };
    all.into_iter().filter(|(t, _, _)| *t == target).map(|(_, r, d)| (text[r].to_string(), d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_locals_resources_and_providers() {
        let text = "variable \"a\" {}\nlocals {\n  l = var.a\n  m = \"${var.a}-${local.l}\"\n}\nprovider \"aws\" {\n  alias = \"w\"\n}\nresource \"x\" \"y\" {\n  provider = aws.w\n  v = x.y.id\n}\n";
        let at = |s: &str| text.find(s).unwrap() as u32 + 1;
        assert_eq!(
            highlights_of(text, at("var.a")),
            [("\"a\"".into(), true), ("var.a".into(), false), ("var.a".into(), false)]
        );
        assert_eq!(highlights_of(text, at("l =")), [("l".into(), true), ("local.l".into(), false)]);
        assert_eq!(highlights_of(text, at("aws.w")), [("\"w\"".into(), true), ("aws.w".into(), false)]);
        assert_eq!(highlights_of(text, at("x.y.id")), [("\"x\" \"y\"".into(), true), ("x.y".into(), false)]);
    }
}
