//! Round trips of the fix: the fixed file parses, its `for_each` is no longer too similar to the provider's, and
//! every byte outside the edited ranges is unchanged. A `for_each = var.x` gets the variable's declaration from the
//! same text, as the provider checks pass it.

use super::*;
use crate::diagnostics::TextEdit;
use crate::fixes::apply_edits;
use crate::fixes::filter_for_each::{CollectionKind, CollectionVariable};
use foreach_syntax::ast::{Block, Body};
use foreach_syntax::parse;

fn find<'a>(body: &'a Body, ident: &str, label: &str) -> &'a Block {
    body.blocks().find(|b| b.ident.name == ident && b.label(b.labels.len() - 1) == Some(label)).unwrap()
}

fn for_each(block: &Block) -> &Expr {
    &block.body.attribute("for_each").unwrap().value
}

/// Fixes the `for_each` of block `ident "...label"` in `text` against provider `aws.by_region`; returns the new text
/// after checking the round-trip properties.
fn round_trip(text: &str, ident: &str, label: &str, kind: CollectionKind, automatic: bool) -> String {
    let parsed = parse(text, FileKind::Tf);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let provider = for_each(find(&parsed.body, "provider", "aws"));
    let user = for_each(find(&parsed.body, ident, label));
    assert!(too_similar(provider, user), "the input should warn");

    let declared = |name: &str| parsed.body.blocks().any(|b| b.ident.name == "variable" && b.label(0) == Some(name));
    let var_name = text[std::ops::Range::<usize>::from(user.range)].strip_prefix("var.");
    let var_block =
        var_name.and_then(|n| parsed.body.blocks().find(|b| b.ident.name == "variable" && b.label(0) == Some(n)));
    let variable = var_block.map(|b| CollectionVariable {
        name: var_name.unwrap_or_default(),
        file: FileId(7),
        text,
        block: b.range,
        ty: b.body.attribute("type").map(|a| a.value.as_ref()),
        declared: &declared,
    });
    let site = SimilarSite {
        user: if ident == "module" { SimilarUser::Module } else { SimilarUser::Resource },
        file: FileId(7),
        file_kind: FileKind::Tf,
        text,
        for_each: user,
        address: "aws_vpc.example",
        provider: "aws.by_region",
        providers_entry: if ident == "module" { Some("aws") } else { None },
        provider_for_each: FileRange::new(FileId(7), provider.range),
        collection: kind,
        variable,
    };
    let diag = too_similar_diagnostic(&site);
    assert_eq!(diag.related[0].location.range, provider.range);
    let fix = &diag.fixes[0];
    assert_eq!(fix.automatic, automatic);
    let edits: Vec<&TextEdit> = fix.edits.iter().collect();
    let applied = apply_edits(text, &edits);
    assert_eq!((applied.applied, applied.skipped), (edits.len(), 0));
    let new = applied.text;

    let reparsed = parse(&new, FileKind::Tf);
    assert!(reparsed.errors.is_empty(), "fixed text does not parse: {:?}\n{new}", reparsed.errors);
    let new_provider = for_each(find(&reparsed.body, "provider", "aws"));
    let new_user = for_each(find(&reparsed.body, ident, label));
    assert!(!too_similar(new_provider, new_user), "still warns:\n{new}");
    if edits.len() > 1 {
        return new;
    }

    let (start, end) = (usize::from(user.range.start()), usize::from(user.range.end()));
    let new_end = new.len() - (text.len() - end);
    assert_eq!(&new[..start], &text[..start], "bytes before the edit changed");
    assert_eq!(&new[new_end..], &text[end..], "bytes after the edit changed");
    assert!(new[start..new_end].contains(&text[start..end]), "the collection is not copied verbatim");
    new
}

const RFC_TRAP: &str = r#"terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "aws_regions" {
  type = map(object({
    vpc_cidr_block = string
  }))
}

provider "aws" {
  alias    = "by_region"
  for_each = var.aws_regions

  region = each.key
}

resource "aws_vpc" "example" {
  for_each = var.aws_regions # every region
  provider = aws.by_region[each.key]

  cidr_block = each.value.vpc_cidr_block
}
"#;

