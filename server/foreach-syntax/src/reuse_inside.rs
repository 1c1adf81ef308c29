//! Re-parsing only the node around an edit inside one top-level item.
//!
//! [`crate::parse_reusing`] reuses whole top-level items; a generated file that is one `locals` block of 6,000 map
//! items (gruntwork's `request-quota-increase`) is one item, so every keystroke in it parsed 1.3 MB again. Here
//! the smallest node that holds the edit (a block's attribute or nested block, an object's `key = value` item, a
//! tuple element or a function argument) is parsed on its own, wrapped so that hcl-edit sees the same construct,
//! and put in place of the old node in a copy of the item's previous tree whose later ranges move by the length
//! the edit added.
//!
//! The result must equal a fresh parse of the whole item, so a node qualifies only where its text alone decides
//! its tree, and anything else falls back to the next node up (and finally to parsing the item):
//! - what follows the node is unchanged and ends it whatever it holds: a separator (a line break, a comment, `,`,
//!   the closing bracket), so the edited text cannot run on into the next node, nor a next node into it;
//! - the node's new text parses alone as exactly one node of the same kind covering all of it (an unclosed
//!   string, bracket or comment fails to);
//! - an object item keeps its key text: hcl-edit keeps only the last item of a repeated key (patch 1 of the
//!   fork), which depends on the other items; likewise an attribute keeps its name, as a body may not set one
//!   twice;
//! - a body item starts and ends its own lines (a one-line block body holds a single attribute);
//! - nesting stays far below hcl-edit's limit of 64 levels, which counts the levels above the node too: the
//!   node's depth in the item plus its own depth, each counted twice, must stay under it.
//!
//! Binary-operator depth (hcl-edit's other limit) is the node's own: the path to a node goes through blocks,
//! attributes, objects, tuples and calls only, never through an operator.

use std::ops::Range;
use std::sync::Arc;

use crate::TextSize;
use crate::ast::{Expr, ExprKind, ObjectItem, ObjectKey, Structure, Template, TemplatePart, TraversalOp};
use crate::convert::Converter;
use crate::shift::Shift;

/// hcl-edit's nesting limit (`MAX_NESTING_DEPTH` in the fork's `parser/nesting.rs`).
const HCL_EDIT_MAX_NESTING: usize = 64;

/// What changed between two texts: `old` in the old text became `old.start..new_end` in the new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) old: Range<usize>,
    pub(crate) new_end: usize,
}

impl Edit {
    /// The one edit that turns `old` into `new`: everything between their common prefix and common suffix.
    pub(crate) fn between(old: &str, new: &str) -> Edit {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let prefix = common_prefix(a, b);
        let suffix = common_suffix(a, b, a.len().min(b.len()) - prefix);
        Edit { old: prefix..a.len() - suffix, new_end: b.len() - suffix }
    }

    /// How many bytes the edit added (negative when it removed more than it inserted).
    pub(crate) fn delta(&self) -> i64 {
        self.new_end as i64 - self.old.end as i64
    }
}

/// Texts are compared a block at a time: a 1.3 MB file is compared after every keystroke.
const BLOCK: usize = 64;

/// The length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The length of the longest common suffix of `a` and `b`, at most `max`.
fn common_suffix(a: &[u8], b: &[u8], max: usize) -> usize {
    let (ea, eb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= max && a[ea - i - BLOCK..ea - i] == b[eb - i - BLOCK..eb - i] {
        i += BLOCK;
    }
    while i < max && a[ea - 1 - i] == b[eb - 1 - i] {
        i += 1;
    }
    i
}

/// One step down from an item's structures to a node.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// The n-th structure of the current body.
    Structure(usize),
    /// The n-th item of the current object.
    Item(usize),
    /// The n-th element of the current tuple.
    Element(usize),
    /// The n-th argument of the current function call.
    Argument(usize),
}

