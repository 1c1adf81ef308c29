//! Converts hcl-edit's tree into our [`ast`](crate::ast).
//!
//! This is the only module that knows hcl-edit's node types. It consumes the hcl-edit tree (moving strings out
//! rather than cloning them, since this runs on every keystroke) and shifts every span by `base`, the offset of the
//! parsed slice in the original text, so ranges always point into the original text. It also finishes the work
//! hcl-edit leaves to its printer: template strip markers (`~`) are applied to the neighbouring literals here.
//! It must not decide anything about errors or recovery.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

use hcl_edit::Span;
use hcl_edit::expr::{self as hx, Expression};
use hcl_edit::structure as hs;
use hcl_edit::template::{self as ht, Element};

use crate::ast::{
    Attribute, BinaryOp, Block, BlockLabel, Body, Expr, ExprKind, ForExpr, FuncCall, FuncName, Ident, ObjectItem,
    ObjectKey, Structure, Template, TemplateFor, TemplateIf, TemplateKind, TemplatePart, TraversalOp, TraversalStep,
    UnaryOp,
};
use crate::strings::LongStrings;
use crate::{TextRange, TextSize};
use smol_str::SmolStr;

/// Converts nodes parsed from `src` (a slice of the original text starting at byte `base`).
pub(crate) struct Converter<'a> {
    src: &'a str,
    base: u32,
    /// When set, every node gets this range: used for text that was unescaped before parsing (a JSON string with
    /// escapes), whose offsets no longer match the original text.
    fixed: Option<TextRange>,
    /// Long strings are allocated once per file (see [`LongStrings`]).
    long_strings: RefCell<LongStrings>,
}

impl<'a> Converter<'a> {
    pub(crate) fn new(src: &'a str, base: usize) -> Self {
        // Texts above 4 GiB cannot be addressed by `TextSize`; callers reject them before parsing.
        Converter { src, base: u32::try_from(base).unwrap_or(u32::MAX), fixed: None, long_strings: RefCell::default() }
    }

    /// A converter for `src` that is not a slice of the original text: every node gets `range`.
    pub(crate) fn with_fixed_range(src: &'a str, range: TextRange) -> Self {
        Converter { src, base: u32::from(range.start()), fixed: Some(range), long_strings: RefCell::default() }
    }

    /// `text` as a `SmolStr`, sharing the allocation of an equal long string converted before.
    fn string(&self, text: &str) -> SmolStr {
        self.long_strings.borrow_mut().get(text)
    }

    /// Maps a span of the parsed slice to a range in the original text. hcl-edit sets spans on every node it
    /// parses, so `None` only happens for nodes it synthesises; those get an empty range at `fallback`.
    fn range(&self, span: Option<Range<usize>>, fallback: TextSize) -> TextRange {
        if let Some(fixed) = self.fixed {
            return fixed;
        }
        match span {
            Some(span) => TextRange::new(self.offset(span.start), self.offset(span.end.max(span.start))),
            None => TextRange::empty(fallback),
        }
    }

    fn offset(&self, at: usize) -> TextSize {
        TextSize::from(self.base.saturating_add(u32::try_from(at).unwrap_or(u32::MAX)))
    }

    fn start(&self) -> TextSize {
        TextSize::from(self.base)
    }

    pub(crate) fn body(&self, body: hs::Body) -> Body {
        let mut structures = Vec::with_capacity(body.len());
        for structure in body {
            structures.push(match structure {
                hs::Structure::Attribute(attr) => Structure::Attribute(self.attribute(attr)),
                hs::Structure::Block(block) => Structure::Block(self.block(block)),
            });
        }
        Body { structures }
    }

    pub(crate) fn attribute(&self, attr: hs::Attribute) -> Attribute {
        let key = self.ident(attr.key);
        let value = self.expr(attr.value);
        let range = TextRange::new(key.range.start(), value.range.end().max(key.range.start()));
        Attribute { key, value: Arc::new(value), range }
    }

    pub(crate) fn block(&self, block: hs::Block) -> Block {
        let span = block.span();
        let ident = self.ident(block.ident);
        let range = self.range(span, ident.range.start());
        let labels: Vec<BlockLabel> = exact(block.labels.into_iter().map(|l| self.label(l)));
        let header_end = labels.last().map_or(ident.range.end(), |l| l.range.end());
        let open = self.find_open_brace(header_end, range.end());
        let body_range = TextRange::new(open, range.end().max(open));
        let body = self.body(block.body);
        Block { ident, labels, body, range, body_range }
    }

