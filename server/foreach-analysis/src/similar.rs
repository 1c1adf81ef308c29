//! The RFC's "too similar" comparison of two `for_each` expressions (provider iteration RFC, "The same expression
//! for `for_each` in both a provider configuration and its associated resources"), and the `too-similar-for-each`
//! diagnostic built from it.
//!
//! The comparison is purely structural: it walks both trees in lock step and applies the RFC's rule for each node
//! kind; anything the RFC does not list is never similar. It follows the RFC where OpenTofu's implementation falls
//! short of it (see `docs/diagnostics/too-similar-for-each.md`): a single-interpolation template `"${local.x}"` is
//! compared by the template rule, and `.tf.json` expressions are compared like native ones because our JSON loader
//! produces the same tree. Literal values and constant index keys are compared by the evaluator's own `==`, so
//! `1 == 1.0` holds exactly when OpenTofu says it does.

use foreach_syntax::ast::{
    BinaryOp, Expr, ExprKind, ForExpr, ObjectItem, ObjectKey, Template, TemplateFor, TemplateIf, TemplateKind,
    TemplatePart, TraversalOp, TraversalStep,
};
use foreach_syntax::{FileKind, TextRange, TextSize};

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::{Value, eval_literal_expr};
pub use crate::fixes::filter_for_each::CollectionKind;
use crate::fixes::filter_for_each::{CollectionVariable, filter_for_each_fix};

/// Whether two `for_each` expressions are "too similar" by the RFC: both contain at least one reference, and the
/// trees match rule by rule.
pub fn too_similar(a: &Expr, b: &Expr) -> bool {
    has_reference(a) && has_reference(b) && similar(a, b)
}

/// Whether the expression refers to anything (`var.x`, `local.y`, `each.key`, …). Names bound by a `for`
/// expression or template directive inside it are temporaries, not references (HCL's `Variables()` leaves them
/// out too), and a bare identifier object key is a string, not a reference.
pub fn has_reference(e: &Expr) -> bool {
    let mut bound = Vec::new();
    refs(e, &mut bound)
}

fn refs<'a>(e: &'a Expr, bound: &mut Vec<&'a str>) -> bool {
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid => false,
        ExprKind::Variable(id) => !bound.contains(&id.name.as_str()),
        ExprKind::Template(t) => template_refs(t, bound),
        ExprKind::Tuple(items) => items.iter().any(|i| refs(i, bound)),
        ExprKind::Object(items) => items.iter().any(|item| {
            let key = match &item.key {
                ObjectKey::Ident(_) => false,
                ObjectKey::Expr(k) => refs(k, bound),
            };
            key || refs(&item.value, bound)
        }),
        ExprKind::Traversal { base, steps } => {
            refs(base, bound)
                || steps.iter().any(|s| match &s.op {
                    TraversalOp::Index(i) => refs(i, bound),
                    _ => false,
                })
        }
        ExprKind::FuncCall(f) => f.args.iter().any(|a| refs(a, bound)),
        ExprKind::Parenthesis(inner) => refs(inner, bound),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            refs(cond, bound) || refs(then_expr, bound) || refs(else_expr, bound)
        }
        ExprKind::Unary { operand, .. } => refs(operand, bound),
        ExprKind::Binary { lhs, rhs, .. } => refs(lhs, bound) || refs(rhs, bound),
        ExprKind::For(f) => {
            // The collection is evaluated outside the temporaries' scope.
            if refs(&f.collection, bound) {
                return true;
            }
            let mark = bound.len();
            bound.extend(f.key_var.iter().map(|k| k.name.as_str()));
            bound.push(f.value_var.name.as_str());
            let inner = f.key_expr.as_ref().is_some_and(|k| refs(k, bound))
                || refs(&f.value_expr, bound)
                || f.cond.as_ref().is_some_and(|c| refs(c, bound));
            bound.truncate(mark);
            inner
        }
    }
}

