//! Code actions: the quick fixes the diagnostics carry (written once, in the checks, and shared with
//! `check --fix`), and "ignore this code for this block".

use foreach_syntax::{TextRange, TextSize};

use foreach_analysis::base::{FileId, FileRange};
use foreach_analysis::checks::workspace_diagnostics;
use foreach_analysis::db::{Db, Workspace, parse};
use foreach_analysis::diagnostics::SUPPRESSION_MARKER as MARKER;
use foreach_analysis::diagnostics::{Diagnostic, TextEdit};
use foreach_analysis::fixes::line_endings::uses_crlf;

use super::cursor::block_at;
use super::source_file;

/// One action: a title, its edits, and the diagnostic it fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assist {
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub diagnostic: Diagnostic,
    /// The fix the editor may apply with one key (the diagnostic's own automatic fix).
    pub preferred: bool,
}

pub(crate) fn code_actions(db: &dyn Db, ws: Workspace, file: FileId, range: TextRange) -> Vec<Assist> {
    let diags = workspace_diagnostics(db, ws);
    let mut out = Vec::new();
    let mut ignores = Vec::new();
    for d in diags.iter().filter(|d| d.location.file == file && overlaps(d.location.range, range)) {
        for fix in &d.fixes {
            out.push(Assist {
                title: fix.title.clone(),
                edits: fix.edits.clone(),
                diagnostic: d.clone(),
                preferred: fix.automatic,
            });
        }
        if let Some(a) = ignore_for_block(db, ws, d) {
            ignores.push(a);
        }
    }
    out.extend(ignores);
    out
}

/// Touching counts: a cursor at either end of a squiggle gets its actions.
fn overlaps(a: TextRange, b: TextRange) -> bool {
    a.start() <= b.end() && b.start() <= a.end()
}

