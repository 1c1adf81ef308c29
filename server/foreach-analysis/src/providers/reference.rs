//! Parses the provider references of `provider = …` and `providers = { … }` into their parts, by the RFC's rules:
//! `name`, `name.alias`, `name.alias[KEY]`, where only the final bracket may hold an expression and only after an
//! alias. Legacy quoted references (`"aws.eu"`) are re-parsed, with a warning. Everything else is rejected here,
//! before any resolution, so later checks see only well-formed references.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, TemplateKind, TraversalOp};

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::refs::traversal_root as root_name;

/// A well-formed provider reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderRef {
    pub name: String,
    pub name_range: TextRange,
    pub alias: Option<(String, TextRange)>,
    /// The instance key expression, if the reference has `[…]`.
    pub key: Option<Expr>,
    /// The whole reference.
    pub range: TextRange,
    /// The file the expressions' ranges are in.
    pub file: FileId,
}

impl ProviderRef {
    /// `aws.by_region`, or `aws` for the default configuration.
    pub fn config_address(&self) -> String {
        match &self.alias {
            Some((a, _)) => format!("{}.{a}", self.name),
            None => self.name.clone(),
        }
    }

    pub fn alias_name(&self) -> Option<&str> {
        self.alias.as_ref().map(|(a, _)| a.as_str())
    }

    pub fn location(&self) -> FileRange {
        FileRange::new(self.file, self.range)
    }
}

/// Where the reference appears, for messages ("the `provider` argument" / "a `providers` entry").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefSite {
    ProviderArgument,
    ProvidersValue,
    ProvidersKey,
}

impl RefSite {
    fn describe(self) -> &'static str {
        match self {
            RefSite::ProviderArgument => "the `provider` argument",
            RefSite::ProvidersValue | RefSite::ProvidersKey => "a `providers` entry",
        }
    }
}

/// Roots that name ordinary values, never provider configurations: a provider reference can't be held in them.
const VALUE_ROOTS: &[&str] = &["var", "local", "module", "data", "each", "count", "self", "path", "terraform", "tofu"];

/// Parses `expr` as a provider reference; on failure returns the diagnostics explaining why. A quoted legacy
/// reference parses with a `quoted-provider-reference` warning returned alongside.
pub fn parse_provider_ref(file: FileId, expr: &Expr, site: RefSite) -> (Option<ProviderRef>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let expr = expr.unparenthesized();
    if let ExprKind::Template(t) = &expr.kind
        && t.kind == TemplateKind::Quoted
        && let Some(text) = t.as_literal()
    {
        // `provider = "aws.eu"`: OpenTofu still accepts it, deprecated. Re-parse the string's content and move its
        // ranges back onto the source, past the opening quote and over the escapes of a quoted key.
        diags.push(Diagnostic::new(
            Code::QuotedProviderReference,
            FileRange::new(file, expr.range),
            format!("provider references are not strings: write `{text}` without the quotes"),
        ));
        return match foreach_syntax::parse_expr(&text) {
            Ok(mut inner) => {
                let whole = expr.range;
                let content_len = u32::from(whole.len()).saturating_sub(2);
                let offsets = content_offsets(&text, u32::from(whole.start()) + 1, content_len);
                let to_source = |r: TextRange| -> TextRange {
                    let at = |o: foreach_syntax::TextSize| offsets.as_ref()?.get(usize::from(o)).copied();
                    match (at(r.start()), at(r.end())) {
                        (Some(s), Some(e)) if s <= e => TextRange::new(s.into(), e.into()),
                        _ => whole,
                    }
                };
                map_ranges(&mut inner, &to_source);
                let (r, more) = parse_provider_ref(file, &inner, site);
                diags.extend(more);
                // OpenTofu's shim for quoted references understands only literal keys.
                if let Some(k) = r.as_ref().and_then(|r| r.key.as_ref())
                    && k.as_string_literal().is_none()
                    && !matches!(k.kind, ExprKind::Number(_) | ExprKind::Bool(_))
                {
                    diags.push(invalid(
                        file,
                        expr.range,
                        site,
                        "a quoted reference can only hold a literal instance key; remove the quotes",
                    ));
                    return (None, diags);
                }
                (r, diags)
            }
            Err(_) => {
                diags.push(invalid(file, expr.range, site, "this string is not a provider reference"));
                (None, diags)
            }
        };
    }
    let (root, steps) = match &expr.kind {
        ExprKind::Traversal { base, steps } => (root_name(base), steps.as_slice()),
        _ => (root_name(expr), &[][..]),
    };
    let Some(root) = root else {
        let detail = if matches!(expr.kind, ExprKind::Traversal { .. }) {
            "expected a provider name such as `aws` or `aws.alias`"
        } else {
            "expected a provider name such as `aws`, `aws.alias` or `aws.alias[\"key\"]`, not an expression"
        };
        return (None, vec![invalid(file, expr.range, site, detail)]);
    };
    if VALUE_ROOTS.contains(&root.name.as_str()) {
        return (
            None,
            vec![invalid(
                file,
                expr.range,
                site,
                &format!(
                    "`{}` is a value, and provider references can't be held in variables or locals; name the provider configuration directly, as in `aws.by_region[\"us\"]`",
                    root.name
                ),
            )],
        );
    }
    let mut r = ProviderRef {
        name: root.name.to_string(),
        name_range: root.range,
        alias: None,
        key: None,
        range: expr.range,
        file,
    };
    match steps {
        [] => {}
        [first, rest @ ..] => {
            match &first.op {
                TraversalOp::GetAttr(alias) => r.alias = Some((alias.name.to_string(), alias.range)),
                TraversalOp::Index(_) if site == RefSite::ProvidersKey => {
                    return (None, vec![left_side_key(file, first.range)]);
                }
                TraversalOp::Index(_) => {
                    let msg = "an instance key needs an alias first: write `name.alias[key]` (a provider block with `for_each` must have an `alias`)";
                    return (None, vec![invalid(file, first.range, site, msg)]);
                }
                _ => {
                    return (
                        None,
                        vec![invalid(file, first.range, site, "a provider name can only be followed by `.alias`")],
                    );
                }
            }
            match rest {
                [] => {}
                [key] => match &key.op {
                    TraversalOp::Index(k) => r.key = Some((**k).clone()),
                    _ => {
                        return (
                            None,
                            vec![invalid(
                                file,
                                key.range,
                                site,
                                "after `name.alias` only an instance key in brackets may follow",
                            )],
                        );
                    }
                },
                [_, extra, ..] => {
                    return (
                        None,
                        vec![invalid(
                            file,
                            TextRange::new(extra.range.start(), expr.range.end()),
                            site,
                            "a provider reference ends after one instance key: nothing may follow `name.alias[key]`",
                        )],
                    );
                }
            }
        }
    }
    if site == RefSite::ProvidersKey
        && let Some(k) = &r.key
    {
        diags.push(left_side_key(file, k.range));
        return (None, diags);
    }
    (Some(r), diags)
}

