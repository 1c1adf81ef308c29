//! The fix for `too-similar-for-each`: filter the resource's (or module call's) collection so that an element can
//! be disabled here, and its instances destroyed, before it is removed from the provider's `for_each`.
//!
//! For a map of objects it is the RFC's own suggestion, an `enabled` attribute defaulting to true:
//! `for_each = { for k, v in X : k => v if try(v.enabled, true) }`. It keeps every key and value as they are, so
//! it changes no instance until someone sets `enabled = false`; that is why it is the only automatic one. A set of
//! strings has no attribute to filter on; there the fix is `setsubtract(X, [])`, whose second argument lists the
//! elements to retire first: offered in the editor, not applied by `check --fix`, because it is only useful once
//! someone fills it in. When the kind of collection is unknown, the map form is offered but not applied.
//!
//! Only the `for_each` value's range is replaced; the collection expression `X` is copied from the original text,
//! comments and line breaks included.

use foreach_syntax::ast::{Expr, ExprKind, TemplateKind};

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

/// The fix for a `for_each` value `for_each` in `text` (the whole file), or `None` when the range does not lie in
/// the text (a stale tree).
pub fn filter_for_each_fix(file: FileId, text: &str, for_each: &Expr, kind: CollectionKind) -> Option<Fix> {
    let start = usize::from(for_each.range.start());
    let end = usize::from(for_each.range.end());
    let source = text.get(start..end)?;
    if matches!(&for_each.kind, ExprKind::Template(t) if t.kind == TemplateKind::Heredoc) {
        // A heredoc's closing marker must end its line: nothing can follow it. (No working `for_each` is one.)
        return None;
    }
    let collection = if needs_parens(for_each) { format!("({source})") } else { source.to_string() };
    let (title, new_text, automatic) = match kind {
        CollectionKind::ObjectMap => {
            ("Filter `for_each` through an `enabled` attribute".to_string(), map_form(&collection), true)
        }
        CollectionKind::OtherMap | CollectionKind::Unknown => (
            "Filter `for_each` through an `enabled` attribute (needs object elements)".to_string(),
            map_form(&collection),
            false,
        ),
        CollectionKind::Set => (
            "Filter `for_each` with `setsubtract` (list the elements to retire in its second argument)".to_string(),
            format!("setsubtract({source}, [])"),
            false,
        ),
    };
    Some(Fix { title, edits: vec![TextEdit { location: FileRange::new(file, for_each.range), new_text }], automatic })
}

fn map_form(collection: &str) -> String {
    format!("{{ for k, v in {collection} : k => v if try(v.enabled, true) }}")
}

/// Whether `X` must be parenthesised after `in`: a conditional's `:` would end the `for` header, and operators
/// read more clearly grouped. Anything self-delimiting goes in as written.
fn needs_parens(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Conditional { .. } | ExprKind::Binary { .. } | ExprKind::Unary { .. })
}

#[cfg(test)]
mod tests;
