//! End-to-end tests of the public API on fixture directories written to a scratch directory: matching in both
//! directions, the failure report, `UPDATE_FIXTURES` rewriting, `fixture.toml` and discovery.

use std::fs;
use std::path::{Path, PathBuf};

use foreach_fixture::*;

/// A fresh directory per test under Cargo's scratch space, populated with `files` (path, contents).
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("foreach-fixture").join(name);
    let _ = fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

fn diag(file: &str, severity: &str, code: &str, message: &str, line: u32, start: u32, end: u32) -> ActualDiagnostic {
    ActualDiagnostic {
        file: file.into(),
        severity: severity.into(),
        code: code.into(),
        message: message.into(),
        start: Position::new(line, start),
        end: Position::new(line, end),
    }
}

fn check(name: &str, files: &[(&str, &str)], actual: &[ActualDiagnostic]) -> Result<(), String> {
    let dir = scratch(name, files);
    check_fixture_in(&dir, actual, Mode::Check).map_err(|f| {
        // Reports name the scratch directory; tests compare them relative to it.
        f.to_string().replace(&format!("{}/", dir.display()), "").replace(&dir.display().to_string(), "<dir>")
    })
}

const PROVIDERS: &str = r#"provider "aws" {
  alias    = "by_region"
  for_each = var.regions
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["ap-south-1"]
  #                        ^^^^^^^^^^^^ error[unknown-provider-instance]: `ap-south-1`
}
"#;

fn unknown_key() -> ActualDiagnostic {
    let message = "no provider instance `ap-south-1` in `aws.by_region`";
    diag("main.tf", "error", "unknown-provider-instance", message, 6, 27, 39)
}

#[test]
fn exact_match_passes_and_no_annotations_means_no_diagnostics() {
    assert_eq!(check("exact", &[("main.tf", PROVIDERS)], &[unknown_key()]), Ok(()));
    assert_eq!(check("clean", &[("main.tf", "locals {}\n")], &[]), Ok(()));
}

#[test]
fn missing_and_unexpected_are_reported_ready_to_act_on() {
    let report = check("missing", &[("main.tf", PROVIDERS)], &[]).unwrap_err();
    assert_eq!(
        report,
        "fixture `<dir>` does not match its annotations

main.tf:7:28: missing error[unknown-provider-instance] at 7:28-7:40 with message containing \"`ap-south-1`\" (annotation on line 8)
  no diagnostic was reported on that line

1 problem: 1 missing
rerun with UPDATE_FIXTURES=1 to rewrite the annotations, then review the diff"
    );

    let text = "locals {\n  a = var.nope\n}\n";
    let unexpected = diag("main.tf", "error", "unknown-variable", "no variable `nope`", 1, 6, 14);
    let report = check("unexpected", &[("main.tf", text)], &[unexpected]).unwrap_err();
    assert_eq!(
        report,
        "fixture `<dir>` does not match its annotations

main.tf:2:7: unexpected error[unknown-variable]: no variable `nope`
  expect it by adding this line under line 2:
  #   ^^^^^^^^ error[unknown-variable]

1 problem: 1 unexpected
rerun with UPDATE_FIXTURES=1 to rewrite the annotations, then review the diff"
    );
}

#[test]
fn near_misses_name_what_differs() {
    let files = [("main.tf", PROVIDERS)];
    let mut wrong_severity = unknown_key();
    wrong_severity.severity = "warning".into();
    let mut wrong_range = unknown_key();
    wrong_range.start.column = 26;
    let mut wrong_message = unknown_key();
    wrong_message.message = "no provider instance `us-east-1`".into();
    let mut wrong_code = unknown_key();
    wrong_code.code = "unknown-provider".into();
    for (name, d, what) in [
        ("severity", wrong_severity, "severity"),
        ("range", wrong_range, "range"),
        ("message", wrong_message, "message"),
        ("code", wrong_code, "code"),
    ] {
        let report = check(&format!("near-{name}"), &files, std::slice::from_ref(&d)).unwrap_err();
        assert!(report.contains(&format!("\n    differs in {what}\n")), "{report}");
        assert!(report.contains(&format!("main.tf:{}: unexpected {}: ", d.start, d.label())), "{report}");
        assert!(report.ends_with("2 problems: 1 unexpected, 1 missing\nrerun with UPDATE_FIXTURES=1 to rewrite the annotations, then review the diff"), "{report}");
    }
}

