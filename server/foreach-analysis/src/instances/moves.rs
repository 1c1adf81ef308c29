//! `moved` blocks: the addresses they write, and where they carry a resource or module instance; and `removed`
//! blocks, which take instances out of the state (forgotten, or destroyed with `lifecycle { destroy = true }`).
//!
//! OpenTofu applies the `moved` blocks of the configuration to the addresses of the prior state before planning
//! (`internal/refactoring`): a move of a resource (`aws_vpc.a` -> `aws_vpc.b`), of one instance (`aws_vpc.a["x"]`
//! -> `aws_vpc.b`), of a module call (`module.a` -> `module.b["eu"]`, carrying everything inside it), and, written
//! inside a module, of that module's own objects in every instance of it. A chain (`a -> b -> c`) is followed; a
//! resource moved into or out of a module call is written with the module path on both sides. Both the state's
//! findings (`state/declared.rs`) and `diff` (`diff/`) read them here.

use foreach_syntax::ast::{Expr, ExprKind, Structure, TraversalOp};
use std::sync::Arc;

use smol_str::SmolStr;

use crate::base::FileRange;
use crate::db::{Db, Workspace, file_index, module, parse};
use crate::state::{ModuleStep, StateKey};
use crate::tree::{CallTarget, ModuleTree, NodeId};

/// A resource instance or module instance address: module instance steps, then the resource (`None` for a module
/// instance, or in a `moved` block that moves a whole module call).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceAddress {
    pub module: Vec<ModuleStep>,
    pub resource: Option<(SmolStr, SmolStr, Option<StateKey>)>,
}

impl std::fmt::Display for InstanceAddress {
    /// `module.a["x"].aws_s3_bucket.b[0]`, as OpenTofu writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for (call, key) in &self.module {
            if !first {
                f.write_str(".")?;
            }
            first = false;
            write!(f, "module.{call}")?;
            if let Some(k) = key {
                f.write_str(&k.bracketed())?;
            }
        }
        if let Some((ty, name, key)) = &self.resource {
            if !first {
                f.write_str(".")?;
            }
            write!(f, "{ty}.{name}")?;
            if let Some(k) = key {
                f.write_str(&k.bracketed())?;
            }
        }
        Ok(())
    }
}

/// A `moved` block: where it is (the call names of its module), its `from` and `to` relative to that module, and
/// the block itself.
#[derive(Debug, Clone)]
pub struct Move {
    pub at: Vec<SmolStr>,
    pub from: InstanceAddress,
    pub to: InstanceAddress,
    pub location: FileRange,
}

/// How many `moved` blocks may apply to one address in a row (a chain `a -> b -> c`); a cycle stops here.
const MAX_MOVES: usize = 32;

/// The address after the `moved` blocks that apply to it, in turn, and the first block that applied.
pub fn follow(moves: &[Move], mut address: InstanceAddress) -> (InstanceAddress, Option<&Move>) {
    let mut first = None;
    for _ in 0..MAX_MOVES {
        match moves.iter().find_map(|m| apply(m, &address).map(|a| (a, m))) {
            Some((next, m)) => {
                first.get_or_insert(m);
                address = next;
            }
            None => break,
        }
    }
    (address, first)
}

