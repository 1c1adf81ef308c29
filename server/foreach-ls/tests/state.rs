//! `--state` and local state files on the command line (`docs/state.md`): exit statuses and messages for states
//! that cannot be read, standard input, several roots, an explicit state replacing the local one, and that a state
//! is only ever read. The findings themselves are tested by the fixtures under `testdata/state/`.

use std::path::PathBuf;
use std::process::Output;

#[path = "support/run.rs"]
mod run;
use run::{run_in, run_with_stdin};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A root module whose provider no longer has the key `eu`, without a local state.
const CONFIG: &str =
    "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"us\"])\n  region   = each.key\n}\n";

/// A state binding one bucket to `aws.by_region["eu"]`.
const STATE: &str = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {"mode": "managed", "type": "aws_s3_bucket", "name": "b", "instances": [
    {"attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region[\"eu\"]"}]}]}"#;

/// The bucket's two instances name two provider configurations (`by_region` and `use1`), not two keys of one: OpenTofu
/// refuses to read such a state ("Provider instance field conflict in state").
const CONFLICT: &str = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {"mode": "managed", "type": "aws_s3_bucket", "name": "b", "instances": [
    {"index_key": "eu", "attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region[\"eu\"]"},
    {"index_key": "us", "attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"].use1"}]}]}"#;

/// `provider` on the resource and on its instance: OpenTofu reads it (the instance's wins, and its "Provider field
/// conflict" warning is never shown), so the bucket is bound to `aws.by_region["eu"]`, which is gone.
const BOTH: &str = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {"mode": "managed", "type": "aws_s3_bucket", "name": "b",
   "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]", "instances": [
    {"attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region[\"eu\"]"}]}]}"#;

fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let target = dir.path().join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
    dir
}

