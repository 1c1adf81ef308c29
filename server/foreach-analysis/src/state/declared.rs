//! Whether a resource instance the state records is still declared by the configuration, after its `moved` blocks.
//!
//! OpenTofu takes the provider of a declared resource instance from the configuration (its `provider` argument, or
//! inheritance); the provider the state records is used only for orphans, the instances that are no longer
//! declared and must be destroyed (`NodeAbstractResource.ProvidedBy` and `resolveProvider` in OpenTofu's
//! `internal/tofu`). So a provider instance that is gone traps only orphans. An instance is declared when every
//! module call on its path still exists and has its instance key, and its resource block exists and has its key;
//! the keys come from the `for_each`, `count` and `enabled` of the blocks, evaluated statically in the module
//! instance. Where they are not known statically (a `for_each` over a data source), whether it is declared is not
//! known either, and the check says so instead of guessing.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::ast::{Expr, ExprKind, Structure, TraversalOp};
use smol_str::SmolStr;

use super::{ModuleStep, StateBindings, StateKey, StateObject};
use crate::db::{Db, Workspace, file_index, module, parse};
use crate::eval::{EvalContext, ModuleScope, Provisional, Value};
use crate::model::items::{Arg, ResourceMode};
use crate::module_eval::scope_for_node;
use crate::providers::expand::instance_keys;
use crate::tree::{CallTarget, ModuleTree, NodeId};

/// What the configuration says of one resource instance of the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Declared {
    Yes,
    /// An orphan; `rests_on` are the defaults that may not be what runs the verdict rests on (`eval/provisional.rs`).
    No {
        rests_on: Option<Arc<Provisional>>,
    },
    /// Not known statically; why, in words (`the `for_each` of `aws_s3_bucket.b` …`).
    Unknown(String),
}

/// A resource instance address: module instance steps, then the resource (`None` in a `moved` block that moves a
/// whole module call).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Address {
    module: Vec<ModuleStep>,
    resource: Option<(SmolStr, SmolStr, Option<StateKey>)>,
}

/// A `moved` block: where it is (the call names of its module) and its `from` and `to`, relative to that module.
#[derive(Debug, Clone)]
struct Move {
    at: Vec<SmolStr>,
    from: Address,
    to: Address,
}

/// How many `moved` blocks may apply to one address in a row (a chain `a -> b -> c`); a cycle stops here.
const MAX_MOVES: usize = 32;

/// Answers [`Declared`] for the objects of one root module's state, evaluating each module instance once.
pub struct Declarations<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    tree: &'a ModuleTree,
    root: NodeId,
    moves: Vec<Move>,
    scopes: HashMap<NodeId, ModuleScope>,
    by_resource: HashMap<(u32, Option<StateKey>), Declared>,
}

