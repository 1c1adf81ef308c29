//! The fix for `provider-for-each-without-alias`: insert `alias = "…"` on its own line above the `for_each`,
//! indented like it. Which alias is the caller's choice (`providers::config::suggested_alias`).

use foreach_syntax::{TextRange, TextSize};

use crate::base::{FileRange, FileText};
use crate::diagnostics::{Code, Diagnostic, Fix, TextEdit};
use crate::model::module::Module;

/// Attaches the fix to the `provider-for-each-without-alias` diagnostics of `module` in `diags`. `alias_for` names
/// the alias to add for a provider (the caller knows which configurations exist).
pub fn attach(module: &Module, diags: &mut [Diagnostic], file_text: FileText<'_>, alias_for: &dyn Fn(&str) -> String) {
    for d in diags.iter_mut().filter(|d| d.code == Code::ProviderForEachWithoutAlias) {
        let Some(p) = module
            .providers
            .iter()
            .find(|p| p.alias.is_none() && p.for_each.as_ref().is_some_and(|fe| fe.key_location() == d.location))
        else {
            continue;
        };
        let Some((text, _)) = file_text(d.location.file) else { continue };
        let alias = alias_for(&p.name);
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
