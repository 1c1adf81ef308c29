//! The refactorings "Convert the N aliased `aws` configurations into one `for_each` provider" and "… and merge
//! the per-alias resources" on an aliased `provider` block: the same plans as `foreach-ls migrate` and
//! `foreach-ls migrate --resources` (`foreach_analysis::migrate`), each offered only when it can be done (the second only
//! when there are copies to merge).

use foreach_syntax::TextRange;

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace, module, parse};
use foreach_analysis::diagnostics::TextEdit;
use foreach_analysis::migrate::{Options, plan_providers};

use super::cursor::block_at;
use super::{dir_of, source_file};

/// A refactoring that fixes no diagnostic: a title and its edits (possibly in several files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refactor {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

pub(crate) fn refactors(db: &dyn Db, ws: Workspace, file: FileId, range: TextRange) -> Vec<Refactor> {
    let Some(sf) = source_file(db, ws, file) else { return Vec::new() };
    if !sf.kind(db).is_config() || sf.kind(db).is_json() {
        return Vec::new();
    }
    let parsed = parse(db, sf);
    let Some(block) = block_at(&parsed.body, range.start()) else { return Vec::new() };
    let Some(name) = block.label(0) else { return Vec::new() };
    let body = &block.body;
    if block.ident.name != "provider"
        || body.attribute("alias").is_none()
        || body.attribute("for_each").is_some()
        || body.attribute("count").is_some()
    {
        return Vec::new();
    }
    let Some(dir) = dir_of(db, ws, sf) else { return Vec::new() };
    // A `.tf` file shadowed by a `.tofu` file is not loaded: its blocks are not the ones the migration converts.
    if !module(db, dir).files.contains(&file) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for resources in [false, true] {
        let opts = Options { provider: name.to_string(), alias: None, resources };
        // Not offered when it cannot be done; `foreach-ls migrate` says why.
        let Ok(plan) = plan_providers(db, ws, dir.path(db), &opts) else { continue };
        // The second action only where there are copies to merge.
        if resources && plan.merged == 0 {
            continue;
        }
        let mut title =
            format!("Convert the {} aliased `{name}` configurations into one `for_each` provider", plan.keys.len());
        if resources {
            title.push_str(" and merge the per-alias resources");
        }
        out.push(Refactor { title, edits: plan.files.into_iter().flat_map(|f| f.edits).collect() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::{Fixture, apply};
    use foreach_analysis::host::Change;
    use foreach_analysis::source_text::SourceText;

    const TEXT: &str = "provider \"aws\" {\n  alias  = \"use1\"\n  region = \"us-east-1\"\n}\n\nprovider \"aws\" {\n  alias  = \"euw1\"\n  region = \"eu-west-1\"\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.euw1\n}\n";

    #[test]
    fn converts_the_aliased_blocks_and_the_result_checks_clean() {
        let mut f = Fixture::parse(TEXT);
        let file = f.file_id("/ws/main.tf");
        let at = foreach_syntax::TextRange::empty((TEXT.find("euw1").unwrap() as u32).into());
        let actions = crate::Analysis::of(&f.host).migrate_refactors(file, at).unwrap();
        let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(titles, ["Convert the 2 aliased `aws` configurations into one `for_each` provider"]);
        let fixed = apply(TEXT, &actions[0].edits);
        assert!(fixed.contains("for_each = local.by_region"), "{fixed}");
        assert!(fixed.contains("provider = aws.by_region[\"euw1\"]"), "{fixed}");
        f.host.apply_change(Change {
            files: vec![("/ws/main.tf".to_string(), Ok(SourceText::from(fixed.as_str())))],
            ..Change::default()
        });
        assert!(crate::Analysis::of(&f.host).diagnostics().unwrap().is_empty());
    }

    #[test]
    fn merges_the_per_alias_copies_where_there_are_some() {
        let text = format!(
            "{TEXT}\nresource \"aws_s3_bucket\" \"logs_use1\" {{\n  provider = aws.use1\n}}\n\nresource \"aws_s3_bucket\" \"logs_euw1\" {{\n  provider = aws.euw1\n}}\n\noutput \"logs\" {{\n  value = aws_s3_bucket.logs_euw1.id\n}}\n"
        );
        let mut f = Fixture::parse(&text);
        let file = f.file_id("/ws/main.tf");
        let at = foreach_syntax::TextRange::empty((text.find("euw1").unwrap() as u32).into());
        let actions = crate::Analysis::of(&f.host).migrate_refactors(file, at).unwrap();
        let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Convert the 2 aliased `aws` configurations into one `for_each` provider",
                "Convert the 2 aliased `aws` configurations into one `for_each` provider and merge the per-alias \
                 resources"
            ]
        );
        let fixed = apply(&text, &actions[1].edits);
        assert!(fixed.contains("resource \"aws_s3_bucket\" \"logs\" {"), "{fixed}");
        assert!(fixed.contains("to   = aws_s3_bucket.logs[\"euw1\"]"), "{fixed}");
        assert!(fixed.contains("value = aws_s3_bucket.logs[\"euw1\"].id"), "{fixed}");
        f.host.apply_change(Change {
            files: vec![("/ws/main.tf".to_string(), Ok(SourceText::from(fixed.as_str())))],
            ..Change::default()
        });
        assert!(crate::Analysis::of(&f.host).diagnostics().unwrap().is_empty());
    }

    /// Edits of `file` only, applied to its text.
    fn applied(f: &Fixture, path: &str, text: &str, edits: &[foreach_analysis::TextEdit]) -> String {
        let id = f.file_id(path);
        let mine: Vec<foreach_analysis::TextEdit> = edits.iter().filter(|e| e.location.file == id).cloned().collect();
        apply(text, &mine)
    }

    #[test]
    fn works_on_the_tofu_file_and_leaves_the_shadowed_tf_file_alone() {
        let fixture = format!(
            "#- /main.tf\n{TEXT}#- /main.tofu\n{TEXT}#- /other.tofu\nresource \"aws_s3_bucket\" \"c\" {{\n  provider = aws.use1\n}}\n"
        );
        let mut f = Fixture::parse(&fixture);
        let at = foreach_syntax::TextRange::empty((TEXT.find("euw1").unwrap() as u32).into());
        // Not offered in the file OpenTofu ignores.
        assert!(crate::Analysis::of(&f.host).migrate_refactors(f.file_id("/ws/main.tf"), at).unwrap().is_empty());
        let actions = crate::Analysis::of(&f.host).migrate_refactors(f.file_id("/ws/main.tofu"), at).unwrap();
        assert_eq!(actions.len(), 1, "{actions:?}");
        let shadowed = f.file_id("/ws/main.tf");
        assert!(actions[0].edits.iter().all(|e| e.location.file != shadowed), "the .tf file is not edited");
        let other = "resource \"aws_s3_bucket\" \"c\" {\n  provider = aws.use1\n}\n";
        let (tofu, other) = (
            applied(&f, "/ws/main.tofu", TEXT, &actions[0].edits),
            applied(&f, "/ws/other.tofu", other, &actions[0].edits),
        );
        assert!(tofu.contains("for_each = local.by_region"), "{tofu}");
        assert!(other.contains("provider = aws.by_region[\"use1\"]"), "{other}");
        f.host.apply_change(Change {
            files: vec![
                ("/ws/main.tofu".to_string(), Ok(SourceText::from(tofu.as_str()))),
                ("/ws/other.tofu".to_string(), Ok(SourceText::from(other.as_str()))),
            ],
            ..Change::default()
        });
        let diags = crate::Analysis::of(&f.host).diagnostics().unwrap();
        assert!(diags.iter().all(|d| d.code == foreach_analysis::diagnostics::Code::ShadowedByTofuFile), "{diags:?}");
    }

    #[test]
    fn leaves_overridden_copies_alone_and_rewrites_override_files() {
        let main = format!(
            "{TEXT}\nresource \"aws_s3_bucket\" \"logs_use1\" {{\n  provider = aws.use1\n}}\n\nresource \"aws_s3_bucket\" \"logs_euw1\" {{\n  provider = aws.euw1\n}}\n\nresource \"aws_vpc\" \"vpc_use1\" {{\n  provider   = aws.use1\n  cidr_block = \"10.0.0.0/16\"\n}}\n\nresource \"aws_vpc\" \"vpc_euw1\" {{\n  provider   = aws.euw1\n  cidr_block = \"10.1.0.0/16\"\n}}\n\noutput \"logs\" {{\n  value = null\n}}\n"
        );
        let over = "resource \"aws_vpc\" \"vpc_use1\" {\n  cidr_block = \"10.9.0.0/16\"\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.use1\n}\n\noutput \"logs\" {\n  value = aws_s3_bucket.logs_euw1.id\n}\n";
        let mut f = Fixture::parse(&format!("#- /main.tf\n{main}#- /main_override.tf\n{over}"));
        let at = foreach_syntax::TextRange::empty((main.find("euw1").unwrap() as u32).into());
        let actions = crate::Analysis::of(&f.host).migrate_refactors(f.file_id("/ws/main.tf"), at).unwrap();
        assert_eq!(actions.len(), 2, "{actions:?}");
        let (main, over) = (
            applied(&f, "/ws/main.tf", &main, &actions[1].edits),
            applied(&f, "/ws/main_override.tf", over, &actions[1].edits),
        );
        assert!(main.contains("resource \"aws_s3_bucket\" \"logs\" {"), "{main}");
        assert!(main.contains("resource \"aws_vpc\" \"vpc_use1\" {\n  provider   = aws.by_region[\"use1\"]"), "{main}");
        assert!(over.contains("resource \"aws_vpc\" \"vpc_use1\" {"), "{over}");
        assert!(over.contains("provider = aws.by_region[\"use1\"]"), "{over}");
        assert!(over.contains("value = aws_s3_bucket.logs[\"euw1\"].id"), "{over}");
        f.host.apply_change(Change {
            files: vec![
                ("/ws/main.tf".to_string(), Ok(SourceText::from(main.as_str()))),
                ("/ws/main_override.tf".to_string(), Ok(SourceText::from(over.as_str()))),
            ],
            ..Change::default()
        });
        let diags = crate::Analysis::of(&f.host).diagnostics().unwrap();
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[test]
    fn not_offered_on_an_override_file_s_provider_block() {
        let over = "provider \"aws\" {\n  alias  = \"use1\"\n  region = \"us-east-2\"\n}\n";
        let f = Fixture::parse(&format!("#- /main.tf\n{TEXT}#- /main_override.tf\n{over}"));
        let at = foreach_syntax::TextRange::empty((TEXT.find("euw1").unwrap() as u32).into());
        assert!(crate::Analysis::of(&f.host).migrate_refactors(f.file_id("/ws/main.tf"), at).unwrap().is_empty());
        let at = foreach_syntax::TextRange::empty((over.find("use1").unwrap() as u32).into());
        assert!(
            crate::Analysis::of(&f.host).migrate_refactors(f.file_id("/ws/main_override.tf"), at).unwrap().is_empty()
        );
    }

    #[test]
    fn not_offered_outside_an_aliased_block_or_when_not_static() {
        let f = Fixture::parse(TEXT);
        let file = f.file_id("/ws/main.tf");
        let at = foreach_syntax::TextRange::empty((TEXT.find("aws_s3_bucket").unwrap() as u32).into());
        assert!(crate::Analysis::of(&f.host).migrate_refactors(file, at).unwrap().is_empty());

        let dynamic = TEXT.replace("\"eu-west-1\"", "data.x.y.region");
        let f = Fixture::parse(&dynamic);
        let file = f.file_id("/ws/main.tf");
        let at = foreach_syntax::TextRange::empty((dynamic.find("euw1").unwrap() as u32).into());
        assert!(crate::Analysis::of(&f.host).migrate_refactors(file, at).unwrap().is_empty());
    }
}