#[test]
fn message_text_is_a_substring_and_pairs_are_found_whatever_the_order() {
    // Greedy first-fit would give the diagnostic "bad `a` and `b`" to the annotation `bad `a``, leaving the other
    // diagnostic without a partner; the harness must find the pairing that works.
    let text = "x = f(a)\n#     ^ error[c]: bad `a`\n#     ^ error[c]: bad `a` and `b`\n";
    let both = [
        diag("main.tf", "error", "c", "bad `a` and `b` here", 0, 6, 7),
        diag("main.tf", "error", "c", "bad `a`", 0, 6, 7),
    ];
    assert_eq!(check("pairs", &[("main.tf", text)], &both), Ok(()));
    let mut reversed = both.clone();
    reversed.reverse();
    assert_eq!(check("pairs-reversed", &[("main.tf", text)], &reversed), Ok(()));
}

#[test]
fn multi_line_primary_ranges_are_rejected() {
    let mut d = diag("main.tf", "error", "duplicate-block", "block declared twice", 0, 0, 0);
    d.end = Position::new(2, 1);
    let report = check("multi", &[("main.tf", "locals {\n  a = 1\n}\n")], &[d]).unwrap_err();
    assert!(
        report.contains(
            "main.tf:1:1: error[duplicate-block] spans lines 1:1-3:2; a primary range must be on one line: block declared twice\n"
        ),
        "{report}"
    );
    assert!(report.ends_with("1 problem: 1 multi-line"), "{report}");
}

#[test]
fn child_modules_tfvars_and_value_annotations() {
    let files = [
        ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
        ("child/main.tf", "locals {\n  x = toset([\"a\"])\n  #   ^^^^^^^^^^^^ value: toset([\"a\"])\n}\n"),
        ("prod.tfvars", "regions = []\n#@0..7 warning[undeclared-variable-value]\n"),
    ];
    let d = diag("prod.tfvars", "warning", "undeclared-variable-value", "no variable `regions`", 0, 0, 7);
    assert_eq!(check("modules", &files, &[d]), Ok(()));

    let fixture = Fixture::load(&scratch("modules-load", &files)).unwrap();
    let paths: Vec<&Path> = fixture.files.iter().map(|f| f.path.as_path()).collect();
    assert_eq!(paths, [Path::new("child/main.tf"), Path::new("main.tf"), Path::new("prod.tfvars")]);
    let values: Vec<Expectation> =
        fixture.expectations().unwrap().into_iter().filter(|e| matches!(e, Expectation::Value { .. })).collect();
    let [Expectation::Value { file, range, rendered, .. }] = values.as_slice() else { panic!("{values:?}") };
    assert_eq!(
        (file.as_path(), *range, rendered.as_str()),
        (Path::new("child/main.tf"), Range::on_line(1, 6, 18), "toset([\"a\"])")
    );
    let text = fixture.file(file).unwrap().text();
    assert_eq!(&text[range.to_byte_range(&text).unwrap()], "toset([\"a\"])");
}

#[test]
fn diagnostics_that_cannot_be_annotated_say_why() {
    let files = [("main.tf.json", "{}\n"), ("main.tf", "# only a comment\n")];
    let json = diag("main.tf.json", "error", "syntax-error", "bad", 0, 0, 1);
    let ghost = diag("other.tf", "error", "syntax-error", "bad", 0, 0, 1);
    let past = diag("main.tf", "error", "syntax-error", "bad", 5, 0, 1);
    let shouting = diag("main.tf", "Error", "syntax-error", "bad", 0, 2, 3);
    let snake = ActualDiagnostic::new("main.tf", "error", "syntax_error", "bad", Range::on_line(0, 3, 4));
    let report = check("unannotatable", &files, &[json, ghost, past, shouting, snake]).unwrap_err();
    assert!(report.contains("main.tf:1:3: unexpected Error[syntax-error]: bad\n  it cannot be annotated: severity `Error` is not one of `error`, `warning`, `info`, `hint`\n"), "{report}");
    assert!(report.contains("main.tf:1:4: unexpected error[syntax_error]: bad\n  it cannot be annotated: code `syntax_error` is not kebab-case (`[a-z0-9-]+`)\n"), "{report}");
    assert!(report.contains("main.tf.json:1:1: unexpected error[syntax-error]: bad\n  it cannot be annotated: this kind of file has no `#` comments to write an annotation in\n"), "{report}");
    assert!(report.contains("other.tf:1:1: unexpected error[syntax-error]: bad\n  it cannot be annotated: `other.tf` is not a file of the fixture\n"), "{report}");
    assert!(
        report.contains(
            "main.tf:6:1: unexpected error[syntax-error]: bad\n  it cannot be annotated: the file has no line 6\n"
        ),
        "{report}"
    );
    // Nothing here can be fixed by UPDATE_FIXTURES, so the report does not suggest it.
    assert!(report.ends_with("5 problems: 5 unexpected"), "{report}");
}