#[test]
fn a_state_given_explicitly_that_cannot_be_read_exits_two_saying_why() {
    let cases: &[(&str, &str)] = &[
        ("not json\n", "it is not valid JSON"),
        (&STATE[..STATE.len() / 2], "it ends in the middle of the JSON"),
        (r#"{"version": 3, "modules": []}"#, "it has state format version 3"),
        (
            r#"{"encrypted_data": "AAAA", "encryption_version": "v0", "meta": {}}"#,
            "pass the decrypted output of `tofu state pull`",
        ),
        (r#"{"serial": 1}"#, "it has no `version` attribute"),
        (
            CONFLICT,
            "resource `aws_s3_bucket.b` has instances created through different provider configurations, \
             `provider[\"registry.opentofu.org/hashicorp/aws\"].by_region` and \
             `provider[\"registry.opentofu.org/hashicorp/aws\"].use1`; the instances of one resource may differ only \
             in the provider instance key, and OpenTofu refuses this state too (\"Provider instance field conflict in \
             state\")",
        ),
    ];
    for (text, why) in cases {
        let w = workspace(&[("main.tf", CONFIG), ("s.tfstate", text)]);
        for command in ["check", "inspect"] {
            let o = run_in(w.path(), &[command, ".", "--state", "s.tfstate"]);
            assert_eq!(o.status.code(), Some(2), "{command} {text}: {}", stdout(&o));
            let err = stderr(&o);
            assert!(err.starts_with("foreach-ls: cannot read state s.tfstate: "), "{err}");
            assert!(err.contains(why), "{why}: {err}");
            assert!(stdout(&o).is_empty(), "nothing is checked: {}", stdout(&o));
        }
    }
    let w = workspace(&[("main.tf", CONFIG)]);
    let o = run_in(w.path(), &["check", "--state", "missing.tfstate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("foreach-ls: cannot read state missing.tfstate: "), "{}", stderr(&o));
}

#[test]
fn the_state_can_come_from_standard_input() {
    let w = workspace(&[("main.tf", CONFIG)]);
    let o = run_with_stdin(w.path(), &["check", "--state", "-", "--no-color"], STATE.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("error[provider-instance-removed-with-resources]"), "{}", stdout(&o));
    let o = run_with_stdin(w.path(), &["check", "--state", "-"], b"{");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("foreach-ls: cannot read state from standard input: "), "{}", stderr(&o));
    let o = run_with_stdin(w.path(), &["check", "--state", "-", "--state", "-"], STATE.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("only once"), "{}", stderr(&o));
}

#[test]
fn several_roots_take_root_dir_equals_file() {
    let w = workspace(&[("a/main.tf", CONFIG), ("b/main.tf", CONFIG), ("a.tfstate", STATE)]);
    let o = run_in(w.path(), &["check", "a", "b", "--state", "a.tfstate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("write `--state ROOT_DIR=FILE`"), "{}", stderr(&o));

    let o = run_in(w.path(), &["check", "a", "b", "--state", "a=a.tfstate", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let found: Vec<&str> = v["diagnostics"].as_array().unwrap().iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert_eq!(found, ["a/main.tf"], "only root `a` has the state");

    // The state of a directory that is no root module is a mistake, not silently unused.
    let w = workspace(&[
        ("main.tf", "module \"c\" {\n  source = \"./child\"\n}\n"),
        ("child/main.tf", CONFIG),
        ("s.tfstate", STATE),
    ]);
    let o = run_in(w.path(), &["check", ".", "--state", "child=s.tfstate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("holds no root module"), "{}", stderr(&o));
}

#[test]
fn the_local_state_is_used_unless_a_state_is_given() {
    let w = workspace(&[("main.tf", CONFIG), ("terraform.tfstate", STATE), ("empty.tfstate", "")]);
    let o = run_in(w.path(), &["check", "--no-color"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("error[provider-instance-removed-with-resources]"), "{}", stdout(&o));
    // An empty state (OpenTofu's "no state") replaces it.
    let o = run_in(w.path(), &["check", "--state", "empty.tfstate"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn a_local_state_that_cannot_be_read_is_a_warning_and_the_check_goes_on() {
    let w = workspace(&[("main.tf", CONFIG), ("terraform.tfstate", "{\"version\": 4, \"resources\": [")]);
    let o = run_in(w.path(), &["check", "--no-color"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("warning[unreadable-state]"), "{}", stdout(&o));
    let o = run_in(w.path(), &["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(1));
}

/// The documented rows of `docs/state.md` for a state whose instances name two provider configurations: a local one
/// is `unreadable-state` with the same reason; and a state with `provider` on both a resource and its instance is
/// read as OpenTofu reads it.
#[test]
fn a_provider_conflict_is_refused_as_opentofu_refuses_it_and_both_fields_are_read_as_it_reads_them() {
    let w = workspace(&[("main.tf", CONFIG), ("terraform.tfstate", CONFLICT)]);
    let o = run_in(w.path(), &["check", "--no-color"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("warning[unreadable-state]"), "{out}");
    assert!(out.contains("(\"Provider instance field conflict in state\")"), "{out}");

    let w = workspace(&[("main.tf", CONFIG), ("s.tfstate", BOTH)]);
    let o = run_in(w.path(), &["check", "--state", "s.tfstate", "--no-color"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("error[provider-instance-removed-with-resources]"), "{out}");
    assert!(out.contains("`aws.by_region[\"eu\"]`"), "{out}");
}

#[test]
fn states_are_never_written() {
    let w = workspace(&[("main.tf", CONFIG), ("terraform.tfstate", STATE), ("s.tfstate", STATE)]);
    let before: Vec<_> = ["terraform.tfstate", "s.tfstate"]
        .iter()
        .map(|f| std::fs::metadata(w.path().join(f)).unwrap().modified().unwrap())
        .collect();
    run_in(w.path(), &["check", "--fix"]);
    run_in(w.path(), &["check", "--state", "s.tfstate", "--fix"]);
    run_in(w.path(), &["inspect", "--state", "s.tfstate"]);
    for (f, modified) in ["terraform.tfstate", "s.tfstate"].iter().zip(before) {
        assert_eq!(std::fs::read_to_string(w.path().join(f)).unwrap(), STATE);
        assert_eq!(std::fs::metadata(w.path().join(f)).unwrap().modified().unwrap(), modified);
    }
    let names: Vec<String> =
        std::fs::read_dir(w.path()).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert!(!names.iter().any(|n| n.contains("backup") || n.starts_with(".terraform")), "{names:?}");
}

#[test]
fn the_fixture_states_give_the_documented_exit_statuses() {
    let dir = repo().join("testdata/state/instance-removed");
    let o = run_in(&dir, &["check"]);
    assert_eq!(o.status.code(), Some(1));
    let dir = repo().join("testdata/state/no-trap");
    let o = run_in(&dir, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn inspect_counts_the_resource_instances_the_state_binds_to_each_provider_instance() {
    let dir = repo().join("testdata/state/two-levels");
    let o = run_in(&dir, &["inspect", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = &v["providers"][0];
    assert_eq!(p["instances"][0]["key"], "us");
    assert_eq!(p["instances"][0]["state_resource_instances"], 1);
    let state = p["state"].as_array().unwrap();
    let eu = state.iter().find(|s| s["key"] == "eu").unwrap();
    assert_eq!((eu["resource_instances"].as_u64(), eu["in_configuration"].as_bool()), (Some(1), Some(false)));
    let quoted = state.iter().find(|s| s["key"] == "x${y}").unwrap();
    assert_eq!(quoted["in_configuration"], true);

    // Without a state: `null`, not zero.
    let w = workspace(&[("main.tf", CONFIG)]);
    let v: serde_json::Value = serde_json::from_slice(&run_in(w.path(), &["inspect"]).stdout).unwrap();
    assert!(v["providers"][0]["state"].is_null());
    assert!(v["providers"][0]["instances"][0]["state_resource_instances"].is_null());
}

/// Issue 33, item 1: the exact output of `migrate --write` next to the state written before the migration is silent.
/// The state binds the resources to `aws.use1` and `aws.euw1`, which migrate removes; but every resource is still
/// declared (rebound by its new `provider` argument, or merged into a `for_each` block that the `moved` blocks
/// migrate writes lead to), and a declared resource takes its provider from the configuration.
#[test]
fn migrate_write_then_check_with_the_old_state_is_silent() {
    const ALIASED: &str = r#"provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

resource "aws_vpc" "use1" {
  provider   = aws.use1
  cidr_block = "10.0.0.0/16"
}

resource "aws_vpc" "euw1" {
  provider   = aws.euw1
  cidr_block = "10.0.0.0/16"
}

resource "aws_s3_bucket" "logs" {
  provider = aws.use1
  bucket   = "logs"
}
"#;
    let provider = |alias: &str| format!(r#""provider[\"registry.opentofu.org/hashicorp/aws\"].{alias}""#);
    let resource = |ty: &str, name: &str, alias: &str| {
        format!(
            r#"{{"mode": "managed", "type": "{ty}", "name": "{name}", "provider": {}, "instances": [{{"attributes": {{}}}}]}}"#,
            provider(alias)
        )
    };
    let state = format!(
        r#"{{"version": 4, "serial": 1, "lineage": "l", "resources": [{}, {}, {}]}}"#,
        resource("aws_vpc", "use1", "use1"),
        resource("aws_vpc", "euw1", "euw1"),
        resource("aws_s3_bucket", "logs", "use1")
    );
    for extra in [&[][..], &["--resources"][..]] {
        let w = workspace(&[("main.tf", ALIASED), ("terraform.tfstate", &state)]);
        let before = run_in(w.path(), &["check", ".", "--no-color"]);
        assert_eq!(before.status.code(), Some(0), "{}", stdout(&before));
        let mut migrate = vec!["migrate", ".", "--provider", "aws", "--write"];
        migrate.extend_from_slice(extra);
        let o = run_in(w.path(), &migrate);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}{}", stdout(&o), stderr(&o));
        let migrated = std::fs::read_to_string(w.path().join("main.tf")).unwrap();
        assert!(migrated.contains(r#"aws.by_region["use1"]"#) && !migrated.contains("alias  = \"use1\""), "{migrated}");
        assert_eq!(migrated.contains("moved {"), !extra.is_empty(), "{migrated}");
        let after = run_in(w.path(), &["check", ".", "--no-color"]);
        assert_eq!(after.status.code(), Some(0), "{extra:?}: {}", stdout(&after));
        assert!(!stdout(&after).contains("removed-with-resources"), "{extra:?}: {}", stdout(&after));
    }
}

/// Issue 33, item 1: when the resource block itself is gone (an orphan), the finding stays an error with the
/// `-target` advice: the filter on declared instances must not silence the real trap.
#[test]
fn an_orphan_bound_to_a_removed_alias_is_still_an_error() {
    let config = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"us\"])\n}\n";
    let state = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {"mode": "managed", "type": "aws_s3_bucket", "name": "gone", "instances": [
    {"attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"].use1"}]}]}"#;
    let w = workspace(&[("main.tf", config), ("terraform.tfstate", state)]);
    let o = run_in(w.path(), &["check", ".", "--no-color"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("error[provider-config-removed-with-resources]"), "{out}");
    assert!(out.contains("-target='aws_s3_bucket.gone'"), "{out}");
}
