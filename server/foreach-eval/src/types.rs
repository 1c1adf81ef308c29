//! Types of values, modelled on cty: [`Type`] is the type a value has. What a `type = ...` expression asks for is a
//! constraint (`constraint.rs`), parsed by `type_expr.rs` and applied by `convert.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// cty's `DynamicPseudoType`: the type of `null` and of unknowns, and `any` in constraints.
    Dynamic,
    Bool,
    Number,
    String,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    /// Behind an `Arc` (like `Object`) so that `Type`, and with it `Value`, stays small and cheap to clone.
    Tuple(Arc<Vec<Type>>),
    Object(Arc<BTreeMap<String, Type>>),
}

impl Type {
    /// cty's `FriendlyName`: `string`, `list of number`, `tuple`, `object`, `dynamic`.
    pub fn friendly_name(&self) -> String {
        match self {
            Type::Dynamic => "dynamic".into(),
            Type::Bool => "bool".into(),
            Type::Number => "number".into(),
            Type::String => "string".into(),
            Type::List(e) => format!("list of {}", e.friendly_name()),
            Type::Set(e) => format!("set of {}", e.friendly_name()),
            Type::Map(e) => format!("map of {}", e.friendly_name()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
        }
    }

    /// HCL type-expression syntax, as `type()` prints it in `terraform console`.
    pub fn type_expr(&self) -> String {
        match self {
            Type::Dynamic => "dynamic".into(),
            Type::Bool => "bool".into(),
            Type::Number => "number".into(),
            Type::String => "string".into(),
            Type::List(e) => format!("list({})", e.type_expr()),
            Type::Set(e) => format!("set({})", e.type_expr()),
            Type::Map(e) => format!("map({})", e.type_expr()),
            Type::Tuple(items) => {
                format!("tuple([{}])", items.iter().map(Type::type_expr).collect::<Vec<_>>().join(", "))
            }
            Type::Object(attrs) => format!(
                "object({{{}}})",
                attrs.iter().map(|(k, t)| format!("{k}: {}", t.type_expr())).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::Bool | Type::Number | Type::String)
    }

    /// Whether the type contains `Dynamic` anywhere (a value of it may still change type under conversion).
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_dynamic(),
            Type::Tuple(items) => items.iter().any(Type::has_dynamic),
            Type::Object(attrs) => attrs.values().any(Type::has_dynamic),
            _ => false,
        }
    }
}