impl<'a> Declarations<'a> {
    pub fn new(db: &'a dyn Db, ws: Workspace, tree: &'a ModuleTree, root: NodeId) -> Declarations<'a> {
        let moves = collect_moves(db, ws, tree, root);
        Declarations { db, ws, tree, root, moves, scopes: HashMap::new(), by_resource: HashMap::new() }
    }

    /// Whether `object` is still declared.
    pub fn of(&mut self, bindings: &StateBindings, object: &StateObject) -> Declared {
        let key = (object.resource, object.key.clone());
        if let Some(d) = self.by_resource.get(&key) {
            return d.clone();
        }
        let r = &bindings.resources[object.resource as usize];
        let address =
            Address { module: r.module.to_vec(), resource: Some((r.ty.clone(), r.name.clone(), object.key.clone())) };
        let address = self.moved(address);
        let d = self.declared(&address);
        self.by_resource.insert(key, d.clone());
        d
    }

    /// The address after the `moved` blocks that apply to it, in turn.
    fn moved(&self, mut address: Address) -> Address {
        for _ in 0..MAX_MOVES {
            match self.moves.iter().find_map(|m| apply(m, &address)) {
                Some(next) => address = next,
                None => break,
            }
        }
        address
    }

    fn declared(&mut self, address: &Address) -> Declared {
        let mut node = self.root;
        let mut rests_on = None;
        for (call, key) in &address.module {
            let m = module(self.db, self.tree.node(node).dir);
            let Some(c) = m.module_call(call) else { return Declared::No { rests_on } };
            let what = format!("module `{call}`");
            let (c_for_each, c_count, c_enabled) = (c.for_each.clone(), c.count.clone(), c.enabled.clone());
            match self.has_key(node, &what, [c_for_each.as_deref(), c_count.as_deref(), c_enabled.as_deref()], key) {
                Verdict::Yes(p) => rests_on = Provisional::union(rests_on, p.as_ref()),
                Verdict::No(p) => return Declared::No { rests_on: Provisional::union(rests_on, p.as_ref()) },
                Verdict::Unknown(why) => return Declared::Unknown(why),
            }
            let child = self.tree.node(node).children.iter().find(|ch| ch.call == call.as_str()).map(|ch| &ch.target);
            match child {
                Some(CallTarget::Node(id)) => node = *id,
                _ => return Declared::Unknown(format!("module `{call}` is not loaded here")),
            }
        }
        let Some((ty, name, key)) = &address.resource else { return Declared::Yes };
        let m = module(self.db, self.tree.node(node).dir);
        let Some(block) =
            m.resources.iter().find(|r| r.mode == ResourceMode::Managed && r.ty == *ty && r.name == *name)
        else {
            return Declared::No { rests_on };
        };
        let what = format!("`{ty}.{name}`");
        let meta = [block.for_each().cloned(), block.count().cloned(), block.enabled().cloned()];
        match self.has_key(node, &what, [meta[0].as_ref(), meta[1].as_ref(), meta[2].as_ref()], key) {
            Verdict::Yes(_) => Declared::Yes,
            Verdict::No(p) => Declared::No { rests_on: Provisional::union(rests_on, p.as_ref()) },
            Verdict::Unknown(why) => Declared::Unknown(why),
        }
    }

    /// Whether a block with these `for_each`, `count` and `enabled` (evaluated in `node`) has the instance `key`.
    fn has_key(&mut self, node: NodeId, what: &str, meta: [Option<&Arg>; 3], key: &Option<StateKey>) -> Verdict {
        let [for_each, count, enabled] = meta;
        let scope = self.scope(node);
        let mut rests_on = None;
        let mut eval = |arg: &Arg, origin: &str| {
            let expr = arg.expr();
            rests_on = Provisional::union(rests_on.take(), scope.provisional(&expr).as_ref());
            scope.eval(arg.file, &expr, &EvalContext { origin: origin.into(), ..EvalContext::default() })
        };
        if let Some(enabled) = enabled {
            match eval(enabled, "enabled").as_bool() {
                Some(true) => {}
                Some(false) => return Verdict::No(rests_on),
                None => return Verdict::Unknown(not_known(what, "enabled", &eval(enabled, "enabled"))),
            }
        }
        let has = if let Some(for_each) = for_each {
            let v = eval(for_each, "for_each");
            if v.first_unknown().is_some() {
                return Verdict::Unknown(not_known(what, "for_each", &v));
            }
            match (instance_keys(&v), key) {
                (Ok(keys), Some(StateKey::Str(k))) => keys.iter().any(|(key, _)| key == k.as_str()),
                (Ok(_), _) => false,
                (Err(problem), _) => return Verdict::Unknown(format!("the `for_each` of {what} {problem}")),
            }
        } else if let Some(count) = count {
            let v = eval(count, "count");
            let Some(n) = v.as_number().and_then(|n| n.to_i64()) else {
                return Verdict::Unknown(not_known(what, "count", &v));
            };
            matches!(key, Some(StateKey::Int(i)) if (0..n).contains(i))
        } else {
            key.is_none()
        };
        if has { Verdict::Yes(rests_on) } else { Verdict::No(rests_on) }
    }

    fn scope(&mut self, node: NodeId) -> &ModuleScope {
        let (db, ws, tree) = (self.db, self.ws, self.tree);
        self.scopes.entry(node).or_insert_with(|| scope_for_node(db, ws, tree.node(node)).0)
    }
}

enum Verdict {
    Yes(Option<Arc<Provisional>>),
    No(Option<Arc<Provisional>>),
    Unknown(String),
}

/// `the `for_each` of `aws_s3_bucket.b` is not known statically: `data.x.y` is only known after apply`.
fn not_known(what: &str, argument: &str, v: &Value) -> String {
    match v.first_unknown() {
        Some(r) => format!(
            "the `{argument}` of {what} is not known statically: {} ({})",
            r.explanation(),
            r.chain_text(argument)
        ),
        None => format!("the `{argument}` of {what} is not a valid value"),
    }
}

