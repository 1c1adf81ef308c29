//! Conversion of values to types and type constraints with cty's rules, and type unification.
//!
//! This is what OpenTofu applies to variable values (`type = list(string)`), to function arguments (`toset`
//! turns a tuple of strings into `set(string)`) and to the branches of a conditional. Unification finds the one
//! type a tuple's elements can all convert to, which `list(any)`/`set(any)`/`map(any)` require: strings absorb
//! numbers and bools, objects with different attributes become maps, tuples of different lengths become lists.

use super::constraint::Constraint;
use super::number::Number;
use super::types::Type;
use super::value::{Attrs, Value};
use std::fmt;

/// Why a conversion failed, with the path to the offending element (`["a"][0]`, `.name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ConvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Paths read like HCL traversals: `a[0]`, `["key"].b`.
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at `{}`: {}", self.path.trim_start_matches('.'), self.message)
        }
    }
}

fn fail(message: impl Into<String>) -> ConvError {
    ConvError { path: String::new(), message: message.into() }
}

fn at(path: String, e: ConvError) -> ConvError {
    ConvError { path: format!("{path}{}", e.path), message: e.message }
}

fn attr_path(name: &str) -> String {
    format!(".{name}")
}

/// Converts `v` to satisfy `c`. Unknowns stay unknown; marks are kept.
pub fn convert(v: &Value, c: &Constraint) -> Result<Value, ConvError> {
    match v {
        Value::Sensitive(inner) => return convert(inner, c).map(Value::mark_sensitive),
        Value::Unknown(_) => return Ok(v.clone()),
        Value::Null(_) => {
            return Ok(match c {
                Constraint::Any => v.clone(),
                c => Value::Null(constraint_type(c)),
            });
        }
        _ => {}
    }
    match c {
        Constraint::Any => Ok(v.clone()),
        Constraint::String => to_string(v).map(Value::String),
        Constraint::Number => match v {
            Value::Number(_) => Ok(v.clone()),
            Value::String(s) => Number::parse_strict(s).map(Value::number).ok_or_else(|| {
                fail(format!(
                    "cannot convert {s:?} to number; given string must be a decimal representation of a number"
                ))
            }),
            _ => Err(fail("a number is required")),
        },
        Constraint::Bool => match v {
            Value::Bool(_) => Ok(v.clone()),
            Value::String(s) => match &**s {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                _ => Err(fail(format!(
                    "cannot convert {s:?} to bool; only the strings \"true\" or \"false\" are allowed"
                ))),
            },
            _ => Err(fail("a bool is required")),
        },
        Constraint::List(ec) | Constraint::Set(ec) => {
            let is_set = matches!(c, Constraint::Set(_));
            let Some(items) = v.as_seq() else {
                return Err(fail(format!("{} required", c.friendly_name())));
            };
            let (elem, items) = match convert_elements(items, ec, c)? {
                Ok(converted) => converted,
                Err(open) => return Ok(open),
            };
            Ok(if is_set { Value::set(elem, items) } else { Value::list(elem, items) })
        }
        Constraint::Map(ec) => {
            let Some(attrs) = v.as_attrs() else {
                return Err(fail(format!("{} required", c.friendly_name())));
            };
            // Collected in key order: one sorted vector, however big (`attrs.rs`).
            let mut out = attrs
                .iter()
                .map(|(k, item)| Ok((k.clone(), convert(item, ec).map_err(|e| at(format!("[{k:?}]"), e))?)))
                .collect::<Result<Attrs, ConvError>>()?;
            let elem = if **ec == Constraint::Any {
                let Some(t) = unify(out.values().map(Value::type_of)) else {
                    if let Some(open) = first_unknown(out.values()) {
                        return Ok(open);
                    }
                    return Err(fail(format!("cannot convert {} to map of any single type", v.friendly_type())));
                };
                let tc = Constraint::from_type(&t);
                out = out
                    .iter()
                    .map(|(k, item)| Ok((k.clone(), convert(item, &tc)?)))
                    .collect::<Result<_, ConvError>>()?;
                t
            } else {
                constraint_type(ec)
            };
            Ok(Value::map(elem, out))
        }
        Constraint::Tuple(ecs) => {
            let Some(items) = v.as_seq().filter(|_| !matches!(v, Value::Set(..))) else {
                return Err(fail("tuple required"));
            };
            if items.len() != ecs.len() {
                return Err(fail(format!("tuple required with exactly {} elements", ecs.len())));
            }
            let out = items
                .iter()
                .zip(ecs)
                .enumerate()
                .map(|(i, (item, ec))| convert(item, ec).map_err(|e| at(format!("[{i}]"), e)))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::tuple(out))
        }
        Constraint::Object(attrs) => {
            let Some(src) = v.as_attrs() else {
                return Err(fail("object required"));
            };
            let mut out = Attrs::new();
            for a in attrs {
                let given = src.get(a.name.as_str()).filter(|x| !(a.optional && x.is_null()));
                let item = match (given, a.optional) {
                    (Some(x), _) => convert(x, &a.constraint).map_err(|e| at(attr_path(&a.name), e))?,
                    (None, true) => match &a.default {
                        Some(d) => d.clone(),
                        None => Value::Null(constraint_type(&a.constraint)),
                    },
                    (None, false) => return Err(fail(format!("attribute {:?} is required", a.name))),
                };
                out.insert(a.name.as_str().into(), item);
            }
            Ok(Value::object(out))
        }
    }
}

