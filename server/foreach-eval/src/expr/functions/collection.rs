//! Collection functions: `alltrue`, `anytrue`, `chunklist`, `coalesce`, `coalescelist`, `compact`, `concat`,
//! `contains`, `distinct`, `element`, `flatten`, `index`, `keys`, `length`, `lookup`, `matchkeys`, `merge`, `one`,
//! `range`, `reverse`, `slice`, `sort`, `sum`, `transpose`, `values`, `zipmap`.

use super::api::{E, FnCtx, FnResult, Func, P, arg_err, err, f, fv, p, p_null, p_shallow, p_shallow_null};
use super::numeric::{int_arg, num};
use crate::convert::{convert_to_type, unify};
use crate::number::Number;
use crate::types::Type;
use crate::value::{Attrs, Value};
use unicode_segmentation::UnicodeSegmentation;

pub static FUNCS: &[Func] = &[
    f("alltrue", &[p("list", P::ListOf(E::Bool))], |_, a| bools(a, true)),
    f("anytrue", &[p("list", P::ListOf(E::Bool))], |_, a| bools(a, false)),
    f("chunklist", &[p("list", P::ListOf(E::Any)), p("size", P::Num)], chunklist),
    fv("coalesce", &[], p_null("vals", P::Any), coalesce),
    fv("coalescelist", &[], p_shallow("vals", P::Any), coalescelist),
    f("compact", &[p("list", P::ListOf(E::Str))], compact),
    fv("concat", &[], p_shallow("seqs", P::Any), concat),
    f("contains", &[p("list", P::Any), p_null("value", P::Any)], contains),
    f("distinct", &[p("list", P::ListOf(E::Any))], distinct),
    f("element", &[p_shallow("list", P::Any), p("index", P::Num)], element),
    f("flatten", &[p("list", P::Any)], flatten),
    f("index", &[p("list", P::Any), p("value", P::Any)], index),
    f("keys", &[p_shallow("inputMap", P::Any)], keys),
    f("length", &[p_shallow("value", P::Any)], length),
    fv("lookup", &[p_shallow("inputMap", P::Any), p("key", P::Str)], p_null("default", P::Any), lookup),
    f(
        "matchkeys",
        &[p("values", P::ListOf(E::Any)), p("keys", P::ListOf(E::Any)), p("searchset", P::ListOf(E::Any))],
        matchkeys,
    ),
    fv("merge", &[], p_shallow_null("maps", P::Any), merge),
    f("one", &[p_shallow("list", P::Any)], one),
    fv("range", &[], p("params", P::Num), range),
    f("reverse", &[p_shallow("list", P::Any)], reverse),
    f("slice", &[p_shallow("list", P::Any), p("start_index", P::Num), p("end_index", P::Num)], slice),
    f("sort", &[p("list", P::ListOf(E::Str))], sort),
    f("sum", &[p("list", P::Any)], sum),
    f("transpose", &[p("values", P::MapOf(E::Any))], transpose),
    f("values", &[p_shallow("mapping", P::Any)], values),
    f("zipmap", &[p("keys", P::ListOf(E::Str)), p("values", P::Any)], zipmap),
];

fn seq(v: &Value) -> &[Value] {
    v.as_seq().unwrap_or(&[])
}

/// Rebuilds a sequence of the same kind as `like` (list keeps its element type, tuple stays a tuple).
fn same_kind(like: &Value, items: Vec<Value>) -> Value {
    match like {
        Value::List(t, _) => Value::list(t.clone(), items),
        Value::Set(t, _) => Value::set(t.clone(), items),
        _ => Value::tuple(items),
    }
}

fn bools(a: &[Value], all: bool) -> FnResult {
    for v in seq(&a[0]) {
        match v.as_bool() {
            Some(b) if b != all => return Ok(Value::Bool(!all)),
            Some(_) => {}
            None => {
                if all {
                    return Ok(Value::Bool(false));
                }
            }
        }
    }
    Ok(Value::Bool(all))
}

fn chunklist(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let size = int_arg(&a[1], 1)?;
    if size < 0 {
        return arg_err(1, "the size argument must be positive");
    }
    let items = seq(&a[0]);
    let Value::List(t, _) = &a[0] else { return err("a list is required") };
    if size == 0 {
        return Ok(Value::list(Type::List(Box::new(t.clone())), vec![a[0].clone()]));
    }
    cx.check_len(items.len())?;
    let chunks = items.chunks(size as usize).map(|c| Value::list(t.clone(), c.to_vec())).collect();
    Ok(Value::list(Type::List(Box::new(t.clone())), chunks))
}

