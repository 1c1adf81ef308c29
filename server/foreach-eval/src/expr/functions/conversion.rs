//! Type conversion functions (`tobool`, `tolist`, `tomap`, `tonumber`, `toset`, `tostring`), the sensitivity
//! functions (`sensitive`, `nonsensitive`, `issensitive`), and `try`/`can`, which evaluate their arguments
//! lazily and treat errors as values.

use super::{E, FnCtx, FnResult, Func, P, f, p_null};
use crate::expr::Evaluator;
use crate::value::{UnknownCause, Value};
use foreach_base::diagnostics::Code;
use foreach_syntax::TextRange;
use foreach_syntax::ast::FuncCall;

pub static FUNCS: &[Func] = &[
    f("tobool", &[p_null("v", P::Bool)], ident),
    f("tonumber", &[p_null("v", P::Num)], ident),
    f("tostring", &[p_null("v", P::Str)], ident),
    f("tolist", &[p_null("v", P::ListOf(E::Any))], ident),
    f("toset", &[p_null("v", P::SetOf(E::Any))], ident),
    f("tomap", &[p_null("v", P::MapOf(E::Any))], ident),
    f("sensitive", &[p_null("value", P::Any)], |_, a| Ok(a[0].clone().mark_sensitive())),
    f("nonsensitive", &[p_null("value", P::Any)], |_, a| Ok(a[0].unmarked().clone())),
    f("issensitive", &[p_null("value", P::Any)], |_, a| Ok(Value::Bool(a[0].is_sensitive()))),
];

/// The conversion already happened when the argument was converted to the parameter type.
fn ident(_: &mut FnCtx<'_, '_>, a: &[Value]) -> FnResult {
    Ok(a[0].clone())
}

/// Evaluates `e` and tells whether it failed (reported an error, or is unknown because of an earlier error). Its
/// diagnostics are dropped, as `try` and `can` swallow the errors, except `file-outside-repository`: that is no
/// failure (OpenTofu reads the file, so the result is unknown, not the fallback), and the file is still not read.
fn attempt(ev: &mut Evaluator<'_>, e: &foreach_syntax::ast::Expr) -> (Value, bool) {
    let mark = ev.diagnostics.len();
    let v = ev.eval(e);
    let mut said = ev.diagnostics.split_off(mark);
    let all = said.len();
    said.retain(|d| d.code == Code::FileOutsideRepository);
    let failed = said.len() < all || matches!(v.first_unknown().map(|r| &r.cause), Some(UnknownCause::Error { .. }));
    ev.diagnostics.extend(said);
    (v, failed)
}

pub(crate) fn call_try(ev: &mut Evaluator<'_>, call: &FuncCall, range: TextRange) -> Value {
    if call.args.is_empty() {
        return ev.error(Code::EvaluationError, range, "`try` needs at least one argument");
    }
    for a in &call.args {
        let (v, failed) = attempt(ev, a);
        if !failed {
            // An unknown that is not an error might still fail later: the result cannot be known yet.
            return v;
        }
    }
    ev.error(Code::EvaluationError, range, "no expression given to `try` could be evaluated without an error")
}

pub(crate) fn call_can(ev: &mut Evaluator<'_>, call: &FuncCall, range: TextRange) -> Value {
    if call.args.len() != 1 {
        return ev.error(Code::EvaluationError, range, "`can` takes exactly one argument");
    }
    let (v, failed) = attempt(ev, &call.args[0]);
    if !failed && let Some(r) = v.first_unknown() {
        return Value::Unknown(r.clone());
    }
    Value::Bool(!failed)
}
