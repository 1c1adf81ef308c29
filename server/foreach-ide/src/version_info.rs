//! Editor help on version constraints (`required_version`, `compatible_with.opentofu`/`terraform`): the hover lists
//! which OpenTofu releases the constraint admits, as the releases that read it, and the constructs of the module
//! that set its effective minimum (`provider for_each, main.tf:12 → needs 1.9`); inside the constraint string,
//! completion offers that minimum as a lower bound.

use foreach_syntax::{ColumnEncoding, TextRange, TextSize};

use foreach_analysis::db::{Db, ModuleDir, SourceFile, Workspace, file_summary};
use foreach_analysis::paths::relative_path;
use foreach_analysis::versions::reading::{DirVersions, Readers, dir_versions};
use foreach_analysis::versions::releases::{Release, Tool};
use foreach_analysis::versions::usage::{DeclKind, VersionDecl};

use super::results::{CompletionItem, CompletionKind, HoverResult};
use super::{FilePosition, dir_of, line_index, source_file, touches};

/// At most this many constructs are listed in a hover; the rest are counted.
const MAX_LISTED: usize = 8;

/// The constraint declaration of `file` whose argument name or value holds `offset`.
fn decl_at(db: &dyn Db, file: SourceFile, offset: TextSize) -> Option<VersionDecl> {
    if !file.kind(db).is_config() {
        return None;
    }
    let summary = file_summary(db, file);
    summary.versions.decls.iter().find(|d| touches(d.key_range, offset) || touches(d.value_range, offset)).cloned()
}

pub(crate) fn version_hover(db: &dyn Db, ws: Workspace, file: SourceFile, pos: FilePosition) -> Option<HoverResult> {
    let decl = decl_at(db, file, pos.offset)?;
    let dir = dir_of(db, ws, file)?;
    let v = dir_versions(db, dir);
    let mut md = format!("```hcl\n{}\n```\n", decl.kind.name().trim_matches('`'));
    let own = v.constraints.iter().find(|c| c.file == pos.file && c.decl == decl);
    match (decl.kind, own) {
        (DeclKind::CompatibleWithTerraform, Some(c)) => {
            if let Some(set) = c.admits(Tool::Terraform) {
                md.push_str(&format!("\nadmits Terraform {}\n", set.describe()));
            }
        }
        (_, Some(c)) => {
            md.push_str(&format!("\nread by OpenTofu {}", readers_text(c.readers)));
            if c.parsed.is_some() && c.readers.any() {
                md.push_str(&format!("; with the module's other constraints, admits {}", v.admitted().describe()));
            }
            md.push('\n');
        }
        (_, None) => {}
    }
    md.push_str(&minimum_text(db, ws, dir, &v));
    Some(HoverResult { range: decl.key_range, markdown: md })
}

fn readers_text(r: Readers) -> &'static str {
    match (r.before_1_8, r.from_1_8, r.from_1_12) {
        (true, true, true) => "1.6 and later",
        (true, true, false) => "1.6 to 1.11 (1.12 and later take a `required_version` in a `.tf` file as Terraform's)",
        (true, false, false) => "1.6 and 1.7 only (1.8 and later read the `.tofu` file of the same name instead)",
        (false, true, true) => "1.8 and later (1.6 and 1.7 ignore `.tofu` files)",
        (false, false, true) => "1.12 and later",
        (false, true, false) => "1.8 to 1.11",
        (true, false, true) => "1.6, 1.7 and 1.12 and later",
        (false, false, false) => "no release (shadowed, or replaced by an override file)",
    }
}

/// "Needs OpenTofu 1.9:" and the constructs that set it.
fn minimum_text(db: &dyn Db, ws: Workspace, dir: ModuleDir, v: &DirVersions) -> String {
    let Some((min, uses)) = v.minimum_and_why() else {
        return "\nno OpenTofu release known to foreach-ls has every construct this module uses\n".to_string();
    };
    if uses.is_empty() {
        return format!("\nthe module uses nothing newer than OpenTofu {}\n", min.short());
    }
    let mut md = format!("\nthe module needs OpenTofu {}:\n", min.short());
    for u in uses.iter().take(MAX_LISTED) {
        let at = source_file(db, ws, u.file).map(|f| {
            let line = line_index(db, f).line_col(u.range.start(), ColumnEncoding::Utf8).line + 1;
            format!("{}:{line}", relative_path(f.path(db), dir.path(db)))
        });
        md.push_str(&format!(
            "- {}, `{}` → needs {}\n",
            u.feature.name(),
            at.unwrap_or_default(),
            u.feature.opentofu().short()
        ));
    }
    if uses.len() > MAX_LISTED {
        md.push_str(&format!("- …and {} more\n", uses.len() - MAX_LISTED));
    }
    md
}