/// The item's structures rebuilt after `edit`, re-parsing only the smallest qualifying node around it; `None`
/// when no node below the item's own structures qualifies.
///
/// `structures` are the item's previous trees, with ranges in `old_text`; the result has ranges in `new_text`.
pub(crate) fn reparse_inside(
    structures: &[Structure],
    old_text: &str,
    new_text: &str,
    edit: &Edit,
) -> Option<Vec<Structure>> {
    let splice = splice_inside(structures, old_text, new_text, edit)?;
    let mut rebuilt = structures.to_vec();
    splice.apply(&mut rebuilt);
    Some(rebuilt)
}

/// How to turn an item's trees into their edited version: the re-parsed node, where it goes, and how the ranges
/// around it move. Planned before anything changes, so that a tree edited in place is never left half done.
pub(crate) struct Splice {
    steps: Vec<Step>,
    node: Node,
    shift: Shift,
}

impl Splice {
    /// Edits `structures` (the trees the splice was planned on) in place.
    pub(crate) fn apply(self, structures: &mut [Structure]) {
        structures.iter_mut().for_each(|s| self.shift.structure(s));
        put(structures, &self.steps, self.node);
    }
}

/// The [`Splice`] that rebuilds an item's `structures` after `edit`, re-parsing only the smallest qualifying node
/// around it; `None` when no node below the item's own structures qualifies.
pub(crate) fn splice_inside(structures: &[Structure], old_text: &str, new_text: &str, edit: &Edit) -> Option<Splice> {
    let (lo, hi) = (offset(edit.old.start)?, offset(edit.old.end)?);
    let mut path = path_to(structures, lo, hi);
    // Deepest first; the first step is a top-level structure, which the item-level reuse already covers.
    for len in (2..=path.len()).rev() {
        let steps = &path[..len];
        if let Some(node) = reparse_node(structures, steps, old_text, new_text, edit) {
            let end = node_range(structures, steps)?.end;
            path.truncate(len);
            return Some(Splice { steps: path, node, shift: Shift::split(end, 0, edit.delta()) });
        }
    }
    None
}

/// The steps to the deepest node whose range holds `lo..hi` (every prefix of the result leads to one too).
fn path_to(structures: &[Structure], lo: TextSize, hi: TextSize) -> Vec<Step> {
    let holds = |r: Range<TextSize>| r.start <= lo && hi <= r.end;
    let mut path = Vec::new();
    let mut body = structures;
    loop {
        let Some(i) = body.iter().position(|s| holds(structure_range(s))) else { return path };
        path.push(Step::Structure(i));
        match &body[i] {
            Structure::Block(b) => body = &b.body.structures,
            Structure::Attribute(a) => {
                let mut expr: &Expr = &a.value;
                loop {
                    let next = match &expr.kind {
                        ExprKind::Object(items) => items
                            .iter()
                            .position(|item| holds(item_range(item)))
                            .map(|k| (Step::Item(k), &items[k].value)),
                        ExprKind::Tuple(elements) => elements
                            .iter()
                            .position(|e| holds(e.range.start()..e.range.end()))
                            .map(|k| (Step::Element(k), &elements[k])),
                        ExprKind::FuncCall(call) => call
                            .args
                            .iter()
                            .position(|e| holds(e.range.start()..e.range.end()))
                            .map(|k| (Step::Argument(k), &call.args[k])),
                        _ => None,
                    };
                    let Some((step, inner)) = next else { return path };
                    path.push(step);
                    expr = inner;
                }
            }
        }
    }
}

fn structure_range(s: &Structure) -> Range<TextSize> {
    let r = match s {
        Structure::Attribute(a) => a.range,
        Structure::Block(b) => b.range,
    };
    r.start()..r.end()
}

fn item_range(item: &ObjectItem) -> Range<TextSize> {
    item.key.range().start()..item.value.range.end()
}

