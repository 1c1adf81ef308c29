//! Where the instance keys of a `for_each` are written: the map constructor or list of strings in the
//! configuration (or in a `.tfvars` file) that the expression reaches through `var.`, `local.`, parentheses and
//! `toset`/`tomap`/`tolist`. Hovers use it to say where a key came from; the "add a missing key" fix edits it.
//!
//! Only literal collections are found: a `for` expression, `merge(...)` or a value from the command line has no
//! single place where a key is written, and nothing is guessed for them.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, ObjectKey, TraversalOp};
use std::sync::Arc;

use crate::base::{FileId, FileText};
use crate::eval::ValueSource;
use crate::eval::scope::ModuleScope;
use crate::model::module::Module;

/// How the tracer reaches the module's variables and locals.
pub trait Lookup {
    /// The expression `var.NAME` takes its value from when it is written in a file this analysis can point at and
    /// edit: the `.tfvars` assignment, else the declared default. `None` for a value from the command line, the
    /// environment or the calling module.
    fn variable(&self, name: &str) -> Option<(FileId, Expr)>;
    /// The expression of `local.NAME`.
    fn local(&self, name: &str) -> Option<(FileId, Expr)>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiteralKind {
    /// `{ key = value, … }`: a map's keys.
    Object,
    /// `["a", "b"]`: a set's elements.
    Tuple,
}

/// One written key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralEntry {
    pub key: String,
    /// The element, or the whole `key = value` item.
    pub range: TextRange,
    /// The item's value (objects only).
    pub value: Option<TextRange>,
}

/// A literal collection that holds the keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralCollection {
    pub file: FileId,
    /// The `{…}` or `[…]`.
    pub range: TextRange,
    pub kind: LiteralKind,
    /// The entries whose key is a literal, in source order.
    pub entries: Vec<LiteralEntry>,
    /// Every entry's key is a literal (no `(var.k) = …`, no interpolated element).
    pub all_literal: bool,
    /// The last item (literal or not), for placing a new one after it.
    pub last: Option<TextRange>,
}

impl LiteralCollection {
    pub fn entry(&self, key: &str) -> Option<&LiteralEntry> {
        // A repeated key: the last one wins, as in evaluation.
        self.entries.iter().rev().find(|e| e.key == key)
    }
}

/// Deep enough for locals built from locals; a cycle is reported elsewhere and stops here.
const MAX_HOPS: usize = 16;

/// The literal collection `expr` (in `file`) takes its keys from, if there is one.
pub fn literal_collection(file: FileId, expr: &Expr, lookup: &dyn Lookup) -> Option<LiteralCollection> {
    let (mut file, mut expr) = (file, expr.clone());
    for _ in 0..MAX_HOPS {
        let next = match &expr.kind {
            ExprKind::Parenthesis(inner) => (file, (**inner).clone()),
            ExprKind::FuncCall(call)
                if call.args.len() == 1
                    && !call.expand_final
                    && matches!(
                        call.name.full_name().as_str(),
                        "toset" | "tomap" | "tolist" | "core::toset" | "core::tomap" | "core::tolist"
                    ) =>
            {
                (file, call.args[0].clone())
            }
            ExprKind::Traversal { base, steps } if steps.len() == 1 => {
                let (ExprKind::Variable(root), TraversalOp::GetAttr(attr)) = (&base.kind, &steps[0].op) else {
                    return None;
                };
                match root.name.as_str() {
                    "var" => lookup.variable(&attr.name)?,
                    "local" => lookup.local(&attr.name)?,
                    _ => return None,
                }
            }
            ExprKind::Object(items) => {
                let mut entries = Vec::new();
                for item in items {
                    let key = match &item.key {
                        ObjectKey::Ident(i) => Some(i.name.to_string()),
                        ObjectKey::Expr(e) => e.as_string_literal(),
                    };
                    if let Some(key) = key {
                        entries.push(LiteralEntry {
                            key,
                            range: TextRange::new(item.key.range().start(), item.value.range.end()),
                            value: Some(item.value.range),
                        });
                    }
                }
                let all_literal = entries.len() == items.len();
                let last = items.last().map(|i| TextRange::new(i.key.range().start(), i.value.range.end()));
                let kind = LiteralKind::Object;
                return Some(LiteralCollection { file, range: expr.range, kind, entries, all_literal, last });
            }
            ExprKind::Tuple(items) => {
                let entries: Vec<LiteralEntry> = items
                    .iter()
                    .filter_map(|e| Some(LiteralEntry { key: e.as_string_literal()?, range: e.range, value: None }))
                    .collect();
                let all_literal = entries.len() == items.len();
                let last = items.last().map(|e| e.range);
                let kind = LiteralKind::Tuple;
                return Some(LiteralCollection { file, range: expr.range, kind, entries, all_literal, last });
            }
            _ => return None,
        };
        (file, expr) = next;
    }
    None
}

/// The string literal `expr` (in `file`) takes its value from through `var.`, `local.` and parentheses, when it
/// reaches one through at least one of them: where the value of a key expression such as `[var.primary]` is
/// written (the `.tfvars` line, the variable's default, the local). The literal's file, range and value.
pub fn literal_string_origin(file: FileId, expr: &Expr, lookup: &dyn Lookup) -> Option<(FileId, TextRange, String)> {
    let (mut file, mut expr) = (file, expr.clone());
    let mut hops = 0;
    for _ in 0..MAX_HOPS {
        if let Some(s) = expr.as_string_literal() {
            return (hops > 0).then_some((file, expr.range, s));
        }
        (file, expr) = match &expr.kind {
            ExprKind::Parenthesis(inner) => (file, (**inner).clone()),
            ExprKind::Traversal { base, steps } if steps.len() == 1 => {
                let (ExprKind::Variable(root), TraversalOp::GetAttr(attr)) = (&base.kind, &steps[0].op) else {
                    return None;
                };
                hops += 1;
                match root.name.as_str() {
                    "var" => lookup.variable(&attr.name)?,
                    "local" => lookup.local(&attr.name)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
    }
    None
}

/// The lookup of one module instance: its evaluation scope says where each variable's value came from.
pub struct ScopeLookup<'a> {
    pub module: &'a Module,
    pub scope: &'a ModuleScope,
    pub file_text: FileText<'a>,
}

impl Lookup for ScopeLookup<'_> {
    fn variable(&self, name: &str) -> Option<(FileId, Expr)> {
        let declared = self.module.variable(name)?;
        match self.scope.variable_source(name) {
            None => declared.default.as_ref().map(|d| (d.file, Arc::unwrap_or_clone(d.expr()))),
            Some(ValueSource::Tfvars(at)) => {
                let (text, kind) = (self.file_text)(at.file)?;
                let parsed = foreach_syntax::parse(&text, kind);
                let a = parsed.body.attributes().find(|a| a.range == at.range)?;
                Some((at.file, Expr::clone(&a.value)))
            }
            Some(_) => None,
        }
    }

    fn local(&self, name: &str) -> Option<(FileId, Expr)> {
        self.module.local(name).map(|l| (l.arg.file, Arc::unwrap_or_clone(l.arg.expr())))
    }
}
