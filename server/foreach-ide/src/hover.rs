//! Hover: what a reference evaluates to; on a version constraint, what it admits (`version_info.rs`).
//!
//! On `var.x` and `local.y` it shows the statically evaluated value in every instance of the module (a module
//! called twice can have two values), or why the value is unknown. On a module `source`/`version` or a backend or
//! encryption argument, the value OpenTofu evaluates at `tofu init` (`init_info.rs`). Short Markdown; no LSP types.

use foreach_syntax::TextRange;

use foreach_analysis::db::{Db, Workspace, module, parse};
use foreach_analysis::eval::Value;
use foreach_analysis::eval::render::console;
use foreach_analysis::module_eval::{scope_for_node, tree_values};
use foreach_analysis::tree::module_tree;

use super::cursor::reference_at;
use super::init_info::init_hover;
use super::key_origin::key_origins;
use super::provider_info::{expansion_markdown, key_list, module_instances, union_keys};
use super::references::config_at;
use super::resource_state::resource_hover;
use super::results::HoverResult;
use super::signature_help::function_hover;
use super::state_info::bound_instances;
use super::{FilePosition, dir_of, source_file};
use foreach_analysis::db::SourceFile;
use foreach_analysis::eval::render::compact;
use foreach_analysis::model::refs::Reference;
use foreach_analysis::providers::config::{ConfigTarget, resolve_config};
use foreach_analysis::providers::expand::Expansion;
use foreach_syntax::quote;
use std::collections::BTreeSet;

/// At most this many module instances are listed; the rest are counted.
const MAX_INSTANCES: usize = 5;