/// The address `m` moves `address` to, if it applies.
fn apply(m: &Move, address: &Address) -> Option<Address> {
    let at = m.at.len();
    if address.module.len() < at || address.module.iter().zip(&m.at).any(|((call, _), at)| call != at) {
        return None;
    }
    let (prefix, rest) = address.module.split_at(at);
    let mut out = prefix.to_vec();
    match (&m.from.resource, &m.to.resource) {
        (Some((from_ty, from_name, from_key)), Some((to_ty, to_name, to_key))) => {
            let (ty, name, key) = address.resource.as_ref()?;
            if rest != m.from.module.as_slice() || ty != from_ty || name != from_name {
                return None;
            }
            let key = moved_key(from_key, to_key, key)?;
            out.extend(m.to.module.iter().cloned());
            Some(Address { module: out, resource: Some((to_ty.clone(), to_name.clone(), key)) })
        }
        (None, None) => {
            let n = m.from.module.len();
            let (last_from, from_calls) = m.from.module.split_last()?;
            let (last_to, to_calls) = m.to.module.split_last()?;
            if rest.len() < n || rest[..n - 1] != *from_calls || rest[n - 1].0 != last_from.0 {
                return None;
            }
            let key = moved_key(&last_from.1, &last_to.1, &rest[n - 1].1)?;
            out.extend(to_calls.iter().cloned());
            out.push((last_to.0.clone(), key));
            out.extend(rest[n..].iter().cloned());
            Some(Address { module: out, resource: address.resource.clone() })
        }
        // A resource moved into a module call or the reverse: OpenTofu refuses it.
        _ => None,
    }
}

/// The instance key after a move, if the move applies to `key`: `from` with a key moves that instance; `from`
/// without one moves the whole block when `to` has none either, and only the instance without a key otherwise.
fn moved_key(from: &Option<StateKey>, to: &Option<StateKey>, key: &Option<StateKey>) -> Option<Option<StateKey>> {
    match (from, to) {
        (Some(f), _) => (key.as_ref() == Some(f)).then(|| to.clone()),
        (None, Some(_)) => key.is_none().then(|| to.clone()),
        (None, None) => Some(key.clone()),
    }
}

/// The `moved` blocks of every module of the root's tree, with the call path of the module that holds each.
fn collect_moves(db: &dyn Db, ws: Workspace, tree: &ModuleTree, root: NodeId) -> Vec<Move> {
    let files = file_index(db, ws);
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let node = tree.node(id);
        stack.extend(node.children.iter().filter_map(|c| match c.target {
            CallTarget::Node(child) => Some(child),
            _ => None,
        }));
        let m = module(db, node.dir);
        for block in m.others.iter().filter(|o| o.kind == "moved") {
            let Some(file) = files.get(&block.site.file) else { continue };
            let parsed = parse(db, *file);
            let found = parsed.body.structures.iter().find_map(|s| match s {
                Structure::Block(b) if b.range == block.site.range => Some(b),
                _ => None,
            });
            let Some(b) = found else { continue };
            let address = |name: &str| b.body.attribute(name).and_then(|a| parse_address(&a.value));
            if let (Some(from), Some(to)) = (address("from"), address("to")) {
                let at = node.call_path.iter().map(SmolStr::new).collect();
                out.push(Move { at, from, to });
            }
        }
    }
    out
}

/// `module.a["x"].aws_s3_bucket.b[0]`, `module.a`, `aws_vpc.this` as a `moved` block writes them (a traversal, or
/// a string in JSON). Keys must be literal; anything else is not an address OpenTofu accepts here.
fn parse_address(e: &Expr) -> Option<Address> {
    if let Some(text) = e.as_string_literal() {
        return foreach_syntax::parse_expr(&text).ok().and_then(|e| parse_address(&e));
    }
    let ExprKind::Traversal { base, steps } = &e.unparenthesized().kind else { return None };
    let ExprKind::Variable(first) = &base.kind else { return None };
    let mut names = std::iter::once(Step::Name(first.name.as_str()))
        .chain(steps.iter().map(|s| match &s.op {
            TraversalOp::GetAttr(a) => Step::Name(a.name.as_str()),
            TraversalOp::Index(k) => literal_key(k).map_or(Step::Invalid, Step::Key),
            TraversalOp::LegacyIndex(i) => i64::try_from(*i).map_or(Step::Invalid, |i| Step::Key(StateKey::Int(i))),
            TraversalOp::AttrSplat | TraversalOp::FullSplat => Step::Invalid,
        }))
        .peekable();
    let mut out = Address { module: Vec::new(), resource: None };
    loop {
        match names.next() {
            None => return (!out.module.is_empty()).then_some(out),
            Some(Step::Name("module")) => {
                let Some(Step::Name(call)) = names.next() else { return None };
                let key = match names.peek() {
                    Some(Step::Key(_)) => match names.next() {
                        Some(Step::Key(k)) => Some(k),
                        _ => None,
                    },
                    _ => None,
                };
                out.module.push((SmolStr::new(call), key));
            }
            Some(Step::Name(ty)) => {
                let Some(Step::Name(name)) = names.next() else { return None };
                let key = match names.next() {
                    None => None,
                    Some(Step::Key(k)) => Some(k),
                    Some(_) => return None,
                };
                if names.next().is_some() {
                    return None;
                }
                out.resource = Some((SmolStr::new(ty), SmolStr::new(name), key));
                return Some(out);
            }
            Some(_) => return None,
        }
    }
}