fn template_refs<'a>(t: &'a Template, bound: &mut Vec<&'a str>) -> bool {
    t.parts.iter().any(|p| match p {
        TemplatePart::Literal { .. } => false,
        TemplatePart::Interpolation(e) => refs(e, bound),
        TemplatePart::If(directive) => {
            let TemplateIf { cond, then_part, else_part, .. } = &**directive;
            refs(cond, bound)
                || template_refs(then_part, bound)
                || else_part.as_ref().is_some_and(|e| template_refs(e, bound))
        }
        TemplatePart::For(directive) => {
            let TemplateFor { key_var, value_var, collection, body, .. } = &**directive;
            if refs(collection, bound) {
                return true;
            }
            let mark = bound.len();
            bound.extend(key_var.iter().map(|k| k.name.as_str()));
            bound.push(value_var.name.as_str());
            let inner = template_refs(body, bound);
            bound.truncate(mark);
            inner
        }
    })
}

/// The recursive rules, without the reference precondition (which the RFC states once, for the whole expression:
/// a literal part of a larger expression is compared by value).
fn similar(a: &Expr, b: &Expr) -> bool {
    // Parentheses are transparent on either side.
    let (a, b) = (a.unparenthesized(), b.unparenthesized());
    match (&a.kind, &b.kind) {
        (ExprKind::Variable(_) | ExprKind::Traversal { .. }, ExprKind::Variable(_) | ExprKind::Traversal { .. }) => {
            traversals_similar(a, b)
        }
        (ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_), _)
        | (_, ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_)) => literals_equal(a, b),
        (ExprKind::Template(ta), ExprKind::Template(tb)) => templates_similar(ta, tb),
        (ExprKind::FuncCall(fa), ExprKind::FuncCall(fb)) => {
            // Names as written: `toset` and `core::toset` are different names. The final-argument expansion
            // marker (`...`) is not part of the RFC's rule (nor of OpenTofu's): it is ignored.
            fa.name.full_name() == fb.name.full_name()
                && fa.args.len() == fb.args.len()
                && fa.args.iter().zip(&fb.args).all(|(x, y)| similar(x, y))
        }
        (
            ExprKind::Conditional { cond: c1, then_expr: t1, else_expr: e1 },
            ExprKind::Conditional { cond: c2, then_expr: t2, else_expr: e2 },
        ) => similar(c1, c2) && similar(t1, t2) && similar(e1, e2),
        (ExprKind::Tuple(xa), ExprKind::Tuple(xb)) => {
            xa.len() == xb.len() && xa.iter().zip(xb).all(|(x, y)| similar(x, y))
        }
        (ExprKind::Object(xa), ExprKind::Object(xb)) => {
            // Items in source order: reordering the items defeats the rule, as the RFC's "each of those
            // constituent expressions" in order implies.
            xa.len() == xb.len() && xa.iter().zip(xb).all(|(x, y)| object_items_similar(x, y))
        }
        (ExprKind::For(fa), ExprKind::For(fb)) => for_similar(fa, fb),
        (ExprKind::Binary { lhs: l1, op: o1, rhs: r1 }, ExprKind::Binary { lhs: l2, op: o2, rhs: r2 }) => {
            o1 == o2 && similar(l1, l2) && similar(r1, r2)
        }
        (ExprKind::Unary { op: o1, operand: x1 }, ExprKind::Unary { op: o2, operand: x2 }) => {
            o1 == o2 && similar(x1, x2)
        }
        _ => false,
    }
}

/// Two literal values are similar when `==` says they are equal (`1 == 1.0`, `null == null`; `1 == "1"` is
/// false). Only called when at least one side is a number, bool or null literal; a string literal is a template
/// and reaches here only against one of those, where `==` is false anyway because the types differ.
fn literals_equal(a: &Expr, b: &Expr) -> bool {
    let is_literal = |e: &Expr| {
        matches!(e.kind, ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_)) || e.as_string_literal().is_some()
    };
    if !is_literal(a) || !is_literal(b) {
        return false;
    }
    eq_operator(a, b)
}

/// Evaluates `a == b` with the evaluator, so the comparison is OpenTofu's `==` and nothing of our own. Only
/// called on constant expressions; anything that does not evaluate to `true` (including an error) is "not equal".
fn eq_operator(a: &Expr, b: &Expr) -> bool {
    let range = TextRange::default();
    let expr =
        Expr::new(ExprKind::Binary { lhs: Box::new(a.clone()), op: BinaryOp::Eq, rhs: Box::new(b.clone()) }, range);
    matches!(eval_literal_expr(FileId(u32::MAX), &expr), Ok(Value::Bool(true)))
}

