//! The project file `foreach-ls.toml` (`docs/configuration.md`) with the real binary: found above the checked
//! path, its excludes and severity overrides, its errors (exit status 2 with file:line:column), and environments
//! with `check`, `eval` and `inspect`. Each test writes its workspace into a temporary directory.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

#[path = "support/run.rs"]
mod run;
use run::run_in;

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
}

fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // A repository, so that nothing above the temporary directory is read.
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    write(dir.path(), files);
    dir
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn check_json(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let o = run_in(dir, &all);
    let (out, err) = text(&o);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (o.status.code().unwrap(), v)
}

/// `code (env, env)` per diagnostic, in output order.
fn findings(v: &Value) -> Vec<String> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let code = d["code"].as_str().unwrap();
            match d.get("environments").and_then(Value::as_array) {
                Some(envs) => {
                    let names: Vec<&str> = envs.iter().map(|e| e.as_str().unwrap()).collect();
                    format!("{code} ({})", names.join(", "))
                }
                None => code.to_string(),
            }
        })
        .collect()
}

const DUPLICATE: &str = "variable \"name\" {}\nvariable \"name\" {}\n";

#[test]
fn excludes_are_relative_to_the_project_file_and_apply_from_a_subdirectory() {
    let ws = workspace(&[
        ("foreach-ls.toml", "exclude = [\"live/examples/**\"]\n"),
        ("live/main.tf", "locals {\n  a = 1\n}\n"),
        ("live/examples/broken/main.tf", DUPLICATE),
    ]);
    let (code, v) = check_json(ws.path(), &[]);
    assert_eq!((code, findings(&v)), (0, vec![]), "{v}");
    // From `live/`, the same file applies (found above the checked path), and its glob is still relative to it.
    let (code, v) = check_json(&ws.path().join("live"), &[]);
    assert_eq!((code, findings(&v)), (0, vec![]), "{v}");
    let (code, v) = check_json(ws.path(), &["live"]);
    assert_eq!((code, findings(&v)), (0, vec![]), "{v}");
    // Without the file, the example is checked.
    std::fs::remove_file(ws.path().join("foreach-ls.toml")).unwrap();
    let (code, v) = check_json(ws.path(), &[]);
    assert_eq!((code, findings(&v)), (1, vec!["duplicate-block".to_string()]), "{v}");
}

#[test]
fn severity_overrides_change_the_level_and_the_exit_status() {
    let ws = workspace(&[("foreach-ls.toml", "[severity]\nduplicate-block = \"warning\"\n"), ("main.tf", DUPLICATE)]);
    let (code, v) = check_json(ws.path(), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["diagnostics"][0]["severity"], "warning");
    assert_eq!(check_json(ws.path(), &["--deny-warnings"]).0, 1);
    write(ws.path(), &[("foreach-ls.toml", "[severity]\nduplicate-block = \"off\"\n")]);
    let (code, v) = check_json(ws.path(), &[]);
    assert_eq!((code, findings(&v)), (0, vec![]), "{v}");
}

#[test]
fn a_broken_project_file_ends_the_run_naming_file_line_and_column() {
    let cases = [
        (
            "[environments.prod]\nvar_file = [\"prod.tfvars\"]\n",
            "foreach-ls.toml:2:1: unknown key `var_file`; did you mean `var_files`?",
        ),
        (
            "[environments.prod]\nworkspace = 3\n",
            "foreach-ls.toml:2:13: expected a string for `workspace`, found the number 3",
        ),
        ("exclude = \"dist/**\"\n", "foreach-ls.toml:1:11: expected an array for `exclude`, found the string"),
        ("exclude = [\n", "foreach-ls.toml:1:12: unclosed array"),
        (
            "[severity]\nno-such-code = \"off\"\n",
            "foreach-ls.toml:2:1: `no-such-code` is not a foreach-ls diagnostic code",
        ),
        (
            "[severity]\nundefined-refrence = \"off\"\n",
            "foreach-ls.toml:2:1: `undefined-refrence` is not a foreach-ls diagnostic code; did you mean \
             `undefined-reference`?",
        ),
        ("[environments.prod]\nvar_files = [\"gone.tfvars\"]\n", "foreach-ls.toml:2:14: var file `gone.tfvars`"),
    ];
    for (toml, want) in cases {
        let ws = workspace(&[("foreach-ls.toml", toml), ("live/main.tf", "locals {}\n")]);
        for (dir, args) in [(ws.path(), vec!["check"]), (&*ws.path().join("live"), vec!["check"])] {
            let o = run_in(dir, &args);
            let (_, err) = text(&o);
            assert_eq!(o.status.code(), Some(2), "{toml}: {err}");
            assert!(err.contains(want), "{toml}: {err}");
        }
        for args in [vec!["inspect"], vec!["eval", "1"]] {
            let o = run_in(ws.path(), &args);
            assert_eq!(o.status.code(), Some(2), "{args:?} {toml}: {}", text(&o).1);
        }
    }
}

const ROOT: &str = r#"variable "regions" {
  type = set(string)
}

variable "replicas" {
  type    = number
  default = 3
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["eu-west-1"]
}
"#;

