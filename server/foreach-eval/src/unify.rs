//! Type unification as cty does it (`convert.Unify` / `convert.UnifyUnsafe`): the one type a set of types can
//! all convert to, chosen the way cty chooses it, so that a conditional's result (`c ? toset(["a"]) : []` is
//! `set(string)`) and a collection's element type come out as in OpenTofu.
//!
//! Three parts, each mirroring cty: [`conversion_exists`] says at the type level whether a value of one type can
//! convert to another (safe conversions only, or unsafe ones too: string to number or bool, list to set, map to
//! object); [`compare`] and [`preference_order`] rank candidate types from most to least general; [`unify`]
//! first tries the structural shortcuts (all maps, all lists, lists with tuples, objects as maps, ...) and
//! otherwise takes the most general given type that every other converts to.
//!
//! `Type::Dynamic` is cty's `DynamicPseudoType`: anything converts to it, and in unsafe mode it converts to
//! anything (the conversion is checked once the value is known).

use super::types::Type;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Whether cty has a conversion from `from` to `to` (cty's `getConversion(in, out, unsafe) != nil`, with equal
/// types always convertible).
pub fn conversion_exists(from: &Type, to: &Type, unsafe_: bool) -> bool {
    if from == to || *to == Type::Dynamic {
        return true;
    }
    if unsafe_ && *from == Type::Dynamic {
        return true;
    }
    match (from, to) {
        (f, t) if f.is_primitive() && t.is_primitive() => match (f, t) {
            (Type::Number | Type::Bool, Type::String) => true,
            (Type::String, Type::Number | Type::Bool) => unsafe_,
            _ => false,
        },
        (Type::Object(fa), Type::Object(ta)) => {
            // The target's attributes must all exist in the source; extra source attributes are dropped.
            ta.iter().all(|(k, t)| fa.get(k).is_some_and(|f| conversion_exists(f, t, unsafe_)))
        }
        (Type::Tuple(fe), Type::Tuple(te)) => {
            fe.len() == te.len() && fe.iter().zip(te.iter()).all(|(f, t)| conversion_exists(f, t, unsafe_))
        }
        (Type::List(fe) | Type::Set(fe), Type::List(te)) => conversion_exists(fe, te, unsafe_),
        (Type::Set(fe), Type::Set(te)) => conversion_exists(fe, te, unsafe_),
        // A list becomes a set only unsafely: order and duplicates are lost.
        (Type::List(fe), Type::Set(te)) => unsafe_ && conversion_exists(fe, te, unsafe_),
        (Type::Map(fe), Type::Map(te)) => conversion_exists(fe, te, unsafe_),
        (Type::Tuple(items), Type::List(te) | Type::Set(te)) => elements_convert(items, te, unsafe_, true),
        (Type::Object(attrs), Type::Map(te)) => {
            let items: Vec<Type> = attrs.values().cloned().collect();
            elements_convert(&items, te, unsafe_, false)
        }
        // A map becomes an object only unsafely: the keys may not match the attributes.
        (Type::Map(fe), Type::Object(ta)) => unsafe_ && ta.values().all(|t| conversion_exists(fe, t, unsafe_)),
        _ => false,
    }
}

/// cty's tuple-to-list/set and object-to-map conversions: an empty source always converts; a `Dynamic` target
/// element type is first unified from the source's element types. Only the tuple conversions then refuse a
/// `Dynamic` unification unless every element is `Dynamic` (`conversionTupleToList`/`ToSet`);
/// `conversionObjectToMap` has no such check, so `{ a = true, b = data.x.y }` converts to `map(any)` and
/// `c ? { a = true, b = data.x.y } : {}` unifies.
fn elements_convert(items: &[Type], elem: &Type, unsafe_: bool, all_dynamic_or_none: bool) -> bool {
    if items.is_empty() {
        return true;
    }
    let mut target = elem.clone();
    if target == Type::Dynamic {
        match unify(items, unsafe_) {
            None => return false,
            Some(Type::Dynamic) if all_dynamic_or_none && items.iter().any(|t| *t != Type::Dynamic) => return false,
            Some(t) => target = t,
        }
    }
    items.iter().all(|t| conversion_exists(t, &target, unsafe_))
}

/// cty's `compareTypes`: negative when `a` is more general than `b` (preferred as a unification result),
/// positive when `b` is, zero when they are not comparable.
pub fn compare(a: &Type, b: &Type) -> i32 {
    if *a == Type::Dynamic || *b == Type::Dynamic {
        return match (*a == Type::Dynamic, *b == Type::Dynamic) {
            (false, _) => -1,
            (_, false) => 1,
            _ => 0,
        };
    }
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        return match (*a == Type::String, *b == Type::String) {
            (false, _) => 1,
            (_, false) => -1,
            _ => 0,
        };
    }
    match (a, b) {
        (Type::List(x), Type::List(y)) | (Type::Set(x), Type::Set(y)) | (Type::Map(x), Type::Map(y)) => {
            return compare(x, y);
        }
        _ => {}
    }
    // cty swaps some pairs so that the checks below see them in one order, and flips the sign back.
    let swapped = matches!(
        (a, b),
        (Type::Tuple(_), Type::List(_))
            | (Type::Object(_), Type::Map(_))
            | (Type::Set(_), Type::Tuple(_))
            | (Type::Set(_), Type::List(_))
    );
    let (a, b, sign) = if swapped { (b, a, -1) } else { (a, b, 1) };
    if matches!(b, Type::Set(_)) && matches!(a, Type::Tuple(_) | Type::List(_)) {
        return -sign;
    }
    if matches!((a, b), (Type::List(_), Type::Tuple(_)) | (Type::Map(_), Type::Object(_))) {
        return -sign;
    }
    let pairwise = |pairs: Vec<(&Type, &Type)>| -> i32 {
        let (mut a_super, mut b_super) = (false, false);
        for (x, y) in pairs {
            match compare(x, y) {
                c if c < 0 => a_super = true,
                c if c > 0 => b_super = true,
                _ => {}
            }
        }
        match (a_super, b_super) {
            (true, false) => -sign,
            (false, true) => sign,
            _ => 0,
        }
    };
    match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.len() != y.len() || x.keys().any(|k| !y.contains_key(k)) {
                return 0;
            }
            pairwise(x.iter().map(|(k, t)| (t, &y[k])).collect())
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            pairwise(x.iter().zip(y.iter()).collect())
        }
        _ => 0,
    }
}