/// One step of a flattened traversal, as HCL's model sees it: a root name, an attribute name, a constant index
/// (compared by value), a dynamic index (compared recursively), or a splat (which makes the whole expression a
/// splat, a node the RFC does not list).
enum Step<'a> {
    Root(&'a str),
    Attr(&'a str),
    /// `[0]`, `["a"]`, and the legacy `.0`.
    ConstIndex(IndexKey<'a>),
    DynIndex(&'a Expr),
    Splat,
}

enum IndexKey<'a> {
    Expr(&'a Expr),
    Legacy(u64),
}

/// Flattens `base.a[k].b` into its base and steps. A parenthesised traversal base is merged in, so `(var.x).a`
/// and `var.x.a` have the same steps (parentheses are transparent); a base that is not a name or a traversal (a
/// function call, a tuple) stays as the base and is compared recursively, as HCL compares the source of a
/// relative traversal.
fn flatten<'a>(e: &'a Expr, steps: &mut Vec<Step<'a>>) -> Option<&'a Expr> {
    let e = e.unparenthesized();
    match &e.kind {
        ExprKind::Variable(id) => {
            steps.push(Step::Root(&id.name));
            None
        }
        ExprKind::Traversal { base, steps: own } => {
            let source = flatten(base, steps);
            steps.extend(own.iter().map(step));
            source
        }
        _ => Some(e),
    }
}

fn step(s: &TraversalStep) -> Step<'_> {
    match &s.op {
        TraversalOp::GetAttr(id) => Step::Attr(&id.name),
        TraversalOp::Index(i) if !has_reference(i) && is_constant_key(i) => Step::ConstIndex(IndexKey::Expr(i)),
        TraversalOp::Index(i) => Step::DynIndex(i),
        TraversalOp::LegacyIndex(n) => Step::ConstIndex(IndexKey::Legacy(*n)),
        TraversalOp::AttrSplat | TraversalOp::FullSplat => Step::Splat,
    }
}

/// The keys HCL keeps as static traversal steps: literal values (a plain string, a number, a bool, null).
/// Anything else in brackets, even if constant (`["a${1}"]`, `[1 + 1]`), is an index *expression*.
fn is_constant_key(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_)) || e.as_string_literal().is_some()
}

fn traversals_similar(a: &Expr, b: &Expr) -> bool {
    let (mut sa, mut sb) = (Vec::new(), Vec::new());
    let base_a = flatten(a, &mut sa);
    let base_b = flatten(b, &mut sb);
    let bases = match (base_a, base_b) {
        (None, None) => true,
        (Some(x), Some(y)) => similar(x, y),
        _ => false,
    };
    bases && sa.len() == sb.len() && sa.iter().zip(&sb).all(|(x, y)| steps_equivalent(x, y))
}

fn steps_equivalent(a: &Step<'_>, b: &Step<'_>) -> bool {
    match (a, b) {
        (Step::Root(x), Step::Root(y)) | (Step::Attr(x), Step::Attr(y)) => x == y,
        (Step::ConstIndex(x), Step::ConstIndex(y)) => index_keys_equal(x, y),
        (Step::DynIndex(x), Step::DynIndex(y)) => similar(x, y),
        // A splat expression is not among the RFC's node kinds; a step of another kind is never equivalent.
        _ => false,
    }
}

fn index_keys_equal(a: &IndexKey<'_>, b: &IndexKey<'_>) -> bool {
    match (a, b) {
        (IndexKey::Legacy(x), IndexKey::Legacy(y)) => x == y,
        (IndexKey::Expr(x), IndexKey::Expr(y)) => eq_operator(x, y),
        (IndexKey::Legacy(n), IndexKey::Expr(e)) | (IndexKey::Expr(e), IndexKey::Legacy(n)) => {
            let number = Expr::new(ExprKind::Number(n.to_string().into()), TextRange::default());
            eq_operator(&number, e)
        }
    }
}