#[test]
fn suggestions_cover_every_column() {
    let text = "a = 1\n\tb = 2\n    cc = \"ключ\"\nx = 1\n";
    let cases = [
        // Column 0 and empty ranges need the explicit form.
        (diag("main.tf", "error", "e", "m", 0, 0, 1), "# @0..1 error[e]"),
        (diag("main.tf", "error", "e", "m", 0, 3, 3), "# @3..3 error[e]"),
        // Column 1: the `#` right before the caret.
        (diag("main.tf", "error", "e", "m", 1, 1, 2), "#^ error[e]"),
        (diag("main.tf", "error", "e", "m", 1, 5, 6), "\t#   ^ error[e]"),
        // Indented code: the `#` at the indentation, or closer when the range starts inside the indentation.
        (diag("main.tf", "error", "e", "m", 2, 10, 14), "    #     ^^^^ error[e]"),
        (diag("main.tf", "error", "e", "m", 2, 3, 6), "  #^^^ error[e]"),
        // End of file.
        (diag("main.tf", "error", "e", "m", 4, 0, 0), "# @eof error[e]"),
    ];
    for (i, (d, line)) in cases.into_iter().enumerate() {
        let report = check(&format!("suggest-{i}"), &[("main.tf", text)], &[d]).unwrap_err();
        assert!(report.contains(&format!(":\n{line}\n\n")), "{line:?} in\n{report}");
        // The suggestion, pasted, is exactly what expects the diagnostic.
        let e = parse_annotations(Path::new("main.tf"), &format!("{text}{line}\n")).unwrap();
        assert_eq!(e.len(), 1, "{line}");
    }
}

#[test]
fn identical_unexpected_diagnostics_get_their_messages() {
    let text = "x = f(a)\n";
    let two = [diag("main.tf", "error", "c", "first", 0, 4, 5), diag("main.tf", "error", "c", "second", 0, 4, 5)];
    let report = check("ambiguous", &[("main.tf", text)], &two).unwrap_err();
    assert!(report.contains("\n#   ^ error[c]: first\n"), "{report}");
    assert!(report.contains("\n#   ^ error[c]: second\n"), "{report}");
}

#[test]
fn invalid_annotations_and_config_fail_before_matching() {
    let report = check("bad-annotation", &[("main.tf", "a = 1\n# ^ eror[x]\n")], &[]).unwrap_err();
    assert!(report.contains("main.tf:2:5: invalid annotation: expected `error[code]`"), "{report}");

    let files = [("main.tf", "a = 1\n#   ^ error[off]\n"), ("fixture.toml", "disabled_codes = [\"off\"]\n")];
    let report = check("disabled", &files, &[]).unwrap_err();
    assert!(
        report.contains("main.tf:2:1: invalid annotation: `off` is in `disabled_codes` of fixture.toml"),
        "{report}"
    );

    let report = check("bad-config", &[("main.tf", ""), ("fixture.toml", "varz = {}\n")], &[]).unwrap_err();
    assert!(report.contains("fixture.toml: cannot load the fixture: "), "{report}");
    assert!(report.contains("unknown field `varz`"), "{report}");
}