fn coalesce(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(t) = unify(a.iter().map(Value::type_of)) else {
        return err("all arguments must have the same type");
    };
    for v in a {
        if v.is_null() || v.as_str() == Some("") {
            continue;
        }
        return Ok(convert_to_type(v, &t).unwrap_or_else(|_| v.clone()));
    }
    err("no non-null, non-empty-string arguments")
}

fn coalescelist(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    for (i, v) in a.iter().enumerate() {
        match v {
            Value::List(..) | Value::Tuple(..) => {
                if !v.is_empty() {
                    return Ok(v.clone());
                }
            }
            _ => return arg_err(i, format!("a list or tuple is required, not {}", v.friendly_type())),
        }
    }
    err("no non-null arguments")
}

fn compact(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let out = seq(&a[0]).iter().filter(|v| !v.is_null() && v.as_str() != Some("")).cloned().collect();
    Ok(Value::list(Type::String, out))
}

fn concat(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let mut total = 0;
    for (i, v) in a.iter().enumerate() {
        match v {
            Value::List(..) | Value::Tuple(..) => total += v.len(),
            _ => return arg_err(i, format!("all arguments must be lists or tuples; got {}", v.friendly_type())),
        }
    }
    cx.check_len(total)?;
    let items: Vec<Value> = a.iter().flat_map(|v| seq(v).iter().cloned()).collect();
    if !a.is_empty() && a.iter().all(|v| matches!(v, Value::List(..))) {
        let elem = unify(a.iter().map(|v| match v {
            Value::List(t, _) => t.clone(),
            _ => Type::Dynamic,
        }));
        if let Some(t) = elem {
            let items = items.into_iter().map(|v| convert_to_type(&v, &t).unwrap_or(v)).collect();
            return Ok(Value::list(t, items));
        }
        return err("all arguments must have the same element type");
    }
    Ok(Value::tuple(items))
}

fn contains(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(items) = a[0].as_seq() else {
        return arg_err(0, format!("a list, set or tuple is required, not {}", a[0].friendly_type()));
    };
    if let Some(r) = items.iter().find_map(Value::first_unknown) {
        return Ok(Value::Unknown(r.clone()));
    }
    Ok(Value::Bool(items.iter().any(|v| v.raw_equals(&a[1]))))
}

fn distinct(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Value::List(t, items) = &a[0] else { return err("a list is required") };
    let mut out: Vec<Value> = Vec::new();
    for v in items.iter() {
        if !out.iter().any(|o| o.raw_equals(v)) {
            out.push(v.clone());
        }
    }
    Ok(Value::list(t.clone(), out))
}

fn element(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(items) = a[0].as_seq().filter(|_| !matches!(a[0], Value::Set(..))) else {
        return arg_err(0, format!("a list or tuple is required, not {}", a[0].friendly_type()));
    };
    let i = int_arg(&a[1], 1)?;
    if items.is_empty() {
        return arg_err(0, "cannot use element function with an empty list");
    }
    // The index wraps around in both directions (negative since OpenTofu 1.10): -1 is the last element, and
    // -len-1 wraps to the last element again, as cty's `index % len`, plus `len` when negative, computes.
    let i = i.rem_euclid(items.len() as i64) as usize;
    Ok(items[i].clone())
}

fn flatten(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    if a[0].as_seq().is_none() {
        return arg_err(0, format!("a list, set or tuple is required, not {}", a[0].friendly_type()));
    }
    let mut out = Vec::new();
    // An explicit stack keeps nesting from costing recursion.
    let mut stack: Vec<(&[Value], usize)> = vec![(seq(&a[0]), 0)];
    while let Some((items, i)) = stack.pop() {
        if let Some(v) = items.get(i) {
            stack.push((items, i + 1));
            match v {
                Value::List(..) | Value::Set(..) | Value::Tuple(..) => stack.push((seq(v), 0)),
                Value::Unknown(r) => return Ok(Value::Unknown(r.clone())),
                v => {
                    out.push(v.clone());
                    cx.check_len(out.len())?;
                }
            }
        }
    }
    Ok(Value::tuple(out))
}

fn index(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(items) = a[0].as_seq().filter(|_| !matches!(a[0], Value::Set(..))) else {
        return arg_err(0, format!("a list or tuple is required, not {}", a[0].friendly_type()));
    };
    match items.iter().position(|v| v.raw_equals(&a[1])) {
        Some(i) => Ok(Value::int(i as i64)),
        None => err("item not found"),
    }
}

fn keys(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(attrs) = a[0].as_attrs() else {
        return arg_err(0, format!("a map or object is required, not {}", a[0].friendly_type()));
    };
    let ks: Vec<Value> = attrs.keys().map(|k| Value::String(k.clone())).collect();
    Ok(match &a[0] {
        Value::Object(_) => Value::tuple(ks),
        _ => Value::list(Type::String, ks),
    })
}