/// Templates: the same number of parts, each pair similar. Literal parts compare as string literals; an
/// interpolation compares its expression; an `%{if}` directive is a conditional in HCL's model and compares as one.
/// A `%{for}` directive is a template join, a node the RFC does not list: never similar. A plain string
/// (`"abc"`, one literal part) is thereby compared by value, as a literal.
fn templates_similar(a: &Template, b: &Template) -> bool {
    if let (Some(x), Some(y)) = (a.as_literal(), b.as_literal()) {
        // Literal templates are string literals; how the parser split them into parts does not matter.
        return x == y;
    }
    a.parts.len() == b.parts.len() && a.parts.iter().zip(&b.parts).all(|(x, y)| parts_similar(x, y))
}

fn parts_similar(a: &TemplatePart, b: &TemplatePart) -> bool {
    match (a, b) {
        (TemplatePart::Literal { value: x, .. }, TemplatePart::Literal { value: y, .. }) => x == y,
        (TemplatePart::Interpolation(x), TemplatePart::Interpolation(y)) => similar(x, y),
        (TemplatePart::Literal { value, .. }, TemplatePart::Interpolation(e))
        | (TemplatePart::Interpolation(e), TemplatePart::Literal { value, .. }) => {
            // `"a${"b"}"` vs `"ab"` have different part counts already; here a literal part meets an interpolated
            // literal (`"${1}"` vs `"1"`): compare them as literals with `==`.
            let lit = Expr::new(
                ExprKind::Template(Template {
                    parts: vec![TemplatePart::Literal { value: value.clone(), range: TextRange::default() }],
                    kind: TemplateKind::Quoted,
                }),
                TextRange::default(),
            );
            literals_equal(&lit, e.unparenthesized())
        }
        (TemplatePart::If(d1), TemplatePart::If(d2)) => {
            let (
                TemplateIf { cond: c1, then_part: t1, else_part: e1, .. },
                TemplateIf { cond: c2, then_part: t2, else_part: e2, .. },
            ) = (&**d1, &**d2);
            similar(c1, c2)
                && templates_similar(t1, t2)
                && match (e1, e2) {
                    (None, None) => true,
                    (Some(x), Some(y)) => templates_similar(x, y),
                    _ => false,
                }
        }
        _ => false,
    }
}

/// An identifier key `{ foo = … }` is the string `"foo"` (OpenTofu does not treat it as a reference), so it
/// matches a quoted key `{ "foo" = … }` with the same string. Other keys compare as expressions.
fn object_items_similar(a: &ObjectItem, b: &ObjectItem) -> bool {
    let keys = match (&a.key, &b.key) {
        (ObjectKey::Ident(x), ObjectKey::Ident(y)) => x.name == y.name,
        (ObjectKey::Ident(id), ObjectKey::Expr(e)) | (ObjectKey::Expr(e), ObjectKey::Ident(id)) => {
            e.unparenthesized().as_string_literal().is_some_and(|s| s == id.name)
        }
        (ObjectKey::Expr(x), ObjectKey::Expr(y)) => similar(x, y),
    };
    keys && similar(&a.value, &b.value)
}

fn for_similar(a: &ForExpr, b: &ForExpr) -> bool {
    let names = a.key_var.as_ref().map(|k| &k.name) == b.key_var.as_ref().map(|k| &k.name)
        && a.value_var.name == b.value_var.name;
    let opt = |x: &Option<Expr>, y: &Option<Expr>| match (x, y) {
        (None, None) => true,
        (Some(x), Some(y)) => similar(x, y),
        _ => false,
    };
    names
        && a.grouping == b.grouping
        && similar(&a.collection, &b.collection)
        && opt(&a.key_expr, &b.key_expr)
        && similar(&a.value_expr, &b.value_expr)
        && opt(&a.cond, &b.cond)
}

/// What uses the multi-instance provider configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimilarUser {
    /// A managed `resource` block.
    Resource,
    /// A `module` call (one diagnostic per keyed entry of its `providers` map).
    Module,
}