    /// The block's `{`: the first one after the header that is not inside a `/* */` comment (only spaces and
    /// inline comments can sit between the last label and the brace).
    fn find_open_brace(&self, from: TextSize, to: TextSize) -> TextSize {
        let lo = usize::from(from).saturating_sub(self.base as usize);
        let hi = usize::from(to).saturating_sub(self.base as usize);
        let bytes = self.src.as_bytes();
        let mut i = lo;
        while i < hi.min(bytes.len()) {
            match bytes[i] {
                b'{' => return self.offset(i),
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = self.src[i + 2..].find("*/").map_or(hi, |j| i + 2 + j + 2);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        from
    }

    fn label(&self, label: hs::BlockLabel) -> BlockLabel {
        let span = label.span();
        let range = self.range(span, self.start());
        match label {
            hs::BlockLabel::String(s) => BlockLabel { value: self.string(s.value()), quoted: true, range },
            hs::BlockLabel::Ident(i) => BlockLabel { value: self.string(i.as_str()), quoted: false, range },
        }
    }

    fn ident(&self, ident: hcl_edit::Decorated<hcl_edit::Ident>) -> Ident {
        let range = self.range(ident.span(), self.start());
        Ident { name: self.string(ident.as_str()), range }
    }

    pub(crate) fn expr(&self, expr: Expression) -> Expr {
        let span = expr.span();
        let range = self.range(span.clone(), self.start());
        let kind = match expr {
            Expression::Null(_) => ExprKind::Null,
            Expression::Bool(b) => ExprKind::Bool(*b.value()),
            Expression::Number(_) => ExprKind::Number(self.number_text(span).into()),
            Expression::String(s) => {
                // Inside the quotes (never inverted, whatever the range).
                let start = (range.start() + TextSize::from(1)).min(range.end());
                let end = range.end().checked_sub(TextSize::from(1)).unwrap_or(range.end()).max(start);
                let inner = TextRange::new(start, end);
                let parts = vec![TemplatePart::Literal { value: self.string(s.value()), range: inner }];
                ExprKind::Template(Template { parts, kind: TemplateKind::Quoted })
            }
            Expression::StringTemplate(t) => {
                let template: ht::Template = t.into();
                ExprKind::Template(self.template(template, TemplateKind::Quoted, false, false, false))
            }
            Expression::HeredocTemplate(h) => {
                let h = *h;
                let mut template = self.template(h.template, TemplateKind::Heredoc, false, false, true);
                // hcl-edit (patched) leaves `<<-` indentation in place; remove it now that strip markers applied.
                if span.as_ref().and_then(|span| self.src.get(span.start..)).is_some_and(|t| t.starts_with("<<-")) {
                    crate::heredoc::remove_indentation(&mut template);
                }
                ExprKind::Template(template)
            }
            Expression::Array(a) => ExprKind::Tuple(exact(a.into_iter().map(|e| self.expr(e)))),
            Expression::Object(o) => ExprKind::Object(exact(o.into_iter().map(|(k, v)| {
                let key = match k {
                    hx::ObjectKey::Ident(i) => ObjectKey::Ident(self.ident(i)),
                    hx::ObjectKey::Expression(e) => ObjectKey::Expr(Box::new(self.expr(e))),
                };
                ObjectItem { key, value: self.expr(v.into_expr()) }
            }))),
            Expression::Parenthesis(p) => ExprKind::Parenthesis(Box::new(self.expr(p.into_inner()))),
            Expression::Variable(v) => ExprKind::Variable(self.ident(v)),
            Expression::Conditional(c) => {
                let c = *c;
                ExprKind::Conditional {
                    cond: Box::new(self.expr(c.cond_expr)),
                    then_expr: Box::new(self.expr(c.true_expr)),
                    else_expr: Box::new(self.expr(c.false_expr)),
                }
            }
            Expression::FuncCall(f) => ExprKind::FuncCall(Box::new(self.func_call(*f))),
            Expression::Traversal(t) => {
                let t = *t;
                let base = Box::new(self.expr(t.expr));
                let steps = exact(t.operators.into_iter().map(|op| self.traversal_step(op, base.range.end())));
                ExprKind::Traversal { base, steps }
            }
            Expression::UnaryOp(u) => {
                let u = *u;
                let op = match u.operator.value() {
                    hx::UnaryOperator::Neg => UnaryOp::Neg,
                    hx::UnaryOperator::Not => UnaryOp::Not,
                };
                ExprKind::Unary { op, operand: Box::new(self.expr(u.expr)) }
            }
            Expression::BinaryOp(b) => {
                let b = *b;
                let op = binary_op(*b.operator.value());
                let lhs = self.expr(b.lhs_expr);
                let rhs = self.expr(b.rhs_expr);
                // The Pratt step that builds nested operations may leave inner nodes without a span.
                let range = if range.is_empty() {
                    TextRange::new(lhs.range.start(), rhs.range.end().max(lhs.range.start()))
                } else {
                    range
                };
                return Expr::new(ExprKind::Binary { lhs: Box::new(lhs), op, rhs: Box::new(rhs) }, range);
            }
            Expression::ForExpr(f) => ExprKind::For(Box::new(self.for_expr(*f))),
        };
        Expr::new(kind, range)
    }

    /// The literal as written, with the whitespace hcl-edit allows between a `-` and its digits removed.
    fn number_text(&self, span: Option<Range<usize>>) -> String {
        let text = span.and_then(|span| self.src.get(span)).unwrap_or_default();
        match text.strip_prefix('-') {
            Some(rest) => {
                let digits = rest.find(|c: char| c.is_ascii_digit()).map_or(rest, |i| &rest[i..]);
                let mut s = String::with_capacity(digits.len() + 1);
                s.push('-');
                s.push_str(digits);
                s
            }
            None => text.to_owned(),
        }
    }

    fn func_call(&self, f: hx::FuncCall) -> FuncCall {
        let expand_final = f.args.expand_final();
        let namespace = exact(f.name.namespace.into_iter().map(|i| self.ident(i)));
        let name = FuncName { namespace, name: self.ident(f.name.name) };
        let args = exact(f.args.into_iter().map(|e| self.expr(e)));
        FuncCall { name, args, expand_final }
    }

    fn traversal_step(&self, op: hcl_edit::Decorated<hx::TraversalOperator>, fallback: TextSize) -> TraversalStep {
        let range = self.range(op.span(), fallback);
        let op = match op.into_value() {
            hx::TraversalOperator::AttrSplat(_) => TraversalOp::AttrSplat,
            hx::TraversalOperator::FullSplat(_) => TraversalOp::FullSplat,
            hx::TraversalOperator::GetAttr(i) => TraversalOp::GetAttr(self.ident(i)),
            hx::TraversalOperator::Index(e) => TraversalOp::Index(Box::new(self.expr(e))),
            hx::TraversalOperator::LegacyIndex(i) => TraversalOp::LegacyIndex(*i.value()),
        };
        TraversalStep { op, range }
    }

    fn for_expr(&self, f: hx::ForExpr) -> ForExpr {
        ForExpr {
            key_var: f.intro.key_var.map(|i| self.ident(i)),
            value_var: self.ident(f.intro.value_var),
            collection: self.expr(f.intro.collection_expr),
            key_expr: f.key_expr.map(|e| self.expr(e)),
            value_expr: self.expr(f.value_expr),
            cond: f.cond.map(|c| self.expr(c.expr)),
            grouping: f.grouping,
        }
    }

    /// A template parsed on its own (the content of a JSON string), as a quoted template.
    pub(crate) fn standalone_template(&self, template: ht::Template) -> Template {
        // Its text came from JSON with real line breaks in it, which HCL treats like heredoc text.
        self.template(template, TemplateKind::Quoted, false, false, true)
    }

    /// Converts a template, applying strip markers. `strip_first`/`strip_last` say whether the enclosing
    /// directive's markers strip the leading whitespace of this template's first literal / the trailing
    /// whitespace of its last literal. `lines` is set for heredoc text, where HCL's literal tokens end at each
    /// line break, so a marker strips whitespace only up to the nearest line break (see [`strip_before`]).
    fn template(
        &self,
        template: ht::Template,
        kind: TemplateKind,
        strip_first: bool,
        strip_last: bool,
        lines: bool,
    ) -> Template {
        let elements: Vec<Element> = template.into_iter().collect();
        // For each element: does it strip the whitespace before / after itself?
        let marks: Vec<(bool, bool)> = elements.iter().map(element_strip).collect();
        let last = elements.len().saturating_sub(1);
        let mut parts = Vec::with_capacity(elements.len());
        for (i, element) in elements.into_iter().enumerate() {
            match element {
                Element::Literal(lit) => {
                    let range = self.range(lit.span(), self.start());
                    let mut value = lit.into_value();
                    let trim_start = if i == 0 { strip_first } else { marks[i - 1].1 };
                    let trim_end = if i == last { strip_last } else { marks[i + 1].0 };
                    if trim_end {
                        strip_before(&mut value, lines);
                    }
                    if trim_start {
                        strip_after(&mut value, lines);
                    }
                    parts.push(TemplatePart::Literal { value: self.string(&value), range });
                }
                Element::Interpolation(interp) => {
                    parts.push(TemplatePart::Interpolation(Box::new(self.expr(interp.expr))))
                }
                Element::Directive(directive) => parts.push(self.directive(*directive, lines)),
            }
        }
        parts.shrink_to_fit();
        Template { parts, kind }
    }

    fn directive(&self, directive: ht::Directive, lines: bool) -> TemplatePart {
        let range = self.range(directive.span(), self.start());
        match directive {
            ht::Directive::If(d) => {
                let if_expr = d.if_expr;
                let then_strip_last = match &d.else_expr {
                    Some(e) => e.strip.strip_start(),
                    None => d.endif_expr.strip.strip_start(),
                };
                let cond = self.expr(if_expr.cond_expr);
                let then_part = self.template(
                    if_expr.template,
                    TemplateKind::Quoted,
                    if_expr.strip.strip_end(),
                    then_strip_last,
                    lines,
                );
                let else_part = d.else_expr.map(|e| {
                    self.template(
                        e.template,
                        TemplateKind::Quoted,
                        e.strip.strip_end(),
                        d.endif_expr.strip.strip_start(),
                        lines,
                    )
                });
                TemplatePart::If(Box::new(TemplateIf { cond, then_part, else_part, range }))
            }
            ht::Directive::For(d) => {
                let f = d.for_expr;
                TemplatePart::For(Box::new(TemplateFor {
                    key_var: f.key_var.map(|i| self.ident(i)),
                    value_var: self.ident(f.value_var),
                    collection: self.expr(f.collection_expr),
                    body: self.template(
                        f.template,
                        TemplateKind::Quoted,
                        f.strip.strip_end(),
                        d.endfor_expr.strip.strip_start(),
                        lines,
                    ),
                    range,
                }))
            }
        }
    }
}

/// Applies a `~` marker that follows `value`: strips its trailing whitespace. In heredoc text (`lines`) HCL's
/// literal tokens end after each line break, so only the last line of `value` (with its line break, if the marker
/// starts a line) is stripped: `%{~ endif }` after indentation strips the indentation, not the line before.
fn strip_before(value: &mut String, lines: bool) {
    let from = if lines {
        let body = value.strip_suffix('\n').unwrap_or(value);
        body.rfind('\n').map_or(0, |i| i + 1)
    } else {
        0
    };
    let keep = from + value[from..].trim_end().len();
    value.truncate(keep);
}

/// Applies a `~` marker that precedes `value`: strips its leading whitespace, in heredoc text (`lines`) only up to
/// and including the first line break, so the next line keeps its indentation.
fn strip_after(value: &mut String, lines: bool) {
    let to = if lines { value.find('\n').map_or(value.len(), |i| i + 1) } else { value.len() };
    let cut = to - value[..to].trim_start().len();
    value.drain(..cut);
}

/// Whether an element strips the whitespace of the literal before it and after it.
fn element_strip(element: &Element) -> (bool, bool) {
    match element {
        Element::Literal(_) => (false, false),
        Element::Interpolation(i) => (i.strip.strip_start(), i.strip.strip_end()),
        Element::Directive(d) => match &**d {
            ht::Directive::If(d) => (d.if_expr.strip.strip_start(), d.endif_expr.strip.strip_end()),
            ht::Directive::For(d) => (d.for_expr.strip.strip_start(), d.endfor_expr.strip.strip_end()),
        },
    }
}

fn binary_op(op: hx::BinaryOperator) -> BinaryOp {
    use hx::BinaryOperator as H;
    match op {
        H::Eq => BinaryOp::Eq,
        H::NotEq => BinaryOp::NotEq,
        H::LessEq => BinaryOp::LtEq,
        H::GreaterEq => BinaryOp::GtEq,
        H::Less => BinaryOp::Lt,
        H::Greater => BinaryOp::Gt,
        H::Mod => BinaryOp::Mod,
        H::Div => BinaryOp::Div,
        H::Mul => BinaryOp::Mul,
        H::Minus => BinaryOp::Sub,
        H::And => BinaryOp::And,
        H::Or => BinaryOp::Or,
        H::Plus => BinaryOp::Add,
    }
}

/// The items of `iter` in a vector without spare capacity. The trees live as long as the analysis keeps their
/// expressions, so spare room is memory held for good: `collect` may reuse the hcl-edit vector it consumes (sized
/// for hcl-edit's larger nodes), and a vector grown by pushing starts at four items, where most of ours hold one.
pub(crate) fn exact<T>(iter: impl Iterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(iter.size_hint().0);
    v.extend(iter);
    v.shrink_to_fit();
    v
}
