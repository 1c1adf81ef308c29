//! Find references of a provider configuration: every resource (by `provider = …`, or implicitly for a default
//! configuration) and every module call's `providers` entry that uses it, in the configuration's module. Of a
//! variable, local, output, module call or resource: every place that names it (`occurrences.rs`).

use foreach_analysis::base::FileRange;
use foreach_analysis::db::{Db, Workspace, module};
use foreach_analysis::model::module::Module;
use foreach_analysis::providers::config::{ConfigTarget, implied_provider, module_references, resolve_config};

use super::occurrences::{occurrences, symbol_at};
use super::{FilePosition, dir_of, source_file, touches};

pub(crate) fn references(db: &dyn Db, ws: Workspace, pos: FilePosition, include_declaration: bool) -> Vec<FileRange> {
    let Some(file) = source_file(db, ws, pos.file) else { return Vec::new() };
    let Some(dir) = dir_of(db, ws, file) else { return Vec::new() };
    let m = module(db, dir);
    let Some((name, alias)) = config_at(&m, pos) else {
        let Some((symbol, _)) = symbol_at(db, ws, pos) else { return Vec::new() };
        let found = occurrences(db, ws, &symbol);
        return found.sites.into_iter().filter(|o| include_declaration || !o.declaration).map(|o| o.location).collect();
    };
    let mut out = Vec::new();
    if include_declaration && let ConfigTarget::Block(i) = resolve_config(&m, &name, alias.as_deref()) {
        out.push(m.providers[i].site.name_location());
    }
    let (refs, _) = module_references(&m);
    let mut explicit = std::collections::HashSet::new();
    for r in &refs {
        if let foreach_analysis::providers::config::RefOwner::Resource(i) = r.owner {
            explicit.insert(i);
        }
        if r.reference.name == name && r.reference.alias_name() == alias.as_deref() {
            out.push(r.reference.location());
        }
    }
    if alias.is_none() {
        for (i, r) in m.resources.iter().enumerate() {
            if !explicit.contains(&i) && r.provider().is_none() && implied_provider(&r.ty) == name {
                out.push(r.site.name_location());
            }
        }
    }
    out.sort_by_key(|l| (l.file, l.range.start()));
    out.dedup();
    out
}

/// The configuration under the cursor: a provider block's label or alias, or a provider reference, except on a
/// variable or local inside its instance key (`var.primary` in `aws.by_region[var.primary]` is the variable's;
/// `[each.key]` still stands for the configuration's instances).
pub(crate) fn config_at(m: &Module, pos: FilePosition) -> Option<(String, Option<String>)> {
    let on = |file, range| file == pos.file && touches(range, pos.offset);
    for p in &m.providers {
        let on_alias = p.alias.as_ref().is_some_and(|a| on(a.file, a.range()));
        if on(p.site.file, p.site.name_range) || on_alias {
            return Some((p.name.clone(), p.alias_name()));
        }
    }
    let (refs, _) = module_references(m);
    let in_key = |key: &foreach_syntax::ast::Expr| {
        touches(key.range, pos.offset)
            && foreach_analysis::model::refs::references(key, &[])
                .iter()
                .any(|r| matches!(r.root(), "var" | "local") && touches(r.range, pos.offset))
    };
    refs.into_iter()
        .find(|r| r.reference.file == pos.file && touches(r.reference.range, pos.offset))
        .filter(|r| !r.reference.key.as_ref().is_some_and(in_key))
        .map(|r| (r.reference.name.clone(), r.reference.alias_name().map(str::to_string)))
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn check(text: &str) -> Vec<String> {
        let f = Fixture::parse(text);
        let refs = crate::Analysis::of(&f.host).references(f.position(), true).unwrap();
        refs.into_iter().map(|r| f.text(&f.host.file_path(r.file).unwrap())[r.range].to_string()).collect()
    }

    #[test]
    fn every_use_of_a_configuration() {
        let text = r#"provider "aws" {
  alias    = "by_re$0gion"
  for_each = toset(["a"])
  region   = each.key
}
provider "aws" {
  region = "x"
}
resource "aws_s3_bucket" "a" {
  for_each = toset(["a"])
  provider = aws.by_region[each.key]
}
resource "aws_s3_bucket" "b" {
}
module "m" {
  source    = "./m"
  for_each  = toset(["a"])
  providers = { aws = aws.by_region[each.key] }
}
"#;
        assert_eq!(check(text), ["\"aws\"", "aws.by_region[each.key]", "aws.by_region[each.key]"]);
        let default = text
            .replace("by_re$0gion", "by_region")
            .replace("provider \"aws\" {\n  region", "provider \"a$0ws\" {\n  region");
        assert_eq!(check(&default), ["\"aws\"", "\"b\""]);
    }

    #[test]
    fn every_use_of_a_variable_local_output_module_and_resource() {
        let var = "#- /main.tf\nvariable \"r\" {}\nlocals {\n  a = var.r$0\n}\n#- /terraform.tfvars\nr = 1\n";
        assert_eq!(check(var), ["r", "r", "r"]);
        let local = "locals {\n  a$0 = 1\n  b = local.a\n  c = [local.a]\n}\n";
        assert_eq!(check(local), ["a", "a", "a"]);
        let output = "#- /main.tf\nmodule \"c\" {\n  source = \"./c\"\n}\nlocals {\n  v = module.c.id\n}\n#- /c/main.tf\noutput \"i$0d\" {\n  value = 1\n}\n";
        assert_eq!(check(output), ["id", "id"]);
        let call = output.replace("i$0d", "id").replace("module \"c\"", "module \"$0c\"");
        assert_eq!(check(&call), ["c", "c"]);
        let resource = "resource \"x\" \"y\" {}\ndata \"x\" \"y\" {}\nlocals {\n  a = x.y$0.id\n  b = data.x.y.id\n}\n";
        assert_eq!(check(resource), ["y", "y"]);
        let data = resource.replace("x.y$0.id", "x.y.id").replace("data.x.y.id", "data.x.$0y.id");
        assert_eq!(check(&data), ["y", "y"]);
    }
}
