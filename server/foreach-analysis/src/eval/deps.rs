//! Syntactic dependencies between locals, and the cycles among them. Found before evaluation so that locals can
//! be evaluated in dependency order without recursion and cycles are reported once, whole, never hung on.

use foreach_syntax::ast::{Expr, ExprKind, ObjectKey, Template, TemplatePart, TraversalOp};

/// Names `NAME` of every `local.NAME` in the expression (including in branches that may not be taken: OpenTofu's
/// dependency graph is syntactic too).
pub fn local_refs(expr: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    walk(expr, &mut out);
    out
}

fn walk(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid | ExprKind::Variable(_) => {}
        ExprKind::Template(t) => walk_template(t, out),
        ExprKind::Tuple(items) => items.iter().for_each(|i| walk(i, out)),
        ExprKind::Object(items) => {
            for item in items {
                if let ObjectKey::Expr(k) = &item.key {
                    walk(k, out);
                }
                walk(&item.value, out);
            }
        }
        ExprKind::Traversal { base, steps } => {
            if let ExprKind::Variable(root) = &base.kind
                && root.name == "local"
                && let Some(TraversalOp::GetAttr(name)) = steps.first().map(|s| &s.op)
            {
                out.push(name.name.clone());
            }
            walk(base, out);
            for s in steps {
                if let TraversalOp::Index(i) = &s.op {
                    walk(i, out);
                }
            }
        }
        ExprKind::FuncCall(c) => c.args.iter().for_each(|a| walk(a, out)),
        ExprKind::Parenthesis(i) => walk(i, out),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            walk(cond, out);
            walk(then_expr, out);
            walk(else_expr, out);
        }
        ExprKind::Unary { operand, .. } => walk(operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs, out);
            walk(rhs, out);
        }
        ExprKind::For(f) => {
            walk(&f.collection, out);
            if let Some(k) = &f.key_expr {
                walk(k, out);
            }
            walk(&f.value_expr, out);
            if let Some(c) = &f.cond {
                walk(c, out);
            }
        }
    }
}

fn walk_template(t: &Template, out: &mut Vec<String>) {
    for p in &t.parts {
        match p {
            TemplatePart::Literal { .. } => {}
            TemplatePart::Interpolation(e) => walk(e, out),
            TemplatePart::If { cond, then_part, else_part, .. } => {
                walk(cond, out);
                walk_template(then_part, out);
                if let Some(e) = else_part {
                    walk_template(e, out);
                }
            }
            TemplatePart::For { collection, body, .. } => {
                walk(collection, out);
                walk_template(body, out);
            }
        }
    }
}