/// Inside the string of an OpenTofu constraint: the module's effective minimum as a lower bound, replacing the
/// string's content.
pub(crate) fn version_completions(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<Vec<CompletionItem>> {
    let file = source_file(db, ws, pos.file)?;
    let decl = decl_at(db, file, pos.offset)?;
    if decl.kind == DeclKind::CompatibleWithTerraform {
        return None;
    }
    // Strictly inside the quotes of a one-line string.
    let text = file.text(db);
    let (start, end) = (usize::from(decl.value_range.start()), usize::from(decl.value_range.end()));
    let value = text.get(start..end)?;
    if !(value.len() >= 2 && value.starts_with('"') && value.ends_with('"') && !value.contains('\n')) {
        return None;
    }
    let inner =
        TextRange::new(decl.value_range.start() + TextSize::from(1), decl.value_range.end() - TextSize::from(1));
    if !(inner.start() <= pos.offset && pos.offset <= inner.end()) {
        return None;
    }
    let dir = dir_of(db, ws, file)?;
    let v = dir_versions(db, dir);
    let (min, uses) = v.minimum_and_why()?;
    let bound = format!(">= {}", min.short());
    let why = match uses.first() {
        Some(u) if min > Release::new(1, 6, 0) => {
            format!("the module's minimum: {} needs {}", u.feature.name(), min.short())
        }
        _ => "the module's minimum: it uses nothing newer".to_string(),
    };
    Some(vec![CompletionItem {
        label: bound.clone(),
        kind: CompletionKind::Value,
        detail: Some(why),
        replace: inner,
        insert_text: bound,
        is_snippet: false,
        filter_text: None,
    }])
}

#[cfg(test)]
mod tests {
    use crate::test_fixture::Fixture;

    fn hover(text: &str) -> String {
        let f = Fixture::parse(text);
        crate::Analysis::of(&f.host).hover(f.position()).unwrap().map(|h| h.markdown).unwrap_or_default()
    }

    fn completions(text: &str) -> Vec<(String, String)> {
        let f = Fixture::parse(text);
        let items = crate::Analysis::of(&f.host).completions(f.position()).unwrap();
        let text = f.text("/ws/main.tf");
        items
            .into_iter()
            .map(|c| (c.label, text[c.replace.start().into()..c.replace.end().into()].to_string()))
            .collect()
    }

    const MODULE: &str = "terraform {\n  required_vers$0ion = \">= 1.6\"\n}\n\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = toset([\"a\"])\n  region   = each.key\n}\n";

    #[test]
    fn hover_on_required_version_lists_what_sets_the_minimum() {
        let md = hover(MODULE);
        assert!(md.contains("read by OpenTofu 1.6 to 1.11"), "{md}");
        assert!(md.contains("admits 1.6.0 and later"), "{md}");
        assert!(md.contains("the module needs OpenTofu 1.9:"), "{md}");
        assert!(md.contains("- `for_each` in a `provider` block, `main.tf:7` → needs 1.9"), "{md}");
        // In a `.tofu` file: read by 1.8 and later.
        let md =
            hover("#- /main.tf\nlocals {}\n#- /versions.tofu\nterraform {\n  required_version = \">= 1$0.8\"\n}\n");
        assert!(md.contains("read by OpenTofu 1.8 and later"), "{md}");
        assert!(md.contains("the module needs OpenTofu 1.8:"), "{md}");
        // Elsewhere in the block: no version hover.
        assert!(
            !hover(&MODULE.replace("required_vers$0ion", "required_version").replace("alias ", "ali$0as "))
                .contains("needs OpenTofu")
        );
    }

    #[test]
    fn completion_in_the_constraint_string_offers_the_minimum() {
        let text = MODULE.replace("required_vers$0ion", "required_version").replace(">= 1.6", ">= 1$0.6");
        assert_eq!(completions(&text), [(">= 1.9".to_string(), ">= 1.6".to_string())]);
        // Not on the argument's name, nor in a Terraform constraint.
        assert!(completions(MODULE).is_empty());
        let terraform = "language {\n  compatible_with {\n    terraform = \">= $0\"\n  }\n}\n";
        assert!(completions(terraform).is_empty());
    }
}