fn left_side_key(file: FileId, range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidProviderReference,
        FileRange::new(file, range),
        "instance keys are not allowed on the left side of a `providers` entry: the child module receives a single configuration (`aws = aws.by_region[\"us\"]`)",
    )
}

/// The child-side name of a `providers` key (`aws`, `aws.src`), even when the key is malformed (`aws.src["x"]`),
/// so that one mistake is not reported again as a configuration the call fails to pass.
pub fn providers_key_name(expr: &Expr) -> Option<String> {
    let expr = expr.unparenthesized();
    match &expr.kind {
        // A legacy quoted key (`"aws.src" = …`) names the same configuration.
        ExprKind::Template(t) if t.kind == TemplateKind::Quoted => {
            providers_key_name(&foreach_syntax::parse_expr(&t.as_literal()?).ok()?)
        }
        ExprKind::Traversal { base, steps } => {
            let root = root_name(base)?;
            match steps.first().map(|s| &s.op) {
                Some(TraversalOp::GetAttr(a)) => Some(format!("{}.{}", root.name, a.name)),
                _ => Some(root.name.to_string()),
            }
        }
        _ => root_name(expr).map(|r| r.name.to_string()),
    }
}

fn invalid(file: FileId, range: TextRange, site: RefSite, detail: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidProviderReference,
        FileRange::new(file, range),
        format!("{} must name a provider configuration: {detail}", site.describe()),
    )
}

/// Where each byte of a quoted string's content is in the source, plus its end: `text` is the unescaped content,
/// whose source starts at `start` and is `raw_len` bytes long. A reference holds no escapes but `\"` and `\\` (around
/// a literal key, `"aws.r[\"us\"]"`); when the lengths say there were others, `None`.
fn content_offsets(text: &str, start: u32, raw_len: u32) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(text.len() + 1);
    let mut at = start;
    for c in text.chars() {
        out.extend(std::iter::repeat_n(at, c.len_utf8()));
        at += if matches!(c, '"' | '\\') { 2 } else { c.len_utf8() as u32 };
    }
    out.push(at);
    (at - start == raw_len).then_some(out)
}

/// Maps every range in `expr` with `f` (for expressions parsed out of a string literal).
fn map_ranges(expr: &mut Expr, f: &dyn Fn(TextRange) -> TextRange) {
    let map = |r: &mut TextRange| *r = f(*r);
    map(&mut expr.range);
    match &mut expr.kind {
        ExprKind::Variable(i) => map(&mut i.range),
        ExprKind::Traversal { base, steps } => {
            map_ranges(base, f);
            for s in steps {
                map(&mut s.range);
                match &mut s.op {
                    TraversalOp::GetAttr(i) => map(&mut i.range),
                    TraversalOp::Index(e) => map_ranges(e, f),
                    _ => {}
                }
            }
        }
        ExprKind::Parenthesis(e) => map_ranges(e, f),
        // Only references are re-parsed from strings; keys inside them are literals or simple traversals, whose
        // inner ranges matter only for their own start and end, already mapped above.
        _ => {}
    }
}
