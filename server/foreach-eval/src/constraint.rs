//! Type constraints, modelled on cty and HCL's `typeexpr`: what a `type = ...` expression or a function parameter
//! asks for. A constraint adds `any` placeholders and `optional(T, default)` object attributes to a [`Type`].
//! Parsing one from the AST lives in `type_expr.rs`; converting a value to one lives in `convert.rs`.

use super::types::Type;
use super::value::Value;

/// A type constraint: a type where `any` may appear, and object attributes may be optional with a default.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    Any,
    Bool,
    Number,
    String,
    List(Box<Constraint>),
    Set(Box<Constraint>),
    Map(Box<Constraint>),
    Tuple(Vec<Constraint>),
    Object(Vec<ObjectAttr>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectAttr {
    pub name: String,
    pub constraint: Constraint,
    /// `optional(T)` or `optional(T, default)`.
    pub optional: bool,
    /// The default of `optional(T, default)`, already evaluated (converted when applied).
    pub default: Option<Value>,
}

impl Constraint {
    pub fn from_type(t: &Type) -> Constraint {
        match t {
            Type::Dynamic => Constraint::Any,
            Type::Bool => Constraint::Bool,
            Type::Number => Constraint::Number,
            Type::String => Constraint::String,
            Type::List(e) => Constraint::List(Box::new(Constraint::from_type(e))),
            Type::Set(e) => Constraint::Set(Box::new(Constraint::from_type(e))),
            Type::Map(e) => Constraint::Map(Box::new(Constraint::from_type(e))),
            Type::Tuple(items) => Constraint::Tuple(items.iter().map(Constraint::from_type).collect()),
            Type::Object(attrs) => Constraint::Object(
                attrs
                    .iter()
                    .map(|(k, t)| ObjectAttr {
                        name: k.clone(),
                        constraint: Constraint::from_type(t),
                        optional: false,
                        default: None,
                    })
                    .collect(),
            ),
        }
    }

    /// The constraint as written in HCL (`list(string)`, `object({a = optional(number)})`).
    pub fn display(&self) -> String {
        match self {
            Constraint::Any => "any".into(),
            Constraint::Bool => "bool".into(),
            Constraint::Number => "number".into(),
            Constraint::String => "string".into(),
            Constraint::List(e) => format!("list({})", e.display()),
            Constraint::Set(e) => format!("set({})", e.display()),
            Constraint::Map(e) => format!("map({})", e.display()),
            Constraint::Tuple(items) => {
                format!("tuple([{}])", items.iter().map(Constraint::display).collect::<Vec<_>>().join(", "))
            }
            Constraint::Object(attrs) => {
                let parts: Vec<String> = attrs
                    .iter()
                    .map(|a| {
                        if a.optional {
                            format!("{} = optional({})", a.name, a.constraint.display())
                        } else {
                            format!("{} = {}", a.name, a.constraint.display())
                        }
                    })
                    .collect();
                format!("object({{{}}})", parts.join(", "))
            }
        }
    }

    /// cty's friendly name of the constraint, for "X required" messages.
    pub fn friendly_name(&self) -> String {
        match self {
            Constraint::Any => "any type".into(),
            Constraint::Bool => "bool".into(),
            Constraint::Number => "number".into(),
            Constraint::String => "string".into(),
            Constraint::List(e) => format!("list of {}", e.friendly_elem()),
            Constraint::Set(e) => format!("set of {}", e.friendly_elem()),
            Constraint::Map(e) => format!("map of {}", e.friendly_elem()),
            Constraint::Tuple(_) => "tuple".into(),
            Constraint::Object(_) => "object".into(),
        }
    }

    fn friendly_elem(&self) -> String {
        match self {
            Constraint::Any => "any single type".into(),
            c => c.friendly_name(),
        }
    }
}