#[test]
fn the_rfc_trap_gets_an_enabled_attribute_and_the_filter() {
    let new = round_trip(RFC_TRAP, "resource", "example", CollectionKind::ObjectMap, true);
    assert!(
        new.contains("  for_each = { for k, v in var.aws_regions : k => v if v.enabled } # every region\n"),
        "{new}"
    );
    assert!(
        new.contains("  type = map(object({\n    vpc_cidr_block = string\n    enabled = optional(bool, true)\n  }))"),
        "{new}"
    );
    // An `enabled` the type has already is used as it is.
    let declared =
        RFC_TRAP.replace("vpc_cidr_block = string\n", "vpc_cidr_block = string\n    enabled        = bool\n");
    let new = round_trip(&declared, "resource", "example", CollectionKind::ObjectMap, true);
    assert_eq!(
        new,
        declared.replace("= var.aws_regions #", "= { for k, v in var.aws_regions : k => v if v.enabled } #")
    );
    // One of another type: the offered form only.
    let other = RFC_TRAP.replace("vpc_cidr_block = string\n", "vpc_cidr_block = string\n    enabled        = string\n");
    let new = round_trip(&other, "resource", "example", CollectionKind::ObjectMap, false);
    assert!(new.contains("if try(v.enabled, true)"), "{new}");
}

/// A variable with no value here (its value comes at plan time) is still declared `map(object({…}))`: the elements
/// are objects whatever the value, so the same fix is applied by itself.
#[test]
fn the_declared_type_decides_when_the_variable_has_no_value() {
    let known = round_trip(RFC_TRAP, "resource", "example", CollectionKind::ObjectMap, true);
    assert_eq!(round_trip(RFC_TRAP, "resource", "example", CollectionKind::Unknown, true), known);
}

#[test]
fn a_set_variable_gets_the_disabled_variable_of_the_docs() {
    let text = r#"variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
}

resource "aws_vpc" "example" {
  for_each = var.regions
  provider = aws.by_region[each.key]
}
"#;
    let new = round_trip(text, "resource", "example", CollectionKind::Set, true);
    assert!(new.contains("  for_each = setsubtract(var.regions, var.disabled_regions)\n"), "{new}");
    assert!(
        new.starts_with("variable \"regions\" {\n  type = set(string)\n}\n\nvariable \"disabled_regions\" {\n"),
        "{new}"
    );
    assert!(new.contains("  type        = set(string)\n  default     = []\n}\n\nprovider"), "{new}");
    // The name is taken: numbered.
    let taken = format!("{text}variable \"disabled_regions\" {{}}\n");
    let new = round_trip(&taken, "resource", "example", CollectionKind::Set, true);
    assert!(new.contains("setsubtract(var.regions, var.disabled_regions_2)"), "{new}");
}

#[test]
fn multi_line_collections_keep_their_comments_and_layout() {
    let text = r#"provider "aws" {
  alias = "by_region"
  for_each = merge(
    var.a, # first
    /* second */ var.b,
  )
}

module "net" {
  source = "./net"
  for_each = merge(
    var.a, # first
    /* second */ var.b,
  )
  providers = { aws = aws.by_region[each.key] }
}
"#;
    let new = round_trip(text, "module", "net", CollectionKind::ObjectMap, false);
    assert!(new.contains("for_each = { for k, v in merge(\n    var.a, # first\n    /* second */ var.b,\n  ) : k => v"));
}

#[test]
fn a_conditional_collection_is_parenthesised() {
    let text = r#"provider "aws" {
  alias    = "by_region"
  for_each = var.on ? var.regions : {}
}

resource "aws_vpc" "example" {
  for_each = var.on ? var.regions : {}
  provider = aws.by_region[each.key]
}
"#;
    let new = round_trip(text, "resource", "example", CollectionKind::Unknown, false);
    assert!(new.contains("{ for k, v in (var.on ? var.regions : {}) : k => v if try(v.enabled, true) }"));
}

#[test]
fn sets_get_a_setsubtract_that_is_not_applied_automatically() {
    let text = r#"provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
}

resource "aws_vpc" "example" {
  for_each = toset(var.regions)
  provider = aws.by_region[each.key]
}
"#;
    let new = round_trip(text, "resource", "example", CollectionKind::Set, false);
    assert!(new.contains("for_each = setsubtract(toset(var.regions), [])\n"));
}
