//! The calling convention the built-in functions share: parameter types, the function table's entries, errors, and
//! what an implementation may call back into ([`FnHost`]). Every family of functions imports this; this imports
//! none of them, nor the evaluator.

use crate::budget::{Budget, Exceeded};
use crate::constraint::Constraint;
use crate::resolve::Scope;
use crate::value::Value;
use foreach_syntax::TextRange;
use foreach_syntax::ast::Expr;

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
    pub(crate) fn constraint(self) -> Constraint {
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

pub type Imp = fn(&mut FnCtx<'_>, &[Value]) -> FnResult;

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

/// What the library calls back into: the evaluator running the call. A trait, so that the library sits below the
/// evaluator (which implements it, `expr/call.rs`) instead of importing it.
pub trait FnHost {
    fn budget(&self) -> &Budget;
    /// The scope of the call: the file functions' reader, `path.*`.
    fn scope(&self) -> &dyn Scope;
    /// Counts `n` steps of work; false when the step budget is exhausted.
    fn tick(&mut self, n: u64) -> bool;
    /// Whether the call is inside a template that `templatefile` or `templatestring` renders.
    fn in_template(&self) -> bool;
    /// Evaluates `template` (a parsed template) with the attributes of `vars` as its only names, sharing this
    /// evaluation's step budget; `Err` with the first error's message.
    fn eval_template(&mut self, template: &Expr, vars: &Value) -> Result<Value, String>;
}

/// What a function implementation may use besides its arguments.
pub struct FnCtx<'h> {
    pub host: &'h mut dyn FnHost,
    pub range: TextRange,
}

impl FnCtx<'_> {
    /// Checks a collection size against the budget before building it.
    pub fn check_len(&self, n: usize) -> Result<(), FnError> {
        if n > self.host.budget().max_collection { Err(FnError::Limit(Exceeded::Collection(n))) } else { Ok(()) }
    }

    pub fn check_str(&self, n: usize) -> Result<(), FnError> {
        if n > self.host.budget().max_string { Err(FnError::Limit(Exceeded::String(n))) } else { Ok(()) }
    }

    /// Counts work; fails when the step budget is exhausted.
    pub fn tick(&mut self, n: u64) -> Result<(), FnError> {
        if self.host.tick(n) { Ok(()) } else { Err(FnError::Limit(Exceeded::Steps)) }
    }
}

/// The string of an argument already converted to `string` (shared by every family of functions).
pub(crate) fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}