/// A node at the end of a path, borrowed.
enum NodeRef<'a> {
    Structure(&'a Structure),
    Item(&'a ObjectItem),
    Expr(&'a Expr),
}

/// A node to put at the end of a path.
enum Node {
    Structure(Structure),
    Item(ObjectItem),
    Expr(Expr),
}

fn node_at<'a>(structures: &'a [Structure], steps: &[Step]) -> Option<NodeRef<'a>> {
    let mut body = structures;
    let mut expr: Option<&Expr> = None;
    let mut node = None;
    for step in steps {
        node = Some(match (*step, expr) {
            (Step::Structure(i), None) => {
                let s = body.get(i)?;
                match s {
                    Structure::Block(b) => body = &b.body.structures,
                    Structure::Attribute(a) => expr = Some(&a.value),
                }
                NodeRef::Structure(s)
            }
            (Step::Item(k), Some(Expr { kind: ExprKind::Object(items), .. })) => {
                let item = items.get(k)?;
                expr = Some(&item.value);
                NodeRef::Item(item)
            }
            (Step::Element(k), Some(Expr { kind: ExprKind::Tuple(elements), .. })) => {
                let e = elements.get(k)?;
                expr = Some(e);
                NodeRef::Expr(e)
            }
            (Step::Argument(k), Some(Expr { kind: ExprKind::FuncCall(call), .. })) => {
                let e = call.args.get(k)?;
                expr = Some(e);
                NodeRef::Expr(e)
            }
            _ => return None,
        });
    }
    node
}

fn node_range(structures: &[Structure], steps: &[Step]) -> Option<Range<TextSize>> {
    Some(match node_at(structures, steps)? {
        NodeRef::Structure(s) => structure_range(s),
        NodeRef::Item(item) => item_range(item),
        NodeRef::Expr(e) => e.range.start()..e.range.end(),
    })
}

/// Replaces the node at the end of `steps` (a path [`node_at`] followed) with `node`.
fn put(body: &mut [Structure], steps: &[Step], node: Node) {
    match (steps, node) {
        ([Step::Structure(i)], Node::Structure(s)) => body[*i] = s,
        ([Step::Structure(i), rest @ ..], node) => match &mut body[*i] {
            Structure::Block(b) => put(&mut b.body.structures, rest, node),
            Structure::Attribute(a) => put_in_expr(Arc::make_mut(&mut a.value), rest, node),
        },
        _ => unreachable!("put follows a path that node_at found"),
    }
}

fn put_in_expr(expr: &mut Expr, steps: &[Step], node: Node) {
    let Some((step, rest)) = steps.split_first() else { unreachable!("put follows a path that node_at found") };
    let inner = match (*step, &mut expr.kind) {
        (Step::Item(k), ExprKind::Object(items)) => {
            if rest.is_empty() {
                let Node::Item(item) = node else { unreachable!("an item goes into an object") };
                items[k] = item;
                return;
            }
            &mut items[k].value
        }
        (Step::Element(k), ExprKind::Tuple(elements)) => &mut elements[k],
        (Step::Argument(k), ExprKind::FuncCall(call)) => &mut call.args[k],
        _ => unreachable!("put follows a path that node_at found"),
    };
    match (rest.is_empty(), node) {
        (true, Node::Expr(e)) => *inner = e,
        (false, node) => put_in_expr(inner, rest, node),
        (true, _) => unreachable!("an element or argument is an expression"),
    }
}

