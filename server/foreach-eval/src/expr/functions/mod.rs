//! Function calls: the table of OpenTofu's built-in functions (one file per group, as in OpenTofu's docs) and
//! the calling convention they share: arity, `...` expansion, parameter type conversion, null and unknown
//! handling, sensitive marks, and the size budget of results.
//!
//! Impure functions (`timestamp`, `uuid`, `bcrypt`, `plantimestamp`) and provider functions give unknown values
//! with that reason: OpenTofu computes them, but a checker cannot know what the user will get.

mod cidr;
mod collection;
mod conversion;
mod datetime;
mod encoding;
pub use encoding::json_text;
pub(crate) mod file;
mod format;
mod gzip;
mod hash;
mod json;
mod numeric;
mod sets;
mod string;
mod templates;
mod text_encoding;
mod yaml;
mod yaml_decode;

use super::Evaluator;
use crate::budget::Exceeded;
use crate::constraint::Constraint;
use crate::convert::convert;
use crate::traverse::suggest;
use crate::value::{UnknownCause, Value};
use foreach_base::diagnostics::{Code, Diagnostic};
use foreach_syntax::TextRange;
use foreach_syntax::ast::FuncCall;

/// A parameter type, in a form that can live in a `static` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum P {
    Any,
    Str,
    Num,
    Bool,
    ListOf(E),
    SetOf(E),
    MapOf(E),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum E {
    Any,
    Str,
    Num,
    Bool,
}

impl E {
    fn constraint(self) -> Constraint {
        match self {
            E::Any => Constraint::Any,
            E::Str => Constraint::String,
            E::Num => Constraint::Number,
            E::Bool => Constraint::Bool,
        }
    }
}

impl P {
    fn constraint(self) -> Constraint {
        match self {
            P::Any => Constraint::Any,
            P::Str => Constraint::String,
            P::Num => Constraint::Number,
            P::Bool => Constraint::Bool,
            P::ListOf(e) => Constraint::List(Box::new(e.constraint())),
            P::SetOf(e) => Constraint::Set(Box::new(e.constraint())),
            P::MapOf(e) => Constraint::Map(Box::new(e.constraint())),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: P,
    pub allow_null: bool,
    /// The function moves nested values without inspecting them (`merge`, `concat`, `element`...): unknowns and
    /// sensitive marks nested inside stay where they are, and the argument is not scanned for them (which keeps
    /// chains of `merge` over big objects linear). A top-level unknown or mark is still handled by the caller.
    pub passthrough: bool,
}

pub const fn p(name: &'static str, ty: P) -> Param {
    Param { name, ty, allow_null: false, passthrough: false }
}

pub const fn p_null(name: &'static str, ty: P) -> Param {
    Param { name, ty, allow_null: true, passthrough: false }
}

pub const fn p_shallow(name: &'static str, ty: P) -> Param {
    Param { name, ty, allow_null: false, passthrough: true }
}

pub const fn p_shallow_null(name: &'static str, ty: P) -> Param {
    Param { name, ty, allow_null: true, passthrough: true }
}

pub type Imp = fn(&mut FnCtx<'_, '_>, &[Value]) -> FnResult;

pub struct Func {
    pub name: &'static str,
    pub params: &'static [Param],
    pub variadic: Option<Param>,
    pub imp: Imp,
}

pub const fn f(name: &'static str, params: &'static [Param], imp: Imp) -> Func {
    Func { name, params, variadic: None, imp }
}

pub const fn fv(name: &'static str, params: &'static [Param], variadic: Param, imp: Imp) -> Func {
    Func { name, params, variadic: Some(variadic), imp }
}

pub type FnResult = Result<Value, FnError>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FnError {
    /// A problem with one argument (index into the call's arguments).
    Arg(usize, String),
    Msg(String),
    Limit(Exceeded),
    /// The function needs something that is not known (a file outside the workspace reader, say).
    Unknown(String),
    /// The file at this path (as written in the call) does not exist here; it may be created before OpenTofu runs.
    MissingFile(String),
    /// The read boundary refused this path (as written in the call): it is outside the repository as written, or
    /// (`link`) a symbolic link leads out. OpenTofu would read it.
    OutsideRepository {
        path: String,
        link: bool,
    },
}

pub fn err<T>(msg: impl Into<String>) -> Result<T, FnError> {
    Err(FnError::Msg(msg.into()))
}

pub fn arg_err<T>(i: usize, msg: impl Into<String>) -> Result<T, FnError> {
    Err(FnError::Arg(i, msg.into()))
}

/// What a function implementation may use besides its arguments.
pub struct FnCtx<'e, 'a> {
    pub ev: &'e mut Evaluator<'a>,
    pub range: TextRange,
}

impl FnCtx<'_, '_> {
    /// Checks a collection size against the budget before building it.
    pub fn check_len(&self, n: usize) -> Result<(), FnError> {
        if n > self.ev.budget.max_collection { Err(FnError::Limit(Exceeded::Collection(n))) } else { Ok(()) }
    }

    pub fn check_str(&self, n: usize) -> Result<(), FnError> {
        if n > self.ev.budget.max_string { Err(FnError::Limit(Exceeded::String(n))) } else { Ok(()) }
    }

    /// Counts work; fails when the step budget is exhausted.
    pub fn tick(&mut self, n: u64) -> Result<(), FnError> {
        if self.ev.tick(n) { Ok(()) } else { Err(FnError::Limit(Exceeded::Steps)) }
    }
}

const IMPURE: &[&str] = &["timestamp", "uuid", "bcrypt", "plantimestamp", "uuidv4"];

fn table() -> impl Iterator<Item = &'static Func> {
    string::FUNCS
        .iter()
        .chain(collection::FUNCS)
        .chain(sets::FUNCS)
        .chain(numeric::FUNCS)
        .chain(encoding::FUNCS)
        .chain(conversion::FUNCS)
        .chain(hash::FUNCS)
        .chain(cidr::FUNCS)
        .chain(file::FUNCS)
        .chain(datetime::FUNCS)
        .chain(templates::FUNCS)
}

pub fn lookup(name: &str) -> Option<&'static Func> {
    table().find(|f| f.name == name)
}

