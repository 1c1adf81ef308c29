//! Finds the references an expression makes (`var.x`, `local.y`, `each.key`, `aws_s3_bucket.b.id`, …).
//!
//! It walks an expression the way OpenTofu's reference parser does, with one addition that matters for
//! correctness: names bound by `for` expressions, template `%{for}` directives and `dynamic` block iterators are
//! local symbols, not references, inside their scope.

use foreach_syntax::ast::{
    Expr, ExprKind, Ident, ObjectKey, Template, TemplateFor, TemplateIf, TemplatePart, TraversalOp, TraversalStep,
};
use foreach_syntax::{TextRange, TextSize};
use integer_encoding::VarInt;
use smol_str::SmolStr;

/// One reference: a root name and the attribute steps that follow it directly (at most two are kept, enough to
/// identify `var.x`, `local.y`, `each.key`, `module.m.out` or `aws_vpc.main.id`). After `module.m`, one instance key
/// or splat is stepped over so that the output name is kept too (`module.m[0].out` is stored as `module.m[].out`).
///
/// Stored as one dotted inline string plus ranges (40 bytes): a large workspace holds millions of references, and
/// a root and two attribute names as separate strings (88 bytes, often with heap strings) dominated the memory of a
/// `check` run. Names are identifiers, so splitting the path at `.` recovers them exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `root` or `root.attr` or `root.attr.attr`.
    path: SmolStr,
    /// The root name and the kept attribute steps.
    pub range: TextRange,
    /// The range of the root name alone.
    pub root_range: TextRange,
}

impl Reference {
    pub fn new(root: &str, attrs: &[&str], range: TextRange, root_range: TextRange) -> Reference {
        Reference::with_instance_step(root, attrs, false, range, root_range)
    }

    /// A reference whose first attribute is followed by an instance key or splat (see [`Self::selects_instance`]).
    fn with_instance_step(
        root: &str,
        attrs: &[&str],
        instance_step: bool,
        range: TextRange,
        root_range: TextRange,
    ) -> Reference {
        let mut path = smol_str::SmolStrBuilder::new();
        path.push_str(root);
        for (i, a) in attrs.iter().take(2).enumerate() {
            path.push('.');
            path.push_str(a);
            if i == 0 && instance_step {
                path.push_str(INSTANCE_STEP);
            }
        }
        Reference { path: path.finish(), range, root_range }
    }

    /// The root name: `var`, `local`, `each`, `module`, a resource type…
    pub fn root(&self) -> &str {
        self.path.split('.').next().unwrap_or_default()
    }

    pub fn attr(&self, index: usize) -> Option<&str> {
        self.path.split('.').nth(index + 1).map(|a| a.strip_suffix(INSTANCE_STEP).unwrap_or(a))
    }

    /// Whether an instance key or a splat stands between a module call and the output name (`module.m[0].out`,
    /// `module.m[*].out`), rather than `module.m.out`.
    pub fn selects_instance(&self) -> bool {
        self.path.contains(INSTANCE_STEP)
    }

    /// `var.x` style rendering of the kept part (`module.m[].out` for an output of selected instances).
    pub fn display(&self) -> &str {
        &self.path
    }
}

/// The references of an item body, packed: summaries keep every resource's, output's and validation's references
/// for the whole session, and as a list of [`Reference`]s (40 bytes each, plus a heap string for each path over 23
/// bytes) they were the largest part of a summary after its items (4.7 MB of `check`'s peak on the dev corpus). A
/// body's references are read a few times per module (undefined references, `each` outside `for_each`), so each
/// read decodes them afresh.
///
/// Each reference is its path's length and bytes, then its start relative to the previous reference's start, its
/// length, where its root starts relative to its start and the root's length, as variable-length integers
/// (`integer-encoding`'s, zigzag for the signed ones): about 15 bytes for a typical one. Written by hand on those
/// varints rather than through serde: on a workspace of 118,000 resources postcard's serializer, called per
/// reference, cost a tenth of `check`'s instructions. LZ4 on the longer lists took 0.4 MB more off `check`'s peak
/// on the dev corpus but 1.5% more instructions (a buffer zeroed and filled on every read); not kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PackedReferences(thin_vec::ThinVec<u8>);