/// The address `m` moves `address` to, if it applies.
pub fn apply(m: &Move, address: &InstanceAddress) -> Option<InstanceAddress> {
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
            Some(InstanceAddress { module: out, resource: Some((to_ty.clone(), to_name.clone(), key)) })
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
            Some(InstanceAddress { module: out, resource: address.resource.clone() })
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

/// The `moved` blocks of every module of the root's tree, with the call path of the module that holds each. A
/// module called from several places has its blocks once per call path.
pub fn collect_moves(db: &dyn Db, ws: Workspace, tree: &ModuleTree, root: NodeId) -> Vec<Move> {
    let mut out = Vec::new();
    each_block(db, ws, tree, root, "moved", |at, b, location| {
        let address = |name: &str| b.body.attribute(name).and_then(|a| parse_address(&a.value));
        if let (Some(from), Some(to)) = (address("from"), address("to")) {
            out.push(Move { at, from, to, location });
        }
    });
    out
}

/// A `removed` block (OpenTofu 1.7+): the resource or module call it takes out of the state, and whether its
/// objects are destroyed (`lifecycle { destroy = true }`) or only forgotten (the default: they stay where they are).
#[derive(Debug, Clone)]
pub struct Removed {
    pub at: Vec<SmolStr>,
    pub from: InstanceAddress,
    pub destroy: bool,
    pub location: FileRange,
}

impl Removed {
    /// Whether the block takes `address` (a resource instance, or a module instance) out of the state: `from`
    /// names the resource (every instance of it) or a module call (every instance of it and everything inside).
    /// A key written in `from` must match; OpenTofu accepts none there, so this is lenient.
    pub fn covers(&self, address: &InstanceAddress) -> bool {
        let at = self.at.len();
        if address.module.len() < at || address.module.iter().zip(&self.at).any(|((call, _), at)| call != at) {
            return false;
        }
        let rest = &address.module[at..];
        let steps_match = |from: &[ModuleStep], rest: &[ModuleStep]| {
            from.len() <= rest.len()
                && from.iter().zip(rest).all(|((fc, fk), (c, k))| fc == c && (fk.is_none() || fk == k))
        };
        match (&self.from.resource, &address.resource) {
            (Some((fty, fname, fkey)), Some((ty, name, key))) => {
                self.from.module.len() == rest.len()
                    && steps_match(&self.from.module, rest)
                    && fty == ty
                    && fname == name
                    && (fkey.is_none() || fkey == key)
            }
            (Some(_), None) => false,
            (None, _) => steps_match(&self.from.module, rest),
        }
    }
}

/// The `removed` blocks of every module of the root's tree, like [`collect_moves`].
pub fn collect_removed(db: &dyn Db, ws: Workspace, tree: &ModuleTree, root: NodeId) -> Vec<Removed> {
    let mut out = Vec::new();
    each_block(db, ws, tree, root, "removed", |at, b, location| {
        let Some(from) = b.body.attribute("from").and_then(|a| parse_address(&a.value)) else { return };
        let destroy = b.body.blocks_named("lifecycle").filter_map(|l| l.body.attribute("destroy")).any(|a| {
            matches!(a.value.unparenthesized().kind, ExprKind::Bool(true))
                || a.value.as_string_literal().is_some_and(|s| s == "true")
        });
        out.push(Removed { at, from, destroy, location });
    });
    out
}

/// An `import` block of the root module: the resource instances it adopts into the state (they exist already, so
/// applying it creates nothing), or why they are not known statically.
#[derive(Debug, Clone)]
pub struct Import {
    pub to: Result<Vec<InstanceAddress>, Arc<str>>,
    pub location: FileRange,
}

/// The `import` blocks of the root module (OpenTofu reads them nowhere else). `to` is a literal address, or, with
/// `for_each` (OpenTofu 1.7+), an address whose keys are literal or `each.key`, for each key of the `for_each`
/// evaluated in the root module's scope.
pub fn collect_imports(
    db: &dyn Db,
    ws: Workspace,
    tree: &ModuleTree,
    root: NodeId,
    scope: &crate::eval::ModuleScope,
) -> Vec<Import> {
    let mut out = Vec::new();
    let files = file_index(db, ws);
    let m = module(db, tree.node(root).dir);
    for block in m.others.iter().filter(|o| o.kind == "import") {
        let Some(file) = files.get(&block.site.file) else { continue };
        let parsed = parse(db, *file);
        let Some(b) = parsed.body.structures.iter().find_map(|s| match s {
            Structure::Block(b) if b.range == block.site.range => Some(b),
            _ => None,
        }) else {
            continue;
        };
        let Some(to) = b.body.attribute("to") else { continue };
        let location = block.site.name_location();
        let to = match b.body.attribute("for_each") {
            None => match parse_address_with(&to.value, None) {
                Some(a) => Ok(vec![a]),
                None => Err(Arc::from("its `to` is not an address with literal keys")),
            },
            Some(for_each) => {
                let ctx = crate::eval::EvalContext { origin: "for_each".into(), ..Default::default() };
                let v = scope.eval(block.site.file, &for_each.value, &ctx);
                match crate::providers::expand::instance_keys(&v) {
                    _ if v.first_unknown().is_some() => {
                        Err(super::keys::not_known("this `import` block", "for_each", &v).into())
                    }
                    Ok(keys) => keys
                        .into_iter()
                        .map(|(k, _)| parse_address_with(&to.value, Some(&StateKey::Str(SmolStr::new(k)))))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| Arc::from("its `to` has a key other than a literal or `each.key`")),
                    Err(problem) => Err(format!("the `for_each` of this `import` block {problem}").into()),
                }
            }
        };
        out.push(Import { to, location });
    }
    out
}

