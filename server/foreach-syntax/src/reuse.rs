//! Re-parsing an edited file without re-parsing what the edit did not touch.
//!
//! A keystroke in a 6,000-line file changes one top-level block; parsing the whole text again with hcl-edit (about
//! 30 MB/s) is most of what an edit costs. [`parse_reusing`] splits the new text into its top-level items with the
//! same lexical scanner error recovery uses ([`split_items`]), takes every item whose text is unchanged from the
//! previous parse of the file (moved to its new offset), and parses only the others, each on its own, exactly as
//! recovery parses items. The result must equal [`crate::parse`] of the same text, spans included: anything this
//! path is not sure of (JSON, an item the scanner flags, an item that does not parse alone) falls back to it.
//!
//! The cache holds the items' trees at the offsets they were converted at and is shared, not copied, from one edit
//! to the next: only the output is cloned (and shifted), once per edit.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::ast::{
    Block, Body, Expr, ExprKind, ForExpr, FuncCall, Ident, ObjectKey, Structure, Template, TemplatePart, TraversalOp,
};
use crate::convert::Converter;
use crate::recovery::{MAX_NESTING, heredoc_at_end_of_file};
use crate::scan::split_items;
use crate::{FileKind, Parse, TextRange, TextSize, strip_bom};

/// The items of the last parse of one file, for the next [`parse_reusing`] of the same file.
#[derive(Debug, Clone)]
pub struct ItemCache {
    /// The text the items were read from (shared with the caller, not copied).
    text: Arc<str>,
    items: Vec<CachedItem>,
    /// Item indices by the hash of their text.
    by_hash: HashMap<u64, Vec<usize>>,
}

#[derive(Debug, Clone)]
struct CachedItem {
    /// The item's byte range in `text` (BOM included in the offsets).
    range: std::ops::Range<usize>,
    /// Its structures, with ranges as converted at `converted_at`.
    structures: Arc<Vec<Structure>>,
    converted_at: usize,
}

impl ItemCache {
    fn find(&self, item_text: &str) -> Option<&CachedItem> {
        let candidates = self.by_hash.get(&hash_of(item_text))?;
        candidates.iter().map(|&i| &self.items[i]).find(|c| &self.text[c.range.clone()] == item_text)
    }
}

/// Parses `text` like [`crate::parse`], reusing the unchanged top-level items of `previous` (the cache of an
/// earlier parse of the same file). Returns the cache for the next call, `None` when this text went the ordinary
/// way (JSON, syntax errors, an item the scanner is unsure of).
pub fn parse_reusing(text: &Arc<str>, kind: FileKind, previous: Option<&ItemCache>) -> (Parse, Option<ItemCache>) {
    match parse_items(text, kind, previous) {
        Some(done) => done,
        None => (crate::parse(text, kind), None),
    }
}

fn parse_items(text: &Arc<str>, kind: FileKind, previous: Option<&ItemCache>) -> Option<(Parse, Option<ItemCache>)> {
    if kind.is_json() {
        return None;
    }
    let (src, base) = strip_bom(text);
    let items = split_items(src, 0..src.len(), MAX_NESTING);
    if items.iter().any(|i| i.problem.is_some() || i.too_deep.is_some()) {
        return None;
    }
    let mut structures = Vec::new();
    let mut cache = ItemCache { text: text.clone(), items: Vec::with_capacity(items.len()), by_hash: HashMap::new() };
    let mut gap_start = 0;
    for item in &items {
        if !gap_is_trivia(&src[gap_start..item.range.start]) {
            return None;
        }
        gap_start = item.range.end;
        let item_text = &src[item.range.clone()];
        let start = base + item.range.start;
        let (item_structures, converted_at) = match previous.and_then(|p| p.find(item_text)) {
            Some(old) => {
                let delta = start as i64 - old.converted_at as i64;
                structures.extend(old.structures.iter().map(|s| shifted(s, delta)));
                (old.structures.clone(), old.converted_at)
            }
            None => {
                let body = hcl_edit::parser::parse_body_spanned(item_text).ok()?;
                let converted = Converter::new(item_text, start).body(body).structures;
                structures.extend(converted.iter().cloned());
                (Arc::new(converted), start)
            }
        };
        cache.by_hash.entry(hash_of(item_text)).or_default().push(cache.items.len());
        cache.items.push(CachedItem {
            range: start..start + item_text.len(),
            structures: item_structures,
            converted_at,
        });
    }
    if !gap_is_trivia(&src[gap_start..]) {
        return None;
    }
    let errors = heredoc_at_end_of_file(src, base).into_iter().collect();
    Some((Parse { body: Body { structures }, errors }, Some(cache)))
}

/// Whether the text between two items is only what a body may hold there: whitespace and complete comments. The
/// scanner skips comments without judging them (an unclosed `/*` at the end of a file is no item), so a gap with
/// anything but whitespace is parsed to be sure.
fn gap_is_trivia(gap: &str) -> bool {
    gap.trim().is_empty() || hcl_edit::parser::parse_body_spanned(gap).is_ok_and(|b| b.is_empty())
}

fn hash_of(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// A copy of `s` with every range moved by `delta` bytes.
fn shifted(s: &Structure, delta: i64) -> Structure {
    let mut s = s.clone();
    if delta != 0 {
        Shift(delta).structure(&mut s);
    }
    s
}

/// Moves every range of a tree by a fixed number of bytes. It must visit every range the tree has: the tests
/// compare a reused parse with a fresh one, spans included, on real files.
struct Shift(i64);

impl Shift {
    fn range(&self, r: &mut TextRange) {
        let at = |o: TextSize| TextSize::from((u32::from(o) as i64 + self.0) as u32);
        *r = TextRange::new(at(r.start()), at(r.end()));
    }

    fn ident(&self, i: &mut Ident) {
        self.range(&mut i.range);
    }

    fn structure(&self, s: &mut Structure) {
        match s {
            Structure::Attribute(a) => {
                self.ident(&mut a.key);
                self.expr(&mut a.value);
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

    fn expr(&self, e: &mut Expr) {
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
