//! Types of values and the type constraints of `variable` blocks, modelled on cty and HCL's `typeexpr`.
//!
//! [`Type`] is the type a value has. [`Constraint`] is what a `type = ...` expression or a function parameter
//! asks for: it adds `any` placeholders and `optional(T, default)` object attributes. Parsing a constraint from
//! the AST lives here; converting a value to a constraint lives in `convert.rs`.

use super::value::Value;
use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, ObjectKey};
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

/// A type expression that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeExprError {
    pub range: TextRange,
    pub message: String,
}

/// Parses a `type = ...` expression. `eval_default` evaluates the default of `optional(T, default)` (a constant
/// expression).
pub fn parse_constraint(
    expr: &Expr,
    eval_default: &dyn Fn(&Expr) -> Result<Value, String>,
) -> Result<Constraint, TypeExprError> {
    parse_inner(expr, eval_default, 0)
}

/// Parses a variable block's `type = ...`: as [`parse_constraint`], plus OpenTofu's legacy shorthands, a bare
/// `list` or `map` at the top level meaning `list(any)` / `map(any)` (pre-0.12 configurations still use them).
/// Bare `set`, and bare `list`/`map` nested inside another type, stay errors as in OpenTofu.
pub fn parse_variable_type(
    expr: &Expr,
    eval_default: &dyn Fn(&Expr) -> Result<Value, String>,
) -> Result<Constraint, TypeExprError> {
    if let ExprKind::Variable(id) = &expr.unparenthesized().kind {
        match id.name.as_str() {
            "list" => return Ok(Constraint::List(Box::new(Constraint::Any))),
            "map" => return Ok(Constraint::Map(Box::new(Constraint::Any))),
            _ => {}
        }
    }
    parse_constraint(expr, eval_default)
}

fn err(range: TextRange, message: impl Into<String>) -> TypeExprError {
    TypeExprError { range, message: message.into() }
}

fn parse_inner(
    expr: &Expr,
    eval_default: &dyn Fn(&Expr) -> Result<Value, String>,
    depth: usize,
) -> Result<Constraint, TypeExprError> {
    if depth > 64 {
        return Err(err(expr.range, "type expression is nested too deeply"));
    }
    let expr = expr.unparenthesized();
    match &expr.kind {
        ExprKind::Variable(id) => match id.name.as_str() {
            "string" => Ok(Constraint::String),
            "number" => Ok(Constraint::Number),
            "bool" => Ok(Constraint::Bool),
            "any" => Ok(Constraint::Any),
            "list" | "set" | "map" => Err(err(
                expr.range,
                format!("the `{}` type constructor requires one argument specifying the element type", id.name),
            )),
            "object" | "tuple" => Err(err(
                expr.range,
                format!("the `{}` type constructor requires one argument specifying its attribute types", id.name),
            )),
            other => Err(err(expr.range, format!("the keyword `{other}` is not a valid type specification"))),
        },
        ExprKind::FuncCall(call) if call.name.namespace.is_empty() => {
            let name = call.name.name.name.as_str();
            let one_arg = || -> Result<&Expr, TypeExprError> {
                match call.args.as_slice() {
                    [a] => Ok(a),
                    _ => Err(err(expr.range, format!("the `{name}` type constructor requires one argument"))),
                }
            };
            match name {
                "list" => Ok(Constraint::List(Box::new(parse_inner(one_arg()?, eval_default, depth + 1)?))),
                "set" => Ok(Constraint::Set(Box::new(parse_inner(one_arg()?, eval_default, depth + 1)?))),
                "map" => Ok(Constraint::Map(Box::new(parse_inner(one_arg()?, eval_default, depth + 1)?))),
                "tuple" => {
                    let arg = one_arg()?;
                    let ExprKind::Tuple(items) = &arg.unparenthesized().kind else {
                        return Err(err(arg.range, "the `tuple` type constructor requires a list of element types"));
                    };
                    let items =
                        items.iter().map(|e| parse_inner(e, eval_default, depth + 1)).collect::<Result<_, _>>()?;
                    Ok(Constraint::Tuple(items))
                }
                "object" => {
                    let arg = one_arg()?;
                    let ExprKind::Object(items) = &arg.unparenthesized().kind else {
                        return Err(err(
                            arg.range,
                            "the `object` type constructor requires an object of attribute types",
                        ));
                    };
                    let mut attrs: Vec<ObjectAttr> = Vec::new();
                    for item in items {
                        let name = match &item.key {
                            ObjectKey::Ident(i) => i.name.to_string(),
                            ObjectKey::Expr(e) => match e.unparenthesized().as_string_literal() {
                                Some(s) => s,
                                None => match &e.unparenthesized().kind {
                                    ExprKind::Variable(i) => i.name.to_string(),
                                    _ => return Err(err(e.range, "object attribute names must be identifiers")),
                                },
                            },
                        };
                        let attr = parse_attr(name, &item.value, eval_default, depth)?;
                        attrs.retain(|a| a.name != attr.name);
                        attrs.push(attr);
                    }
                    attrs.sort_by(|a, b| a.name.cmp(&b.name));
                    Ok(Constraint::Object(attrs))
                }
                "optional" => Err(err(expr.range, "`optional` is only allowed for object attributes")),
                other => Err(err(expr.range, format!("`{other}` is not a type constructor"))),
            }
        }
        _ => Err(err(expr.range, "a type specification is required")),
    }
}

fn parse_attr(
    name: String,
    value: &Expr,
    eval_default: &dyn Fn(&Expr) -> Result<Value, String>,
    depth: usize,
) -> Result<ObjectAttr, TypeExprError> {
    let v = value.unparenthesized();
    if let ExprKind::FuncCall(call) = &v.kind
        && call.name.namespace.is_empty()
        && call.name.name.name == "optional"
    {
        let (ty, default) = match call.args.as_slice() {
            [t] => (parse_inner(t, eval_default, depth + 1)?, None),
            [t, d] => {
                let ty = parse_inner(t, eval_default, depth + 1)?;
                let dv = eval_default(d).map_err(|m| err(d.range, m))?;
                let converted = super::convert::convert(&dv, &ty)
                    .map_err(|e| err(d.range, format!("invalid default value for optional attribute: {e}")))?;
                (ty, Some(converted))
            }
            _ => return Err(err(v.range, "`optional` takes a type and an optional default value")),
        };
        return Ok(ObjectAttr { name, constraint: ty, optional: true, default });
    }
    Ok(ObjectAttr { name, constraint: parse_inner(value, eval_default, depth + 1)?, optional: false, default: None })
}