/// cty's `sortTypes`: indices of `types`, most general first (a topological sort of "more general than",
/// keeping the given order among incomparable types).
pub fn preference_order(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            match compare(&types[i], &types[j]) {
                c if c < 0 => edges[i].push(j),
                c if c > 0 => edges[j].push(i),
                _ => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        let i = order[next];
        next += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                order.push(j);
            }
        }
    }
    // cty's result slice is pre-filled with index 0, which is what a (theoretical) cycle leaves behind.
    order.resize(n, 0);
    order
}

/// cty's `unify`: the type all of `types` convert to, `None` when there is none (or `types` is empty).
/// `unsafe_` allows unsafe conversions (`UnifyUnsafe`, which HCL's conditional uses).
pub fn unify(types: &[Type], unsafe_: bool) -> Option<Type> {
    if types.is_empty() {
        return None;
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let maps = count(|t| matches!(t, Type::Map(_)));
    let lists = count(|t| matches!(t, Type::List(_)));
    let sets = count(|t| matches!(t, Type::Set(_)));
    let objects = count(|t| matches!(t, Type::Object(_)));
    let tuples = count(|t| matches!(t, Type::Tuple(_)));
    let dynamics = count(|t| *t == Type::Dynamic);
    let n = types.len();
    let has_dynamic = dynamics > 0;
    // Structural shortcuts first: they can build a type none of the inputs is (`list(string)` from tuples).
    if maps > 0 && maps + dynamics == n {
        return unify_collections(Kind::Map, types, unsafe_, has_dynamic);
    } else if maps > 0 && maps + objects + dynamics == n {
        if let Some(t @ Type::Map(_)) = unify_as(types, unsafe_, Kind::Map) {
            return Some(t);
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collections(Kind::List, types, unsafe_, has_dynamic);
    } else if lists > 0 && lists + tuples + dynamics == n {
        if let Some(t @ Type::List(_)) = unify_as(types, unsafe_, Kind::List) {
            return Some(t);
        }
    } else if sets > 0 && sets + dynamics == n {
        return unify_collections(Kind::Set, types, unsafe_, has_dynamic);
    } else if objects > 0 && objects + dynamics == n {
        return if has_dynamic { Some(Type::Dynamic) } else { unify_objects(types, unsafe_) };
    } else if tuples > 0 && tuples + dynamics == n {
        return if has_dynamic { Some(Type::Dynamic) } else { unify_tuples(types, unsafe_) };
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    // Otherwise the most general given type that all the others convert to.
    preference_order(types)
        .into_iter()
        .map(|i| &types[i])
        .find(|want| types.iter().all(|t| conversion_exists(t, want, unsafe_)))
        .cloned()
}

#[derive(Clone, Copy)]
enum Kind {
    List,
    Set,
    Map,
}

impl Kind {
    fn of(self, elem: Type) -> Type {
        match self {
            Kind::List => Type::List(Box::new(elem)),
            Kind::Set => Type::Set(Box::new(elem)),
            Kind::Map => Type::Map(Box::new(elem)),
        }
    }
}

fn all_convert(types: &[Type], to: &Type, unsafe_: bool) -> bool {
    types.iter().all(|t| conversion_exists(t, to, unsafe_))
}

/// All lists, all sets or all maps (with dynamics): a collection of the unified element types. With a dynamic
/// among them cty cannot predict the outcome and answers `Dynamic`.
fn unify_collections(kind: Kind, types: &[Type], unsafe_: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let elems: Vec<Type> = types
        .iter()
        .map(|t| match t {
            Type::List(e) | Type::Set(e) | Type::Map(e) => (**e).clone(),
            _ => Type::Dynamic,
        })
        .collect();
    let ret = kind.of(unify(&elems, unsafe_)?);
    all_convert(types, &ret, unsafe_).then_some(ret)
}

/// Lists with tuples (`kind` List) or maps with objects (`kind` Map): the tuples unified to a list (objects to a
/// map) first, then everything unified again with that in their place. `None` or another kind means the
/// shortcut does not apply.
fn unify_as(types: &[Type], unsafe_: bool, kind: Kind) -> Option<Type> {
    let is_struct = |t: &Type| match kind {
        Kind::List => matches!(t, Type::Tuple(_)),
        _ => matches!(t, Type::Object(_)),
    };
    let structs: Vec<Type> = types.iter().filter(|t| is_struct(t)).cloned().collect();
    let collapsed = match kind {
        Kind::List => tuples_to_list(&structs, unsafe_),
        _ => objects_to_map(&structs, unsafe_),
    };
    let collapsed =
        collapsed.filter(|t| matches!((kind, t), (Kind::List, Type::List(_)) | (Kind::Map, Type::Map(_))))?;
    let replaced: Vec<Type> = types.iter().map(|t| if is_struct(t) { collapsed.clone() } else { t.clone() }).collect();
    unify(&replaced, unsafe_)
}

/// All objects: one object type if they share attribute names and each attribute unifies, else a map.
fn unify_objects(types: &[Type], unsafe_: bool) -> Option<Type> {
    let attrs: Vec<&Arc<BTreeMap<String, Type>>> = types
        .iter()
        .filter_map(|t| match t {
            Type::Object(a) => Some(a),
            _ => None,
        })
        .collect();
    let first = attrs[0];
    if attrs[1..].iter().any(|a| a.len() != first.len() || a.keys().any(|k| !first.contains_key(k))) {
        return objects_to_map(types, unsafe_);
    }
    let mut out = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> = attrs.iter().map(|a| a[name].clone()).collect();
        // An attribute that unifies with nothing rules out a map as well.
        out.insert(name.clone(), unify(&across, unsafe_)?);
    }
    let ret = Type::Object(Arc::new(out));
    if all_convert(types, &ret, unsafe_) { Some(ret) } else { objects_to_map(types, unsafe_) }
}

/// Objects as a map of all their attribute types unified.
fn objects_to_map(types: &[Type], unsafe_: bool) -> Option<Type> {
    let all: Vec<Type> = types
        .iter()
        .flat_map(|t| match t {
            Type::Object(a) => a.values().cloned().collect(),
            _ => Vec::new(),
        })
        .collect();
    let ret = Type::Map(Box::new(unify(&all, unsafe_)?));
    all_convert(types, &ret, unsafe_).then_some(ret)
}

/// All tuples: one tuple type if they have the same length and each position unifies, else a list.
fn unify_tuples(types: &[Type], unsafe_: bool) -> Option<Type> {
    let items: Vec<&Arc<Vec<Type>>> = types
        .iter()
        .filter_map(|t| match t {
            Type::Tuple(e) => Some(e),
            _ => None,
        })
        .collect();
    let len = items[0].len();
    if items.iter().any(|e| e.len() != len) {
        return tuples_to_list(types, unsafe_);
    }
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let across: Vec<Type> = items.iter().map(|e| e[i].clone()).collect();
        out.push(unify(&across, unsafe_)?);
    }
    let ret = Type::Tuple(Arc::new(out));
    if all_convert(types, &ret, unsafe_) { Some(ret) } else { tuples_to_list(types, unsafe_) }
}

/// Tuples as a list of all their element types unified.
fn tuples_to_list(types: &[Type], unsafe_: bool) -> Option<Type> {
    let all: Vec<Type> = types
        .iter()
        .flat_map(|t| match t {
            Type::Tuple(e) => e.to_vec(),
            _ => Vec::new(),
        })
        .collect();
    let ret = Type::List(Box::new(unify(&all, unsafe_)?));
    all_convert(types, &ret, unsafe_).then_some(ret)
}
