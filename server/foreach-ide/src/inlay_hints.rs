//! Inlay hints: the evaluated instance keys after a provider block's `for_each`, and the keys a
//! `provider = aws.by_region[…]` reference resolves to when the key is computed (`[each.key]`, `[local.primary]`,
//! `[lower(var.r)]`), each the union over every instance of the module. A literal key (`["use1"]`) gets no hint:
//! it would only repeat itself.

use foreach_syntax::TextSize;
use foreach_syntax::ast::{Expr, ExprKind};

use foreach_analysis::base::FileId;
use std::collections::BTreeSet;

use foreach_analysis::db::{Db, Workspace, module};
use foreach_analysis::providers::config::module_references;
use foreach_analysis::providers::expand::Expansion;

use super::provider_info::{key_list, module_instances, union_keys};
use super::{dir_of, source_file};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    /// Shown after this offset.
    pub offset: TextSize,
    pub label: String,
}

pub(crate) fn inlay_hints(db: &dyn Db, ws: Workspace, file: FileId) -> Vec<InlayHint> {
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    let Some(dir) = dir_of(db, ws, f) else { return Vec::new() };
    let m = module(db, dir);
    let instances = module_instances(db, ws, dir);
    let mut out = Vec::new();
    for (block, p) in m.providers.iter().enumerate() {
        let Some(fe) = &p.for_each else { continue };
        if fe.file != file {
            continue;
        }
        // Only when every instance of the module expands it: a partial list would read as the whole.
        if instances.is_empty()
            || !instances.iter().all(|mi| matches!(mi.analysis.expansions.get(block), Some(Expansion::Keys(_))))
        {
            continue;
        }
        let union = union_keys(&instances, block);
        let keys: Vec<&str> = union.iter().map(|k| k.key.as_str()).collect();
        out.push(InlayHint { offset: fe.range().end(), label: format!(" keys: {}", key_list(&keys, 6)) });
    }
    let (refs, _) = module_references(&m);
    for (i, site) in refs.iter().enumerate() {
        let Some(key) = &site.reference.key else { continue };
        if site.reference.file != file || is_literal(key) {
            continue;
        }
        let mut keys: BTreeSet<&str> = BTreeSet::new();
        for mi in &instances {
            if let Some(used) = mi.analysis.uses.get(i) {
                keys.extend(used.keys.iter().filter_map(|k| k.key.as_deref()));
            }
        }
        if !keys.is_empty() {
            let keys: Vec<&str> = keys.into_iter().collect();
            out.push(InlayHint { offset: site.reference.range.end(), label: format!(" → {}", key_list(&keys, 6)) });
        }
    }
    out.sort_by_key(|h| h.offset);
    out
}

/// A key written as a constant (`"use1"`, `0`, `("use1")`), which a hint would only repeat.
fn is_literal(key: &Expr) -> bool {
    let key = key.unparenthesized();
    key.as_string_literal().is_some() || matches!(key.kind, ExprKind::Number(_) | ExprKind::Bool(_))
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    #[test]
    fn keys_after_for_each_and_references() {
        let text = r#"provider "aws" {
  alias    = "by_region"
  for_each = toset(["b", "a"])
  region   = each.key
}
resource "aws_s3_bucket" "x" {
  for_each = toset(["a", "b"])
  provider = aws.by_region[each.key]
}
"#;
        let f = Fixture::parse(text);
        let hints = crate::Analysis::of(&f.host).inlay_hints(f.file_id("/ws/main.tf")).unwrap();
        let got: Vec<(String, String)> = hints
            .iter()
            .map(|h| (text[..usize::from(h.offset)].lines().last().unwrap().to_string(), h.label.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("  for_each = toset([\"b\", \"a\"])".to_string(), " keys: \"a\", \"b\"".to_string()),
                ("  provider = aws.by_region[each.key]".to_string(), " → \"a\", \"b\"".to_string()),
            ]
        );
    }

    #[test]
    fn no_hint_after_a_literal_key_only_after_a_computed_one() {
        let text = r#"locals {
  primary = "a"
}
provider "aws" {
  alias    = "by_region"
  for_each = toset(["a", "b"])
}
resource "aws_s3_bucket" "literal" {
  provider = aws.by_region["a"]
}
resource "aws_s3_bucket" "wrong" {
  provider = aws.by_region[("c")]
}
resource "aws_s3_bucket" "local" {
  provider = aws.by_region[local.primary]
}
resource "aws_s3_bucket" "function" {
  provider = aws.by_region[upper("b")]
}
"#;
        let f = Fixture::parse(text);
        let hints = crate::Analysis::of(&f.host).inlay_hints(f.file_id("/ws/main.tf")).unwrap();
        let got: Vec<(String, String)> = hints
            .iter()
            .map(|h| (text[..usize::from(h.offset)].lines().last().unwrap().trim().to_string(), h.label.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("for_each = toset([\"a\", \"b\"])".to_string(), " keys: \"a\", \"b\"".to_string()),
                ("provider = aws.by_region[local.primary]".to_string(), " → \"a\"".to_string()),
                ("provider = aws.by_region[upper(\"b\")]".to_string(), " → \"B\"".to_string()),
            ]
        );
    }

    #[test]
    fn union_over_the_instances_of_the_module() {
        let text = "#- /main.tf\nmodule \"a\" {\n  source  = \"./child\"\n  regions = [\"x\"]\n}\nmodule \"b\" {\n  source  = \"./child\"\n  regions = [\"y\", \"x\"]\n}\n#- /child/main.tf\nvariable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n}\nresource \"aws_s3_bucket\" \"b\" {\n  for_each = var.regions\n  provider = aws.by_region[each.key]\n}\n";
        let f = Fixture::parse(text);
        let hints = crate::Analysis::of(&f.host).inlay_hints(f.file_id("/ws/child/main.tf")).unwrap();
        let labels: Vec<&str> = hints.iter().map(|h| h.label.as_str()).collect();
        assert_eq!(labels, [" keys: \"x\", \"y\"", " → \"x\", \"y\""]);
        // One instance without a value for the variable: no key list that would look complete.
        let partial = text.replace(
            "module \"b\" {\n  source  = \"./child\"\n  regions = [\"y\", \"x\"]\n}\n",
            "module \"b\" {\n  source  = \"./child\"\n  regions = [\"y\", timestamp()]\n}\n",
        );
        let f = Fixture::parse(&partial);
        let hints = crate::Analysis::of(&f.host).inlay_hints(f.file_id("/ws/child/main.tf")).unwrap();
        let labels: Vec<&str> = hints.iter().map(|h| h.label.as_str()).collect();
        assert_eq!(labels, [" → \"x\""]);
    }
}