/// Everything [`too_similar_diagnostic`] needs, so that the caller (provider resolution) only gathers locations
/// and names.
pub struct SimilarSite<'a> {
    pub user: SimilarUser,
    /// The file holding the resource or module call (`Arg::file` of its `for_each`), its kind, and its full text
    /// (`file_index(db, ws)[&file].text(db)`), for the fix and for clipping the primary range to one line.
    pub file: FileId,
    pub file_kind: FileKind,
    pub text: &'a str,
    /// The value of the resource's or module call's `for_each` attribute.
    pub for_each: &'a Expr,
    /// The address of the resource or module call, with its module path: `aws_vpc.example`,
    /// `module.net.aws_vpc.example`, `module.net.module.vpc`.
    pub address: &'a str,
    /// The provider configuration as referenced: `aws.by_region`.
    pub provider: &'a str,
    /// For a module call, the key of the `providers` entry (`aws`, `aws.east`): one warning per keyed entry, as
    /// OpenTofu gives, and naming the entry keeps two of them on the same `for_each` from being merged as
    /// duplicates. `None` for a resource.
    pub providers_entry: Option<&'a str>,
    /// The provider block's `for_each` value.
    pub provider_for_each: FileRange,
    /// What the `for_each` value evaluates to, if known: chooses the fix.
    pub collection: CollectionKind,
    /// The variable of this module the `for_each` names, if it is `var.x`: the fix can declare what it needs there.
    pub variable: Option<CollectionVariable<'a>>,
}

/// The whole check for one site: the warning if its `for_each` is [`too_similar`] to `provider_for_each` (the
/// provider block's `for_each` value, whose location is `site.provider_for_each`), otherwise nothing.
pub fn check_too_similar(site: &SimilarSite<'_>, provider_for_each: &Expr) -> Option<Diagnostic> {
    too_similar(site.for_each, provider_for_each).then(|| too_similar_diagnostic(site))
}

/// Builds the complete `too-similar-for-each` warning for a site whose `for_each` the caller found
/// [`too_similar`] to the provider's: message, related location at the provider's `for_each`, and the quick fix.
pub fn too_similar_diagnostic(site: &SimilarSite<'_>) -> Diagnostic {
    let what = match site.user {
        SimilarUser::Resource => "resource",
        SimilarUser::Module => "module call",
    };
    let instances = match site.user {
        SimilarUser::Resource => "its instances",
        SimilarUser::Module => "the module's resources",
    };
    let passed = site.providers_entry.map(|e| format!(" (passed as `{e}`)")).unwrap_or_default();
    let message = format!(
        "this {what}'s `for_each` is too similar to the `for_each` of provider `{}`{passed}: removing an element \
         would remove a provider instance together with {instances} that need it to be destroyed, and the plan \
         fails; filter this collection instead (e.g. by an `enabled` attribute) so that elements are disabled here \
         first",
        site.provider
    );
    let location = FileRange::new(site.file, first_line(site.text, site.for_each.range));
    let mut d = Diagnostic::new(Code::TooSimilarForEach, location, message)
        .with_related(site.provider_for_each, escape_advice(site.provider, site.address));
    // In JSON syntax the value is a JSON string holding a template: an HCL edit would break the file, and
    // escaping it into the string is not worth the risk for a warning OpenTofu itself never gives there.
    let fix = if site.file_kind.is_json() {
        None
    } else {
        filter_for_each_fix(site.file, site.text, site.for_each, site.collection, site.variable.as_ref())
    };
    if let Some(fix) = fix {
        d = d.with_fix(fix);
    }
    d
}

/// The way out of the trap, for the related location: destroy the one instance of the element being removed, before
/// removing it. The target names that instance (`module.site["<key>"]`): without the key, `-target` selects every
/// instance of the resource or module call, and the command would destroy them all. Which element someone will
/// remove is not known here, so the key is a placeholder.
fn escape_advice(provider: &str, address: &str) -> String {
    format!(
        "the `for_each` of provider `{provider}`; to get out of the trap, destroy the instance of the element you \
         remove before removing it: `tofu apply -destroy -target='{address}[\"<key>\"]'` with that element's key \
         for `<key>` (never `-target='{address}'` alone, which would destroy every instance)"
    )
}

/// Diagnostics sit on one line: a multi-line `for_each` value is marked on its first line only.
pub(crate) fn first_line(text: &str, range: TextRange) -> TextRange {
    let start = usize::from(range.start());
    let end = usize::from(range.end()).min(text.len());
    match text.get(start..end).and_then(|s| s.find('\n')) {
        Some(nl) => {
            let line = text[start..start + nl].trim_end_matches('\r');
            TextRange::at(range.start(), TextSize::try_from(line.len()).unwrap_or_default())
        }
        None => range,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fix_tests;