#[test]
fn eval_and_inspect_take_one_environment_and_the_command_line_overrides_it() {
    let ws = workspace(&[
        (
            "foreach-ls.toml",
            "[environments.prod]\nvar_files = [\"envs/prod.tfvars\"]\nvariables = { replicas = \"5\" }\n\
             workspace = \"production\"\n",
        ),
        ("envs/prod.tfvars", "regions = [\"eu-west-1\"]\nreplicas = 4\n"),
        ("live/main.tf", ROOT),
    ]);
    let live = ws.path().join("live");
    let eval = |args: &[&str]| {
        let mut all = vec!["eval"];
        all.extend(args);
        let o = run_in(&live, &all);
        text(&o).0.trim().to_string()
    };
    assert_eq!(eval(&["var.replicas", "--env", "prod"]), "5", "variables apply after var_files");
    assert_eq!(eval(&["var.replicas", "--env", "prod", "--var", "replicas=6"]), "6", "--var overrides the file");
    assert_eq!(eval(&["terraform.workspace", "--env", "prod"]), "\"production\"");
    assert_eq!(eval(&["terraform.workspace", "--env", "prod", "--workspace", "w"]), "\"w\"");
    assert!(eval(&["var.regions"]).starts_with("(not known statically)"), "no environment without --env");
    let o = run_in(&live, &["eval", "1", "--env", "qa"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("no environment `qa`"), "{}", text(&o).1);

    let o = run_in(&live, &["inspect", "--env", "prod"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["providers"][0]["instances"][0]["key"], "eu-west-1", "{v}");
}

/// `live` with prod (both regions) and staging (one): the bucket's key is missing in staging only.
fn two_environments() -> tempfile::TempDir {
    workspace(&[
        (
            "foreach-ls.toml",
            "[environments.prod]\nvar_files = [\"envs/prod.tfvars\"]\n\n\
             [environments.staging]\nvar_files = [\"envs/staging.tfvars\"]\n",
        ),
        ("envs/prod.tfvars", "regions = [\"eu-west-1\", \"us-east-1\"]\n"),
        ("envs/staging.tfvars", "regions = [\"us-east-1\"]\n"),
        ("live/main.tf", &format!("{ROOT}\noutput \"o\" {{\n  value = var.nope\n}}\n")),
    ])
}

#[test]
fn check_reports_each_finding_once_naming_the_environments_it_occurs_in() {
    let ws = two_environments();
    let (code, v) = check_json(ws.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(findings(&v), ["unknown-provider-instance (staging)", "undefined-reference"], "{v}");

    let o = run_in(ws.path(), &["check", "--no-color"]);
    let (out, _) = text(&o);
    assert!(out.contains("error[unknown-provider-instance] (staging): no provider instance `eu-west-1`"), "{out}");
    assert!(out.contains("error[undefined-reference]: reference"), "{out}");
    assert!(out.contains("envs/staging.tfvars"), "the staging values are shown: {out}");
    assert!(out.contains("foreach-ls: 2 errors"), "{out}");

    let o = run_in(ws.path(), &["check", "--format", "github"]);
    let (out, _) = text(&o);
    assert!(out.contains("title=foreach-ls unknown-provider-instance::(staging) no provider instance"), "{out}");

    let o = run_in(ws.path(), &["check", "--format", "sarif"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results[0]["properties"]["environments"], serde_json::json!(["staging"]), "{v}");
    assert!(results[1].get("properties").is_none(), "{v}");
}

#[test]
fn check_env_checks_one_environment_and_rejects_unknown_names() {
    let ws = two_environments();
    let (code, v) = check_json(ws.path(), &["--env", "prod"]);
    assert_eq!((code, findings(&v)), (1, vec!["undefined-reference".to_string()]), "{v}");
    let (_, v) = check_json(ws.path(), &["--env", "staging"]);
    assert_eq!(findings(&v), ["unknown-provider-instance", "undefined-reference"], "one environment names none: {v}");
    // The command line overrides the file.
    let (_, v) = check_json(ws.path(), &["--var", "regions=[\"eu-west-1\"]"]);
    assert_eq!(findings(&v), ["undefined-reference"], "{v}");
    let o = run_in(ws.path(), &["check", "--env", "qa"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("no environment `qa`"), "{}", text(&o).1);
}

/// What the pre-commit hook runs: `check --changed FILE...` at the repository root, with the project file in the
/// repository's `infra/` directory, and `check` without arguments in a subdirectory: both find it with no option.
#[test]
fn changed_files_and_subdirectories_find_the_project_file() {
    let ws = workspace(&[
        (
            "infra/foreach-ls.toml",
            "[environments.prod]\nvar_files = [\"envs/prod.tfvars\"]\n\n\
             [environments.staging]\nvar_files = [\"envs/staging.tfvars\"]\n",
        ),
        ("infra/envs/prod.tfvars", "regions = [\"eu-west-1\", \"us-east-1\"]\n"),
        ("infra/envs/staging.tfvars", "regions = [\"us-east-1\"]\n"),
        ("infra/live/main.tf", ROOT),
    ]);
    let want = ["unknown-provider-instance (staging)"];
    let (code, v) = check_json(ws.path(), &["--changed", "infra/live/main.tf"]);
    assert_eq!((code, findings(&v)), (1, want.map(String::from).to_vec()), "{v}");
    let (_, v) = check_json(&ws.path().join("infra/live"), &[]);
    assert_eq!(findings(&v), want, "{v}");
}
