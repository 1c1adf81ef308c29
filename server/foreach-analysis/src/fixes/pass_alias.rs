//! The fix for a child module that refers to an aliased provider configuration of its caller, which is never
//! inherited: declare it in the child's `configuration_aliases` and pass it in each call's `providers` map.
//!
//! The caller of the builder decides where each edit goes ([`Declaration`], [`Pass`]); this module only writes
//! the text, in the layout around it (`insert.rs`).

use foreach_syntax::ast::{Block, Expr, ExprKind, ObjectKey};
use foreach_syntax::{TextRange, TextSize};
use std::sync::Arc;

use super::insert::{line_after, object_item, tuple_element};
use crate::base::{FileId, FileRange};
use crate::diagnostics::{Fix, TextEdit};

/// Where the child declares the alias.
pub enum Declaration<'a> {
    /// The child's `required_providers` entry for the provider: `aws = { source = … }`.
    Entry { file: FileId, text: &'a str, value: &'a Expr },
    /// A `required_providers` block without an entry for the provider.
    Block { file: FileId, text: &'a str, block: &'a Block },
    /// No `required_providers` at all: a new `terraform` block at the start of this file.
    NewBlock { file: FileId },
}

/// How one call passes the configuration.
pub enum Pass<'a> {
    /// Its `providers` map literal gets an entry.
    Map { file: FileId, text: &'a str, map: Arc<Expr> },
    /// It has no `providers` map: one is added after its `source` argument (the line holding `after`, indented
    /// like the line holding `indent_of`), and since a map ends the inheritance of default configurations, it
    /// passes `defaults` (`aws`) on as well.
    NewMap { file: FileId, text: &'a str, after: TextSize, indent_of: TextSize, defaults: &'a [String] },
}

/// The fix declaring `name.alias` in the child (provider source address `source_address`) and passing the caller's
/// configuration of that name in every call.
pub fn declare_and_pass(
    name: &str,
    alias: &str,
    source_address: &str,
    declaration: &Declaration<'_>,
    passes: &[Pass<'_>],
) -> Option<Fix> {
    let address = format!("{name}.{alias}");
    let mut edits = vec![declare(name, &address, source_address, declaration)?];
    for pass in passes {
        edits.push(pass_in(&address, pass)?);
    }
    Some(Fix {
        title: format!("Declare `{address}` in `configuration_aliases` and pass it from the calling module"),
        edits,
        automatic: false,
    })
}

fn edit(file: FileId, (at, new_text): (TextSize, String)) -> TextEdit {
    TextEdit { location: FileRange::new(file, TextRange::empty(at)), new_text }
}

fn declare(name: &str, address: &str, source_address: &str, declaration: &Declaration<'_>) -> Option<TextEdit> {
    let entry_body = |indent: &str| {
        format!(
            "{name} = {{\n{indent}  source                = \"{source_address}\"\n{indent}  configuration_aliases = [{address}]\n{indent}}}"
        )
    };
    match declaration {
        Declaration::Entry { file, text, value } => {
            let ExprKind::Object(items) = &value.kind else { return None };
            let existing = items.iter().find(|i| match &i.key {
                ObjectKey::Ident(id) => id.name == "configuration_aliases",
                ObjectKey::Expr(e) => e.as_string_literal().as_deref() == Some("configuration_aliases"),
            });
            match existing {
                Some(item) => Some(edit(*file, tuple_element(text, &item.value, address)?)),
                None => Some(edit(*file, object_item(text, value, &format!("configuration_aliases = [{address}]"))?)),
            }
        }
        Declaration::Block { file, text, block } => {
            let last = block.body.attributes().last()?;
            // Multi-line, so every line after the first is indented by `line_after` like the last entry.
            let body = entry_body("");
            Some(edit(*file, line_after(text, last.range.end(), last.range.start(), &body)?))
        }
        Declaration::NewBlock { file } => Some(TextEdit {
            location: FileRange::new(*file, TextRange::empty(0.into())),
            new_text: format!("terraform {{\n  required_providers {{\n    {}\n  }}\n}}\n\n", entry_body("    ")),
        }),
    }
}

fn pass_in(address: &str, pass: &Pass<'_>) -> Option<TextEdit> {
    match pass {
        Pass::Map { file, text, map } => Some(edit(*file, object_item(text, map, &format!("{address} = {address}"))?)),
        Pass::NewMap { file, text, after, indent_of, defaults } => {
            // Aligned as `tofu fmt` aligns them.
            let mut names: Vec<&str> = defaults.iter().map(String::as_str).collect();
            names.push(address);
            let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            let items: Vec<String> = names.iter().map(|n| format!("  {n:<width$} = {n}")).collect();
            let line = format!("providers = {{\n{}\n}}", items.join("\n"));
            Some(edit(*file, line_after(text, *after, *indent_of, &line)?))
        }
    }
}