/// Strongly connected components that are cycles (more than one member, or a self-reference), each sorted,
/// in order of their smallest member. Tarjan's algorithm with an explicit stack.
pub fn cycles(deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = deps.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut out = Vec::new();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if let Some(&w) = deps[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut scc = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        scc.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if scc.len() > 1 || deps[v].contains(&v) {
                        scc.sort_unstable();
                        out.push(scc);
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// A simple cycle through the component's smallest member, following dependencies: `[a, b, c]` for
/// `a -> b -> c -> a`.
pub fn cycle_path(scc: &[usize], deps: &[Vec<usize>]) -> Vec<usize> {
    let start = scc[0];
    // Breadth-first search inside the component for the shortest way back to `start`.
    let mut prev: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &deps[v] {
            if !scc.contains(&w) {
                continue;
            }
            if w == start {
                let mut path = vec![v];
                let mut cur = v;
                while cur != start {
                    let Some(&p) = prev.get(&cur) else { break };
                    cur = p;
                    path.push(cur);
                }
                path.reverse();
                path.dedup();
                return path;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(w) {
                e.insert(v);
                queue.push_back(w);
            }
        }
    }
    scc.to_vec()
}

/// Bounds the depth of the expression's value: it is at most `wrap + (depth of the values it refers to)`, and at
/// least `fresh` deep on its own. Function calls count two levels (those that wrap their arguments add one or two:
/// `tolist`, `chunklist`, `setproduct`), and a call can also build a fresh value up to `jsondecode`'s own limit.
pub fn nesting_bound(expr: &Expr) -> (usize, usize) {
    let mut calls = false;
    let d = depth(expr, &mut calls);
    (d, if calls { d + 130 } else { d })
}

fn depth(e: &Expr, calls: &mut bool) -> usize {
    let children: Vec<&Expr> = match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid | ExprKind::Variable(_) => {
            Vec::new()
        }
        ExprKind::Template(t) => {
            let mut out = Vec::new();
            template_exprs(t, &mut out);
            out
        }
        ExprKind::Tuple(items) => items.iter().collect(),
        ExprKind::Object(items) => items
            .iter()
            .flat_map(|i| {
                let k = if let ObjectKey::Expr(k) = &i.key { Some(k) } else { None };
                k.into_iter().chain(std::iter::once(&i.value))
            })
            .collect(),
        ExprKind::Traversal { base, steps } => std::iter::once(&**base)
            .chain(steps.iter().filter_map(|s| if let TraversalOp::Index(i) = &s.op { Some(i) } else { None }))
            .collect(),
        ExprKind::FuncCall(c) => {
            *calls = true;
            // Counted twice: see `nesting_bound`.
            return 2 + c.args.iter().map(|a| depth(a, calls)).max().unwrap_or(0);
        }
        ExprKind::Parenthesis(i) | ExprKind::Unary { operand: i, .. } => vec![&**i],
        ExprKind::Conditional { cond, then_expr, else_expr } => vec![&**cond, &**then_expr, &**else_expr],
        ExprKind::Binary { lhs, rhs, .. } => vec![&**lhs, &**rhs],
        ExprKind::For(f) => [Some(&f.collection), f.key_expr.as_ref(), Some(&f.value_expr), f.cond.as_ref()]
            .into_iter()
            .flatten()
            .collect(),
    };
    1 + children.into_iter().map(|c| depth(c, calls)).max().unwrap_or(0)
}

fn template_exprs<'a>(t: &'a Template, out: &mut Vec<&'a Expr>) {
    for p in &t.parts {
        match p {
            TemplatePart::Literal { .. } => {}
            TemplatePart::Interpolation(e) => out.push(e),
            TemplatePart::If { cond, .. } => out.push(cond),
            TemplatePart::For { collection, .. } => out.push(collection),
        }
    }
}

/// Whether the expression refers to `var.*` (variable values are capped at half the value-depth budget).
pub fn mentions_var(expr: &Expr) -> bool {
    let mut found = false;
    mentions(expr, &mut found);
    found
}

fn mentions(e: &Expr, found: &mut bool) {
    if *found {
        return;
    }
    if let ExprKind::Traversal { base, .. } = &e.kind
        && let ExprKind::Variable(root) = &base.kind
        && root.name == "var"
    {
        *found = true;
        return;
    }
    match &e.kind {
        ExprKind::Template(t) => {
            let mut out = Vec::new();
            template_exprs(t, &mut out);
            out.into_iter().for_each(|x| mentions(x, found));
        }
        ExprKind::Tuple(items) => items.iter().for_each(|x| mentions(x, found)),
        ExprKind::Object(items) => items.iter().for_each(|i| {
            if let ObjectKey::Expr(k) = &i.key {
                mentions(k, found);
            }
            mentions(&i.value, found);
        }),
        ExprKind::Traversal { base, steps } => {
            mentions(base, found);
            for s in steps {
                if let TraversalOp::Index(i) = &s.op {
                    mentions(i, found);
                }
            }
        }
        ExprKind::FuncCall(c) => c.args.iter().for_each(|x| mentions(x, found)),
        ExprKind::Parenthesis(i) | ExprKind::Unary { operand: i, .. } => mentions(i, found),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            mentions(cond, found);
            mentions(then_expr, found);
            mentions(else_expr, found);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            mentions(lhs, found);
            mentions(rhs, found);
        }
        ExprKind::For(f) => {
            mentions(&f.collection, found);
            if let Some(k) = &f.key_expr {
                mentions(k, found);
            }
            mentions(&f.value_expr, found);
            if let Some(c) = &f.cond {
                mentions(c, found);
            }
        }
        _ => {}
    }
}
