//! Syntactic dependencies between locals, and the cycles among them. Found before evaluation so that locals can
//! be evaluated in dependency order without recursion and cycles are reported once, whole, never hung on.

use foreach_syntax::ast::{Expr, ExprKind, ObjectKey, Template, TemplateFor, TemplateIf, TemplatePart, TraversalOp};

/// Names `NAME` of every `local.NAME` in the expression (including in branches that may not be taken: OpenTofu's
/// dependency graph is syntactic too).
pub fn local_refs(expr: &Expr) -> Vec<&str> {
    named_refs(expr, "local")
}

/// Names `NAME` of every `var.NAME` in the expression, likewise.
pub fn var_refs(expr: &Expr) -> Vec<&str> {
    named_refs(expr, "var")
}

/// Names `NAME` of every `ROOT.NAME` (`local`, `var`) in the expression.
fn named_refs<'e>(expr: &'e Expr, root: &str) -> Vec<&'e str> {
    let mut out = Vec::new();
    walk(expr, root, &mut out);
    out
}

fn walk<'e>(e: &'e Expr, root_name: &str, out: &mut Vec<&'e str>) {
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid | ExprKind::Variable(_) => {}
        ExprKind::Template(t) => walk_template(t, root_name, out),
        ExprKind::Tuple(items) => items.iter().for_each(|i| walk(i, root_name, out)),
        ExprKind::Object(items) => {
            for item in items {
                if let ObjectKey::Expr(k) = &item.key {
                    walk(k, root_name, out);
                }
                walk(&item.value, root_name, out);
            }
        }
        ExprKind::Traversal { base, steps } => {
            if let ExprKind::Variable(root) = &base.kind
                && root.name == root_name
                && let Some(TraversalOp::GetAttr(name)) = steps.first().map(|s| &s.op)
            {
                out.push(&name.name);
            }
            walk(base, root_name, out);
            for s in steps {
                if let TraversalOp::Index(i) = &s.op {
                    walk(i, root_name, out);
                }
            }
        }
        ExprKind::FuncCall(c) => c.args.iter().for_each(|a| walk(a, root_name, out)),
        ExprKind::Parenthesis(i) => walk(i, root_name, out),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            walk(cond, root_name, out);
            walk(then_expr, root_name, out);
            walk(else_expr, root_name, out);
        }
        ExprKind::Unary { operand, .. } => walk(operand, root_name, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs, root_name, out);
            walk(rhs, root_name, out);
        }
        ExprKind::For(f) => {
            walk(&f.collection, root_name, out);
            if let Some(k) = &f.key_expr {
                walk(k, root_name, out);
            }
            walk(&f.value_expr, root_name, out);
            if let Some(c) = &f.cond {
                walk(c, root_name, out);
            }
        }
    }
}

fn walk_template<'e>(t: &'e Template, root_name: &str, out: &mut Vec<&'e str>) {
    for p in &t.parts {
        match p {
            TemplatePart::Literal { .. } => {}
            TemplatePart::Interpolation(e) => walk(e, root_name, out),
            TemplatePart::If(directive) => {
                let TemplateIf { cond, then_part, else_part, .. } = &**directive;
                walk(cond, root_name, out);
                walk_template(then_part, root_name, out);
                if let Some(e) = else_part {
                    walk_template(e, root_name, out);
                }
            }
            TemplatePart::For(directive) => {
                let TemplateFor { collection, body, .. } = &**directive;
                walk(collection, root_name, out);
                walk_template(body, root_name, out);
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

/// Functions whose result nests no deeper than their deepest argument (they select, reorder, combine or
/// convert elements without wrapping them), so chains such as `merge(local.prev, {...})` keep a tight bound.
const NON_WRAPPING: &[&str] = &[
    "merge",
    "concat",
    "coalesce",
    "coalescelist",
    "lookup",
    "element",
    "slice",
    "reverse",
    "distinct",
    "compact",
    "flatten",
    "one",
    "try",
    "values",
    "sort",
    "tolist",
    "toset",
    "tomap",
];

/// How deep a value a function can build from nothing (`jsondecode`, `yamldecode`, `csvdecode` have their own
/// nesting limits below this).
const FRESH: usize = 130;

/// An upper bound of `Value::depth` of the expression's value, given bounds for the locals it refers to
/// (`local`, by name) and for every variable (`var`). Compositional, so a chain of locals that each add a little
/// around the previous one gets a bound that grows only as fast as the values themselves: `local.x` is as deep as
/// `x`, constructors and `for` add one level, wrapping function calls two (or up to [`FRESH`]), scalars are 1.
/// `env` bounds the variables bound by enclosing `for` expressions (elements of their collections).
pub fn value_depth_bound(e: &Expr, local: &dyn Fn(&str) -> usize, var: usize, env: usize) -> usize {
    let b = |x: &Expr| value_depth_bound(x, local, var, env);
    match &e.kind {
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::Invalid
        | ExprKind::Template(_)
        | ExprKind::Unary { .. }
        | ExprKind::Binary { .. } => 1,
        ExprKind::Variable(_) => env.max(1),
        ExprKind::Tuple(items) => 1 + items.iter().map(b).max().unwrap_or(0),
        ExprKind::Object(items) => 1 + items.iter().map(|i| b(&i.value)).max().unwrap_or(0),
        ExprKind::Traversal { base, steps } => {
            // `.max(env)`: a `for` may bind a variable named `local` or `var` that shadows the root.
            let root = match (&base.kind, steps.first().map(|s| &s.op)) {
                (ExprKind::Variable(r), Some(TraversalOp::GetAttr(name))) if r.name == "local" => {
                    local(&name.name).max(env)
                }
                (ExprKind::Variable(r), _) if r.name == "var" => var.max(env),
                // `local` not followed by a name is an error; a bound this large makes the caller measure.
                (ExprKind::Variable(r), _) if r.name == "local" => usize::MAX / 4,
                _ => b(base),
            };
            // A splat over a value that is not a list wraps it in a one-element tuple.
            let splat = steps.iter().any(|s| matches!(s.op, TraversalOp::AttrSplat | TraversalOp::FullSplat));
            root + usize::from(splat)
        }
        ExprKind::FuncCall(c) => {
            let args = c.args.iter().map(b).max().unwrap_or(1);
            if c.name.namespace.is_empty() && NON_WRAPPING.contains(&c.name.name.name.as_str()) {
                args
            } else {
                (2 + args).max(FRESH)
            }
        }
        ExprKind::Parenthesis(i) => b(i),
        ExprKind::Conditional { then_expr, else_expr, .. } => b(then_expr).max(b(else_expr)),
        ExprKind::For(f) => {
            let env = env.max(b(&f.collection));
            let value = value_depth_bound(&f.value_expr, local, var, env);
            value + if f.grouping { 2 } else { 1 }
        }
    }
}