#[test]
fn fixture_toml_is_exposed() {
    let toml = r#"
description = "provider for_each over a variable set from a tfvars file"
vars = { env = "prod", regions = '["a", "b"]' }
var_files = ["prod.tfvars"]
disabled_codes = ["undeclared-variable-value"]
tofu_check = false
"#;
    let dir = scratch("config", &[("main.tf", ""), ("prod.tfvars", ""), ("fixture.toml", toml)]);
    let config = Fixture::load(&dir).unwrap().config;
    assert_eq!(config.description.as_deref(), Some("provider for_each over a variable set from a tfvars file"));
    assert_eq!(config.vars.get("regions").map(String::as_str), Some("[\"a\", \"b\"]"));
    assert_eq!(config.vars.len(), 2);
    assert_eq!(config.var_files, [PathBuf::from("prod.tfvars")]);
    assert_eq!(config.disabled_codes, ["undeclared-variable-value"]);
    assert!(!config.tofu_check);
    assert_eq!(FixtureConfig::parse("").unwrap(), FixtureConfig::default());
    assert!(FixtureConfig::default().tofu_check);

    let dir = scratch("config-missing-var-file", &[("main.tf", ""), ("fixture.toml", "var_files = [\"x.tfvars\"]")]);
    let err = Fixture::load(&dir).unwrap_err();
    assert_eq!(err.message, "`var_files` names `x.tfvars`, which is not a file of the fixture");
}

#[test]
fn discovery_treats_nested_main_tf_as_child_modules() {
    let root = scratch(
        "discover",
        &[
            ("a/main.tf", ""),
            ("a/child/main.tf", ""),
            ("b/nested/c/main.tf", ""),
            ("b/nested/c/modules/x/main.tf", ""),
            ("b/notes.md", ""),
            ("d/only.tofu", ""),
            (".hidden/main.tf", ""),
            ("e/.terraform/modules/m/main.tf", ""),
        ],
    );
    let found: Vec<PathBuf> =
        discover_fixtures(&root).into_iter().map(|p| p.strip_prefix(&root).unwrap().to_path_buf()).collect();
    assert_eq!(found, [PathBuf::from("a"), PathBuf::from("b/nested/c")]);
    assert_eq!(discover_fixtures(&root.join("a")), [root.join("a")]);
}

#[test]
fn in_memory_fixtures_from_markdown() {
    let md = "# duplicate-block\n\n```hcl\nlocals {\n  a = 1\n #^ error[duplicate-block]\n}\n```\n";
    let [(line, block)] = markdown_hcl_blocks(md).try_into().unwrap();
    assert_eq!(line, 3);
    let fixture = Fixture::from_files([FixtureFile::new("main.tf", block)]);
    let d = diag("main.tf", "error", "duplicate-block", "`a` is declared twice", 1, 2, 3);
    assert_eq!(fixture.check(std::slice::from_ref(&d)), Ok(()));
    let report = fixture.check(&[]).unwrap_err().to_string();
    assert!(
        report.starts_with("fixture `<in memory>` does not match its annotations\n\nmain.tf:2:3: missing"),
        "{report}"
    );
}