pub(crate) fn hover(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<HoverResult> {
    let file = source_file(db, ws, pos.file)?;
    if let Some(h) = super::version_info::version_hover(db, ws, file, pos) {
        return Some(h);
    }
    let parsed = parse(db, file);
    let at = reference_at(&parsed.body, pos.offset);
    // `local.k` in `aws.by_region[local.k]` is about the local, not the provider.
    let on_value = at.as_ref().is_some_and(|a| matches!(a.reference.root(), "var" | "local"));
    if !on_value && let Some(h) = provider_hover(db, ws, file, pos) {
        return Some(h);
    }
    // A resource block's name: its instances in the state.
    if at.is_none()
        && let Some(h) = resource_hover(db, ws, file, pos)
    {
        return Some(h);
    }
    if at.is_none()
        && let Some(h) = function_hover(&file.text(db), pos.offset)
    {
        return Some(h);
    }
    // A `var.`/`local.` reference inside a `source` keeps its own hover; the rest of the argument shows its value.
    if !at.as_ref().is_some_and(|a| matches!(a.reference.root(), "var" | "local" | "each"))
        && let Some(h) = init_hover(db, ws, file, pos)
    {
        return Some(h);
    }
    let at = at?;
    let r = &at.reference;
    if r.root() == "each" {
        return each_hover(db, ws, file, pos, r);
    }
    let name = r.attr(0)?;
    let kind = match r.root() {
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
    let title = format!("{}.{name}", r.root());
    if !declared {
        return Some(HoverResult { range: r.range, markdown: format!("`{title}` is not declared in this module") });
    }
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    // The instances of this module that exist; only the ones shown are evaluated again.
    let instances: Vec<_> = tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(index, node)| node.dir == dir && values.instances.get(*index).is_some_and(|v| v.has_instances))
        .map(|(_, node)| node)
        .collect();
    let shown: Vec<(String, Value)> = instances
        .iter()
        .take(MAX_INSTANCES)
        .filter_map(|node| {
            let (scope, _) = scope_for_node(db, ws, node);
            let value = match kind {
                Kind::Variable => scope.variable_value(name),
                Kind::Local => scope.local_value(name),
            };
            Some((node.address(), value?))
        })
        .collect();
    let mut md = format!("```hcl\n{title}\n```\n");
    match (shown.len(), instances.len()) {
        (0, _) => md.push_str("\nnot evaluated: this module is not part of any root module's tree\n"),
        (1, 1) => md.push_str(&render(&shown[0].1)),
        (_, n) => {
            for (address, v) in &shown {
                let label = if address.is_empty() { "root module".to_string() } else { format!("`{address}`") };
                md.push_str(&format!("\nin {label}:\n"));
                md.push_str(&render(v));
            }
            if n > shown.len() {
                md.push_str(&format!("\n…and {} more instances\n", n - shown.len()));
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
        .position(|p| p.for_each.as_ref().is_some_and(|a| a.file == pos.file && super::touches(a.range(), pos.offset)));
    let (block, range) = match on_for_each {
        Some(i) => (i, m.providers[i].for_each.as_ref()?.range()),
        None => {
            let (name, alias) = config_at(&m, pos)?;
            let ConfigTarget::Block(i) = resolve_config(&m, &name, alias.as_deref()) else { return None };
            let range = m
                .providers
                .iter()
                .find(|p| p.site.file == pos.file && super::touches(p.site.name_range, pos.offset))
                .map(|p| p.site.name_range)
                .or_else(|| {
                    let (refs, _) = foreach_analysis::providers::config::module_references(&m);
                    refs.into_iter()
                        .find(|r| r.reference.file == pos.file && super::touches(r.reference.range, pos.offset))
                        .map(|r| r.reference.range)
                })
                .unwrap_or_else(|| TextRange::empty(pos.offset));
            (i, range)
        }
    };
    let p = &m.providers[block];
    let address = p.alias_name().map_or_else(|| p.name.clone(), |a| format!("{}.{a}", p.name));
    let (refs, _) = foreach_analysis::providers::config::module_references(&m);
    let instances = module_instances(db, ws, dir);
    let mut md = format!("```hcl\nprovider \"{}\"  # {address}\n```\n", p.name);
    if instances.is_empty() {
        md.push_str(NOT_IN_TREE);
    }
    // The keys selected by the reference under the cursor, in every instance of the module.
    let mut all_selected: BTreeSet<String> = BTreeSet::new();
    for (n, mi) in instances.iter().enumerate() {
        let mut selected: Vec<String> = Vec::new();
        for (site, used) in refs.iter().zip(mi.analysis.uses.iter()) {
            if site.reference.file == pos.file && super::touches(site.reference.range, pos.offset) {
                selected.extend(used.keys.iter().filter_map(|k| k.key.clone()));
            }
        }
        all_selected.extend(selected.iter().cloned());
        if n >= MAX_INSTANCES {
            continue;
        }
        if instances.len() > 1 || !mi.address.is_empty() {
            md.push_str(&format!("\nin {}:\n", module_label(&mi.address)));
        }
        md.push('\n');
        let state = bound_instances(db, ws, mi.node, p);
        md.push_str(&expansion_markdown(mi.analysis.expansions.get(block)?, &selected, state.as_deref()));
    }
    if instances.len() > MAX_INSTANCES {
        md.push_str(&format!("\n…and {} more instances of this module\n", instances.len() - MAX_INSTANCES));
    }
    // A key no instance has (only said when every instance of the module knows its keys).
    let known = instances.iter().all(|mi| matches!(mi.analysis.expansions.get(block), Some(Expansion::Keys(_))));
    let union = union_keys(&instances, block);
    let (missing, keys): (Vec<&str>, Vec<&str>) = all_selected
        .iter()
        .map(String::as_str)
        .partition(|k| !instances.is_empty() && known && !union.iter().any(|u| u.key == *k));
    if !missing.is_empty() {
        let names: Vec<&str> = union.iter().map(|u| u.key.as_str()).collect();
        let have =
            if names.is_empty() { "has no instances".to_string() } else { format!("has {}", key_list(&names, 8)) };
        md.push_str(&format!("\n{} names no instance: `{address}` {have}\n", key_list(&missing, 8)));
    }
    if !keys.is_empty() {
        md.push_str(&format!("\nselects {}\n", key_list(&keys, 8)));
        let origins = key_origins(db, ws, dir, block, &keys[..keys.len().min(MAX_ORIGINS)]);
        for (key, origin) in origins {
            md.push_str(&format!("- {}: {origin}\n", quote(&key)));
        }
    }
    Some(HoverResult { range, markdown: md })
}

const NOT_IN_TREE: &str = "\nnot evaluated: this module is not part of any root module's tree\n";

/// At most this many selected keys say where they came from.
const MAX_ORIGINS: usize = 5;

/// At most this many provider instances are listed per module instance for `each.key`/`each.value`.
const MAX_EACH: usize = 10;

fn module_label(address: &str) -> String {
    if address.is_empty() { "the root module".to_string() } else { format!("`{address}`") }
}

/// On `each.key` or `each.value` inside a provider block with `for_each`: its value in every provider instance.
fn each_hover(db: &dyn Db, ws: Workspace, file: SourceFile, pos: FilePosition, r: &Reference) -> Option<HoverResult> {
    let field = r.attr(0)?;
    if field != "key" && field != "value" {
        return None;
    }
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let block = m
        .providers
        .iter()
        .position(|p| p.site.file == pos.file && super::touches(p.site.range, pos.offset) && p.for_each.is_some())?;
    let instances = module_instances(db, ws, dir);
    let mut md = format!("```hcl\neach.{field}\n```\n");
    if instances.is_empty() {
        md.push_str(NOT_IN_TREE);
    }
    for (n, mi) in instances.iter().enumerate() {
        if n >= MAX_INSTANCES {
            md.push_str(&format!("\n…and {} more instances of this module\n", instances.len() - MAX_INSTANCES));
            break;
        }
        if instances.len() > 1 || !mi.address.is_empty() {
            md.push_str(&format!("\nin {}:\n", module_label(&mi.address)));
        }
        md.push('\n');
        match mi.analysis.expansions.get(block)? {
            Expansion::Keys(keys) => {
                for pi in keys.iter().take(MAX_EACH) {
                    if field == "key" {
                        md.push_str(&format!("- {}\n", quote(&pi.key)));
                    } else {
                        md.push_str(&format!("- {}: {}\n", quote(&pi.key), compact(&pi.each_value)));
                    }
                }
                if keys.len() > MAX_EACH {
                    md.push_str(&format!("- … and {} more\n", keys.len() - MAX_EACH));
                }
            }
            other => md.push_str(&expansion_markdown(other, &[], None)),
        }
    }
    Some(HoverResult { range: r.range, markdown: md })
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
        let a = crate::Analysis::of(&f.host);
        a.hover(f.position()).unwrap().map(|h| h.markdown).unwrap_or_else(|| "<none>".to_string())
    }

    /// Hover with a state for the root module `/ws`: (module, `type.name`, instance key, provider address) per
    /// resource instance.
    fn check_with_state(text: &str, objects: &[(&str, &str, Option<&str>, &str)]) -> String {
        use foreach_analysis::state::{RootState, StateBuilder, StateKey};
        let mut f = Fixture::parse(text);
        let mut b = StateBuilder::new();
        for (module, resource, key, provider) in objects {
            let (ty, name) = resource.split_once('.').unwrap();
            let r = b.resource(module, ty, name).unwrap();
            b.object(r, key.map(|k| StateKey::Str(k.into())), None, provider).unwrap();
        }
        let state = RootState::Bindings(std::sync::Arc::new(b.finish()));
        f.host.apply_change(foreach_analysis::Change {
            states: vec![("/ws".to_string(), Some(state))],
            ..Default::default()
        });
        let a = crate::Analysis::of(&f.host);
        a.hover(f.position()).unwrap().map(|h| h.markdown).unwrap_or_else(|| "<none>".to_string())
    }

    const AWS: &str = r#"provider["registry.opentofu.org/hashicorp/aws"]"#;

    #[test]
    fn a_local_inside_a_provider_key_is_about_the_local() {
        let text = "provider \"aws\" {\n  alias    = \"r\"\n  for_each = toset([\"us\"])\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[local.$0k]\n}\nlocals {\n  k = \"us\"\n}\n";
        let md = check(text);
        assert!(md.contains("local.k") && md.contains("\"us\""), "{md}");
    }

    #[test]
    fn a_resource_name_lists_its_instances_in_the_state_and_nothing_without_one() {
        let text = "module \"m\" {\n  source   = \"./child\"\n  for_each = toset([\"x\"])\n}\n#- /child/main.tf\nresource \"aws_s3_bucket\" \"l$0ogs\" {\n  count = 1\n}\n";
        let objects = [
            ("module.m[\"x\"]", "aws_s3_bucket.logs", None, AWS),
            ("module.m[\"y\"]", "aws_s3_bucket.logs", None, AWS),
            ("", "aws_s3_bucket.logs", None, AWS),
            ("module.m[\"x\"]", "aws_s3_bucket.other", None, AWS),
        ];
        let md = check_with_state(text, &objects);
        assert_eq!(
            md,
            "```hcl\nresource \"aws_s3_bucket\" \"logs\"\n```\n\n2 instances in the state:\n- `module.m[\"x\"].aws_s3_bucket.logs`\n- `module.m[\"y\"].aws_s3_bucket.logs`\n"
        );
        assert!(!check(text).contains("in the state"), "no state, no state hover");
    }

    #[test]
    fn a_built_in_function() {
        let md = check("locals {\n  a = tos$0et([\"a\"])\n}\n");
        assert!(md.starts_with("```hcl\ntoset(v any) set(any)"), "{md}");
    }

    #[test]
    fn an_instance_key_says_how_many_resource_instances_the_state_binds_to_it() {
        let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"eu\", \"us\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"e$0u\"]\n}\n";
        let eu = format!("{AWS}.by_region[\"eu\"]");
        let ap = format!("{AWS}.by_region[\"ap\"]");
        let objects = [
            ("", "aws_s3_bucket.b", None, eu.as_str()),
            ("", "aws_s3_bucket.c", Some("x"), eu.as_str()),
            ("", "aws_s3_bucket.c", Some("y"), ap.as_str()),
        ];
        assert_eq!(
            check_with_state(text, &objects),
            "```hcl\nprovider \"aws\"  # aws.by_region\n```\n\n2 instances:\n- `\"eu\"`: region = \"eu\" ← selected · 2 resource instances in the state\n- `\"us\"`: region = \"us\" · no resource instances in the state\n\nno longer in the configuration, but the state binds resource instances to them (`tofu plan` fails until they are destroyed):\n- `[\"ap\"]`: 1 resource instance\n\nselects \"eu\"\n- \"eu\": an element of the list at `main.tf:3`\n"
        );
        // The same on the provider's `for_each`; without a state, nothing about it.
        let on_for_each = text.replace("e$0u", "eu").replace("for_each = toset", "for_each = to$0set");
        let md = check_with_state(&on_for_each, &objects);
        assert!(md.contains("- `\"eu\"`: region = \"eu\" · 2 resource instances in the state\n"), "{md}");
        assert!(!check(&on_for_each).contains("state"), "{}", check(&on_for_each));
    }

    #[test]
    fn state_counts_in_a_called_module_and_for_a_configuration_without_for_each() {
        // Terraform's registry host names the same provider; the configuration is found through the module path.
        let text = "module \"regional\" {\n  source = \"./child\"\n}\n#- /child/main.tf\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"eu\"])\n}\nprovider \"aws\" {\n  alias = \"one\"\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_reg$0ion[\"eu\"]\n}\n";
        let tf = r#"module.regional.provider["registry.terraform.io/hashicorp/aws"]"#;
        let (eu, one, one_keyed) = (format!("{tf}.by_region[\"eu\"]"), format!("{tf}.one"), format!("{tf}.one[\"k\"]"));
        let objects = [
            ("module.regional", "aws_s3_bucket.b", None, eu.as_str()),
            ("module.regional", "aws_s3_bucket.c", None, one.as_str()),
            ("module.regional", "aws_s3_bucket.d", None, one_keyed.as_str()),
            // The root module's own `aws.by_region` is another configuration.
            ("", "aws_s3_bucket.e", None, &format!("{AWS}.by_region[\"eu\"]")),
        ];
        let md = check_with_state(text, &objects);
        assert!(md.contains("- `\"eu\"`:  ← selected · 1 resource instance in the state\n"), "{md}");
        let single =
            check_with_state(&text.replace("by_reg$0ion", "by_region").replace("\"one\"", "\"o$0ne\""), &objects);
        assert!(
            single.contains("one instance (no `for_each`) · 1 resource instance in the state\n\nno longer in the configuration, but the state binds resource instances to them (`tofu plan` fails until they are destroyed):\n- `[\"k\"]`: 1 resource instance\n"),
            "{single}"
        );
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
    fn variable_per_module_instance_capped_and_without_the_calls_that_have_none() {
        let mut text = String::new();
        for i in 0..7 {
            text.push_str(&format!("module \"m{i}\" {{\n  source = \"./child\"\n  name   = \"n{i}\"\n}}\n"));
        }
        text.push_str("module \"off\" {\n  source = \"./child\"\n  count  = 0\n  name   = \"off\"\n}\n");
        text.push_str("#- /child/main.tf\nvariable \"name\" {}\nlocals {\n  n = var.na$0me\n}\n");
        let md = check(&text);
        assert_eq!(md.matches("\nin `module.").count(), 5, "{md}");
        assert!(md.contains("in `module.m0`:\n\n```hcl\n\"n0\"\n```"), "{md}");
        assert!(!md.contains("off"), "{md}");
        assert!(md.ends_with("\n…and 2 more instances\n"), "{md}");
    }

    #[test]
    fn a_reference_inside_the_key_of_another() {
        let md = check("locals {\n  l = { a = 1 }\n  x = module.m[local.l$0].out\n}\n");
        assert!(md.starts_with("```hcl\nlocal.l\n```"), "{md}");
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
            "```hcl\nprovider \"aws\"  # aws.by_region\n```\n\n2 instances:\n- `\"eu-west-1\"`: region = \"eu-west-1\" ← selected\n- `\"us-east-1\"`: region = \"us-east-1\"\n\nselects \"eu-west-1\"\n- \"eu-west-1\": an element of the list at `main.tf:4`\n"
        );
    }

    #[test]
    fn a_key_that_names_no_instance_says_so_and_lists_the_instances() {
        let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"eu\", \"us\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"a$0p\"]\n}\n";
        assert_eq!(
            check(text),
            "```hcl\nprovider \"aws\"  # aws.by_region\n```\n\n2 instances:\n- `\"eu\"`: region = \"eu\"\n- `\"us\"`: region = \"us\"\n\n\"ap\" names no instance: `aws.by_region` has \"eu\", \"us\"\n"
        );
        // When the instances are not known, nothing is said about the key beyond what it selects.
        let unknown = text.replace("toset([\"eu\", \"us\"])", "toset([timestamp()])");
        let md = check(&unknown);
        assert!(md.ends_with("\nselects \"ap\"\n") && !md.contains("names no instance"), "{md}");
    }

    #[test]
    fn keyword_provider_name() {
        let md = check(
            "provider \"null\" {\n  alias    = \"many\"\n  for_each = toset([\"a\"])\n}\nresource \"null_resource\" \"r\" {\n  provider = nu$0ll.many[\"a\"]\n}\n",
        );
        assert!(md.starts_with("```hcl\nprovider \"null\"  # null.many\n```\n\n1 instance:\n"), "{md}");
    }

    #[test]
    fn provider_reference_in_a_check_block() {
        let md = check(
            "provider \"aws\" {\n  alias    = \"r\"\n  for_each = toset([\"a\", \"b\"])\n  region   = each.key\n}\ncheck \"c\" {\n  data \"aws_region\" \"x\" {\n    provider = aws.$0r[\"b\"]\n  }\n}\n",
        );
        assert!(md.starts_with("```hcl\nprovider \"aws\"  # aws.r\n```\n\n2 instances:\n"), "{md}");
        assert!(md.contains("region = \"b\" ← selected"), "{md}");
    }

    #[test]
    fn not_on_a_reference() {
        assert_eq!(check("locals {\n  a = \"x$0\"\n}\n"), "<none>");
    }

    #[test]
    fn selected_key_says_where_it_came_from() {
        let text = "#- /main.tf\nvariable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_reg$0ion[\"eu\"]\n}\n#- /terraform.tfvars\nregions = [\n  \"us\",\n  \"eu\",\n]\n";
        let md = check(text);
        assert!(md.ends_with("\nselects \"eu\"\n- \"eu\": an element of the list at `terraform.tfvars:3`\n"), "{md}");
        let local = "locals {\n  r = {\n    us = \"us-east-1\"\n  }\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = local.r\n  region   = each.value\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"u$0s\"]\n}\n";
        assert!(check(local).ends_with("- \"us\": the map entry at `main.tf:3`\n"), "{}", check(local));
    }

    #[test]
    fn each_in_a_provider_block_per_instance() {
        let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = { a = \"us-east-1\", b = \"eu-west-1\" }\n  region   = each.val$0ue\n}\n";
        assert_eq!(check(text), "```hcl\neach.value\n```\n\n- \"a\": \"us-east-1\"\n- \"b\": \"eu-west-1\"\n");
        assert_eq!(check(&text.replace("each.val$0ue", "each.k$0ey")), "```hcl\neach.key\n```\n\n- \"a\"\n- \"b\"\n");
        // Beyond ten instances, a count.
        let many = text.replace("{ a = \"us-east-1\", b = \"eu-west-1\" }", "toset([for i in range(12) : \"k${i}\"])");
        let md = check(&many);
        assert_eq!(md.lines().filter(|l| l.starts_with("- \"")).count(), 10, "{md}");
        assert!(md.ends_with("- … and 2 more\n"), "{md}");
    }

    #[test]
    fn provider_hover_shows_every_instance_of_the_module() {
        let text = "module \"a\" {\n  source  = \"./child\"\n  regions = [\"x\"]\n}\nmodule \"b\" {\n  source  = \"./child\"\n  regions = [\"y\", \"z\"]\n}\n#- /child/main.tf\nvariable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  for_each = var.regions\n  provider = aws.by_reg$0ion[each.key]\n}\n";
        let md = check(text);
        assert_eq!(
            md,
            "```hcl\nprovider \"aws\"  # aws.by_region\n```\n\nin `module.a`:\n\n1 instance:\n- `\"x\"`: region = \"x\" ← selected\n\nin `module.b`:\n\n2 instances:\n- `\"y\"`: region = \"y\" ← selected\n- `\"z\"`: region = \"z\" ← selected\n\nselects \"x\", \"y\", \"z\"\n"
        );
        // each.key in the child's provider block: per instance of the module.
        let each = text
            .replace("aws.by_reg$0ion[each.key]", "aws.by_region[each.key]")
            .replace("region   = each.key", "region   = each.k$0ey");
        assert_eq!(
            check(&each),
            "```hcl\neach.key\n```\n\nin `module.a`:\n\n- \"x\"\n\nin `module.b`:\n\n- \"y\"\n- \"z\"\n"
        );
    }
}
