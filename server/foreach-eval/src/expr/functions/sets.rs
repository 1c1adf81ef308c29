//! Set functions: `setintersection`, `setproduct`, `setsubtract`, `setunion`. `setproduct` checks the size of
//! its result against the budget before building anything.

use super::api::{E, FnCtx, FnResult, Func, P, err, f, fv, p};
use crate::convert::{convert_to_type, unify};
use crate::types::Type;
use crate::value::Value;

pub static FUNCS: &[Func] = &[
    fv("setintersection", &[p("first_set", P::SetOf(E::Any))], p("other_sets", P::SetOf(E::Any)), intersection),
    fv("setproduct", &[], p("sets", P::Any), product),
    f("setsubtract", &[p("a", P::SetOf(E::Any)), p("b", P::SetOf(E::Any))], subtract),
    fv("setunion", &[p("first_set", P::SetOf(E::Any))], p("other_sets", P::SetOf(E::Any)), union),
];

/// The common element type of several sets, and each set's items converted to it.
fn unified(a: &[Value]) -> Result<(Type, Vec<Vec<Value>>), super::FnError> {
    let t = unify(a.iter().map(|v| match v {
        Value::Set(t, _) => t.clone(),
        _ => Type::Dynamic,
    }));
    let Some(t) = t else { return err("the sets must have elements of the same type") };
    let sets = a
        .iter()
        .map(|v| {
            v.as_seq().unwrap_or(&[]).iter().map(|x| convert_to_type(x, &t).unwrap_or_else(|_| x.clone())).collect()
        })
        .collect();
    Ok((t, sets))
}

fn union(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (t, sets) = unified(a)?;
    let items: Vec<Value> = sets.into_iter().flatten().collect();
    cx.check_len(items.len())?;
    Ok(Value::set(t, items))
}

fn intersection(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (t, sets) = unified(a)?;
    let (first, rest) = sets.split_first().map(|(f, r)| (f.clone(), r.to_vec())).unwrap_or_default();
    let items = first.into_iter().filter(|v| rest.iter().all(|s| s.iter().any(|x| x.raw_equals(v)))).collect();
    Ok(Value::set(t, items))
}

fn subtract(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (t, sets) = unified(a)?;
    let items = sets[0].iter().filter(|v| !sets[1].iter().any(|x| x.raw_equals(v))).cloned().collect();
    Ok(Value::set(t, items))
}

fn product(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    if a.len() < 2 {
        return err("at least two arguments are required");
    }
    let mut total: usize = 1;
    for (i, v) in a.iter().enumerate() {
        let Some(items) = v.as_seq() else {
            return super::api::arg_err(i, format!("a set or list is required, not {}", v.friendly_type()));
        };
        total = total.saturating_mul(items.len());
    }
    cx.check_len(total)?;
    cx.tick(total as u64)?;
    let all_sets = a.iter().all(|v| matches!(v, Value::Set(..)));
    let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
    for v in a {
        let items = v.as_seq().unwrap_or(&[]);
        let mut next = Vec::with_capacity(rows.len() * items.len());
        for row in &rows {
            for item in items {
                let mut r = row.clone();
                r.push(item.clone());
                next.push(r);
            }
        }
        rows = next;
    }
    let elem_types: Vec<Type> = a
        .iter()
        .map(|v| match v {
            Value::Set(t, _) | Value::List(t, _) => t.clone(),
            _ => unify(v.as_seq().unwrap_or(&[]).iter().map(Value::type_of)).unwrap_or(Type::Dynamic),
        })
        .collect();
    let row_type = Type::Tuple(std::sync::Arc::new(elem_types));
    let rows: Vec<Value> = rows.into_iter().map(Value::tuple).collect();
    Ok(if all_sets { Value::set(row_type, rows) } else { Value::list(row_type, rows) })
}
