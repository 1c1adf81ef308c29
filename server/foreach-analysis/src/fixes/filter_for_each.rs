//! The fix for `too-similar-for-each`: filter the resource's (or module call's) collection so that an element can
//! be disabled here, and its instances destroyed, before it is removed from the provider's `for_each`. The filter
//! must really be able to disable something, and must change no instance until someone does.
//!
//! - A map of objects from a variable of this module whose type is declared as `map(object({…}))`, with or
//!   without a value here (the declared type alone says the elements are objects): the type gets
//!   `enabled = optional(bool, true)` (the RFC's own suggestion) and the collection becomes
//!   `{ for k, v in var.x : k => v if v.enabled }`. Automatic (`check --fix` applies it): every element is still
//!   enabled. A filter on `try(v.enabled, true)` alone would never disable anything there, because converting a
//!   value to the declared object type drops an undeclared `enabled` attribute.
//! - A set from a variable of this module: the pattern of OpenTofu's documentation,
//!   `setsubtract(var.x, var.disabled_x)` with a new variable `disabled_x` (default `[]`) declared after `x`.
//!   Automatic too: nothing is subtracted until someone lists an element.
//! - Anything else: `{ for k, v in X : k => v if try(v.enabled, true) }` for maps (works when nothing converts the
//!   elements to a type without `enabled`, which is not known here) and `setsubtract(X, [])` for sets; offered in
//!   the editor, never applied by itself.
//!
//! The `for_each` value's range is replaced (the collection expression `X` copied from the original text, comments
//! and line breaks included); the variable's declaration gets an insertion, nothing else changes.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, ObjectKey, TemplateKind, TraversalOp};

use super::insert::{line_after, object_item};
use crate::base::{FileId, FileRange};
use crate::diagnostics::{Fix, TextEdit};
use crate::eval::Type;
use crate::eval::value::{Attrs, Value};

/// What a `for_each` value evaluates to, as far as the caller's static evaluation knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectionKind {
    /// A map or object whose elements are all objects (or null): they can carry an `enabled` attribute.
    ObjectMap,
    /// A map or object with other elements (strings, numbers, lists).
    OtherMap,
    /// A set (of strings: the only sets `for_each` accepts).
    Set,
    /// Not known statically.
    Unknown,
}

impl CollectionKind {
    /// The kind of an evaluated `for_each` value. A map whose element type is an object, or an object whose
    /// attributes are all objects (or null), is an [`CollectionKind::ObjectMap`]; anything not fully known is
    /// [`CollectionKind::Unknown`].
    pub fn of(value: &Value) -> CollectionKind {
        let objects = |attrs: &Attrs| attrs.values().all(|v| matches!(v.unmarked(), Value::Object(_) | Value::Null(_)));
        match value.unmarked() {
            v if v.first_unknown().is_some() => CollectionKind::Unknown,
            Value::Set(..) => CollectionKind::Set,
            Value::Map(Type::Object(_), _) => CollectionKind::ObjectMap,
            Value::Map(_, attrs) | Value::Object(attrs) if !attrs.is_empty() && objects(attrs) => {
                CollectionKind::ObjectMap
            }
            Value::Map(..) | Value::Object(_) => CollectionKind::OtherMap,
            _ => CollectionKind::Unknown,
        }
    }
}

/// The variable a `for_each` names (`for_each = var.x`), declared in the same module in native syntax.
pub struct CollectionVariable<'a> {
    pub name: &'a str,
    /// The file declaring it and that file's text.
    pub file: FileId,
    pub text: &'a str,
    /// The whole `variable "x" { … }` block.
    pub block: TextRange,
    /// Its `type` expression, if it has one.
    pub ty: Option<&'a Expr>,
    /// Whether the module declares a variable of this name (for a free `disabled_x`).
    pub declared: &'a dyn Fn(&str) -> bool,
}

