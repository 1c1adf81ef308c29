//! The `unknown-provider-instance` diagnostic of one reference: the keys it selects that the provider's `for_each`
//! does not have, the suggestions and fixes that make sense for those keys, and where the keys are written.
//!
//! Only a string key can be a misspelt instance key or a missing one: a number from `count.index` or a bool gets
//! neither "did you mean" nor "add it". When the provider's keys are written as a literal collection, "add the key"
//! is offered, first when that collection is in a `.tfvars` file (the values of one environment, which most likely
//! lack it); "use the closest instance" is labelled for what it does, moving the block to another provider
//! configuration. Related information points at the provider's `for_each`, at the collection its keys are written
//! in when that is elsewhere (a local, a default, a `.tfvars` line), at the element of the block's own
//! collection that supplied a wrong `each.key`, and at the value a key expression such as `[var.primary]` or
//! `[local.dr_region]` takes (the `.tfvars` line, the default or the local that writes it).

use foreach_syntax::TextRange;
use foreach_syntax::ast::Expr;

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::fixes::add_key::add_keys;
use crate::fixes::key_source::{LiteralCollection, ScopeLookup, literal_collection, literal_string_origin};
use crate::fixes::use_instance::use_instance;
use crate::model::items::Arg;
use crate::model::refs::references;
use crate::suggest::closest;
use foreach_syntax::quote;

/// What a selected key was before it was converted to a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    String,
    Number,
    Bool,
}

/// A key a reference selects that the provider has no instance for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingKey {
    pub key: String,
    /// The referring block's instance that selects it (`["us"]`, `[0]`), when the block repeats.
    pub instance: Option<String>,
    pub kind: KeyKind,
}

/// The reference and what it refers to.
pub struct Site<'a> {
    pub file: FileId,
    pub key_expr: &'a Expr,
    /// `aws.by_region`.
    pub config: &'a str,
    pub provider_for_each: &'a Arg,
    /// The `for_each` of the block that holds the reference, if it has one.
    pub user_for_each: Option<&'a Arg>,
    /// What moves to another configuration when another instance is selected: "this resource", ….
    pub noun: &'a str,
}

pub fn unknown_instance(
    site: &Site<'_>,
    known: &[&str],
    missing: &[MissingKey],
    lookup: &ScopeLookup<'_>,
) -> Diagnostic {
    let name = site.config;
    let instances = if known.is_empty() {
        "it has no instances".to_string()
    } else {
        format!("its instances are {}", quote_list(known))
    };
    let keys: Vec<&str> = missing.iter().map(|m| m.key.as_str()).collect();
    let mut msg = if site.key_expr.as_string_literal().is_some() || missing.iter().all(|m| m.instance.is_none()) {
        format!("no provider instance {} in `{name}`; {instances}", quote_list(&keys))
    } else {
        let examples: Vec<String> = missing
            .iter()
            .take(3)
            .map(|m| match &m.instance {
                Some(i) => format!("`{}` for instance `{i}`", m.key),
                None => format!("`{}`", m.key),
            })
            .collect();
        let more = if missing.len() > 3 { format!(" and {} more", missing.len() - 3) } else { String::new() };
        format!("this key selects {}{more}, but `{name}` has no such instance; {instances}", examples.join(", "))
    };
    let mut strings: Vec<&str> = missing.iter().filter(|m| m.kind == KeyKind::String).map(|m| m.key.as_str()).collect();
    strings.sort_unstable();
    strings.dedup();
    let suggestion = match missing {
        [first, ..] if first.kind == KeyKind::String => closest(&first.key, known.iter().copied()),
        _ => None,
    };
    if let Some(s) = suggestion {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    if missing.iter().any(|m| m.kind == KeyKind::Number) && mentions_count(site.key_expr) {
        msg.push_str(
            "; `count.index` numbers this block's instances 0, 1, …, while the provider's instances are keyed by its \
             `for_each`: repeat this block with `for_each` over the same keys and select `[each.key]`",
        );
    }
    let pfe = site.provider_for_each;
    let mut d = Diagnostic::new(Code::UnknownProviderInstance, FileRange::new(site.file, site.key_expr.range), msg)
        .with_related(pfe.expr_location(), format!("the instances of `{name}` come from here"));

    let provider_keys = literal_collection(pfe.file, &pfe.expr(), lookup);
    if let Some(c) = &provider_keys
        && !(c.file == pfe.file && pfe.expr_range().contains_range(c.range))
        && let Some(at) = first_line(lookup, c.file, c.range)
    {
        d = d.with_related(at, format!("the keys of `{name}` are written here"));
    }
    // A key from a variable or a local: where that value is written (`primary = "use2"` in a `.tfvars` file).
    if let Some((file, range, value)) = literal_string_origin(site.file, site.key_expr, lookup)
        && strings.contains(&value.as_str())
        && let Some(at) = first_line(lookup, file, range)
    {
        d = d.with_related(at, format!("`{value}` comes from here"));
    }
    if is_each_key(site.key_expr)
        && let Some(fe) = site.user_for_each
        && let Some(c) = literal_collection(fe.file, &fe.expr(), lookup)
    {
        for key in strings.iter().take(3) {
            if let Some(entry) = c.entry(key)
                && let Some(at) = first_line(lookup, c.file, entry.range)
            {
                d = d.with_related(at, format!("`{key}` comes from here"));
            }
        }
    }

    let add = provider_keys.as_ref().and_then(|c| add_fix(c, &strings, name, lookup));
    let use_other = suggestion.and_then(|s| {
        let (text, kind) = (lookup.file_text)(site.file)?;
        let title = format!("Move {} to the provider configuration `{name}[{}]`", site.noun, quote(s));
        use_instance(site.file, kind, &text, site.key_expr, s, title)
    });
    let values_first = provider_keys
        .as_ref()
        .is_some_and(|c| (lookup.file_text)(c.file).is_some_and(|(_, kind)| kind == foreach_syntax::FileKind::Tfvars));
    let fixes = if values_first { [add, use_other] } else { [use_other, add] };
    for fix in fixes.into_iter().flatten() {
        d = d.with_fix(fix);
    }
    d
}

fn add_fix(c: &LiteralCollection, keys: &[&str], config: &str, lookup: &ScopeLookup<'_>) -> Option<Fix> {
    let (text, kind) = (lookup.file_text)(c.file)?;
    add_keys(c, &text, kind, keys, config)
}

/// `range` in `file`, cut at its first line break (related ranges stay on one line).
fn first_line(lookup: &ScopeLookup<'_>, file: FileId, range: TextRange) -> Option<FileRange> {
    let (text, _) = (lookup.file_text)(file)?;
    let written = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let len = written.find(['\r', '\n']).unwrap_or(written.len());
    Some(FileRange::new(file, TextRange::at(range.start(), (len as u32).into())))
}

/// `each.key`, as a whole key expression.
fn is_each_key(e: &Expr) -> bool {
    matches!(references(e, &[]).as_slice(), [r] if r.display() == "each.key" && r.range == e.range)
}

fn mentions_count(e: &Expr) -> bool {
    references(e, &[]).iter().any(|r| r.root() == "count")
}

pub fn quote_list(keys: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut parts: Vec<String> = keys.iter().take(SHOWN).map(|k| format!("`{k}`")).collect();
    if keys.len() > SHOWN {
        parts.push(format!("and {} more", keys.len() - SHOWN));
    }
    parts.join(", ")
}
