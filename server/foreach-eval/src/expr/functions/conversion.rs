//! Type conversion functions (`tobool`, `tolist`, `tomap`, `tonumber`, `toset`, `tostring`), the sensitivity
//! functions (`sensitive`, `nonsensitive`, `issensitive`) and `ephemeralasnull`. `try` and `can`, which evaluate their arguments lazily
//! and treat errors as values, are the evaluator's (`expr/call.rs`).

use super::api::{E, FnCtx, FnResult, Func, P, f, p_null};
use crate::value::Value;

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
    // Its argument comes back unchanged here: an ephemeral value never reaches a static evaluation (a reference to
    // an ephemeral variable is refused as not static before the call), so there is nothing to replace by null.
    f("ephemeralasnull", &[p_null("value", P::Any)], ident),
];

/// The conversion already happened when the argument was converted to the parameter type.
fn ident(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    Ok(a[0].clone())
}