/// The converted elements and their type, or (inner `Err`) an unknown element that leaves the result open (see
/// [`first_unknown`]).
type Elements = Result<(Type, Vec<Value>), Value>;

fn convert_elements(items: &[Value], ec: &Constraint, whole: &Constraint) -> Result<Elements, ConvError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(convert(item, ec).map_err(|e| at(format!("[{i}]"), e))?);
    }
    if *ec == Constraint::Any || constraint_has_any(ec) {
        let Some(t) = unify(out.iter().map(Value::type_of)) else {
            if let Some(open) = first_unknown(out.iter()) {
                return Ok(Err(open));
            }
            return Err(fail(format!(
                "cannot convert tuple to {} of any single type",
                if matches!(whole, Constraint::Set(_)) { "set" } else { "list" }
            )));
        };
        let tc = Constraint::from_type(&t);
        for item in &mut out {
            *item = convert(item, &tc)?;
        }
        return Ok(Ok((t, out)));
    }
    Ok(Ok((constraint_type(ec), out)))
}

/// When the known elements have no common type but one element is unknown, the conversion's outcome is open:
/// OpenTofu sees that element's real type (a string absorbs bools and numbers), so the result is that unknown
/// rather than an error.
fn first_unknown<'a>(mut items: impl Iterator<Item = &'a Value>) -> Option<Value> {
    items.find(|v| matches!(v.unmarked(), Value::Unknown(_))).cloned()
}

fn constraint_has_any(c: &Constraint) -> bool {
    match c {
        Constraint::Any => true,
        Constraint::List(e) | Constraint::Set(e) | Constraint::Map(e) => constraint_has_any(e),
        Constraint::Tuple(items) => items.iter().any(constraint_has_any),
        Constraint::Object(attrs) => attrs.iter().any(|a| constraint_has_any(&a.constraint)),
        _ => false,
    }
}

/// The concrete type a constraint stands for (`any` as `Dynamic`).
pub fn constraint_type(c: &Constraint) -> Type {
    match c {
        Constraint::Any => Type::Dynamic,
        Constraint::Bool => Type::Bool,
        Constraint::Number => Type::Number,
        Constraint::String => Type::String,
        Constraint::List(e) => Type::List(Box::new(constraint_type(e))),
        Constraint::Set(e) => Type::Set(Box::new(constraint_type(e))),
        Constraint::Map(e) => Type::Map(Box::new(constraint_type(e))),
        Constraint::Tuple(items) => Type::Tuple(std::sync::Arc::new(items.iter().map(constraint_type).collect())),
        Constraint::Object(attrs) => Type::Object(std::sync::Arc::new(
            attrs.iter().map(|a| (a.name.clone(), constraint_type(&a.constraint))).collect(),
        )),
    }
}

/// A primitive as a string, as cty converts it (`1.5`, `true`).
pub fn to_string(v: &Value) -> Result<smol_str::SmolStr, ConvError> {
    match v.unmarked() {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_text().into()),
        Value::Bool(b) => Ok(if *b { "true".into() } else { "false".into() }),
        other => Err(fail(format!("string required, but have {}", other.friendly_type()))),
    }
}

/// Converts to a concrete type.
pub fn convert_to_type(v: &Value, t: &Type) -> Result<Value, ConvError> {
    convert(v, &Constraint::from_type(t))
}

/// The single type all of `types` can convert to, if there is one (`Dynamic` for none or only dynamic), by
/// cty's unsafe unification ([`super::unify`]). A top-level `Dynamic` here is an unknown value whose type we do
/// not track (OpenTofu would know it), so it is left out rather than making the result dynamic.
pub fn unify(types: impl Iterator<Item = Type>) -> Option<Type> {
    let known: Vec<Type> = types.filter(|t| *t != Type::Dynamic).collect();
    if known.is_empty() {
        return Some(Type::Dynamic);
    }
    super::unify::unify(&known, true)
}
