//! Hover: what a reference evaluates to.
//!
//! On `var.x` and `local.y` it shows the statically evaluated value in every instance of the module (a module
//! called twice can have two values), or why the value is unknown. Short Markdown; no LSP types.

use foreach_syntax::TextRange;

use crate::db::{Db, Workspace, module, parse};
use crate::eval::Value;
use crate::eval::render::console;
use crate::module_eval::tree_values;
use crate::tree::module_tree;

use super::cursor::reference_at;
use super::provider_info::{expansion_markdown, key_list, provider_info};
use super::references::config_at;
use super::{FilePosition, dir_of, source_file};
use crate::db::SourceFile;
use crate::providers::config::{ConfigTarget, resolve_config};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    /// What the hover is about (the reference), for the editor to highlight.
    pub range: TextRange,
    pub markdown: String,
}

/// At most this many module instances are listed; the rest are counted.
const MAX_INSTANCES: usize = 5;

pub(crate) fn hover(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<HoverResult> {
    let file = source_file(db, ws, pos.file)?;
    if let Some(h) = provider_hover(db, ws, file, pos) {
        return Some(h);
    }
    let parsed = parse(db, file);
    let at = reference_at(&parsed.body, pos.offset)?;
    let r = &at.reference;
    let name = r.attr(0)?;
    let kind = match r.root.as_str() {
        "var" => Kind::Variable,
        "local" => Kind::Local,
        _ => return None,
    };
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let declared = match kind {
        Kind::Variable => m.variable(name).is_some(),
        Kind::Local => m.local(name).is_some(),
    };
    let title = format!("{}.{name}", r.root);
    if !declared {
        return Some(HoverResult { range: r.range, markdown: format!("`{title}` is not declared in this module") });
    }
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    let mut shown: Vec<(String, Value)> = Vec::new();
    for (index, node) in tree.nodes.iter().enumerate() {
        if node.dir != dir {
            continue;
        }
        let Some(instance) = values.instances.get(index) else { continue };
        let value = match kind {
            Kind::Variable => instance.variable(name),
            Kind::Local => instance.local(name),
        };
        if let Some(v) = value {
            shown.push((node.address(), v.clone()));
        }
    }
    let mut md = format!("```hcl\n{title}\n```\n");
    match shown.len() {
        0 => md.push_str("\nnot evaluated: this module is not part of any root module's tree\n"),
        1 => md.push_str(&render(&shown[0].1)),
        n => {
            for (address, v) in shown.iter().take(MAX_INSTANCES) {
                let label = if address.is_empty() { "root module".to_string() } else { format!("`{address}`") };
                md.push_str(&format!("\nin {label}:\n"));
                md.push_str(&render(v));
            }
            if n > MAX_INSTANCES {
                md.push_str(&format!("\n…and {} more instances\n", n - MAX_INSTANCES));
            }
        }
    }
    Some(HoverResult { range: r.range, markdown: md })
}

/// On a provider block's label, alias or `for_each`, or on a provider reference: the configuration, its instances
/// with their evaluated arguments, and the keys the reference selects.
fn provider_hover(db: &dyn Db, ws: Workspace, file: SourceFile, pos: FilePosition) -> Option<HoverResult> {
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let on_for_each = m
        .providers
        .iter()
        .position(|p| p.for_each.as_ref().is_some_and(|a| a.file == pos.file && super::touches(a.range, pos.offset)));
    let (block, range) = match on_for_each {
        Some(i) => (i, m.providers[i].for_each.as_ref()?.range),
        None => {
            let (name, alias) = config_at(&m, pos)?;
            let ConfigTarget::Block(i) = resolve_config(&m, &name, alias.as_deref()) else { return None };
            let range = m
                .providers
                .iter()
                .find(|p| p.site.file == pos.file && super::touches(p.site.name_range, pos.offset))
                .map(|p| p.site.name_range)
                .or_else(|| {
                    let (refs, _) = crate::providers::config::module_references(&m);
                    refs.into_iter()
                        .find(|r| r.reference.file == pos.file && super::touches(r.reference.range, pos.offset))
                        .map(|r| r.reference.range)
                })
                .unwrap_or_else(|| TextRange::empty(pos.offset));
            (i, range)
        }
    };
    let info = provider_info(db, ws, dir)?;
    let p = &info.module.providers[block];
    let address = p.alias_name().map_or_else(|| p.name.clone(), |a| format!("{}.{a}", p.name));
    // The keys selected by the reference under the cursor, if any.
    let mut selected: Vec<String> = Vec::new();
    for (site, used) in info.refs.iter().zip(info.analysis.uses.iter()) {
        if site.reference.file == pos.file && super::touches(site.reference.range, pos.offset) {
            selected.extend(used.keys.iter().filter_map(|k| k.key.clone()));
        }
    }
    let mut md = format!(
        "```hcl
provider \"{}\"  # {address}
```
",
        p.name
    );
    if !info.address.is_empty() {
        md.push_str(&format!(
            "
in `{}`:
",
            info.address
        ));
    }
    md.push('\n');
    md.push_str(&expansion_markdown(info.analysis.expansions.get(block)?, &selected));
    if !selected.is_empty() {
        let keys: Vec<&str> = selected.iter().map(String::as_str).collect();
        md.push_str(&format!(
            "
selects {}
",
            key_list(&keys, 8)
        ));
    }
    Some(HoverResult { range, markdown: md })
}

enum Kind {
    Variable,
    Local,
}

fn render(v: &Value) -> String {
    match v {
        Value::Unknown(reason) => format!("\nunknown: {}\n", reason.explanation()),
        v => format!("\n```hcl\n{}\n```\n", console(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn check(text: &str) -> String {
        let f = Fixture::parse(text);
        let a = f.host.analysis();
        a.hover(f.position()).unwrap().map(|h| h.markdown).unwrap_or_else(|| "<none>".to_string())
    }

    #[test]
    fn local_value() {
        let md = check(
            r#"
locals {
  regions = toset(["us-east-1", "eu-west-1"])
  n       = length(local.reg$0ions)
}
"#,
        );
        assert_eq!(md, "```hcl\nlocal.regions\n```\n\n```hcl\ntoset([\n  \"eu-west-1\",\n  \"us-east-1\",\n])\n```\n");
    }

    #[test]
    fn variable_without_value() {
        let md = check(
            r#"
variable "region" {}
locals {
  r = var.reg$0ion
}
"#,
        );
        assert!(md.contains("unknown: `var.region` has no value"), "{md}");
    }

    #[test]
    fn undeclared() {
        let md = check("locals {\n  a = local.nope$0\n}\n");
        assert_eq!(md, "`local.nope` is not declared in this module");
    }

    #[test]
    fn provider_reference_shows_instances_and_the_selected_key() {
        let md = check(
            r#"
provider "aws" {
  alias    = "by_region"
  for_each = toset(["eu-west-1", "us-east-1"])
  region   = each.key
}
resource "aws_s3_bucket" "b" {
  provider = aws.by_reg$0ion["eu-west-1"]
}
"#,
        );
        assert_eq!(
            md,
            "```hcl\nprovider \"aws\"  # aws.by_region\n```\n\n2 instances:\n- `\"eu-west-1\"`: region = \"eu-west-1\" ← selected\n- `\"us-east-1\"`: region = \"us-east-1\"\n\nselects \"eu-west-1\"\n"
        );
    }

    #[test]
    fn not_on_a_reference() {
        assert_eq!(check("locals {\n  a = \"x$0\"\n}\n"), "<none>");
    }
}