fn length(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    match &a[0] {
        Value::String(s) => Ok(Value::int(s.graphemes(true).count() as i64)),
        Value::List(..) | Value::Set(..) | Value::Tuple(..) | Value::Map(..) | Value::Object(..) => {
            if let Value::Set(_, items) = &a[0]
                && let Some(r) = items.iter().find_map(Value::first_unknown)
            {
                return Ok(Value::Unknown(r.clone()));
            }
            Ok(Value::int(a[0].len() as i64))
        }
        other => arg_err(0, format!("a string, collection or structure is required, not {}", other.friendly_type())),
    }
}

fn lookup(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    if a.len() > 3 {
        return arg_err(3, "lookup takes at most three arguments");
    }
    let Some(attrs) = a[0].as_attrs() else {
        return arg_err(0, format!("a map or object is required, not {}", a[0].friendly_type()));
    };
    let key = a[1].as_str().unwrap_or("");
    match (attrs.get(key), a.get(2)) {
        // The element comes back as it is, not converted to the default's type (`lookup({a = 1}, "a", "x")` is 1).
        (Some(v), _) => Ok(v.clone()),
        (None, Some(d)) => Ok(d.clone()),
        (None, None) => arg_err(1, format!("the given key {key:?} does not exist in the map and no default was given")),
    }
}

fn matchkeys(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (vals, ks, search) = (seq(&a[0]), seq(&a[1]), seq(&a[2]));
    if vals.len() != ks.len() {
        return err("length of keys and values should be equal");
    }
    let out =
        vals.iter().zip(ks).filter(|(_, k)| search.iter().any(|s| s.raw_equals(k))).map(|(v, _)| v.clone()).collect();
    let Value::List(t, _) = &a[0] else { return err("a list is required") };
    Ok(Value::list(t.clone(), out))
}

fn merge(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let mut out = Attrs::new();
    let mut all_maps = true;
    for (i, v) in a.iter().enumerate() {
        match v {
            Value::Null(_) => continue,
            Value::Map(..) => {}
            Value::Object(..) => all_maps = false,
            other => return arg_err(i, format!("arguments must be maps or objects, got {}", other.friendly_type())),
        }
        cx.tick(v.len() as u64)?;
        let Some(src) = v.as_attrs() else { continue };
        // Starting from the first non-empty argument shares its tree; later ones are inserted (path copies).
        if out.is_empty() {
            out = src.clone();
            continue;
        }
        for (k, x) in src.iter() {
            out.insert(k.clone(), x.clone());
        }
    }
    // cty: a map only if every argument is a map of the same element type; otherwise an object.
    let map_types: Vec<&Type> =
        a.iter().filter_map(|v| if let Value::Map(t, _) = v { Some(t) } else { None }).collect();
    if all_maps
        && let Some(first) = map_types.first()
        && map_types.iter().all(|t| t == first)
    {
        return Ok(Value::map((*first).clone(), out));
    }
    Ok(Value::object(out))
}

fn one(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(items) = a[0].as_seq() else {
        return arg_err(0, format!("a list, set or tuple is required, not {}", a[0].friendly_type()));
    };
    match items.len() {
        0 => Ok(Value::Null(match &a[0] {
            Value::List(t, _) | Value::Set(t, _) => t.clone(),
            _ => Type::Dynamic,
        })),
        1 => Ok(items[0].clone()),
        _ => arg_err(0, "must be a list, set, or tuple value with either zero or one elements"),
    }
}

fn range(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (start, limit, step) = match a.len() {
        1 => {
            let limit = num(&a[0]);
            let step = Number::from_i64(if limit.is_negative() { -1 } else { 1 });
            (Number::zero(), limit, step)
        }
        // With two arguments the step is -1 when counting down (cty's rule).
        2 if num(&a[0]).cmp_num(&num(&a[1])) == std::cmp::Ordering::Greater => {
            (num(&a[0]), num(&a[1]), Number::from_i64(-1))
        }
        2 => (num(&a[0]), num(&a[1]), Number::from_i64(1)),
        3 => (num(&a[0]), num(&a[1]), num(&a[2])),
        0 => return err("at least one argument is required"),
        _ => return err("at most three arguments are allowed"),
    };
    if step.is_zero() {
        return err("step must not be zero");
    }
    let down = step.is_negative();
    if down && start.cmp_num(&limit) == std::cmp::Ordering::Less
        || !down && start.cmp_num(&limit) == std::cmp::Ordering::Greater
    {
        return err(if down {
            "for a negative step, start must be greater than or equal to limit"
        } else {
            "for a positive step, start must be less than or equal to limit"
        });
    }
    // Count first so that `range(1e9)` fails on the budget without allocating.
    let count = limit.sub(&start).div(&step).map(|q| q.ceil()).and_then(|q| q.to_i64()).unwrap_or(i64::MAX);
    cx.check_len(usize::try_from(count).unwrap_or(usize::MAX))?;
    let mut out = Vec::with_capacity(count.max(0) as usize);
    let mut cur = start;
    loop {
        let cmp = cur.cmp_num(&limit);
        if (!down && cmp != std::cmp::Ordering::Less) || (down && cmp != std::cmp::Ordering::Greater) {
            break;
        }
        cx.check_len(out.len() + 1)?;
        out.push(Value::number(cur.clone()));
        cur = cur.add(&step);
    }
    Ok(Value::list(Type::Number, out))
}