/// The node at the end of `steps` parsed again from its new text, if it qualifies (module docs).
fn reparse_node(structures: &[Structure], steps: &[Step], old_text: &str, new_text: &str, edit: &Edit) -> Option<Node> {
    let old = node_range(structures, steps)?;
    let (start, old_end) = (usize::from(old.start), usize::from(old.end));
    let end = usize::try_from(old_end as i64 + edit.delta()).ok()?;
    // The edit must lie within the node, as the path promised, and what follows the node must be unchanged.
    if !(start <= edit.old.start && edit.old.end <= old_end) {
        return None;
    }
    let text = new_text.get(start..end)?;
    let after = new_text.get(end..)?;
    let depth_above = steps.len();
    let node = match node_at(structures, steps)? {
        NodeRef::Structure(old_structure) => {
            let line_start = new_text[..start].rfind('\n').map_or(0, |i| i + 1);
            if !new_text[line_start..start].bytes().all(|b| b == b' ' || b == b'\t') || !ends_line(after) {
                return None;
            }
            let body = hcl_edit::parser::parse_body_spanned_if_valid(text)?;
            let mut converted = Converter::new(text, start).body(body).structures;
            let s = converted.pop().filter(|_| converted.is_empty())?;
            (structure_range(&s) == (offset(start)?..offset(end)?)).then_some(())?;
            // An attribute keeps its name (hcl-edit rejects a body that sets an attribute twice, which depends on
            // the other attributes); a block's own body is checked when it is parsed.
            if let Structure::Attribute(new) = &s {
                let Structure::Attribute(old) = old_structure else { return None };
                (old.key.name == new.key.name).then_some(())?;
            }
            let depth = structure_depth(&s)?;
            shallow(depth_above, depth).then_some(Node::Structure(s))?
        }
        NodeRef::Item(old_item) => {
            if !item_ends(after) {
                return None;
            }
            let mut value = wrapped_value(("_ = {\n", text, "\n}\n"), start)?;
            let ExprKind::Object(items) = &mut value.kind else { return None };
            let item = items.pop().filter(|_| items.is_empty())?;
            (item_range(&item) == (offset(start)?..offset(end)?)).then_some(())?;
            // The key text is the same (hcl-edit keeps one item per key; which one depends on the others).
            let old_key = old_item.key.range();
            let old_key = usize::from(old_key.start())..usize::from(old_key.end());
            let new_key = item.key.range();
            if old_text.get(old_key) != new_text.get(usize::from(new_key.start())..usize::from(new_key.end())) {
                return None;
            }
            shallow(depth_above, item_depth(&item)).then_some(Node::Item(item))?
        }
        NodeRef::Expr(_) => {
            let closing = match steps.last()? {
                Step::Argument(_) => b')',
                _ => b']',
            };
            if !element_ends(after, closing) {
                return None;
            }
            let mut value = wrapped_value(("_ = [\n", text, "\n]\n"), start)?;
            let ExprKind::Tuple(elements) = &mut value.kind else { return None };
            let e = elements.pop().filter(|_| elements.is_empty())?;
            ((e.range.start()..e.range.end()) == (offset(start)?..offset(end)?)).then_some(())?;
            shallow(depth_above, expr_depth(&e)).then_some(Node::Expr(e))?
        }
    };
    Some(node)
}

fn offset(at: usize) -> Option<TextSize> {
    TextSize::try_from(at).ok()
}

/// The value of the one attribute of `open` + `text` + `close`, converted as if `text` started at byte `start`.
fn wrapped_value((open, text, close): (&str, &str, &str), start: usize) -> Option<Expr> {
    let wrapped = format!("{open}{text}{close}");
    let body = hcl_edit::parser::parse_body_spanned_if_valid(&wrapped)?;
    let mut converted = Converter::new(&wrapped, start.checked_sub(open.len())?).body(body).structures;
    match converted.pop().filter(|_| converted.is_empty())? {
        Structure::Attribute(a) => Some(Arc::unwrap_or_clone(a.value)),
        Structure::Block(_) => None,
    }
}

/// Whether the rest of the line is blank or a comment (what may follow a body item).
fn ends_line(after: &str) -> bool {
    let rest = after.trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with(['\n', '\r', '#']) || rest.starts_with("//")
}

/// Whether what follows an object item ends it: a line break, a comment, `,` or the closing brace.
fn item_ends(after: &str) -> bool {
    ends_line(after) || after.trim_start_matches([' ', '\t']).starts_with([',', '}'])
}

/// Whether what follows a tuple element or call argument ends it: `,` or the closing bracket, after white space.
fn element_ends(after: &str, closing: u8) -> bool {
    matches!(after.trim_start_matches([' ', '\t', '\n', '\r']).as_bytes().first(), Some(&b) if b == b',' || b == closing)
}