/// Every built-in name we know (implemented, impure, or special), for completion and suggestions.
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = table().map(|f| f.name).collect();
    v.extend(IMPURE);
    v.extend(["try", "can", "type"]);
    v.sort_unstable();
    v
}

pub(crate) fn call(ev: &mut Evaluator<'_>, call: &FuncCall, range: TextRange) -> Value {
    if !ev.allow_functions {
        return ev.error(
            Code::EvaluationError,
            range,
            "functions may not be called here: a constant value is required",
        );
    }
    let ns: Vec<&str> = call.name.namespace.iter().map(|i| i.name.as_str()).collect();
    let name = call.name.name.name.as_str();
    let name_range = call.name.name.range;
    match ns.as_slice() {
        [] | ["core"] => {}
        ["provider", _] => {
            let location = ev.range(range);
            return Value::unknown(UnknownCause::ProviderFunction { name: call.name.full_name(), location });
        }
        _ => {
            let msg = format!("call to unknown function `{}`", call.name.full_name());
            return ev.error(Code::UnknownFunction, name_range, msg);
        }
    }
    if IMPURE.contains(&name) {
        // Arguments are still evaluated so their errors are reported.
        for a in &call.args {
            ev.eval(a);
        }
        let location = ev.range(range);
        return Value::unknown(UnknownCause::ImpureFunction { name: name.to_string(), location });
    }
    match name {
        "try" => return conversion::call_try(ev, call, range),
        "can" => return conversion::call_can(ev, call, range),
        "type" => {
            return ev.error(
                Code::EvaluationError,
                name_range,
                "the `type` function is only available in `terraform console`",
            );
        }
        _ => {}
    }
    let Some(func) = lookup(name) else {
        let mut msg = format!("call to unknown function `{name}`");
        let candidates: Vec<String> = names().into_iter().map(String::from).collect();
        if let Some(s) = suggest(name, candidates.iter().map(String::as_str)) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        return ev.error(Code::UnknownFunction, name_range, msg);
    };
    // Evaluate the arguments, expanding a final `...` argument.
    let mut args: Vec<Value> = Vec::with_capacity(call.args.len());
    let mut arg_ranges: Vec<TextRange> = Vec::with_capacity(call.args.len());
    for (i, a) in call.args.iter().enumerate() {
        let v = ev.eval(a);
        if call.expand_final && i + 1 == call.args.len() {
            let sensitive = v.is_sensitive();
            match v.unmarked() {
                Value::Unknown(r) => return Value::Unknown(r.clone()),
                Value::List(_, items) | Value::Tuple(items) | Value::Set(_, items) => {
                    for item in items.iter() {
                        args.push(if sensitive { item.clone().mark_sensitive() } else { item.clone() });
                        arg_ranges.push(a.range);
                    }
                }
                Value::Null(_) => {
                    return ev.error(Code::EvaluationError, a.range, "cannot expand a null value with `...`");
                }
                other => {
                    let msg = format!(
                        "the final argument must be a list, set or tuple to expand it with `...`, not {}",
                        other.friendly_type()
                    );
                    return ev.error(Code::EvaluationError, a.range, msg);
                }
            }
        } else {
            args.push(v);
            arg_ranges.push(a.range);
        }
    }
    let n_fixed = func.params.len();
    if args.len() < n_fixed {
        let missing = func.params[args.len()].name;
        let msg = format!("not enough arguments for `{name}`: missing `{missing}`");
        return ev.error(Code::EvaluationError, range, msg);
    }
    if args.len() > n_fixed && func.variadic.is_none() {
        let r = arg_ranges.get(n_fixed).copied().unwrap_or(range);
        let msg = format!("too many arguments for `{name}`: it takes {n_fixed}");
        return ev.error(Code::EvaluationError, r, msg);
    }
    let mut sensitive = false;
    let mut converted = Vec::with_capacity(args.len());
    let mut unknown = None;
    for (i, a) in args.iter().enumerate() {
        let Some(param) = func.params.get(i).or(func.variadic.as_ref()) else { break };
        let marks_aware = matches!(name, "sensitive" | "nonsensitive" | "issensitive");
        let a = if marks_aware {
            a.clone()
        } else if param.passthrough {
            sensitive |= a.is_sensitive();
            a.unmarked().clone()
        } else {
            let (v, marked) = a.unmark_deep();
            sensitive |= marked;
            v
        };
        if let Value::Unknown(r) = a.unmarked() {
            unknown.get_or_insert(r.clone());
            continue;
        }
        if !param.passthrough
            && let Some(r) = a.first_unknown()
        {
            unknown.get_or_insert(r.clone());
            continue;
        }
        if a.is_null() && !param.allow_null {
            let msg = format!("argument `{}` of `{name}` must not be null", param.name);
            return ev.error(Code::EvaluationError, arg_ranges[i], msg);
        }
        match convert(&a, &param.ty.constraint()) {
            Ok(v) => converted.push(v),
            Err(e) => {
                let msg = format!("invalid value for `{}` of `{name}`: {e}", param.name);
                return ev.error(Code::EvaluationError, arg_ranges[i], msg);
            }
        }
    }
    if let Some(r) = unknown {
        return Value::Unknown(r);
    }
    let mut cx = FnCtx { ev, range };
    let result = (func.imp)(&mut cx, &converted);
    let v = match result {
        Ok(v) => {
            if v.len() > ev.budget.max_collection {
                return ev.limit(range, Exceeded::Collection(v.len()));
            }
            v
        }
        Err(FnError::Arg(i, m)) => {
            let r = arg_ranges.get(i).copied().unwrap_or(range);
            return ev.error(Code::EvaluationError, r, format!("invalid argument to `{name}`: {m}"));
        }
        Err(FnError::Msg(m)) => return ev.error(Code::EvaluationError, range, format!("`{name}` failed: {m}")),
        Err(FnError::Limit(x)) => return ev.limit(range, x),
        Err(FnError::Unknown(m)) => {
            let location = ev.range(range);
            return Value::unknown(UnknownCause::Error { message: m, location });
        }
        Err(FnError::MissingFile(path)) => {
            let location = ev.range(range);
            return Value::unknown(UnknownCause::MissingFile { function: name.to_string(), path, location });
        }
        Err(FnError::OutsideRepository { path, link }) => {
            let location = ev.range(range);
            let why = if link { file::LINKS_OUTSIDE } else { file::OUTSIDE };
            let message = format!(
                "`{name}({path:?})` was not read: {why}, and foreach-ls reads no file outside it, so the value is \
                 unknown here (OpenTofu reads the file when it runs)"
            );
            ev.diagnostics.push(Diagnostic::new(Code::FileOutsideRepository, location, message));
            let function = name.to_string();
            return Value::unknown(UnknownCause::FileOutsideRepository { function, path, link, location });
        }
    };
    if sensitive { v.mark_sensitive() } else { v }
}

/// The string of an argument already converted to `string` (shared by every family of functions).
pub(crate) fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}