/// Calls `f` with each block of kind `kind` of every module of the root's tree, with the call path of its module.
fn each_block(
    db: &dyn Db,
    ws: Workspace,
    tree: &ModuleTree,
    root: NodeId,
    kind: &str,
    mut f: impl FnMut(Vec<SmolStr>, &foreach_syntax::ast::Block, FileRange),
) {
    let files = file_index(db, ws);
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let node = tree.node(id);
        stack.extend(node.children.iter().filter_map(|c| match c.target {
            CallTarget::Node(child) => Some(child),
            _ => None,
        }));
        let m = module(db, node.dir);
        for block in m.others.iter().filter(|o| o.kind == kind) {
            let Some(file) = files.get(&block.site.file) else { continue };
            let parsed = parse(db, *file);
            let found = parsed.body.structures.iter().find_map(|s| match s {
                Structure::Block(b) if b.range == block.site.range => Some(b),
                _ => None,
            });
            let Some(b) = found else { continue };
            let at = node.call_path.iter().map(SmolStr::new).collect();
            f(at, b, block.site.name_location());
        }
    }
}

/// `module.a["x"].aws_s3_bucket.b[0]`, `module.a`, `aws_vpc.this` as a `moved` block writes them (a traversal, or
/// a string in JSON). Keys must be literal; anything else is not an address OpenTofu accepts here.
pub fn parse_address(e: &Expr) -> Option<InstanceAddress> {
    parse_address_with(e, None)
}