impl PackedReferences {
    pub fn new(refs: &[Reference]) -> PackedReferences {
        if refs.is_empty() {
            return PackedReferences::default();
        }
        // Sized exactly first and written once: growing the list as it is written, then copying it without slack,
        // was a third of the cost of packing.
        let numbers = |r: &Reference, previous: i64| {
            let start = i64::from(u32::from(r.range.start()));
            let root_start = i64::from(u32::from(r.root_range.start()));
            (start, [start - previous, root_start - start], [u32::from(r.range.len()), u32::from(r.root_range.len())])
        };
        let mut size = 0;
        let mut previous = 0i64;
        for r in refs {
            let (start, signed, lens) = numbers(r, previous);
            size += (r.path.len() as u64).required_space() + r.path.len();
            size += signed.iter().map(|n| n.required_space()).sum::<usize>();
            size += lens.iter().map(|n| n.required_space()).sum::<usize>();
            previous = start;
        }
        let mut packed = thin_vec::ThinVec::with_capacity(size);
        let mut previous = 0i64;
        for r in refs {
            let (start, [delta, root_delta], [len, root_len]) = numbers(r, previous);
            put(&mut packed, r.path.len() as u64);
            packed.extend_from_slice(r.path.as_bytes());
            put(&mut packed, delta);
            put(&mut packed, len);
            put(&mut packed, root_delta);
            put(&mut packed, root_len);
            previous = start;
        }
        debug_assert_eq!(packed.len(), size, "sized exactly");
        PackedReferences(packed)
    }

    /// The references, in the order they were packed.
    pub fn iter(&self) -> impl Iterator<Item = Reference> + '_ {
        self.records().map(|(path, range, root_range)| Reference { path: SmolStr::new(path), range, root_range })
    }

    /// The references whose root is `root` (`each`), without making the others.
    pub fn with_root<'a>(&'a self, root: &'a str) -> impl Iterator<Item = Reference> + 'a {
        self.records()
            .filter(move |(path, ..)| path.split('.').next() == Some(root))
            .map(|(path, range, root_range)| Reference { path: SmolStr::new(path), range, root_range })
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each reference's path and ranges, as packed.
    fn records(&self) -> impl Iterator<Item = (&str, TextRange, TextRange)> + '_ {
        let mut rest: &[u8] = &self.0;
        let mut previous = 0i64;
        // Only bytes `new` wrote are read: a failure here is a bug in this encoding, and ends the list.
        std::iter::from_fn(move || {
            let len = usize::try_from(take::<u64>(&mut rest)?).ok()?;
            let path = std::str::from_utf8(rest.get(..len)?).ok()?;
            rest = &rest[len..];
            let start = previous + take::<i64>(&mut rest)?;
            let range = range_at(start, take(&mut rest)?)?;
            let root_range = range_at(start + take::<i64>(&mut rest)?, take(&mut rest)?)?;
            previous = start;
            Some((path, range, root_range))
        })
    }
}

/// Appends `n` as a varint.
fn put(bytes: &mut thin_vec::ThinVec<u8>, n: impl VarInt) {
    let mut buf = [0u8; 10];
    let len = n.encode_var(&mut buf);
    bytes.extend_from_slice(&buf[..len]);
}

/// Reads a varint off the front of `bytes`.
fn take<N: VarInt>(bytes: &mut &[u8]) -> Option<N> {
    let (n, len) = N::decode_var(bytes)?;
    *bytes = &bytes[len..];
    Some(n)
}

fn range_at(start: i64, len: u32) -> Option<TextRange> {
    Some(TextRange::at(TextSize::from(u32::try_from(start).ok()?), TextSize::from(len)))
}

/// Marks, in the stored path, a call name that an instance key or splat follows (`module.m[].out`).
const INSTANCE_STEP: &str = "[]";

/// The root name of `expr` read as a traversal, as OpenTofu reads provider references and `configuration_aliases`
/// (HCL's `AbsTraversalForExpr`): in expressions HCL parses `null`, `true` and `false` as literals, but traversal
/// syntax has no keywords, so there they are names. `hashicorp/null` is usually called `null`, and
/// `provider = null.by_env[each.key]` names its configuration.
pub fn traversal_root(expr: &Expr) -> Option<Ident> {
    let name = match &expr.kind {
        ExprKind::Variable(root) => return Some(root.clone()),
        ExprKind::Null => "null",
        ExprKind::Bool(true) => "true",
        ExprKind::Bool(false) => "false",
        _ => return None,
    };
    Some(Ident { name: name.into(), range: expr.range })
}

/// Collects the references of `expr`, skipping names bound in `bound` (e.g. a `dynamic` block's iterator).
pub fn references(expr: &Expr, bound: &[&str]) -> Vec<Reference> {
    let mut walker = Walker { bound: bound.iter().map(|s| s.to_string()).collect(), out: Vec::new(), in_try: 0 };
    walker.expr(expr);
    walker.out
}

struct Walker {
    bound: Vec<String>,
    out: Vec<Reference>,
    /// How many `try`/`can` calls enclose the expression being walked.
    in_try: usize,
}