/// Whether a node `depth` levels deep in itself, `depth_above` steps below the item, stays clear of hcl-edit's
/// nesting limit (each level counted twice: a step may be two of hcl-edit's levels, such as a block and its body).
fn shallow(depth_above: usize, depth: usize) -> bool {
    2 * (depth_above + depth) + 4 <= HCL_EDIT_MAX_NESTING
}

/// The nesting depth of a structure, `None` when it is beyond any limit that matters here.
fn structure_depth(s: &Structure) -> Option<usize> {
    match s {
        Structure::Attribute(a) => Some(expr_depth(&a.value)),
        Structure::Block(b) => {
            let mut deepest = 0;
            for inner in &b.body.structures {
                deepest = deepest.max(structure_depth(inner)?);
                if deepest > HCL_EDIT_MAX_NESTING {
                    return None;
                }
            }
            Some(deepest + 1)
        }
    }
}

/// The depth of an expression tree: one per expression, template and directive on the deepest path.
fn expr_depth(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid | ExprKind::Variable(_) => 0,
        ExprKind::Template(t) => template_depth(t),
        ExprKind::Tuple(items) => items.iter().map(expr_depth).max().unwrap_or(0),
        ExprKind::Object(items) => items.iter().map(item_depth).max().unwrap_or(0),
        ExprKind::Traversal { base, steps } => {
            let index = steps
                .iter()
                .map(|s| match &s.op {
                    TraversalOp::Index(x) => expr_depth(x),
                    _ => 0,
                })
                .max()
                .unwrap_or(0);
            expr_depth(base).max(index)
        }
        ExprKind::FuncCall(call) => call.args.iter().map(expr_depth).max().unwrap_or(0),
        ExprKind::Parenthesis(inner) => expr_depth(inner),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            expr_depth(cond).max(expr_depth(then_expr)).max(expr_depth(else_expr))
        }
        ExprKind::Unary { operand, .. } => expr_depth(operand),
        ExprKind::Binary { lhs, rhs, .. } => expr_depth(lhs).max(expr_depth(rhs)),
        ExprKind::For(f) => [Some(&f.collection), f.key_expr.as_ref(), Some(&f.value_expr), f.cond.as_ref()]
            .into_iter()
            .flatten()
            .map(expr_depth)
            .max()
            .unwrap_or(0),
    }
}

fn item_depth(item: &ObjectItem) -> usize {
    let key = match &item.key {
        ObjectKey::Ident(_) => 0,
        ObjectKey::Expr(k) => expr_depth(k),
    };
    key.max(expr_depth(&item.value))
}

fn template_depth(t: &Template) -> usize {
    1 + t
        .parts
        .iter()
        .map(|p| match p {
            TemplatePart::Literal { .. } => 0,
            TemplatePart::Interpolation(e) => expr_depth(e),
            TemplatePart::If(d) => {
                1 + expr_depth(&d.cond)
                    .max(template_depth(&d.then_part))
                    .max(d.else_part.as_ref().map_or(0, template_depth))
            }
            TemplatePart::For(d) => 1 + expr_depth(&d.collection).max(template_depth(&d.body)),
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edit_between_two_texts_is_what_lies_between_their_common_ends() {
        assert_eq!(Edit::between("abcdef", "abXdef"), Edit { old: 2..3, new_end: 3 });
        assert_eq!(Edit::between("abc", "abzc"), Edit { old: 2..2, new_end: 3 });
        assert_eq!(Edit::between("aaa", "aaaa"), Edit { old: 3..3, new_end: 4 });
        assert_eq!(Edit::between("abc", "abc"), Edit { old: 3..3, new_end: 3 });
        assert_eq!(Edit::between("abcd", "ad"), Edit { old: 1..3, new_end: 1 });
        // Longer than a block on both sides of the edit, and an edit that repeats what is around it.
        let long = "x".repeat(200);
        assert_eq!(
            Edit::between(&format!("{long}a{long}"), &format!("{long}{long}")),
            Edit { old: 200..201, new_end: 200 }
        );
        assert_eq!(
            Edit::between(&format!("{long}a{long}"), &format!("{long}b{long}")),
            Edit { old: 200..201, new_end: 201 }
        );
    }
}