#[test]
fn update_rewrites_only_annotation_lines_and_keeps_crlf() {
    let main = "locals {\r\n  a = var.x\r\n  #   ^^^^^ error[unknown-variable]\r\n  #   ^ warning[stale]\r\n  \
                b = toset([\"a\"])\r\n  #   ^^^^^^^^^^^^ value: toset([\"a\"])\r\n}\r\n";
    let child = "variable \"x\" {}";
    let dir = scratch("update", &[("main.tf", main), ("child/main.tf", child), ("other.tf", "# untouched\r\n")]);
    let before = [
        diag("main.tf", "error", "unknown-variable", "no variable `x`", 1, 6, 11),
        diag("main.tf", "hint", "h", "x", 1, 10, 11),
        diag("main.tf", "error", "dup", "a", 1, 2, 3),
        diag("main.tf", "info", "i", "b", 4, 2, 3),
        diag("main.tf", "error", "brace", "}", 6, 0, 1),
        diag("main.tf", "error", "eof", "end", 7, 0, 0),
        diag("child/main.tf", "warning", "w", "x", 0, 9, 12),
    ];
    assert_eq!(check_fixture_in(&dir, &before, Mode::Update), Ok(()));
    assert_eq!(
        fs::read_to_string(dir.join("main.tf")).unwrap(),
        "locals {\r\n  a = var.x\r\n #^ error[dup]\r\n  #   ^^^^^ error[unknown-variable]\r\n  #       ^ hint[h]\r\n  \
         b = toset([\"a\"])\r\n #^ info[i]\r\n  #   ^^^^^^^^^^^^ value: toset([\"a\"])\r\n}\r\n# @0..1 error[brace]\r\n\
         # @eof error[eof]\r\n"
    );
    assert_eq!(fs::read_to_string(dir.join("child/main.tf")).unwrap(), "variable \"x\" {}\n#        ^^^ warning[w]\n");
    assert_eq!(fs::read_to_string(dir.join("other.tf")).unwrap(), "# untouched\r\n");

    // What the analysis reports on the rewritten files (the code below an insertion moved down) now matches.
    let after = [
        diag("main.tf", "error", "unknown-variable", "no variable `x`", 1, 6, 11),
        diag("main.tf", "hint", "h", "x", 1, 10, 11),
        diag("main.tf", "error", "dup", "a", 1, 2, 3),
        diag("main.tf", "info", "i", "b", 5, 2, 3),
        diag("main.tf", "error", "brace", "}", 8, 0, 1),
        diag("main.tf", "error", "eof", "end", 11, 0, 0),
        diag("child/main.tf", "warning", "w", "x", 0, 9, 12),
    ];
    assert_eq!(check_fixture_in(&dir, &after, Mode::Check), Ok(()));
}

#[test]
fn update_leaves_what_it_cannot_fix_and_says_so() {
    let dir = scratch("update-partial", &[("main.tf", "a = 1\n")]);
    let mut multi = diag("main.tf", "error", "m", "spans", 0, 0, 0);
    multi.end = Position::new(1, 0);
    let fixable = diag("main.tf", "error", "e", "one", 0, 4, 5);
    let failure = check_fixture_in(&dir, &[multi, fixable], Mode::Update).unwrap_err();
    assert_eq!(failure.updated, [PathBuf::from("main.tf")]);
    assert_eq!(fs::read_to_string(dir.join("main.tf")).unwrap(), "a = 1\n#   ^ error[e]\n");
    let report = failure.to_string();
    assert!(
        report.contains("UPDATE_FIXTURES rewrote main.tf; the problems above are left to fix by hand\n"),
        "{report}"
    );
    assert!(report.ends_with("1 problem: 1 multi-line"), "{report}");
}

#[test]
fn update_does_not_touch_files_with_invalid_annotations() {
    let text = "a = 1\n# ^ eror[x]\n";
    let dir = scratch("update-invalid", &[("main.tf", text)]);
    let d = diag("main.tf", "error", "e", "one", 0, 4, 5);
    assert!(check_fixture_in(&dir, &[d], Mode::Update).is_err());
    assert_eq!(fs::read_to_string(dir.join("main.tf")).unwrap(), text);
}

#[test]
fn the_spec_examples_parse() {
    // testdata/README.md is normative; its HCL examples must at least be valid annotations.
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/README.md");
    let spec = fs::read_to_string(spec).unwrap();
    let blocks = markdown_hcl_blocks(&spec);
    assert!(!blocks.is_empty());
    for (line, block) in blocks {
        let expectations = parse_annotations(Path::new("main.tf"), &block)
            .unwrap_or_else(|e| panic!("testdata/README.md block at line {}: {e}", line + 1));
        assert!(!expectations.is_empty(), "block at line {}", line + 1);
    }
}

#[test]
fn update_never_rewrites_a_file_that_is_not_utf8() {
    let dir = scratch("update-latin1", &[]);
    fs::create_dir_all(&dir).unwrap();
    let bytes = b"# caf\xe9\na = 1\n".to_vec();
    fs::write(dir.join("main.tf"), &bytes).unwrap();
    let d = diag("main.tf", "error", "e", "one", 1, 4, 5);
    let failure = check_fixture_in(&dir, &[d], Mode::Update).unwrap_err();
    assert!(failure.updated.is_empty());
    assert_eq!(fs::read(dir.join("main.tf")).unwrap(), bytes);
    assert!(failure.to_string().contains("main.tf:2:5: unexpected error[e]: one\n"), "{failure}");
}
