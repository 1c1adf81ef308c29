//! The `foreach-ls` command line, run as a real process: output formats, exit statuses, loading rules and bad
//! input. Inputs are under `testdata/cli/`; hostile files are generated into temporary directories.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "support/run.rs"]
mod run;
use run::{run_in, run_with_closed_stdout};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    repo().join("testdata/cli").join(name)
}

fn run(args: &[&str]) -> Output {
    run_in(&repo(), args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(args: &[&str]) -> (i32, Value) {
    json_in(&repo(), args)
}

fn json_in(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let o = run_in(dir, &all);
    (o.status.code().unwrap(), serde_json::from_slice(&o.stdout).expect("json output"))
}

fn codes(v: &Value) -> Vec<String> {
    v["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
}

#[test]
fn clean_workspace_exits_zero_with_summary() {
    let o = run(&["check", "testdata/cli/clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).trim(), "foreach-ls: 0 errors, 0 warnings, 0 notes in 1 file");
}

#[test]
fn a_fix_offered_in_several_environments_is_offered_once() {
    // testdata/diff/environments: `too-similar-for-each` is reported in prod and in staging with different messages
    // (their states differ) and the same fix; both fixes applied would wrap the `for_each` twice.
    let (_, v) = json(&["check", "testdata/diff/environments"]);
    let diagnostics = v["diagnostics"].as_array().expect("diagnostics");
    let similar: Vec<&Value> = diagnostics.iter().filter(|d| d["code"] == "too-similar-for-each").collect();
    assert_eq!(similar.len(), 2, "one finding per environment: {v}");
    let fixes: Vec<&Value> = similar.iter().flat_map(|d| d["fixes"].as_array().into_iter().flatten()).collect();
    assert_eq!(fixes.len(), 1, "the shared fix once: {fixes:?}");
}

#[test]
fn a_reader_that_stops_early_ends_check_quietly_with_status_zero() {
    // `foreach-ls check | head -1`: the rest of the report has nowhere to go, which is not an error.
    for args in [&["check", "testdata/cli/errors"][..], &["check", "testdata/cli/errors", "--format", "json"]] {
        let (status, stderr) = run_with_closed_stdout(&repo(), args);
        assert_eq!((status, stderr.as_str()), (Some(0), ""), "{args:?}");
    }
}

#[test]
fn errors_exit_one_and_human_output_quotes_the_source() {
    let o = run(&["check", "testdata/cli/errors", "--no-color"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("error[duplicate-block]: variable `name` is declared more than once"), "{out}");
    assert!(out.contains("--> testdata/cli/errors/main.tf:3:10"), "{out}");
    assert!(out.contains("variable \"name\" {"), "quotes the source line: {out}");
    assert!(out.contains("error[syntax-error]"), "{out}");
    assert!(!out.contains('\u{1b}'), "no colour when not on a terminal");
    assert!(out.trim_end().ends_with("foreach-ls: 2 errors, 0 warnings, 0 notes in 2 files"), "{out}");
}

#[test]
fn json_format_has_positions_in_lines_characters_and_bytes() {
    let (code, v) = json(&["check", "testdata/cli/errors"]);
    assert_eq!(code, 1);
    let dup = v["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "duplicate-block").unwrap();
    assert_eq!(dup["severity"], "error");
    assert_eq!(dup["file"], "testdata/cli/errors/main.tf");
    assert_eq!(dup["range"]["start"]["line"], 3);
    assert_eq!(dup["range"]["start"]["column"], 10);
    let text = std::fs::read_to_string(fixture("errors/main.tf")).unwrap();
    let start = dup["range"]["start"]["offset"].as_u64().unwrap() as usize;
    let end = dup["range"]["end"]["offset"].as_u64().unwrap() as usize;
    assert_eq!(&text[start..end], "\"name\"");
    assert_eq!(dup["related"][0]["range"]["start"]["line"], 1);
    assert_eq!(v["summary"]["errors"], 2);
    assert_eq!(v["summary"]["files"], 2);
}

#[test]
fn sarif_format_is_sarif_2_1_0() {
    let o = run(&["check", "testdata/cli/errors", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "foreach-ls");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], r["ruleId"], "ruleIndex points at the rule");
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].as_str().unwrap().starts_with("testdata/cli/errors/"));
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(matches!(r["level"].as_str().unwrap(), "error" | "warning" | "note"));
    }
}

#[test]
fn github_format_emits_workflow_commands() {
    let o = run(&["check", "testdata/cli/errors", "--format", "github"]);
    let out = stdout(&o);
    let line = out.lines().find(|l| l.contains("duplicate-block")).unwrap();
    assert!(line.starts_with("::error file=testdata/cli/errors/main.tf,line=3,col=10,"), "{line}");
    assert!(line.contains("title=foreach-ls duplicate-block::variable `name` is declared more than once"), "{line}");
}

#[test]
fn warnings_pass_unless_denied() {
    let o = run(&["check", "testdata/cli/warning-only"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("warning[undeclared-variable-value]"));
    let o = run(&["check", "testdata/cli/warning-only", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_file_path_checks_its_directory() {
    let (code, v) = json(&["check", "testdata/cli/errors/main.tf"]);
    assert_eq!(code, 1);
    assert_eq!(v["summary"]["files"], 2);
}

#[test]
fn exclude_globs_skip_directories() {
    let (code, v) = json(&["check", "testdata/cli/excluded"]);
    assert_eq!(code, 1, "the broken example is found without --exclude");
    assert_eq!(codes(&v), ["unknown-block-type", "syntax-error"]);
    let (code, v) = json(&["check", "testdata/cli/excluded", "--exclude", "examples/**"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["summary"]["files"], 1);
}

#[test]
fn usage_and_io_errors_exit_two_with_a_message() {
    let o = run(&["check", "testdata/cli/does-not-exist"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read `testdata/cli/does-not-exist`"), "{}", stderr(&o));
    let o = run(&["check", "--format", "xml"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["check", "testdata/cli/clean", "--var", "novalue"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("NAME=VALUE"));
    let o = run(&["check", "testdata/cli/clean", "--var-file", "testdata/cli/clean/main.tf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("*.tfvars"), "{}", stderr(&o));
    let o = run(&["check", "testdata/cli/clean", "--exclude", "[unclosed"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn version_and_help_succeed() {
    let o = run(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("foreach-ls "));
    // The version and the commit it was built from (build.rs), when the tests run in a git checkout.
    let version = stdout(&o);
    assert!(version.starts_with(concat!("foreach-ls ", env!("CARGO_PKG_VERSION"), " (")), "{version}");
    let head = Command::new("git").args(["rev-parse", "--short", "HEAD"]).current_dir(repo()).output();
    match head {
        Ok(h) if h.status.success() => {
            let head = String::from_utf8_lossy(&h.stdout).trim().to_owned();
            assert_eq!(version.trim_end(), format!("foreach-ls {} ({head})", env!("CARGO_PKG_VERSION")));
        }
        _ => assert!(version.trim_end().ends_with(')'), "{version}"),
    }
    let o = run(&["check", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("--deny-warnings"));
}

#[test]
fn empty_directory_is_a_clear_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_in(dir.path(), &["check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no OpenTofu files"), "{}", stderr(&o));
}

#[test]
fn binary_and_non_utf8_files_are_diagnostics_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    std::fs::write(dir.path().join("binary.tf"), b"\x7fELF\x00\x01\x02").unwrap();
    std::fs::write(dir.path().join("latin1.tf"), b"locals {\n  b = \"caf\xe9\"\n}\n").unwrap();
    let o = run_in(dir.path(), &["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 2);
    for d in diags {
        assert_eq!(d["code"], "unreadable-file");
    }
    assert!(diags.iter().any(|d| d["message"].as_str().unwrap().contains("NUL")));
    assert!(diags.iter().any(|d| d["message"].as_str().unwrap().contains("UTF-8")));
}

#[test]
fn gitignored_files_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    std::fs::create_dir(dir.path().join("generated")).unwrap();
    std::fs::write(dir.path().join("generated/main.tf"), "broken {\n").unwrap();
    std::fs::create_dir(dir.path().join(".terraform")).unwrap();
    std::fs::write(dir.path().join(".terraform/x.tf"), "broken {\n").unwrap();
    let o = run_in(dir.path(), &["check"]);
    assert_eq!(o.status.code(), Some(1), "generated/ is checked before it is ignored");
    std::fs::write(dir.path().join(".gitignore"), "generated/\n").unwrap();
    let o = run_in(dir.path(), &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn links_that_lead_nowhere_are_unreadable_files_not_hangs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    std::os::unix::fs::symlink("missing/variables.tf", dir.path().join("dangling.tf")).unwrap();
    std::os::unix::fs::symlink("loop.tf", dir.path().join("loop.tf")).unwrap();
    // Dangling variables files are left out (`dangling_links_to_variable_files_are_left_out`).
    std::os::unix::fs::symlink("../../common/terraform.tfvars", dir.path().join("terraform.tfvars")).unwrap();
    std::os::unix::fs::symlink("../common.auto.tfvars", dir.path().join("common.auto.tfvars")).unwrap();
    // A directory link back to its parent: not walked into, so no endless walk.
    std::os::unix::fs::symlink(".", dir.path().join("again")).unwrap();
    let (code, v) = json_in(dir.path(), &["check"]);
    assert_eq!(code, 1);
    let diags = v["diagnostics"].as_array().unwrap();
    let mut unreadable: Vec<&str> = diags.iter().map(|d| d["file"].as_str().unwrap()).collect();
    unreadable.sort();
    assert_eq!(unreadable, ["dangling.tf", "loop.tf"], "{v:#}");
    assert_eq!(codes(&v), ["unreadable-file", "unreadable-file"]);
}

#[test]
fn var_files_encrypted_with_git_crypt_make_values_unknown_not_errors() {
    let dir = tempfile::tempdir().unwrap();
    let main = "variable \"regions\" {\n  type    = map(string)\n  default = { eu = \"eu-west-1\" }\n}\n\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.value\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"us\"]\n}\n";
    std::fs::write(dir.path().join("main.tf"), main).unwrap();
    // Checked against the default, `us` is no instance.
    let (code, v) = json_in(dir.path(), &["check"]);
    assert_eq!((code, codes(&v)), (1, vec!["unknown-provider-instance".to_string()]), "{v:#}");
    // A terraform.tfvars that git-crypt left encrypted may set `regions`: unknown, so nothing to report but notes.
    let mut encrypted = b"\0GITCRYPT\0".to_vec();
    encrypted.extend([0x3f, 0xd0, 0x3c, 0x06, 0x90, 0x7c, 0x00, 0xff]);
    std::fs::write(dir.path().join("terraform.tfvars"), encrypted).unwrap();
    let (code, v) = json_in(dir.path(), &["check"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(codes(&v), ["provider-for-each-unresolved", "encrypted-file"], "{v:#}");
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(diags[1]["message"].as_str().unwrap().contains("git-crypt"), "{v:#}");
    assert_eq!(diags[1]["severity"], "info");
}

/// A dangling link to a variables file is left out like a file missing from the checkout: OpenTofu stats
/// `terraform.tfvars` before loading it and reads other `*.tfvars` only through `-var-file`, and a dangling
/// `*.auto.tfvars` points at a file kept out of git that the user is meant to create. A dangling `.tf` file is
/// still unreadable.
#[test]
fn dangling_links_to_variable_files_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    for name in ["terraform.tfvars", "terraform.tfvars.json", "prod.tfvars", "common.auto.tfvars", "versions.tf"] {
        std::os::unix::fs::symlink(format!("../missing/{name}"), dir.path().join(name)).unwrap();
    }
    let (code, v) = json_in(dir.path(), &["check"]);
    assert_eq!(code, 1);
    let diags = v["diagnostics"].as_array().unwrap();
    let files: Vec<&str> = diags.iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["versions.tf"], "{v:#}");
    assert_eq!(codes(&v), ["unreadable-file"]);
}

#[test]
fn ten_megabyte_file_and_deep_nesting_end_in_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = String::with_capacity(10 << 20);
    let mut i = 0;
    while big.len() < 10 << 20 {
        big.push_str(&format!("resource \"aws_s3_bucket\" \"b{i}\" {{\n  bucket = \"bucket-{i}\"\n}}\n\n"));
        i += 1;
    }
    std::fs::write(dir.path().join("big.tf"), &big).unwrap();
    let deep = format!("locals {{\n  x = {}1{}\n}}\n", "(".repeat(10_000), ")".repeat(10_000));
    std::fs::write(dir.path().join("deep.tf"), deep).unwrap();
    let o = run_in(dir.path(), &["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(codes(&v), ["syntax-error"], "only the too-deep expression is reported");
    assert_eq!(v["diagnostics"][0]["file"], "deep.tf");
}

fn eval(args: &[&str]) -> (i32, String) {
    let mut all = vec!["eval"];
    all.extend(args);
    all.extend(["--dir", "testdata/cli/eval"]);
    let o = run(&all);
    (o.status.code().unwrap(), stdout(&o))
}

#[test]
fn eval_prints_values_in_console_syntax() {
    let (code, out) = eval(&["keys(local.enabled_regions)"]);
    assert_eq!((code, out.as_str()), (0, "[\n  \"us\",\n]\n"));
    let (code, out) = eval(&["var.regions.us", "--format", "json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], serde_json::json!({"cidr": "10.0.0.0/16", "enabled": true}));
    assert_eq!(v["type"], "object({cidr: string, enabled: bool})");
}

#[test]
fn eval_follows_variable_precedence() {
    assert_eq!(eval(&["var.env"]).1, "\"from-auto\"\n", "auto.tfvars beats terraform.tfvars");
    assert_eq!(eval(&["var.env", "--var-file", "prod.tfvars"]).1, "\"from-var-file\"\n");
    assert_eq!(
        eval(&["var.env", "--var-file", "prod.tfvars", "--var", "env=cli"]).1,
        "\"cli\"\n",
        "later command-line options win"
    );
    assert_eq!(eval(&["var.env", "--var", "env=cli", "--var-file", "prod.tfvars"]).1, "\"from-var-file\"\n");
    assert_eq!(eval(&["local.name", "--workspace", "default"]).1, "\"from-auto-default\"\n");
}

#[test]
fn the_workspace_comes_from_the_flag_then_tf_workspace_then_the_selection_in_the_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "locals {\n  ws = terraform.workspace\n}\n").unwrap();
    let ws = |args: &[&str], env: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_foreach-ls"));
        cmd.args(["eval", "local.ws"]).args(args).current_dir(dir.path()).env_remove("TF_WORKSPACE");
        if let Some(name) = env {
            cmd.env("TF_WORKSPACE", name);
        }
        let o = cmd.output().unwrap();
        (o.status.code().unwrap(), stdout(&o))
    };
    let (code, out) = ws(&[], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no workspace selected: set TF_WORKSPACE or --workspace"), "{out}");

    std::fs::create_dir(dir.path().join(".terraform")).unwrap();
    std::fs::write(dir.path().join(".terraform/environment"), "prod").unwrap();
    assert_eq!(ws(&[], None), (0, "\"prod\"\n".into()), "`tofu workspace select prod` was run here");
    assert_eq!(ws(&[], Some("staging")), (0, "\"staging\"\n".into()), "TF_WORKSPACE wins, as in OpenTofu");
    assert_eq!(ws(&["--workspace", "qa"], Some("staging")), (0, "\"qa\"\n".into()), "the flag wins");
}

#[test]
fn eval_explains_why_a_value_is_not_static() {
    let (code, out) = eval(&["local.accounts"]);
    assert_eq!(code, 1);
    assert!(out.contains("data.terraform_remote_state.org"), "{out}");
    assert!(
        out.contains("the expression -> local.accounts -> local.account_ids -> data.terraform_remote_state.org"),
        "{out}"
    );
    let (code, out) = eval(&["local.accounts", "--format", "json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["unknown"], true);
    assert_eq!(v["chain"][0], "local.accounts");
}

#[test]
fn eval_works_where_tofu_console_does() {
    // A directory without configuration still evaluates, like `tofu console` there.
    let empty = tempfile::tempdir().unwrap();
    let o = run_in(empty.path(), &["eval", "1 + 1"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "2\n"), "{}", stderr(&o));
    let o = run_in(empty.path(), &["eval", "upper(\"a\")", "--format", "json"]);
    assert_eq!(stdout(&o).trim(), r#"{"value":"A","type":"string"}"#, "{}", stderr(&o));
    // An expression starting with `-` is the expression, not an option.
    let o = run_in(empty.path(), &["eval", "-5 + 2"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "-3\n"), "{}", stderr(&o));
    let o = run(&["eval", "--dir", "testdata/cli/eval", "-length(var.env)"]);
    assert_eq!(stdout(&o), "-9\n", "{}", stderr(&o));
    // `--var-file` is relative to `--dir`, as with `tofu -chdir=DIR`.
    let o = run(&["eval", "var.env", "--dir", "testdata/cli/eval", "--var-file", "prod.tfvars"]);
    assert_eq!(stdout(&o), "\"from-var-file\"\n", "{}", stderr(&o));
    let o = run(&["eval", "var.env", "--dir", "testdata/cli/eval", "--var-file", "testdata/cli/eval/prod.tfvars"]);
    assert_eq!(o.status.code(), Some(2), "a path relative to the current directory is not looked up there");
    let abs = fixture("eval/prod.tfvars");
    let o = run(&["eval", "var.env", "--dir", "testdata/cli/eval", "--var-file", abs.to_str().unwrap()]);
    assert_eq!(stdout(&o), "\"from-var-file\"\n", "{}", stderr(&o));
}

#[test]
fn eval_prints_errors_not_unknowns() {
    // An error in the expression: the diagnostic, and nothing claiming the value is merely not known.
    let o = run(&["eval", "[][0]", "--dir", "testdata/cli/eval"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "", "{}", stdout(&o));
    assert!(stderr(&o).contains("error[evaluation-error]: index 0 is out of range"), "{}", stderr(&o));
    let o = run(&["eval", "[][0]", "--dir", "testdata/cli/eval", "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().contains("out of range"), "{v}");
    assert!(v.get("unknown").is_none(), "{v}");
    // An error in a local the expression uses: printed with the chain that reached it.
    let o = run(&["eval", "local.uses", "--dir", "testdata/cli/eval-errors"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("error: index 0 is out of range"), "{err}");
    assert!(err.contains("(via the expression -> local.uses -> local.broken)"), "{err}");
}

/// A data source, resource or module call the module does not declare is an error, as in `tofu console`, not a
/// value known after apply; a declared one is only known after apply.
#[test]
fn eval_says_an_undeclared_data_source_is_not_declared() {
    let o = run(&["eval", "data.aws_region.x.name", "--dir", "testdata/cli/eval"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "", "nothing claims the value is merely not known yet");
    assert!(
        stderr(&o).contains("error[undefined-reference]: reference to undeclared data source `data.aws_region.x`"),
        "{}",
        stderr(&o)
    );
    let o = run(&["eval", "module.net.id", "--dir", "testdata/cli/eval", "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["error"], "reference to undeclared module call `module.net`", "{v}");
    let (code, out) = eval(&["data.terraform_remote_state.org.outputs"]);
    assert_eq!(code, 1);
    assert!(out.contains("is only known after apply"), "{out}");
}

#[test]
fn eval_reports_errors_in_the_expression() {
    let o = run(&["eval", "upper(1, 2)", "--dir", "testdata/cli/eval"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("error[evaluation-error]"), "{}", stderr(&o));
    let o = run(&["eval", "var.", "--dir", "testdata/cli/eval"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("error[syntax-error]"), "{}", stderr(&o));
    let o = run(&["eval", "1", "--dir", "testdata/cli/nope"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn inspect_lists_instances_and_what_each_block_uses() {
    let o = run(&["inspect", "testdata/provider-for-each/valid/multi-region"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let by_region = v["providers"].as_array().unwrap().iter().find(|p| p["alias"] == "by_region").unwrap();
    assert_eq!(by_region["status"], "expanded");
    let keys: Vec<&str> =
        by_region["instances"].as_array().unwrap().iter().map(|i| i["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["aps1", "euw1", "use1"]);
    assert_eq!(by_region["instances"][1]["arguments"]["region"], "eu-west-1");
    let nested = v["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["module"] == "module.region.module.bucket" && b["address"] == "aws_s3_bucket.b")
        .expect("the nested module's bucket is listed");
    assert_eq!(nested["provider"]["module"], "");
    assert_eq!(nested["provider"]["config"], "aws.by_region");
    assert_eq!(nested["provider"]["via"], serde_json::json!(["module.bucket", "module.region"]));
    let selected: Vec<&str> =
        nested["instances"].as_array().unwrap().iter().map(|i| i["provider_key"].as_str().unwrap()).collect();
    assert_eq!(selected, ["euw1", "use1"], "only the enabled regions get module instances");
    let global = v["blocks"].as_array().unwrap().iter().find(|b| b["address"] == "aws_s3_bucket.global").unwrap();
    assert_eq!(global["provider"]["explicit"], false);
    assert_eq!(global["provider"]["config"], "aws");
}

#[test]
fn inspect_lists_data_sources_in_check_blocks() {
    let o = run(&["inspect", "testdata/provider-for-each/check-data"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let logs = v["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["address"] == "data.aws_s3_bucket.logs")
        .expect("the data source of the check block is listed");
    assert_eq!(logs["provider"]["config"], "aws.by_region");
    let keys: Vec<&str> =
        logs["instances"].as_array().unwrap().iter().map(|i| i["provider_key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["us-east-1"]);
}

#[test]
fn inspect_shows_the_arguments_of_providers_without_for_each() {
    let o = run(&["inspect", "testdata/cli/inspect-provider-arguments"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let providers = v["providers"].as_array().unwrap();
    let root = providers.iter().find(|p| p["module"] == "").unwrap();
    assert_eq!(root["status"], "single");
    assert_eq!(root["arguments"], serde_json::json!({"region": "us-east-1", "profile": "p-us-east-1"}));
    let child = providers.iter().find(|p| p["module"] == "module.child").unwrap();
    assert_eq!(child["arguments"], serde_json::json!({"region": "EU-CENTRAL-1"}), "evaluated in the instance");
    let multi = run(&["inspect", "testdata/provider-for-each/valid/multi-region"]);
    let v: Value = serde_json::from_slice(&multi.stdout).unwrap();
    let by_region = v["providers"].as_array().unwrap().iter().find(|p| p["alias"] == "by_region").unwrap();
    assert_eq!(by_region["arguments"], Value::Null, "with for_each, each instance has its own");
}

#[test]
fn inspect_lists_module_calls_with_evaluated_sources() {
    let o = run(&["inspect", "testdata/init-time/source-local-two-levels"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let svc = v["modules"].as_array().unwrap().iter().find(|m| m["address"] == "module.platform.module.svc").unwrap();
    assert_eq!(svc["module"], "module.platform");
    assert_eq!(svc["source"], "../services/blue");
    assert_eq!(svc["status"], "loaded");
    assert_eq!(svc["dir"], "testdata/init-time/source-local-two-levels/services/blue");
    assert_eq!(svc["location"]["file"], "testdata/init-time/source-local-two-levels/platform/main.tf");

    // Without a value for the root variable, the source is not known and the module not loaded.
    let o = run(&["inspect", "testdata/init-time/source-for-each-shared"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let helper =
        v["modules"].as_array().unwrap().iter().find(|m| m["address"] == "module.common.module.helper").unwrap();
    assert_eq!(helper["source"], Value::Null);
    assert_eq!(helper["status"], "not-loaded");
    assert_eq!(helper["dir"], Value::Null);
    let why = helper["not_known"][0].as_str().unwrap();
    assert!(why.starts_with("source: ") && why.contains("`var.utils_version`"), "{why}");
    // With the value, the git source is known (and still not loaded: `tofu init` has not installed it here).
    let o = run(&["inspect", "testdata/init-time/source-for-each-shared", "--var", "utils_version=v2"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let helper =
        v["modules"].as_array().unwrap().iter().find(|m| m["address"] == "module.common.module.helper").unwrap();
    assert_eq!(helper["source"], "git@github.com:org/my-utils?ref=v2");
    assert_eq!(helper["not_known"], serde_json::json!([]));
}

#[test]
fn inspect_lists_each_modules_admitted_releases_and_minimum() {
    let o = run(&["inspect", "testdata/versions/callers/old"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let versions = v["versions"].as_array().unwrap();
    let root = versions.iter().find(|m| m["module"] == "").unwrap();
    assert_eq!(root["admitted"], "1.6.0 and later");
    assert_eq!(root["minimum"], "1.6");
    let child = versions.iter().find(|m| m["module"] == "module.child").unwrap();
    assert_eq!(child["dir"], "testdata/versions/callers/child");
    // The child has no constraint of its own; the tree admits what the root's `>= 1.6` admits.
    assert_eq!(child["admitted"], "1.6.0 and later");
    assert_eq!(child["tree_admitted"], "1.6.0 and later");
    assert_eq!(child["minimum"], "1.9");
    assert_eq!(child["needs"][0]["construct"], "`for_each` in a `provider` block");
    assert_eq!(child["needs"][0]["location"]["line"], 4);
    assert_eq!(child["needs"][0]["opentofu"], "1.9");

    // A `.tf` lower bound keeps 1.6 to 1.11 out; 1.12 and later ignore it.
    let o = run(&["inspect", "testdata/versions/at-1.9"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["versions"][0]["admitted"], "1.9.0 and later");
    assert_eq!(v["versions"][0]["minimum"], "1.10");
}

#[test]
fn inspect_marks_module_calls_without_instances() {
    let o = run(&["inspect", "testdata/model/zero-instance-calls"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let has_instances = |address: &str| {
        v["modules"].as_array().unwrap().iter().find(|m| m["address"] == address).unwrap()["has_instances"].clone()
    };
    for off in
        ["module.off_by_count", "module.off_by_empty_for_each", "module.off_by_condition", "module.off_by_enabled"]
    {
        assert_eq!(has_instances(off), false, "{off}");
    }
    assert_eq!(has_instances("module.on"), true);
    let statuses: Vec<(&str, &str)> = v["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["module"].as_str().unwrap(), p["status"].as_str().unwrap()))
        .collect();
    assert!(statuses.contains(&("module.off_by_count", "no-instances")), "{statuses:?}");
    assert!(statuses.contains(&("module.on", "expanded")), "{statuses:?}");
}

#[test]
fn file_functions_read_up_to_the_repository_that_holds_the_checked_path() {
    let repo_copy = tempfile::tempdir().unwrap();
    copy_tree(&fixture("read-boundary"), repo_copy.path());
    // Outside a repository the checked path is the boundary: `../../shared` is not read. OpenTofu reads it, so that
    // is no error: the value is unknown, with a note saying why, and the keys are not checked.
    let (code, v) = json_in(repo_copy.path(), &["check", "live/prod"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(codes(&v), ["provider-for-each-unresolved", "file-outside-repository"], "{v:#}");
    let note = &v["diagnostics"][1];
    assert_eq!(note["severity"], "info", "{v:#}");
    assert!(note["message"].as_str().unwrap().contains("was not read: it is outside the repository"), "{v:#}");
    // Inside one (a `.git` directory, or the `.git` file of a worktree), the whole repository may be read: the
    // keys come from the shared file, so the wrong one is found.
    for git in ["dir", "file"] {
        let dot_git = repo_copy.path().join(".git");
        let _ = std::fs::remove_dir_all(&dot_git);
        let _ = std::fs::remove_file(&dot_git);
        if git == "dir" {
            std::fs::create_dir(&dot_git).unwrap();
        } else {
            std::fs::write(&dot_git, "gitdir: /elsewhere/.git/worktrees/x\n").unwrap();
        }
        let (code, v) = json_in(repo_copy.path(), &["check", "live/prod"]);
        assert_eq!(code, 1);
        assert_eq!(codes(&v), ["unknown-provider-instance"], "{git}: {v:#}");
        // The same from inside the checked directory.
        let (_, v) = json_in(&repo_copy.path().join("live/prod"), &["check"]);
        assert_eq!(codes(&v), ["unknown-provider-instance"], "{git}: {v:#}");
    }
}

/// Copies a directory tree (fixtures are small) so `--fix` can write to it.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn fix_without_fixes_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture("errors"), dir.path());
    let before = std::fs::read_to_string(dir.path().join("main.tf")).unwrap();
    let o = run_in(dir.path(), &["check", "--fix", "--no-color"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(stderr(&o), "", "nothing fixed, nothing said");
    assert_eq!(std::fs::read_to_string(dir.path().join("main.tf")).unwrap(), before);
}

#[test]
fn fix_rewrites_the_rfc_trap_in_place_and_reports_what_remains() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("testdata/provider-for-each/too-similar/rfc-trap"), dir.path());
    let path = dir.path().join("main.tf");
    let before = std::fs::read_to_string(&path).unwrap();
    let o = run_in(dir.path(), &["check", "--fix", "--format", "json"]);
    assert!(stderr(&o).contains("fixed 1 problem in main.tf"), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json output");
    assert!(!codes(&v).contains(&"too-similar-for-each".to_string()), "{v}");
    let after = std::fs::read_to_string(&path).unwrap();
    let old = "for_each = var.aws_regions\n  #          ^^^^^^^^^^^^^^^ warning[too-similar-for-each]";
    let new = "for_each = { for k, v in var.aws_regions : k => v if v.enabled }\n  #          ^^^^^^^^^^^^^^^ warning[too-similar-for-each]";
    let typed = "    vpc_cidr_block = string\n    enabled = optional(bool, true)\n";
    assert_eq!(after, before.replacen(old, new, 1).replacen("    vpc_cidr_block = string\n", typed, 1));
}

/// The instances `inspect` lists: each provider configuration's instance keys, and each block's instances with the
/// provider instance each selects (not source locations, which a fix moves, nor `each.value`, which gains the new
/// attribute's default).
fn instances(dir: &Path) -> Value {
    let o = run_in(dir, &["inspect"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys = |list: &Value| -> Vec<Value> { list.as_array().unwrap().iter().map(|i| i["key"].clone()).collect() };
    let providers: Vec<Value> = v["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| serde_json::json!([p["name"], p["alias"], p["status"], keys(&p["instances"])]))
        .collect();
    let blocks: Vec<Value> = v["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| serde_json::json!([b["module"], b["address"], b["provider"]["config"], b["instances"]]))
        .collect();
    serde_json::json!({ "providers": providers, "blocks": blocks })
}

/// The provider iteration RFC's own trap, with values in `terraform.tfvars`: `check --fix` makes it safe (the
/// variable's type gets `enabled`, the resource filters on it), nothing is reported any more, and every provider
/// and resource instance is the one it was.
#[test]
fn fix_of_the_rfcs_removal_trap_keeps_every_instance() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture("rfc-removal-trap"), dir.path());
    let before = instances(dir.path());
    assert_eq!(before["blocks"][0][3].as_array().map(Vec::len), Some(2), "{before}");

    let o = run_in(dir.path(), &["check", "--fix", "--no-color"]);
    assert_eq!(stderr(&o), "fixed 1 problem in main.tf\n");
    let (code, v) = json_in(dir.path(), &["check"]);
    assert_eq!((code, codes(&v)), (0, Vec::<String>::new()), "{v}");
    assert_eq!(instances(dir.path()), before);

    // Disabling a region now really removes its resource instances, and only those.
    let tfvars = dir.path().join("terraform.tfvars");
    let values = std::fs::read_to_string(&tfvars).unwrap();
    std::fs::write(&tfvars, values.replace("\"10.2.0.0/16\" }", "\"10.2.0.0/16\", enabled = false }")).unwrap();
    let disabled = instances(dir.path());
    assert_eq!(disabled["providers"], before["providers"], "the provider keeps both instances");
    let keys: Vec<&str> =
        disabled["blocks"][0][3].as_array().unwrap().iter().map(|i| i["provider_key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["eu-west-1"]);
}

/// The same trap when the variable has no value here (it is given at plan time, `-var-file=prod.tfvars`): its declared
/// type `map(object({…}))` says the elements are objects, so `check --fix` applies the same fix.
#[test]
fn fix_of_the_removal_trap_needs_only_the_declared_type() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&fixture("rfc-removal-trap"), dir.path());
    std::fs::remove_file(dir.path().join("terraform.tfvars")).unwrap();
    let (_, v) = json_in(dir.path(), &["check"]);
    let trap = v["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "too-similar-for-each").unwrap();
    // The way out destroys one instance, never the whole resource.
    let escape = trap["related"][0]["message"].as_str().unwrap();
    assert!(escape.contains(r#"`tofu apply -destroy -target='aws_vpc.example["<key>"]'`"#), "{escape}");

    let o = run_in(dir.path(), &["check", "--fix", "--no-color"]);
    assert_eq!(stderr(&o), "fixed 1 problem in main.tf\n", "{}", stdout(&o));
    let after = std::fs::read_to_string(dir.path().join("main.tf")).unwrap();
    assert!(after.contains("for_each = { for k, v in var.aws_regions : k => v if v.enabled }"), "{after}");
    assert!(after.contains("    vpc_cidr_block = string\n    enabled = optional(bool, true)\n"), "{after}");
    let (_, v) = json_in(dir.path(), &["check"]);
    assert!(!codes(&v).contains(&"too-similar-for-each".to_string()), "{v:#}");
}

#[test]
fn quick_fixes_are_printed_in_human_and_json_output() {
    let o = run(&["check", "testdata/examples/multi-region", "--no-color"]);
    assert!(
        stdout(&o)
            .contains("= help: quick fix: Filter `for_each` through the `enabled` attribute of `var.regions` (applied by `check --fix`)")
    );
    let (_, v) = json(&["check", "testdata/examples/multi-region"]);
    let trap = v["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "too-similar-for-each").unwrap();
    let edit = &trap["fixes"][0]["edits"][0];
    assert_eq!(edit["new_text"], "{ for k, v in var.regions : k => v if v.enabled }");
    assert_eq!(edit["range"]["start"]["line"], trap["range"]["start"]["line"]);
    assert_eq!(trap["fixes"][0]["automatic"], true);
}

#[test]
fn code_frames_of_crlf_files_show_no_carriage_returns() {
    let o = run(&["check", "testdata/syntax/crlf-line-endings", "--no-color"]);
    let out = stdout(&o);
    assert!(out.contains("provider = aws.by_region[\"c\"]"), "{out}");
    assert!(!out.contains('\r') && !out.contains('␍'), "{out:?}");
}

#[test]
fn fix_keeps_crlf_line_endings() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("testdata/syntax/crlf-line-endings"), dir.path());
    let o = run_in(dir.path(), &["check", "--fix", "--no-color"]);
    assert!(stderr(&o).contains("fixed 1 problem in main.tf"), "{}", stderr(&o));
    let after = std::fs::read_to_string(dir.path().join("main.tf")).unwrap();
    assert!(after.contains("variable \"disabled_regions\" {\r\n  description"), "{after:?}");
    let lone = after.match_indices('\n').filter(|(i, _)| !after[..*i].ends_with('\r')).count();
    assert_eq!(lone, 0, "{after:?}");
}

#[test]
fn a_symlink_loop_between_modules_ends_in_a_cycle_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), "module \"a\" {\n  source = \"./a\"\n}\n").unwrap();
    std::fs::create_dir(dir.path().join("a")).unwrap();
    std::fs::write(dir.path().join("a/main.tf"), "module \"again\" {\n  source = \"./loop\"\n}\n").unwrap();
    // a/loop -> a: following `./loop` from `a` would load `a` again, forever.
    std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("a/loop")).unwrap();
    let o = run_in(dir.path(), &["check", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(codes(&v), ["module-cycle"]);
}

/// A repository with two roots (`envs/prod` calls `modules/replica`, `envs/dev` stands alone), each with a wrong
/// instance key only its own context reveals.
fn changed_workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "envs/prod/main.tf",
            "variable \"regions\" {\n  default = { use1 = \"us-east-1\" }\n}\n\nmodule \"replica\" {\n  source  = \"../../modules/replica\"\n  regions = var.regions\n}\n",
        ),
        (
            "modules/replica/main.tf",
            "variable \"regions\" {}\n\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = var.regions\n  region   = each.value\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"apse2\"]\n}\n",
        ),
        ("modules/replica/tests/a.tftest.hcl", "run \"plan\" {\n  command = plan\n}\n"),
        (
            "envs/dev/main.tf",
            "provider \"aws\" {\n  alias    = \"d\"\n  for_each = toset([\"a\"])\n  region   = each.key\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.d[\"b\"]\n}\n",
        ),
        ("README.md", "not OpenTofu\n"),
    ];
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn changed(dir: &Path, files: &[&str]) -> (i32, Vec<String>) {
    let mut args = vec!["check", "--changed", "--format", "json"];
    args.extend(files);
    let o = run_in(dir, &args);
    let code = o.status.code().unwrap();
    if o.stdout.is_empty() {
        return (code, Vec::new());
    }
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    let files = v["diagnostics"].as_array().unwrap().iter().map(|d| d["file"].as_str().unwrap().to_string()).collect();
    (code, files)
}

#[test]
fn changed_files_check_their_root_modules_and_the_callers_of_their_modules() {
    let dir = changed_workspace();
    let w = dir.path();
    // A file in a called module: checked through its caller (alone, `var.regions` would be unknown).
    let (code, files) = changed(w, &["modules/replica/main.tf"]);
    assert_eq!((code, files), (1, vec!["modules/replica/main.tf".to_string()]));
    // A test file in the module's tests/ directory belongs to the module.
    assert_eq!(changed(w, &["modules/replica/tests/a.tftest.hcl"]).1, ["modules/replica/main.tf"]);
    // Its own root only: envs/prod's module is not reported for a change in envs/dev.
    assert_eq!(changed(w, &["envs/dev/main.tf"]).1, ["envs/dev/main.tf"]);
    // Several files of several roots: each root once.
    let (_, mut files) = changed(w, &["envs/dev/main.tf", "envs/prod/main.tf", "modules/replica/main.tf"]);
    files.sort();
    assert_eq!(files, ["envs/dev/main.tf", "modules/replica/main.tf"]);
    // Nothing OpenTofu changed: nothing to check, success.
    assert_eq!(changed(w, &["README.md"]), (0, Vec::new()));
}

/// The README shows what `check` prints for the bundled example: that block must be what it prints, word for word.
#[test]
fn the_readme_example_output_is_real() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let after = readme.split("What it prints for the bundled example:").nth(1).expect("the README shows the output");
    let block = after.split("```text\n").nth(1).and_then(|b| b.split("```").next()).expect("a ```text block");
    let o = run(&["check", "testdata/examples/multi-region", "--no-color"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with(block), "README:\n{block}\nprinted:\n{}", stdout(&o));
}

/// Issue 33, item 2: a root that needs a value from outside (`var.token`) is still checked with its defaults, as
/// warnings that name the default; once the value is given, the defaults are final and the same finding is an error.
/// No message says that a variable with a default has no value.
#[test]
fn defaults_of_a_root_that_needs_outside_values_are_used_provisionally() {
    let dir = "testdata/model/provisional-defaults";
    let findings = |v: &Value| -> Vec<(String, String, String)> {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["file"].as_str().unwrap().ends_with("provisional-defaults/main.tf"))
            .map(|d| {
                let s = |k: &str| d[k].as_str().unwrap().to_string();
                (s("severity"), s("code"), s("message"))
            })
            .collect()
    };
    let (_, without) = json(&["check", dir]);
    let unknown_instance: Vec<_> = findings(&without)
        .into_iter()
        .filter(|(_, c, m)| c == "unknown-provider-instance" && m.contains("`us`"))
        .collect();
    assert_eq!(unknown_instance.len(), 2, "{unknown_instance:?}");
    for (severity, _, message) in &unknown_instance {
        assert_eq!(severity, "warning", "{message}");
        assert!(
            message.contains("(with the default of `var.") && message.contains("`var.regions`, which"),
            "{message}"
        );
        assert!(message.contains("--var-file") && message.contains("foreach-ls.toml"), "{message}");
    }
    for d in without["diagnostics"].as_array().unwrap() {
        let m = d["message"].as_str().unwrap();
        assert!(!m.contains("`var.regions`, which has no value") && !m.contains("`var.regions` has no value"), "{m}");
    }

    let (_, with) = json(&["check", dir, "--var", "token=t"]);
    let unknown_instance: Vec<_> = findings(&with)
        .into_iter()
        .filter(|(_, c, m)| c == "unknown-provider-instance" && m.contains("`us`"))
        .collect();
    assert_eq!(unknown_instance.len(), 2, "{unknown_instance:?}");
    for (severity, _, message) in &unknown_instance {
        assert_eq!(severity, "error", "{message}");
        assert!(!message.contains("with the default of"), "{message}");
    }
}