enum Step<'e> {
    Name(&'e str),
    Key(StateKey),
    Invalid,
}

fn literal_key(e: &Expr) -> Option<StateKey> {
    if let Some(s) = e.as_string_literal() {
        return Some(StateKey::Str(SmolStr::new(s)));
    }
    match &e.unparenthesized().kind {
        ExprKind::Number(n) => n.parse::<i64>().ok().map(StateKey::Int),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(text: &str) -> Address {
        parse_address(&foreach_syntax::parse_expr(text).unwrap()).unwrap_or_else(|| panic!("{text} parses"))
    }

    fn moved(at: &[&str], from: &str, to: &str) -> Move {
        Move { at: at.iter().map(|s| SmolStr::new(*s)).collect(), from: address(from), to: address(to) }
    }

    fn instance(module: &[(&str, Option<&str>)], ty: &str, name: &str, key: Option<StateKey>) -> Address {
        Address {
            module: module.iter().map(|(c, k)| (SmolStr::new(*c), k.map(|k| StateKey::Str(k.into())))).collect(),
            resource: Some((ty.into(), name.into(), key)),
        }
    }

    fn s(k: &str) -> Option<StateKey> {
        Some(StateKey::Str(k.into()))
    }

    #[test]
    fn addresses_parse_as_moved_blocks_write_them() {
        assert_eq!(address("aws_vpc.use1"), instance(&[], "aws_vpc", "use1", None));
        assert_eq!(address(r#"aws_vpc.this["use1"]"#), instance(&[], "aws_vpc", "this", s("use1")));
        assert_eq!(
            address(r#"module.a["x"].aws_s3_bucket.b[0]"#),
            instance(&[("a", Some("x"))], "aws_s3_bucket", "b", Some(StateKey::Int(0)))
        );
        assert_eq!(address("module.a"), Address { module: vec![("a".into(), None)], resource: None });
        let json = foreach_syntax::parse_expr(r#""aws_vpc.use1""#).unwrap();
        assert_eq!(parse_address(&json), Some(instance(&[], "aws_vpc", "use1", None)));
        for bad in ["var.x[each.key]", "aws_vpc.a.b", "module", "module.a[*]"] {
            let e = foreach_syntax::parse_expr(bad).unwrap();
            assert!(parse_address(&e).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_resource_move_renames_the_whole_block_or_one_instance() {
        let whole = moved(&[], "aws_vpc.a", "aws_vpc.b");
        assert_eq!(apply(&whole, &instance(&[], "aws_vpc", "a", s("k"))), Some(instance(&[], "aws_vpc", "b", s("k"))));
        let keyed = moved(&[], "aws_vpc.use1", r#"aws_vpc.this["use1"]"#);
        assert_eq!(
            apply(&keyed, &instance(&[], "aws_vpc", "use1", None)),
            Some(instance(&[], "aws_vpc", "this", s("use1")))
        );
        assert_eq!(apply(&keyed, &instance(&[], "aws_vpc", "use1", s("x"))), None);
        let one = moved(&[], r#"aws_vpc.a["x"]"#, "aws_vpc.b");
        assert_eq!(apply(&one, &instance(&[], "aws_vpc", "a", s("x"))), Some(instance(&[], "aws_vpc", "b", None)));
        assert_eq!(apply(&one, &instance(&[], "aws_vpc", "a", s("y"))), None);
    }

    #[test]
    fn a_module_move_carries_everything_below_it_and_applies_in_every_instance_of_its_module() {
        let m = moved(&["outer"], "module.old", r#"module.new["eu"]"#);
        let before = instance(&[("outer", Some("k")), ("old", None), ("inner", None)], "aws_vpc", "v", None);
        let after = instance(&[("outer", Some("k")), ("new", Some("eu")), ("inner", None)], "aws_vpc", "v", None);
        assert_eq!(apply(&m, &before), Some(after));
        assert_eq!(apply(&m, &instance(&[("old", None)], "aws_vpc", "v", None)), None, "only inside module.outer");
        let out_of_child = moved(&[], "module.a.aws_vpc.v", "aws_vpc.v");
        assert_eq!(
            apply(&out_of_child, &instance(&[("a", None)], "aws_vpc", "v", s("k"))),
            Some(instance(&[], "aws_vpc", "v", s("k")))
        );
    }
}
