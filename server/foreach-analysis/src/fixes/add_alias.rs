//! The fix for `provider-for-each-without-alias`: insert `alias = "…"` on its own line above the `for_each`,
//! indented like it. The alias is the one the module's references already use for this provider when they name
//! exactly one configuration that does not exist (`aws.by_region[each.key]` written before the alias), else
//! `by_region` as the diagnostic's message suggests (numbered when that configuration exists already).

use foreach_syntax::{TextRange, TextSize};

use crate::base::FileRange;
use crate::diagnostics::{Code, Diagnostic, Fix, TextEdit};
use crate::model::module::Module;
use crate::providers::config::{ConfigTarget, module_references, resolve_config};
use crate::providers::expand::FileText;

/// Attaches the fix to the `provider-for-each-without-alias` diagnostics of `module` in `diags`.
pub fn attach(module: &Module, diags: &mut [Diagnostic], file_text: FileText<'_>) {
    for d in diags.iter_mut().filter(|d| d.code == Code::ProviderForEachWithoutAlias) {
        let Some(p) = module
            .providers
            .iter()
            .find(|p| p.alias.is_none() && p.for_each.as_ref().is_some_and(|fe| fe.key_location() == d.location))
        else {
            continue;
        };
        let Some((text, _)) = file_text(d.location.file) else { continue };
        let alias = alias_in_use(module, &p.name).unwrap_or_else(|| free_alias(module, &p.name));
        if let Some(fix) = add_alias(&text, d.location, &alias) {
            d.fixes.push(fix);
        }
    }
}

/// The fix inserting `alias = "<alias>"` above the `for_each` whose key is at `for_each_key`.
pub fn add_alias(text: &str, for_each_key: FileRange, alias: &str) -> Option<Fix> {
    let start = usize::from(for_each_key.range.start());
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..start];
    // `provider "aws" { for_each = … }` on one line has no line of its own to copy.
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let at = TextRange::empty(TextSize::from(line_start as u32));
    Some(Fix {
        title: format!("Add `alias = \"{alias}\"`"),
        edits: vec![TextEdit {
            location: FileRange::new(for_each_key.file, at),
            new_text: format!("{indent}alias = \"{alias}\"\n"),
        }],
        automatic: false,
    })
}

/// `by_region`, or `by_region_2`, … when the provider already has a configuration of that name.
fn free_alias(module: &Module, name: &str) -> String {
    (1..)
        .map(|n| if n == 1 { "by_region".to_string() } else { format!("by_region_{n}") })
        .find(|a| resolve_config(module, name, Some(a)) == ConfigTarget::Unknown)
        .unwrap_or_default()
}

/// The single undeclared alias the module's references use for provider `name`.
fn alias_in_use(module: &Module, name: &str) -> Option<String> {
    let (refs, _) = module_references(module);
    let mut aliases: Vec<&str> = refs
        .iter()
        .filter(|r| r.reference.name == name)
        .filter_map(|r| r.reference.alias_name())
        .filter(|a| resolve_config(module, name, Some(a)) == ConfigTarget::Unknown)
        .collect();
    aliases.sort_unstable();
    aliases.dedup();
    match aliases.as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    }
}