/// [`parse_address`], where a key written `each.key` stands for `each_key` (an `import` block's `for_each`).
fn parse_address_with(e: &Expr, each_key: Option<&StateKey>) -> Option<InstanceAddress> {
    if let Some(text) = e.as_string_literal() {
        return foreach_syntax::parse_expr(&text).ok().and_then(|e| parse_address_with(&e, each_key));
    }
    let ExprKind::Traversal { base, steps } = &e.unparenthesized().kind else { return None };
    let ExprKind::Variable(first) = &base.kind else { return None };
    let mut names = std::iter::once(Step::Name(first.name.as_str()))
        .chain(steps.iter().map(|s| match &s.op {
            TraversalOp::GetAttr(a) => Step::Name(a.name.as_str()),
            TraversalOp::Index(k) => {
                literal_key(k).or_else(|| each_key.filter(|_| is_each_key(k)).cloned()).map_or(Step::Invalid, Step::Key)
            }
            TraversalOp::LegacyIndex(i) => i64::try_from(*i).map_or(Step::Invalid, |i| Step::Key(StateKey::Int(i))),
            TraversalOp::AttrSplat | TraversalOp::FullSplat => Step::Invalid,
        }))
        .peekable();
    let mut out = InstanceAddress { module: Vec::new(), resource: None };
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

/// Whether `e` is `each.key`.
fn is_each_key(e: &Expr) -> bool {
    match &e.unparenthesized().kind {
        ExprKind::Traversal { base, steps } => {
            matches!(&base.kind, ExprKind::Variable(v) if v.name.as_str() == "each")
                && matches!(steps.as_slice(), [s] if matches!(&s.op, TraversalOp::GetAttr(a) if a.name.as_str() == "key"))
        }
        _ => false,
    }
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
    use foreach_syntax::TextRange;

    fn address(text: &str) -> InstanceAddress {
        parse_address(&foreach_syntax::parse_expr(text).unwrap()).unwrap_or_else(|| panic!("{text} parses"))
    }

    fn moved(at: &[&str], from: &str, to: &str) -> Move {
        Move {
            at: at.iter().map(|s| SmolStr::new(*s)).collect(),
            from: address(from),
            to: address(to),
            location: FileRange::new(crate::base::FileId(0), TextRange::default()),
        }
    }

    fn instance(module: &[(&str, Option<&str>)], ty: &str, name: &str, key: Option<StateKey>) -> InstanceAddress {
        InstanceAddress {
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
        assert_eq!(address("module.a"), InstanceAddress { module: vec![("a".into(), None)], resource: None });
        let json = foreach_syntax::parse_expr(r#""aws_vpc.use1""#).unwrap();
        assert_eq!(parse_address(&json), Some(instance(&[], "aws_vpc", "use1", None)));
        for bad in ["var.x[each.key]", "aws_vpc.a.b", "module", "module.a[*]"] {
            let e = foreach_syntax::parse_expr(bad).unwrap();
            assert!(parse_address(&e).is_none(), "{bad}");
        }
    }

    #[test]
    fn addresses_print_as_opentofu_writes_them() {
        for text in [r#"module.a["x"].aws_s3_bucket.b[0]"#, "aws_vpc.use1", r#"module.a.module.b["k\"q"]"#] {
            assert_eq!(address(text).to_string(), text);
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

    #[test]
    fn a_removed_block_covers_every_instance_of_its_resource_or_module_call() {
        let removed = |at: &[&str], from: &str| Removed {
            at: at.iter().map(|s| SmolStr::new(*s)).collect(),
            from: address(from),
            destroy: false,
            location: FileRange::new(crate::base::FileId(0), TextRange::default()),
        };
        let bucket = removed(&[], "aws_s3_bucket.old");
        assert!(bucket.covers(&instance(&[], "aws_s3_bucket", "old", s("a"))));
        assert!(!bucket.covers(&instance(&[], "aws_s3_bucket", "kept", s("a"))));
        assert!(!bucket.covers(&instance(&[("m", None)], "aws_s3_bucket", "old", None)), "only in the root");
        let call = removed(&["outer"], "module.site");
        let inside = instance(&[("outer", Some("k")), ("site", Some("eu")), ("x", None)], "aws_vpc", "v", None);
        assert!(call.covers(&inside));
        assert!(call.covers(&InstanceAddress {
            module: vec![("outer".into(), None), ("site".into(), s("eu"))],
            resource: None
        }));
        assert!(!call.covers(&instance(&[("site", Some("eu"))], "aws_vpc", "v", None)), "only inside module.outer");
    }

    #[test]
    fn chains_are_followed_and_cycles_end() {
        let moves = [moved(&[], "aws_vpc.a", "aws_vpc.b"), moved(&[], "aws_vpc.b", "aws_vpc.c")];
        let (to, first) = follow(&moves, instance(&[], "aws_vpc", "a", None));
        assert_eq!(to, instance(&[], "aws_vpc", "c", None));
        assert_eq!(first.map(|m| m.to.to_string()), Some("aws_vpc.b".to_string()));
        let cycle = [moved(&[], "aws_vpc.a", "aws_vpc.b"), moved(&[], "aws_vpc.b", "aws_vpc.a")];
        let _ = follow(&cycle, instance(&[], "aws_vpc", "a", None));
    }
}
