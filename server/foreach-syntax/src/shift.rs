//! Moving the ranges of a syntax tree, for trees reused at another place in an edited text.

use std::sync::Arc;

use crate::TextSize;
use crate::ast::{
    Block, Expr, ExprKind, ForExpr, FuncCall, Ident, ObjectKey, Structure, Template, TemplatePart, TraversalOp,
};
use text_size::TextRange;

/// A copy of `s` with every range moved by `delta` bytes.
pub(crate) fn shifted(s: &Structure, delta: i64) -> Structure {
    let mut s = s.clone();
    if delta != 0 {
        Shift::uniform(delta).structure(&mut s);
    }
    s
}

/// Moves every range of a tree: offsets before `from` by `before` bytes, the others by `after` (text inserted or
/// removed at `from` moves only what follows it). It must visit every range the tree has: the tests compare a
/// reused parse with a fresh one, spans included, on real files.
pub(crate) struct Shift {
    from: u32,
    before: i64,
    after: i64,
}

impl Shift {
    /// Every offset by `delta`.
    pub(crate) fn uniform(delta: i64) -> Shift {
        Shift { from: 0, before: delta, after: delta }
    }

    /// Offsets below `from` by `before`, the others by `after`.
    pub(crate) fn split(from: TextSize, before: i64, after: i64) -> Shift {
        Shift { from: u32::from(from), before, after }
    }
}

impl Shift {
    fn offset(&self, o: TextSize) -> TextSize {
        let o = u32::from(o);
        let delta = if o >= self.from { self.after } else { self.before };
        TextSize::from((i64::from(o) + delta) as u32)
    }

    /// Whether every offset of `r` stays where it is.
    fn keeps(&self, r: TextRange) -> bool {
        let unmoved = |delta: i64, range_touches: bool| delta == 0 || !range_touches;
        unmoved(self.before, u32::from(r.start()) < self.from) && unmoved(self.after, u32::from(r.end()) >= self.from)
    }

    fn range(&self, r: &mut TextRange) {
        // A range that holds `from` with text removed before it can only be inside the node an edit replaced,
        // which is thrown away: keep it well-formed until then.
        let start = self.offset(r.start());
        *r = TextRange::new(start, self.offset(r.end()).max(start));
    }

    fn ident(&self, i: &mut Ident) {
        self.range(&mut i.range);
    }

    pub(crate) fn structure(&self, s: &mut Structure) {
        match s {
            // An attribute the move leaves in place keeps sharing its value with the tree it came from.
            Structure::Attribute(a) if self.keeps(a.range) => {}
            Structure::Attribute(a) => {
                self.ident(&mut a.key);
                self.expr(Arc::make_mut(&mut a.value));
                self.range(&mut a.range);
            }
            Structure::Block(b) => self.block(b),
        }
    }

    fn block(&self, b: &mut Block) {
        self.ident(&mut b.ident);
        for l in &mut b.labels {
            self.range(&mut l.range);
        }
        for s in &mut b.body.structures {
            self.structure(s);
        }
        self.range(&mut b.range);
        self.range(&mut b.body_range);
    }

    pub(crate) fn expr(&self, e: &mut Expr) {
        self.range(&mut e.range);
        match &mut e.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid => {}
            ExprKind::Template(t) => self.template(t),
            ExprKind::Tuple(items) => items.iter_mut().for_each(|x| self.expr(x)),
            ExprKind::Object(items) => {
                for item in items {
                    match &mut item.key {
                        ObjectKey::Ident(i) => self.ident(i),
                        ObjectKey::Expr(k) => self.expr(k),
                    }
                    self.expr(&mut item.value);
                }
            }
            ExprKind::Variable(i) => self.ident(i),
            ExprKind::Traversal { base, steps } => {
                self.expr(base);
                for step in steps {
                    self.range(&mut step.range);
                    match &mut step.op {
                        TraversalOp::GetAttr(i) => self.ident(i),
                        TraversalOp::Index(x) => self.expr(x),
                        TraversalOp::LegacyIndex(_) | TraversalOp::AttrSplat | TraversalOp::FullSplat => {}
                    }
                }
            }
            ExprKind::FuncCall(call) => self.call(call),
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
            ExprKind::For(f) => self.for_expr(f),
        }
    }

    fn call(&self, call: &mut FuncCall) {
        call.name.namespace.iter_mut().for_each(|i| self.ident(i));
        self.ident(&mut call.name.name);
        call.args.iter_mut().for_each(|a| self.expr(a));
    }

    fn for_expr(&self, f: &mut ForExpr) {
        if let Some(k) = &mut f.key_var {
            self.ident(k);
        }
        self.ident(&mut f.value_var);
        self.expr(&mut f.collection);
        if let Some(k) = &mut f.key_expr {
            self.expr(k);
        }
        self.expr(&mut f.value_expr);
        if let Some(c) = &mut f.cond {
            self.expr(c);
        }
    }

    fn template(&self, t: &mut Template) {
        for part in &mut t.parts {
            match part {
                TemplatePart::Literal { range, .. } => self.range(range),
                TemplatePart::Interpolation(e) => self.expr(e),
                TemplatePart::If(d) => {
                    self.expr(&mut d.cond);
                    self.template(&mut d.then_part);
                    if let Some(e) = &mut d.else_part {
                        self.template(e);
                    }
                    self.range(&mut d.range);
                }
                TemplatePart::For(d) => {
                    if let Some(k) = &mut d.key_var {
                        self.ident(k);
                    }
                    self.ident(&mut d.value_var);
                    self.expr(&mut d.collection);
                    self.template(&mut d.body);
                    self.range(&mut d.range);
                }
            }
        }
    }
}
