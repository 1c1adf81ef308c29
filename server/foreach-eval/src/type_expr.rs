//! Parsing a type constraint from a `type = ...` expression, as HCL's `typeexpr` does (with OpenTofu's legacy
//! shorthands for variable types).

use super::constraint::{Constraint, ObjectAttr};
use super::value::Value;
use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, ObjectKey};

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