/// Inserts `# foreach-ls:ignore <code>` on its own line above the top-level block holding the diagnostic, indented
/// like the block, ending the line as the file does.
fn ignore_for_block(db: &dyn Db, ws: Workspace, d: &Diagnostic) -> Option<Assist> {
    let file = source_file(db, ws, d.location.file)?;
    if !file.kind(db).is_config() || file.kind(db).is_json() {
        return None;
    }
    let parsed = parse(db, file);
    let block = block_at(&parsed.body, d.location.range.start())?;
    let text = file.text(db);
    let text: &str = &text;
    let block_start = usize::from(block.range.start());
    let line_start = text[..block_start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..block_start];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let code = d.code.as_str();
    let at = TextRange::empty(TextSize::from(line_start as u32));
    Some(Assist {
        title: format!("Ignore `{code}` for this block"),
        edits: vec![TextEdit {
            location: FileRange::new(d.location.file, at),
            new_text: format!("{indent}# {MARKER} {code}{}", if uses_crlf(text) { "\r\n" } else { "\n" }),
        }],
        diagnostic: d.clone(),
        preferred: false,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::{Fixture, apply};
    use foreach_analysis::host::Change;
    use foreach_analysis::source_text::SourceText;

    #[test]
    fn ignore_this_code_for_this_block_silences_it() {
        let text = "resource \"x\" \"y\" {\n  a = local.nope\n}\n";
        let mut f = Fixture::parse(text);
        let file = f.file_id("/ws/main.tf");
        let whole = foreach_syntax::TextRange::up_to((text.len() as u32).into());
        let actions = crate::Analysis::of(&f.host).code_actions(file, whole).unwrap();
        let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(titles, ["Ignore `undefined-reference` for this block"]);
        let fixed = apply(text, &actions[0].edits);
        assert_eq!(fixed, "# foreach-ls:ignore undefined-reference\nresource \"x\" \"y\" {\n  a = local.nope\n}\n");
        f.host.apply_change(Change {
            files: vec![("/ws/main.tf".to_string(), Ok(SourceText::from(fixed.as_str())))],
            ..Change::default()
        });
        assert!(crate::Analysis::of(&f.host).diagnostics().unwrap().is_empty());
    }

    #[test]
    fn surfaces_the_diagnostics_fixes() {
        // `.tofu` beside `.tf`: no fix; an undeclared tfvars value has a removal fix if the check offers one.
        let f = Fixture::parse("#- /main.tf\nvariable \"a\" {}\n#- /terraform.tfvars\na = 1\nb = 2\n");
        let file = f.file_id("/ws/terraform.tfvars");
        let whole = foreach_syntax::TextRange::up_to(12.into());
        let actions = crate::Analysis::of(&f.host).code_actions(file, whole).unwrap();
        let diags = crate::Analysis::of(&f.host).file_diagnostics(file).unwrap();
        let expected: Vec<String> = diags.iter().flat_map(|d| d.fixes.iter().map(|x| x.title.clone())).collect();
        let got: Vec<String> = actions.iter().map(|a| a.title.clone()).collect();
        assert_eq!(got, expected);
    }

    /// The titles of the actions on the first diagnostic with `code`, and each file's text after applying the
    /// action whose title starts with `pick`; then whether that diagnostic is gone.
    fn fix(text: &str, code: &str, pick: &str) -> (Vec<String>, Vec<(String, String)>, bool) {
        let mut f = Fixture::parse(text);
        let diags = crate::Analysis::of(&f.host).diagnostics().unwrap();
        let d = diags.iter().find(|d| d.code.as_str() == code).unwrap_or_else(|| panic!("no {code} in {diags:?}"));
        let actions = crate::Analysis::of(&f.host).code_actions(d.location.file, d.location.range).unwrap();
        let titles: Vec<String> =
            actions.iter().filter(|a| a.diagnostic.code == d.code).map(|a| a.title.clone()).collect();
        let action = actions.iter().find(|a| a.title.starts_with(pick)).unwrap_or_else(|| panic!("{titles:?}"));
        let mut changed = Vec::new();
        for (path, original) in f.files.clone() {
            let id = f.file_id(&path);
            let edits: Vec<foreach_analysis::TextEdit> =
                action.edits.iter().filter(|e| e.location.file == id).cloned().collect();
            if !edits.is_empty() {
                changed.push((path, apply(&original, &edits)));
            }
        }
        f.host.apply_change(Change {
            files: changed.iter().map(|(p, t)| (p.clone(), Ok(SourceText::from(t.as_str())))).collect(),
            ..Change::default()
        });
        let gone = !crate::Analysis::of(&f.host).diagnostics().unwrap().iter().any(|d| d.code.as_str() == code);
        (titles, changed, gone)
    }

    const USE_C: &str = "resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"c\"]\n}\n";

    #[test]
    fn add_a_missing_key_to_a_set_literal() {
        let text = format!(
            "provider \"aws\" {{\n  alias    = \"by_region\"\n  for_each = toset([\"a\", \"b\"])\n  region   = each.key\n}}\n{USE_C}"
        );
        let (titles, changed, gone) = fix(&text, "unknown-provider-instance", "Add");
        assert_eq!(
            titles,
            [
                "Move this resource to the provider configuration `aws.by_region[\"a\"]`",
                "Add `c` to the instances of `aws.by_region`",
                "Ignore `unknown-provider-instance` for this block"
            ]
        );
        assert!(changed[0].1.contains("for_each = toset([\"a\", \"b\", \"c\"])"), "{}", changed[0].1);
        assert!(gone);
    }

    #[test]
    fn add_missing_keys_to_a_multi_line_map_in_a_local() {
        let text = r#"locals {
  regions = {
    a = "us-east-1"
    b = "eu-west-1" # the last one
  }
}
provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.value
}
resource "aws_s3_bucket" "b" {
  for_each = toset(["a", "y", "x"])
  provider = aws.by_region[each.key]
}
"#;
        let (titles, changed, gone) = fix(text, "unknown-provider-instance", "Add");
        assert_eq!(titles[0], "Add `x`, `y` to the instances of `aws.by_region` (with the value of `b`)");
        assert_eq!(
            changed[0].1,
            text.replace("# the last one\n", "# the last one\n    x = \"eu-west-1\"\n    y = \"eu-west-1\"\n")
        );
        assert!(gone);
    }

    #[test]
    fn add_a_missing_key_to_the_tfvars_value_not_the_default() {
        let text = "#- /main.tf\nvariable \"regions\" {\n  type    = set(string)\n  default = [\"unused\"]\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"c\"]\n}\n#- /terraform.tfvars\nregions = [\n  \"a\",\n  \"b\",\n]\n";
        let (_, changed, gone) = fix(text, "unknown-provider-instance", "Add");
        assert_eq!(
            changed,
            [("/ws/terraform.tfvars".to_string(), "regions = [\n  \"a\",\n  \"b\",\n  \"c\",\n]\n".to_string())]
        );
        assert!(gone);
    }

    #[test]
    fn add_a_missing_key_to_a_variable_default() {
        let text = "variable \"regions\" {\n  default = {}\n}\nvariable \"r\" {\n  default = []\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset(var.r)\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"c\"]\n}\n";
        let (_, changed, gone) = fix(text, "unknown-provider-instance", "Add");
        assert!(changed[0].1.contains("default = [\"c\"]"), "{}", changed[0].1);
        assert!(gone);
    }

    #[test]
    fn no_key_fix_when_the_keys_are_computed() {
        let text = format!(
            "provider \"aws\" {{\n  alias    = \"by_region\"\n  for_each = {{ for r in [\"a\"] : r => r }}\n  region   = each.key\n}}\n{USE_C}"
        );
        let (titles, _, _) = fix(&text, "unknown-provider-instance", "Ignore");
        assert_eq!(
            titles,
            [
                "Move this resource to the provider configuration `aws.by_region[\"a\"]`",
                "Ignore `unknown-provider-instance` for this block"
            ]
        );
    }

    #[test]
    fn add_alias_uses_the_alias_the_references_use() {
        let text = "provider \"aws\" {\n  for_each = toset([\"a\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.west[\"a\"]\n}\n";
        let (titles, changed, gone) = fix(text, "provider-for-each-without-alias", "Add");
        assert_eq!(titles[0], "Add `alias = \"west\"`");
        assert!(changed[0].1.starts_with("provider \"aws\" {\n  alias = \"west\"\n  for_each = toset([\"a\"])\n"));
        assert!(gone);
        let (titles, _, _) = fix(&text.replace("aws.west[\"a\"]", "aws"), "provider-for-each-without-alias", "Add");
        assert_eq!(titles[0], "Add `alias = \"by_region\"`");
        let taken =
            format!("{text}provider \"aws\" {{\n  alias = \"by_region\"\n}}\n").replace("aws.west[\"a\"]", "aws");
        let (titles, _, _) = fix(&taken, "provider-for-each-without-alias", "Add");
        assert_eq!(titles[0], "Add `alias = \"by_region_2\"`");
    }

    /// A related location: file, the text there, message.
    type Located = (String, String, String);

    /// Every `unknown-provider-instance` of `text`: its message, the titles of its actions, and its related
    /// locations as (file, the text there, message).
    fn unknown_instances(text: &str) -> Vec<(String, Vec<String>, Vec<Located>)> {
        let f = Fixture::parse(text);
        let diags = crate::Analysis::of(&f.host).diagnostics().unwrap();
        let text_at = |file: foreach_analysis::FileId, r: foreach_syntax::TextRange| {
            let (path, t) = f.files.iter().find(|(p, _)| f.file_id(p) == file).unwrap();
            (path.clone(), t[std::ops::Range::<usize>::from(r)].to_string())
        };
        diags
            .iter()
            .filter(|d| d.code.as_str() == "unknown-provider-instance")
            .map(|d| {
                let actions = crate::Analysis::of(&f.host).code_actions(d.location.file, d.location.range).unwrap();
                let titles = actions.iter().filter(|a| a.diagnostic == *d).map(|a| a.title.clone()).collect();
                let related = d
                    .related
                    .iter()
                    .map(|r| {
                        let (path, at) = text_at(r.location.file, r.location.range);
                        (path, at, r.message.clone())
                    })
                    .collect();
                (d.message.clone(), titles, related)
            })
            .collect()
    }

    const REGIONS: &str = "#- /main.tf\nvariable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.key\n}\n";
    const TFVARS: &str = "#- /terraform.tfvars\nregions = [\n  \"euw1\",\n  \"use1\",\n]\n";

    #[test]
    fn numbers_from_count_index_and_bools_are_no_typos_and_no_new_instances() {
        let counted = format!(
            "{REGIONS}resource \"aws_s3_bucket\" \"b\" {{\n  count    = 2\n  provider = aws.by_region[count.index]\n}}\n{TFVARS}"
        );
        let found = unknown_instances(&counted);
        let (message, titles, _) = &found[0];
        assert!(!message.contains("did you mean"), "{message}");
        assert!(message.contains("`count.index` numbers this block's instances"), "{message}");
        assert_eq!(titles, &["Ignore `unknown-provider-instance` for this block"]);

        let flag =
            format!("{REGIONS}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.by_region[true]\n}}\n{TFVARS}");
        let found = unknown_instances(&flag);
        let (message, titles, _) = &found[0];
        assert!(!message.contains("did you mean") && !message.contains("count.index"), "{message}");
        assert_eq!(titles, &["Ignore `unknown-provider-instance` for this block"]);
    }

    #[test]
    fn a_key_missing_from_the_values_is_added_first_and_moving_says_what_it_does() {
        let text =
            format!("{REGIONS}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.by_region[\"euw2\"]\n}}\n{TFVARS}");
        let found = unknown_instances(&text);
        let (_, titles, related) = &found[0];
        assert_eq!(
            titles,
            &[
                "Add `euw2` to the instances of `aws.by_region`",
                "Move this resource to the provider configuration `aws.by_region[\"euw1\"]`",
                "Ignore `unknown-provider-instance` for this block",
            ]
        );
        // The provider's `for_each`, then the `.tfvars` value its keys are written in.
        assert_eq!(related[0].1, "var.regions");
        assert_eq!((related[1].0.as_str(), related[1].1.as_str()), ("/ws/terraform.tfvars", "["));
        // Keys written in the configuration: the typo fix first.
        let in_config = text.replace("for_each = var.regions", "for_each = toset([\"euw1\", \"use1\"])");
        let found = unknown_instances(&in_config);
        assert!(found[0].1[0].starts_with("Move this resource"), "{:?}", found[0].1);
    }

    #[test]
    fn related_information_points_at_the_element_that_supplied_a_wrong_key() {
        let text = format!(
            "{REGIONS}locals {{\n  buckets = {{\n    euw1 = \"logs\"\n    usw3 = \"backup\"\n  }}\n}}\nresource \"aws_s3_bucket\" \"b\" {{\n  for_each = local.buckets\n  provider = aws.by_region[each.key]\n}}\n{TFVARS}"
        );
        let found = unknown_instances(&text);
        let (_, _, related) = &found[0];
        assert!(
            related.contains(&(
                "/ws/main.tf".to_string(),
                "usw3 = \"backup\"".to_string(),
                "`usw3` comes from here".to_string()
            )),
            "{related:?}"
        );
    }

    /// A key taken from a variable or a local: the related information points at the value that selects it, where
    /// it is written, not only at the provider's keys.
    #[test]
    fn related_information_points_at_the_value_of_a_variable_or_local_key() {
        let from_tfvars = format!(
            "{REGIONS}variable \"primary\" {{\n  type = string\n}}\nresource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.by_region[var.primary]\n}}\n{TFVARS}primary = \"use2\"\n"
        );
        let found = unknown_instances(&from_tfvars);
        let (_, _, related) = &found[0];
        let want = ("/ws/terraform.tfvars".to_string(), "\"use2\"".to_string(), "`use2` comes from here".to_string());
        assert!(related.contains(&want), "{related:?}");

        let from_local = format!(
            "{REGIONS}locals {{\n  dr = local.dr_region\n  dr_region = \"eu-centrl-1\"\n}}\nresource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.by_region[(local.dr)]\n}}\n{TFVARS}"
        );
        let found = unknown_instances(&from_local);
        let (_, _, related) = &found[0];
        let want =
            ("/ws/main.tf".to_string(), "\"eu-centrl-1\"".to_string(), "`eu-centrl-1` comes from here".to_string());
        assert!(related.contains(&want), "{related:?}");
        // A literal key is its own value: nothing more to point at.
        let literal = from_local.replace("[(local.dr)]", "[\"eu-centrl-1\"]");
        let found = unknown_instances(&literal);
        assert!(!found[0].2.iter().any(|(_, _, m)| m.contains("comes from here")), "{:?}", found[0].2);
    }

    /// A key that shares only a prefix and a letter with the closest instance is another name: no "did you mean",
    /// no move to that instance.
    #[test]
    fn a_weak_match_is_not_suggested() {
        let text = "provider \"github\" {\n  alias    = \"by_org\"\n  for_each = toset([\"acme-oss\"])\n  owner    = each.key\n}\nresource \"github_repository\" \"r\" {\n  provider = github.by_org[\"acme-labs\"]\n}\n";
        let found = unknown_instances(text);
        let (message, titles, _) = &found[0];
        assert!(!message.contains("did you mean"), "{message}");
        assert!(!titles.iter().any(|t| t.starts_with("Move")), "{titles:?}");
        // One edit away is still a typo.
        let found = unknown_instances(&text.replace("acme-labs", "acme-os"));
        assert!(found[0].0.ends_with("did you mean `acme-oss`?"), "{}", found[0].0);
    }

    #[test]
    fn a_callers_aliased_configuration_is_declared_and_passed() {
        let text = "#- /main.tf\nprovider \"aws\" {\n  alias  = \"west\"\n  region = \"us-west-2\"\n}\nmodule \"net\" {\n  source = \"./net\"\n}\n#- /net/main.tf\nresource \"aws_vpc\" \"main\" {\n  provider = aws.west\n}\nresource \"aws_s3_bucket\" \"logs\" {}\n";
        let (titles, changed, gone) = fix(text, "unknown-provider-config", "Declare");
        assert_eq!(titles[0], "Declare `aws.west` in `configuration_aliases` and pass it from the calling module");
        assert_eq!(
            changed,
            [
                (
                    "/ws/main.tf".to_string(),
                    "provider \"aws\" {\n  alias  = \"west\"\n  region = \"us-west-2\"\n}\nmodule \"net\" {\n  source = \"./net\"\n  providers = {\n    aws      = aws\n    aws.west = aws.west\n  }\n}\n".to_string()
                ),
                (
                    "/ws/net/main.tf".to_string(),
                    "terraform {\n  required_providers {\n    aws = {\n      source                = \"hashicorp/aws\"\n      configuration_aliases = [aws.west]\n    }\n  }\n}\n\nresource \"aws_vpc\" \"main\" {\n  provider = aws.west\n}\nresource \"aws_s3_bucket\" \"logs\" {}\n".to_string()
                ),
            ]
        );
        assert!(gone);
        // An existing entry and map get an item each.
        let text = "#- /main.tf\nprovider \"aws\" {\n  alias = \"west\"\n}\nmodule \"net\" {\n  source    = \"./net\"\n  providers = { aws = aws }\n}\n#- /net/main.tf\nterraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\nresource \"aws_vpc\" \"main\" {\n  provider = aws.west\n}\n";
        let (_, changed, gone) = fix(text, "unknown-provider-config", "Declare");
        assert!(changed[0].1.contains("providers = { aws = aws, aws.west = aws.west }"), "{}", changed[0].1);
        assert!(
            changed[1].1.contains("      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.west]\n"),
            "{}",
            changed[1].1
        );
        assert!(gone);
    }
}