/// The fix for a `for_each` value `for_each` in `text` (the whole file), or `None` when the range does not lie in
/// the text (a stale tree). `variable` is the variable the value names, if it is one.
pub fn filter_for_each_fix(
    file: FileId,
    text: &str,
    for_each: &Expr,
    kind: CollectionKind,
    variable: Option<&CollectionVariable<'_>>,
) -> Option<Fix> {
    let start = usize::from(for_each.range.start());
    let end = usize::from(for_each.range.end());
    let source = text.get(start..end)?;
    if matches!(&for_each.kind, ExprKind::Template(t) if t.kind == TemplateKind::Heredoc) {
        // A heredoc's closing marker must end its line: nothing can follow it. (No working `for_each` is one.)
        return None;
    }
    let replace = |new_text: String| TextEdit { location: FileRange::new(file, for_each.range), new_text };
    let variable = variable.filter(|v| names_variable(for_each, v.name));
    match (kind, variable) {
        // The declared type says the elements are objects, whether or not the variable has a value here: a value
        // is converted to that type, and one given at plan time will be too.
        (CollectionKind::ObjectMap | CollectionKind::Unknown, Some(v)) => {
            if let Some(type_edit) = enabled_attribute(v) {
                let collection = format!("var.{}", v.name);
                let title = match &type_edit {
                    Some(_) => format!(
                        "Filter `for_each` through an `enabled` attribute (added to the type of `var.{}`, default true)",
                        v.name
                    ),
                    None => format!("Filter `for_each` through the `enabled` attribute of `var.{}`", v.name),
                };
                return Some(Fix {
                    title,
                    edits: std::iter::once(replace(format!("{{ for k, v in {collection} : k => v if v.enabled }}")))
                        .chain(type_edit)
                        .collect(),
                    automatic: true,
                });
            }
        }
        (CollectionKind::Set, Some(v)) => {
            let disabled = free_name(&format!("disabled_{}", v.name), v.declared);
            let declaration = format!(
                "\nvariable \"{disabled}\" {{\n  description = \"Elements of var.{name} whose resources are destroyed \
                 first; remove them from var.{name} once that is applied.\"\n  type        = set(string)\n  default     = []\n}}",
                name = v.name
            );
            let (at, new_text) = line_after(v.text, v.block.end(), v.block.start(), &declaration)?;
            return Some(Fix {
                title: format!(
                    "Filter `for_each` with `setsubtract` and a new variable `{disabled}` (default `[]`) to list the \
                     elements to retire"
                ),
                edits: vec![
                    replace(format!("setsubtract(var.{}, var.{disabled})", v.name)),
                    TextEdit { location: FileRange::new(v.file, TextRange::empty(at)), new_text },
                ],
                automatic: true,
            });
        }
        _ => {}
    }
    let collection = if needs_parens(for_each) { format!("({source})") } else { source.to_string() };
    let (title, new_text) = match kind {
        CollectionKind::Set => (
            "Filter `for_each` with `setsubtract` (list the elements to retire in its second argument)".to_string(),
            format!("setsubtract({source}, [])"),
        ),
        _ => (
            "Filter `for_each` through an `enabled` attribute (needs object elements)".to_string(),
            map_form(&collection),
        ),
    };
    Some(Fix { title, edits: vec![replace(new_text)], automatic: false })
}

fn map_form(collection: &str) -> String {
    format!("{{ for k, v in {collection} : k => v if try(v.enabled, true) }}")
}

/// `var.NAME`, possibly parenthesised.
fn names_variable(e: &Expr, name: &str) -> bool {
    let ExprKind::Traversal { base, steps } = &e.unparenthesized().kind else { return false };
    matches!((&base.kind, steps.as_slice()), (ExprKind::Variable(root), [step])
        if root.name == "var" && matches!(&step.op, TraversalOp::GetAttr(a) if a.name == name))
}

/// For a variable typed `map(object({…}))`: the edit adding `enabled = optional(bool, true)` to the object type
/// (`Some(None)` when a usable `enabled` is there already), or `None` when the type is something else or has an
/// `enabled` attribute of another type.
fn enabled_attribute(v: &CollectionVariable<'_>) -> Option<Option<TextEdit>> {
    let object = map_of_object_type(v.ty?)?;
    let ExprKind::Object(items) = &object.kind else { return None };
    let existing = items.iter().find(|i| match &i.key {
        ObjectKey::Ident(id) => id.name == "enabled",
        ObjectKey::Expr(e) => e.as_string_literal().as_deref() == Some("enabled"),
    });
    if let Some(item) = existing {
        let written = v.text.get(usize::from(item.value.range.start())..usize::from(item.value.range.end()))?;
        let compact: String = written.chars().filter(|c| !c.is_whitespace()).collect();
        return matches!(compact.as_str(), "bool" | "optional(bool,true)").then_some(None);
    }
    let (at, new_text) = object_item(v.text, object, "enabled = optional(bool, true)")?;
    Some(Some(TextEdit { location: FileRange::new(v.file, TextRange::empty(at)), new_text }))
}

/// The `{…}` of `map(object({…}))`.
fn map_of_object_type(ty: &Expr) -> Option<&Expr> {
    let ExprKind::FuncCall(map) = &ty.unparenthesized().kind else { return None };
    if map.name.full_name() != "map" || map.args.len() != 1 {
        return None;
    }
    let ExprKind::FuncCall(object) = &map.args[0].unparenthesized().kind else { return None };
    if object.name.full_name() != "object" || object.args.len() != 1 {
        return None;
    }
    let inner = object.args[0].unparenthesized();
    matches!(inner.kind, ExprKind::Object(_)).then_some(inner)
}

/// `base`, or `base_2`, `base_3`, … when the module declares that variable already.
fn free_name(base: &str, declared: &dyn Fn(&str) -> bool) -> String {
    (1..)
        .map(|n| if n == 1 { base.to_string() } else { format!("{base}_{n}") })
        .find(|n| !declared(n))
        .unwrap_or_default()
}

/// Whether `X` must be parenthesised after `in`: a conditional's `:` would end the `for` header, and operators
/// read more clearly grouped. Anything self-delimiting goes in as written.
fn needs_parens(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Conditional { .. } | ExprKind::Binary { .. } | ExprKind::Unary { .. })
}

#[cfg(test)]
mod tests;
