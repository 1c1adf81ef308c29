//! Finds the references an expression makes (`var.x`, `local.y`, `each.key`, `aws_s3_bucket.b.id`, …).
//!
//! It walks an expression the way OpenTofu's reference parser does, with one addition that matters for
//! correctness: names bound by `for` expressions, template `%{for}` directives and `dynamic` block iterators are
//! local symbols, not references, inside their scope.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, Ident, ObjectKey, Template, TemplatePart, TraversalOp};
use smol_str::SmolStr;

/// One reference: a root name and the attribute steps that follow it directly (at most two are kept, enough to
/// identify `var.x`, `local.y`, `each.key`, `module.m.out` or `aws_vpc.main.id`).
///
/// Stored as one dotted inline string plus ranges (40 bytes): a large workspace holds millions of references, and
/// a root and two attribute names as separate strings (88 bytes, often with heap strings) dominated the memory of a
/// `check` run. Names are identifiers, so splitting the path at `.` recovers them exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `root` or `root.attr` or `root.attr.attr`.
    path: SmolStr,
    /// The root name and the kept attribute steps.
    pub range: TextRange,
    /// The range of the root name alone.
    pub root_range: TextRange,
}

impl Reference {
    pub fn new(root: &str, attrs: &[&str], range: TextRange, root_range: TextRange) -> Reference {
        let mut path = smol_str::SmolStrBuilder::new();
        path.push_str(root);
        for a in attrs.iter().take(2) {
            path.push('.');
            path.push_str(a);
        }
        Reference { path: path.finish(), range, root_range }
    }

    /// The root name: `var`, `local`, `each`, `module`, a resource type…
    pub fn root(&self) -> &str {
        self.path.split('.').next().unwrap_or_default()
    }

    pub fn attr(&self, index: usize) -> Option<&str> {
        self.path.split('.').nth(index + 1)
    }

    /// `var.x` style rendering of the kept part.
    pub fn display(&self) -> &str {
        &self.path
    }
}

/// The root name of `expr` read as a traversal, as OpenTofu reads provider references and `configuration_aliases`
/// (HCL's `AbsTraversalForExpr`): in expressions HCL parses `null`, `true` and `false` as literals, but traversal
/// syntax has no keywords, so there they are names. `hashicorp/null` is usually called `null`, and
/// `provider = null.by_env[each.key]` names its configuration.
pub fn traversal_root(expr: &Expr) -> Option<Ident> {
    let name = match &expr.kind {
        ExprKind::Variable(root) => return Some(root.clone()),
        ExprKind::Null => "null",
        ExprKind::Bool(true) => "true",
        ExprKind::Bool(false) => "false",
        _ => return None,
    };
    Some(Ident { name: name.to_string(), range: expr.range })
}

/// Collects the references of `expr`, skipping names bound in `bound` (e.g. a `dynamic` block's iterator).
pub fn references(expr: &Expr, bound: &[&str]) -> Vec<Reference> {
    let mut walker = Walker { bound: bound.iter().map(|s| s.to_string()).collect(), out: Vec::new() };
    walker.expr(expr);
    walker.out
}

struct Walker {
    bound: Vec<String>,
    out: Vec<Reference>,
}

impl Walker {
    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid => {}
            ExprKind::Template(t) => self.template(t),
            ExprKind::Tuple(items) => items.iter().for_each(|e| self.expr(e)),
            ExprKind::Object(items) => {
                for item in items {
                    if let ObjectKey::Expr(k) = &item.key {
                        // A bare `{ (var.k) = 1 }` key is an expression, but `{ "k" = 1 }` is a literal: both walk.
                        self.expr(k);
                    }
                    self.expr(&item.value);
                }
            }
            ExprKind::Variable(ident) => self.push(&ident.name, ident.range, &[], expr.range),
            ExprKind::Traversal { base, steps } => {
                if let ExprKind::Variable(root) = &base.kind {
                    let mut attrs: Vec<&str> = Vec::with_capacity(2);
                    let mut end = root.range.end();
                    for step in steps.iter().take(2) {
                        match &step.op {
                            TraversalOp::GetAttr(a) => {
                                attrs.push(&a.name);
                                end = step.range.end();
                            }
                            _ => break,
                        }
                    }
                    let range = TextRange::new(root.range.start(), end);
                    self.push(&root.name, root.range, &attrs, range);
                } else {
                    self.expr(base);
                }
                for step in steps {
                    if let TraversalOp::Index(i) = &step.op {
                        self.expr(i);
                    }
                }
            }
            ExprKind::FuncCall(call) => call.args.iter().for_each(|e| self.expr(e)),
            ExprKind::Parenthesis(inner) => self.expr(inner),
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                self.expr(cond);
                self.expr(then_expr);
                self.expr(else_expr);
            }
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::For(f) => {
                self.expr(&f.collection);
                let pushed = self.bind(f.key_var.as_ref().map(|k| k.name.as_str()), &f.value_var.name);
                if let Some(k) = &f.key_expr {
                    self.expr(k);
                }
                self.expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.expr(c);
                }
                self.unbind(pushed);
            }
        }
    }

    fn template(&mut self, t: &Template) {
        for part in &t.parts {
            match part {
                TemplatePart::Literal { .. } => {}
                TemplatePart::Interpolation(e) => self.expr(e),
                TemplatePart::If { cond, then_part, else_part, .. } => {
                    self.expr(cond);
                    self.template(then_part);
                    if let Some(e) = else_part {
                        self.template(e);
                    }
                }
                TemplatePart::For { key_var, value_var, collection, body, .. } => {
                    self.expr(collection);
                    let pushed = self.bind(key_var.as_ref().map(|k| k.name.as_str()), &value_var.name);
                    self.template(body);
                    self.unbind(pushed);
                }
            }
        }
    }

    fn bind(&mut self, key: Option<&str>, value: &str) -> usize {
        let mut n = 1;
        self.bound.push(value.to_string());
        if let Some(k) = key {
            self.bound.push(k.to_string());
            n += 1;
        }
        n
    }

    fn unbind(&mut self, n: usize) {
        let len = self.bound.len();
        self.bound.truncate(len - n);
    }

    fn push(&mut self, root: &str, root_range: TextRange, attrs: &[&str], range: TextRange) {
        if self.bound.iter().any(|b| b == root) {
            return;
        }
        self.out.push(Reference::new(root, attrs, range, root_range));
    }
}