fn reverse(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    match &a[0] {
        Value::List(..) | Value::Tuple(..) => {
            let items: Vec<Value> = seq(&a[0]).iter().rev().cloned().collect();
            Ok(same_kind(&a[0], items))
        }
        Value::Set(t, items) => Ok(Value::list(t.clone(), items.iter().rev().cloned().collect())),
        other => arg_err(0, format!("a list or tuple is required, not {}", other.friendly_type())),
    }
}

fn slice(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(items) = a[0].as_seq().filter(|_| !matches!(a[0], Value::Set(..))) else {
        return arg_err(0, format!("a list or tuple is required, not {}", a[0].friendly_type()));
    };
    let start = int_arg(&a[1], 1)?;
    let end = int_arg(&a[2], 2)?;
    if start < 0 {
        return arg_err(1, "start index must not be negative");
    }
    if end > items.len() as i64 {
        return arg_err(2, "end index must not be greater than the length of the list");
    }
    if start > end {
        return arg_err(1, "start index must not be greater than end index");
    }
    Ok(same_kind(&a[0], items[start as usize..end as usize].to_vec()))
}

fn sort(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let mut items: Vec<Value> = seq(&a[0]).to_vec();
    if items.iter().any(Value::is_null) {
        return arg_err(0, "the list must not contain null values");
    }
    items.sort_by(|x, y| x.as_str().unwrap_or("").as_bytes().cmp(y.as_str().unwrap_or("").as_bytes()));
    Ok(Value::list(Type::String, items))
}

fn sum(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(items) = a[0].as_seq() else {
        return arg_err(0, format!("a list, set or tuple of numbers is required, not {}", a[0].friendly_type()));
    };
    if items.is_empty() {
        return arg_err(0, "cannot sum an empty list");
    }
    let mut total: Option<Number> = None;
    for v in items {
        let n = match crate::convert::convert(v, &crate::constraint::Constraint::Number) {
            Ok(Value::Number(n)) if !v.is_null() => (*n).clone(),
            _ => return arg_err(0, "every element must be a number"),
        };
        total = Some(match total {
            None => n,
            Some(t) => t.add(&n),
        });
    }
    Ok(Value::number(total.unwrap_or_else(Number::zero)))
}

fn transpose(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let mut out: std::collections::BTreeMap<String, Vec<Value>> = std::collections::BTreeMap::new();
    for (k, v) in a[0].as_attrs().into_iter().flatten() {
        let Some(items) = v.as_seq() else { return arg_err(0, "the values must be lists of strings") };
        for item in items {
            let Some(s) = item.as_str() else { return arg_err(0, "the values must be lists of strings") };
            out.entry(s.to_string()).or_default().push(Value::String(k.clone()));
        }
    }
    let t = Type::List(Box::new(Type::String));
    Ok(Value::map(
        t,
        out.into_iter().map(|(k, v)| (std::sync::Arc::<str>::from(k), Value::list(Type::String, v))).collect(),
    ))
}

fn values(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    match &a[0] {
        Value::Map(t, attrs) => Ok(Value::list(t.clone(), attrs.values().cloned().collect())),
        Value::Object(attrs) => Ok(Value::tuple(attrs.values().cloned().collect())),
        other => arg_err(0, format!("a map or object is required, not {}", other.friendly_type())),
    }
}

fn zipmap(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let ks = seq(&a[0]);
    let Some(vs) = a[1].as_seq().filter(|_| !matches!(a[1], Value::Set(..))) else {
        return arg_err(1, format!("a list or tuple is required, not {}", a[1].friendly_type()));
    };
    if ks.len() != vs.len() {
        return err(format!("number of keys ({}) does not match number of values ({})", ks.len(), vs.len()));
    }
    let mut out = Attrs::new();
    for (k, v) in ks.iter().zip(vs.iter()) {
        let Some(k) = k.as_str() else { return arg_err(0, "keys must not be null") };
        out.insert(k.into(), v.clone());
    }
    Ok(match &a[1] {
        Value::List(t, _) => Value::map(t.clone(), out),
        _ => Value::object(out),
    })
}
