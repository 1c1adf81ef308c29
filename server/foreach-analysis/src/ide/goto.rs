//! Go to definition: from `var.x` to its `variable` block, from `local.y` to its attribute in `locals`.

use foreach_syntax::TextRange;

use crate::base::FileId;
use crate::db::{Db, Workspace, module, parse};
use crate::providers::config::{ConfigTarget, resolve_config};

use super::cursor::reference_at;
use super::{FilePosition, dir_of, source_file};

/// Where to jump: the whole declaration, and the name inside it to put the cursor on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavigationTarget {
    pub file: FileId,
    pub full_range: TextRange,
    pub focus_range: TextRange,
}

pub(crate) fn goto_definition(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Vec<NavigationTarget> {
    let Some(file) = source_file(db, ws, pos.file) else { return Vec::new() };
    let parsed = parse(db, file);
    let Some(at) = reference_at(&parsed.body, pos.offset) else { return Vec::new() };
    let Some(dir) = dir_of(db, ws, file) else { return Vec::new() };
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
            .map(|l| NavigationTarget { file: l.arg.file, full_range: l.arg.range, focus_range: l.arg.name.range })
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

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn check(text: &str) -> Vec<(String, String)> {
        let f = Fixture::parse(text);
        let targets = f.host.analysis().goto_definition(f.position()).unwrap();
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

    #[test]
    fn undeclared_has_no_target() {
        assert!(check("locals {\n  b = local.zz$0\n}\n").is_empty());
    }
}