impl Walker {
    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid => {}
            ExprKind::Template(t) => self.template(t),
            ExprKind::Tuple(items) => items.iter().for_each(|e| self.expr(e)),
            ExprKind::Object(items) => {
                for item in items {
                    if let ObjectKey::Expr(k) = &item.key {
                        // A bare `{ (var.k) = 1 }` key is an expression, but `{ "k" = 1 }` is a literal: both walk.
                        self.expr(k);
                    }
                    self.expr(&item.value);
                }
            }
            ExprKind::Variable(ident) => self.push(&ident.name, ident.range, &[], expr.range),
            ExprKind::Traversal { base, steps } => {
                if let ExprKind::Variable(root) = &base.kind {
                    let mut attrs: Vec<&str> = Vec::with_capacity(2);
                    let mut instance_step = false;
                    let mut end = root.range.end();
                    let mut rest = steps.iter();
                    while attrs.len() < 2 {
                        let Some(step) = rest.next() else { break };
                        let step = match &step.op {
                            TraversalOp::GetAttr(_) => step,
                            // `module.NAME[key].OUT`, `module.NAME[*].OUT`, `module.NAME.0.OUT`: an output of the
                            // instances of a call with `count` or `for_each`, kept as `module.NAME.OUT` so that the
                            // output name can be checked against the called module.
                            TraversalOp::Index(_)
                            | TraversalOp::LegacyIndex(_)
                            | TraversalOp::FullSplat
                            | TraversalOp::AttrSplat
                                if root.name == "module" && attrs.len() == 1 =>
                            {
                                match rest.next() {
                                    Some(next @ TraversalStep { op: TraversalOp::GetAttr(_), .. }) => {
                                        instance_step = true;
                                        next
                                    }
                                    _ => break,
                                }
                            }
                            _ => break,
                        };
                        if let TraversalOp::GetAttr(a) = &step.op {
                            attrs.push(&a.name);
                            end = step.range.end();
                        }
                    }
                    // `try` and `can` catch the error of an output the called module does not declare (OpenTofu
                    // checks only that the call exists before evaluating), so there the output is not kept.
                    if root.name == "module" && self.in_try > 0 && attrs.len() > 1 {
                        attrs.truncate(1);
                        instance_step = false;
                        end = steps[0].range.end();
                    }
                    let range = TextRange::new(root.range.start(), end);
                    if !self.bound.iter().any(|b| *b == root.name) {
                        self.out.push(Reference::with_instance_step(
                            &root.name,
                            &attrs,
                            instance_step,
                            range,
                            root.range,
                        ));
                    }
                } else {
                    self.expr(base);
                }
                for step in steps {
                    if let TraversalOp::Index(i) = &step.op {
                        self.expr(i);
                    }
                }
            }
            ExprKind::FuncCall(call) => {
                let catches = matches!(call.name.name.name.as_str(), "try" | "can")
                    && call.name.namespace.iter().all(|n| n.name == "core");
                self.in_try += usize::from(catches);
                call.args.iter().for_each(|e| self.expr(e));
                self.in_try -= usize::from(catches);
            }
            ExprKind::Parenthesis(inner) => self.expr(inner),
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                self.expr(cond);
                self.expr(then_expr);
                self.expr(else_expr);
            }
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::For(f) => {
                self.expr(&f.collection);
                let pushed = self.bind(f.key_var.as_ref().map(|k| k.name.as_str()), &f.value_var.name);
                if let Some(k) = &f.key_expr {
                    self.expr(k);
                }
                self.expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.expr(c);
                }
                self.unbind(pushed);
            }
        }
    }

    fn template(&mut self, t: &Template) {
        for part in &t.parts {
            match part {
                TemplatePart::Literal { .. } => {}
                TemplatePart::Interpolation(e) => self.expr(e),
                TemplatePart::If(directive) => {
                    let TemplateIf { cond, then_part, else_part, .. } = &**directive;
                    self.expr(cond);
                    self.template(then_part);
                    if let Some(e) = else_part {
                        self.template(e);
                    }
                }
                TemplatePart::For(directive) => {
                    let TemplateFor { key_var, value_var, collection, body, .. } = &**directive;
                    self.expr(collection);
                    let pushed = self.bind(key_var.as_ref().map(|k| k.name.as_str()), &value_var.name);
                    self.template(body);
                    self.unbind(pushed);
                }
            }
        }
    }

    fn bind(&mut self, key: Option<&str>, value: &str) -> usize {
        let mut n = 1;
        self.bound.push(value.to_string());
        if let Some(k) = key {
            self.bound.push(k.to_string());
            n += 1;
        }
        n
    }

    fn unbind(&mut self, n: usize) {
        let len = self.bound.len();
        self.bound.truncate(len - n);
    }

    fn push(&mut self, root: &str, root_range: TextRange, attrs: &[&str], range: TextRange) {
        if self.bound.iter().any(|b| b == root) {
            return;
        }
        self.out.push(Reference::new(root, attrs, range, root_range));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        let e = foreach_syntax::parse_expr(text).expect("an expression");
        references(&e, &[]).iter().map(|r| r.display().to_string()).collect()
    }

    #[test]
    fn module_outputs_through_an_instance_key_or_splat() {
        assert_eq!(paths("module.m.out.x"), ["module.m.out"]);
        assert_eq!(paths("module.m[0].out"), ["module.m[].out"]);
        assert_eq!(paths("module.m[\"k\"].out"), ["module.m[].out"]);
        assert_eq!(paths("module.m[*].out"), ["module.m[].out"]);
        assert_eq!(paths("module.m.*.out"), ["module.m[].out"]);
        assert_eq!(paths("module.m.0.out"), ["module.m[].out"]);
        assert_eq!(paths("module.m[each.key].out"), ["module.m[].out", "each.key"]);
        // A whole instance, or two keys in a row: no output name.
        assert_eq!(paths("module.m[0]"), ["module.m"]);
        assert_eq!(paths("module.m[0][1]"), ["module.m"]);
        // Only after a module call: a resource keeps its type and name.
        assert_eq!(paths("aws_vpc.a[0].id"), ["aws_vpc.a"]);
        assert_eq!(paths("data.x.y[0].id"), ["data.x.y"]);
        // `try` and `can` catch a missing output, not a missing call.
        assert_eq!(
            paths("try(module.m[0].out, can(module.n.o), core::try(module.p.q))"),
            ["module.m", "module.n", "module.p"]
        );
        assert_eq!(paths("try(aws_vpc.a.id, 1)"), ["aws_vpc.a.id"]);
    }

    #[test]
    fn the_marker_stays_out_of_names() {
        let e = foreach_syntax::parse_expr("module.m[0].out").expect("an expression");
        let r = &references(&e, &[])[0];
        assert_eq!((r.root(), r.attr(0), r.attr(1), r.selects_instance()), ("module", Some("m"), Some("out"), true));
        let e = foreach_syntax::parse_expr("module.m.out").expect("an expression");
        assert!(!references(&e, &[])[0].selects_instance());
    }

    #[test]
    fn bound_names_are_not_references() {
        assert_eq!(paths("[for r in aws_vpc.a : r.id]"), ["aws_vpc.a"]);
        assert_eq!(paths("{ for k, v in var.m : k => v.x }"), ["var.m"]);
        assert_eq!(paths("\"%{for s in local.l}${s.name}%{endfor}\""), ["local.l"]);
    }

    fn at(start: u32, len: u32) -> TextRange {
        TextRange::at(TextSize::from(start), TextSize::from(len))
    }

    #[test]
    fn packed_references_read_back_as_they_were() {
        let long_root = "aws_iam_role_policy_attachment";
        let refs = vec![
            // Far into a large file (offsets of several varint bytes), then back before it (a negative step).
            Reference::new("var", &["x"], at(2_000_000, 5), at(2_000_000, 3)),
            Reference::new("local", &["y"], at(10, 7), at(10, 5)),
            // A long path (a heap string), its root not at the start of its range (bracketed in a splice).
            Reference::new(long_root, &["this", "arn"], at(400, 45), at(402, 30)),
            Reference::with_instance_step("module", &["m", "out"], true, at(500, 20), at(500, 6)),
            Reference::new("each", &["key"], at(0, 8), at(0, 4)),
        ];
        let packed = PackedReferences::new(&refs);
        assert_eq!(packed.iter().collect::<Vec<_>>(), refs);
        let back: Vec<Reference> = packed.iter().collect();
        assert!(back[3].selects_instance() && back[3].attr(1) == Some("out"));
        assert!(PackedReferences::new(&[]).is_empty() && PackedReferences::new(&[]).iter().next().is_none());
    }

    #[test]
    fn a_long_list_of_references_reads_back() {
        let refs: Vec<Reference> = (0..200u32)
            .map(|i| {
                let attr = ["tags", "name", "environment_name_for_everything"][i as usize % 3];
                Reference::new("var", &[attr], at(i * 30, 8 + attr.len() as u32), at(i * 30, 3))
            })
            .collect();
        assert_eq!(PackedReferences::new(&refs).iter().collect::<Vec<_>>(), refs);
    }
}
