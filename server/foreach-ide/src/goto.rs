//! Go to definition: from `var.x` to its `variable` block, from `local.y` to its attribute in `locals`, from a
//! provider reference to its block, from the instance key of a reference (`["us"]`, `[each.key]`) to the
//! elements that write the keys it selects, and from a module call's `source` to the module it loads
//! (`init_info.rs`).

use std::collections::BTreeSet;

use foreach_analysis::db::{Db, ModuleDir, Workspace, module, parse};
use foreach_analysis::providers::config::{ConfigTarget, module_references, resolve_config};

use super::cursor::reference_at;
use super::init_info::source_definition;
use super::key_origin::key_origin_sites;
use super::occurrences::{Symbol, symbol_at};
use super::provider_info::module_instances;
use super::provider_links::provider_link_targets;
use super::results::NavigationTarget;
use super::{FilePosition, dir_of, source_file, touches};

pub(crate) fn goto_definition(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Vec<NavigationTarget> {
    let Some(file) = source_file(db, ws, pos.file) else { return Vec::new() };
    let Some(dir) = dir_of(db, ws, file) else { return Vec::new() };
    // First the named items (also `local.k` inside a provider key `aws.by_region[local.k]`: the local, not the key).
    if let Some(targets) = symbol_targets(db, ws, pos) {
        return targets;
    }
    if let Some(targets) = provider_link_targets(db, ws, dir, pos) {
        return targets;
    }
    if let Some(targets) = instance_key_targets(db, ws, dir, pos) {
        return targets;
    }
    if let Some(targets) = provider_reference_targets(db, dir, pos) {
        return targets;
    }
    let parsed = parse(db, file);
    let Some(at) = reference_at(&parsed.body, pos.offset) else {
        return source_definition(db, ws, file, pos);
    };
    let m = module(db, dir);
    let name = at.reference.attr(0).unwrap_or_default();
    match at.reference.root() {
        "var" => m
            .variables
            .iter()
            .filter(|v| v.name == name)
            .map(|v| NavigationTarget { file: v.site.file, full_range: v.site.range, focus_range: v.site.name_range })
            .collect(),
        "local" => m
            .locals
            .iter()
            .filter(|l| l.name == name)
            .map(|l| NavigationTarget { file: l.arg.file, full_range: l.arg.range(), focus_range: l.arg.name.range })
            .collect(),
        // A provider configuration: `aws`, `aws.by_region` (in `provider = …` or a `providers` map).
        root => {
            let alias = at.reference.attr(0);
            match resolve_config(&m, root, alias) {
                ConfigTarget::Block(i) => {
                    let p = &m.providers[i];
                    vec![NavigationTarget {
                        file: p.site.file,
                        full_range: p.site.range,
                        focus_range: p.site.name_range,
                    }]
                }
                _ => Vec::new(),
            }
        }
    }
}

/// On a named item (a `var.`/`local.` reference, a resource reference, `module.x.out`, a variable assigned in a
/// `.tfvars` file or passed in a module call): its declaration. `None` when the cursor is on no such name.
fn symbol_targets(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<Vec<NavigationTarget>> {
    let (symbol, _) = symbol_at(db, ws, pos)?;
    let m = module(db, symbol.dir());
    let target = |site: &foreach_analysis::model::items::BlockSite| NavigationTarget {
        file: site.file,
        full_range: site.range,
        focus_range: site.name_range,
    };
    Some(match &symbol {
        Symbol::Variable(_, n) => m.variables.iter().filter(|v| v.name == n).map(|v| target(&v.site)).collect(),
        Symbol::Local(_, n) => m
            .locals
            .iter()
            .filter(|l| l.name == n)
            .map(|l| NavigationTarget { file: l.arg.file, full_range: l.arg.range(), focus_range: l.arg.name.range })
            .collect(),
        Symbol::Output(_, n) => m.outputs.iter().filter(|o| &o.name == n).map(|o| target(&o.site)).collect(),
        Symbol::ModuleCall(_, n) => m.module_calls.iter().filter(|c| &c.name == n).map(|c| target(&c.site)).collect(),
        Symbol::Resource(_, mode, ty, n) => m
            .resources
            .iter()
            .filter(|r| r.mode == *mode && r.ty == ty && r.name == *n)
            .map(|r| target(&r.site))
            .collect(),
    })
}

/// On a provider reference (`aws.by_region`, `null.many`: names that HCL would read as keywords are names here,
/// which the generic reference walker does not see): the provider block it names. `None` when the cursor is on no
/// provider reference.
fn provider_reference_targets(db: &dyn Db, dir: ModuleDir, pos: FilePosition) -> Option<Vec<NavigationTarget>> {
    let m = module(db, dir);
    let (refs, _) = module_references(&m);
    let r = refs.iter().find(|r| r.reference.file == pos.file && touches(r.reference.range, pos.offset))?;
    Some(match resolve_config(&m, &r.reference.name, r.reference.alias_name()) {
        ConfigTarget::Block(i) => {
            let p = &m.providers[i];
            vec![NavigationTarget { file: p.site.file, full_range: p.site.range, focus_range: p.site.name_range }]
        }
        _ => Vec::new(),
    })
}

/// On the `[…]` of a provider reference: where each key it selects (in any instance of the module) is written. A key
/// with no single written place (computed by `for` or `merge(…)`, given with `-var`) leads to the provider block's
/// `for_each`, which is where it is defined. `None` when the cursor is not on an instance key.
fn instance_key_targets(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    pos: FilePosition,
) -> Option<Vec<NavigationTarget>> {
    let m = module(db, dir);
    let (refs, _) = module_references(&m);
    let site = refs.iter().position(|r| {
        r.reference.file == pos.file && r.reference.key.as_ref().is_some_and(|k| touches(k.range, pos.offset))
    })?;
    let mut block = None;
    let mut keys = BTreeSet::new();
    for instance in module_instances(db, ws, dir) {
        let Some(used) = instance.analysis.uses.get(site) else { continue };
        if let ConfigTarget::Block(b) = used.target {
            block = Some(b);
        }
        keys.extend(used.keys.iter().filter_map(|k| k.key.clone()));
    }
    let block = match block {
        Some(b) => b,
        // Not in any root's tree: the configuration is still known statically, its keys are not.
        None => {
            let r = &refs[site].reference;
            let ConfigTarget::Block(b) = resolve_config(&m, &r.name, r.alias_name()) else { return Some(Vec::new()) };
            b
        }
    };
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let origins = key_origin_sites(db, ws, dir, block, &keys);
    let mut targets: Vec<NavigationTarget> =
        origins.iter().map(|o| NavigationTarget { file: o.file, full_range: o.range, focus_range: o.range }).collect();
    if keys.is_empty() || origins.len() < keys.len() {
        if let Some(fe) = m.providers[block].for_each.as_ref() {
            targets.push(NavigationTarget { file: fe.file, full_range: fe.range(), focus_range: fe.expr_range() });
        }
    }
    Some(targets)
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn check(text: &str) -> Vec<(String, String)> {
        let f = Fixture::parse(text);
        let targets = crate::Analysis::of(&f.host).goto_definition(f.position()).unwrap();
        targets
            .into_iter()
            .map(|t| {
                let path = f.host.file_path(t.file).unwrap();
                let focus = f.text(&path)[t.focus_range].to_string();
                (path, focus)
            })
            .collect()
    }

    #[test]
    fn variable_in_another_file() {
        let got = check(
            "#- /main.tf\nlocals {\n  a = var.re$0gion\n}\n#- /variables.tf\nvariable \"region\" {\n  default = \"x\"\n}\n",
        );
        assert_eq!(got, vec![("/ws/variables.tf".to_string(), "\"region\"".to_string())]);
    }

    #[test]
    fn local() {
        let got = check("locals {\n  a = 1\n  b = local.a$0\n}\n");
        assert_eq!(got, vec![("/ws/main.tf".to_string(), "a".to_string())]);
    }

    #[test]
    fn provider_reference_to_its_block() {
        let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"a\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  for_each = toset([\"a\"])\n  provider = aws.by_re$0gion[each.key]\n}\n";
        assert_eq!(check(text), vec![("/ws/main.tf".to_string(), "\"aws\"".to_string())]);
    }

    const BY_REGION: &str =
        "provider \"aws\" {\n  alias    = \"r\"\n  for_each = local.regions\n  region   = each.value\n}\n";

    #[test]
    fn literal_instance_key_to_the_map_entry() {
        let text = format!(
            "#- /main.tf\n{BY_REGION}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.r[\"u$0s\"]\n}}\n#- /locals.tf\nlocals {{\n  regions = {{\n    eu = \"eu-west-1\"\n    us = \"us-east-1\"\n  }}\n}}\n"
        );
        assert_eq!(check(&text), vec![("/ws/locals.tf".to_string(), "us = \"us-east-1\"".to_string())]);
    }

    #[test]
    fn each_key_to_every_selected_element_of_the_tfvars() {
        let text = "#- /main.tf\nvariable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = var.regions\n  region   = each.value\n}\nresource \"aws_s3_bucket\" \"b\" {\n  for_each = var.regions\n  provider = aws.r[ea$0ch.key]\n}\n#- /terraform.tfvars\nregions = [\"eu-west-1\", \"us-east-1\"]\n";
        assert_eq!(
            check(text),
            vec![
                ("/ws/terraform.tfvars".to_string(), "\"eu-west-1\"".to_string()),
                ("/ws/terraform.tfvars".to_string(), "\"us-east-1\"".to_string()),
            ]
        );
    }

    #[test]
    fn computed_keys_lead_to_the_for_each() {
        let text = "provider \"aws\" {\n  alias    = \"r\"\n  for_each = { for r in [\"a\", \"b\"] : r => r }\n  region   = each.value\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"$0a\"]\n}\n";
        assert_eq!(check(text), vec![("/ws/main.tf".to_string(), "{ for r in [\"a\", \"b\"] : r => r }".to_string())]);
    }

    #[test]
    fn the_configuration_name_still_leads_to_the_block() {
        let text = format!(
            "{BY_REGION}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.$0r[\"us\"]\n}}\nlocals {{\n  regions = {{ us = \"x\" }}\n}}\n"
        );
        assert_eq!(check(&text), vec![("/ws/main.tf".to_string(), "\"aws\"".to_string())]);
    }

    #[test]
    fn keyword_provider_names_lead_to_their_block() {
        let text = "provider \"null\" {\n  alias    = \"many\"\n  for_each = toset([\"a\"])\n}\nresource \"null_resource\" \"r\" {\n  provider = nu$0ll.many[\"a\"]\n}\nmodule \"m\" {\n  source    = \"./m\"\n  providers = { null = null.many[\"a\"] }\n}\n";
        let block = vec![("/ws/main.tf".to_string(), "\"null\"".to_string())];
        assert_eq!(check(text), block);
        let in_providers = text.replace("nu$0ll.many", "null.many").replace("null = null.many", "null = null.ma$0ny");
        assert_eq!(check(&in_providers), block);
    }

    #[test]
    fn provider_reference_in_a_check_block() {
        let text = format!(
            "{BY_REGION}check \"c\" {{\n  data \"aws_region\" \"r\" {{\n    provider = aws.$0r[\"us\"]\n  }}\n}}\nlocals {{\n  regions = {{ us = \"x\" }}\n}}\n"
        );
        assert_eq!(check(&text), vec![("/ws/main.tf".to_string(), "\"aws\"".to_string())]);
    }

    #[test]
    fn resources_outputs_and_tfvars_names() {
        let resource = "resource \"x\" \"y\" {}\nlocals {\n  a = x.$0y.id\n}\n";
        assert_eq!(check(resource), vec![("/ws/main.tf".to_string(), "\"y\"".to_string())]);
        let output = "#- /main.tf\nmodule \"c\" {\n  source = \"./c\"\n}\nlocals {\n  v = module.c.i$0d\n}\n#- /c/main.tf\noutput \"id\" {\n  value = 1\n}\n";
        assert_eq!(check(output), vec![("/ws/c/main.tf".to_string(), "\"id\"".to_string())]);
        let tfvars = "#- /main.tf\nvariable \"r\" {}\n#- /terraform.tfvars\nr$0 = 1\n";
        assert_eq!(check(tfvars), vec![("/ws/main.tf".to_string(), "\"r\"".to_string())]);
    }

    #[test]
    fn a_local_inside_a_provider_key_goes_to_the_local() {
        let text = format!(
            "{BY_REGION}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.r[local.$0k]\n}}\nlocals {{\n  k = \"us\"\n  regions = {{ us = \"x\" }}\n}}\n"
        );
        assert_eq!(check(&text), vec![("/ws/main.tf".to_string(), "k".to_string())]);
    }

    #[test]
    fn providers_map_keys_and_configuration_aliases() {
        let text = "#- /main.tf\nprovider \"aws\" {\n  alias = \"x\"\n}\nmodule \"c\" {\n  source    = \"./c\"\n  providers = { aws.e$0ast = aws.x }\n}\n#- /c/main.tf\nterraform {\n  required_providers {\n    aws = {\n      source                = \"hashicorp/aws\"\n      configuration_aliases = [aws.east]\n    }\n  }\n}\n";
        assert_eq!(check(text), vec![("/ws/c/main.tf".to_string(), "aws.east".to_string())]);
        let back = text.replace("aws.e$0ast = ", "aws.east = ").replace("[aws.east]", "[aws.ea$0st]");
        assert_eq!(check(&back), vec![("/ws/main.tf".to_string(), "aws.east".to_string())]);
    }

    #[test]
    fn undeclared_has_no_target() {
        assert!(check("locals {\n  b = local.zz$0\n}\n").is_empty());
    }
}
