//! The real `pre-commit` (PyPI, in `target/pre-commit-venv`) runs the hook of `.pre-commit-hooks.yaml` in a
//! temporary git repository, offline: a wrong instance key blocks the commit, the fix lets it through. The hook is
//! used as a `repo: local` hook with `language: system` (the published `language: rust` would build the binary
//! with `cargo install`); everything else (entry, file pattern, serial run) is the published definition.

mod tools;

use std::path::Path;
use std::process::{Command, Output};

use tools::venv::{Unavailable, install_once};
use tools::{path_with_binary, python_venv, repo, report, skip};

const TEST: &str = "pre_commit";

const ROOT: &str = r#"
variable "regions" {
  type    = map(string)
  default = { use1 = "us-east-1", euw1 = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["KEY"]
}
"#;

const CALL: &str = r#"
module "replica" {
  source  = "../../modules/replica"
  regions = var.regions
}
"#;

// Checked alone, `var.regions` is unknown and so is every key; only its caller (envs/prod) gives it values.
const MODULE: &str = r#"
variable "regions" {
  type = map(string)
}

provider "aws" {
  alias    = "replica"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "replica" {
  provider = aws.replica["KEY"]
}
"#;

/// `git` (or another program) in `dir`, isolated from the user's git configuration and pre-commit cache, with
/// the `foreach-ls` under test first on PATH.
fn command(program: &Path, dir: &Path, home: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(dir)
        .env("PATH", path_with_binary())
        .env("PRE_COMMIT_HOME", home)
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    cmd
}

fn ok(out: Output) -> String {
    let r = report(&out);
    assert!(out.status.success(), "{r}");
    r
}

/// `.pre-commit-hooks.yaml` as a local hook: the hook list indented under `repos: - repo: local`, with
/// `language: system` instead of `rust`.
fn local_config() -> String {
    let hooks = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    assert!(hooks.contains("language: rust"), "the published hook builds with cargo");
    let mut config = String::from("repos:\n  - repo: local\n    hooks:\n");
    for line in hooks.lines().filter(|l| !l.trim_start().starts_with('#')) {
        config.push_str(&format!("      {}\n", line.replace("language: rust", "language: system")));
    }
    config
}

/// A git repository in a temporary directory with this checkout's hook installed, and a HOME of its own.
struct HookRepo {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl HookRepo {
    fn new() -> Result<HookRepo, String> {
        let bin = python_venv("pre-commit-venv", &["pre-commit"], "pre-commit")?;
        let repo = HookRepo { dir: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap() };
        ok(repo.git(&["init", "-q", "-b", "main"]));
        repo.write(".pre-commit-config.yaml", &local_config());
        let mut install = command(&bin.join("pre-commit"), repo.dir.path(), repo.home.path());
        ok(install.arg("install").output().expect("pre-commit runs"));
        Ok(repo)
    }

    fn write(&self, path: &str, text: &str) {
        let p = self.dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn git(&self, args: &[&str]) -> std::process::Output {
        command(Path::new("git"), self.dir.path(), self.home.path()).args(args).output().expect("git runs")
    }
}

#[test]
fn pre_commit_blocks_a_wrong_key_and_passes_the_fix() {
    let repo = match HookRepo::new() {
        Ok(repo) => repo,
        Err(reason) => return skip(TEST, &format!("pre-commit (pip install pre-commit) unavailable: {reason}")),
    };
    let write = |path: &str, text: &str| repo.write(path, text);
    let git = |args: &[&str]| repo.git(args);
    let commit = |message: &str| git(&["commit", "-q", "-m", message]);
    write("envs/prod/main.tf", &(ROOT.replace("KEY", "use1") + CALL));
    write("modules/replica/main.tf", &MODULE.replace("KEY", "euw1"));
    // Another root with a mistake that no staged file touches: it must not block these commits.
    write("envs/legacy/main.tf", &ROOT.replace("KEY", "nowhere"));

    // A clean first commit (the legacy root is not staged, so it is not checked).
    ok(git(&["add", ".pre-commit-config.yaml", "envs/prod", "modules"]));
    let first = commit("initial");
    assert!(first.status.success(), "a clean commit must pass:\n{}", report(&first));

    // A wrong key in the root: blocked, with the diagnostic in the hook's output.
    write("envs/prod/main.tf", &(ROOT.replace("KEY", "apse2") + CALL));
    ok(git(&["add", "envs/prod/main.tf"]));
    let blocked = commit("wrong key in the root");
    let r = report(&blocked);
    assert!(!blocked.status.success(), "a wrong key must block the commit:\n{r}");
    assert!(r.contains("unknown-provider-instance") && r.contains("apse2"), "{r}");
    assert!(!r.contains("nowhere"), "the unstaged legacy root must not be checked:\n{r}");

    // The fix lets it through.
    write("envs/prod/main.tf", &(ROOT.replace("KEY", "euw1") + CALL));
    ok(git(&["add", "envs/prod/main.tf"]));
    let fixed = commit("fix the key");
    assert!(fixed.status.success(), "the fix must pass:\n{}", report(&fixed));

    // Only the called module is staged: it is checked with its caller's regions, so the wrong key is found.
    write("modules/replica/main.tf", &MODULE.replace("KEY", "apse2"));
    ok(git(&["add", "modules/replica/main.tf"]));
    let blocked = commit("wrong key in the module");
    let r = report(&blocked);
    assert!(!blocked.status.success(), "a wrong key in a called module must block the commit:\n{r}");
    assert!(r.contains("modules/replica/main.tf") && r.contains("apse2"), "{r}");
    write("modules/replica/main.tf", &MODULE.replace("KEY", "use1"));
    ok(git(&["add", "modules/replica/main.tf"]));
    let fixed = commit("fix the module");
    assert!(fixed.status.success(), "the module fix must pass:\n{}", report(&fixed));
    let log = ok(git(&["log", "--oneline"]));
    assert_eq!(log.lines().count(), 3, "{log}");
}

/// The project file at the repository root is used by the hook with no option: a key that the staging environment
/// lacks blocks the commit, naming staging.
#[test]
fn pre_commit_checks_the_environments_of_the_project_file() {
    let repo = match HookRepo::new() {
        Ok(repo) => repo,
        Err(reason) => return skip(TEST, &format!("pre-commit (pip install pre-commit) unavailable: {reason}")),
    };
    let write = |path: &str, text: &str| repo.write(path, text);
    let git = |args: &[&str]| repo.git(args);
    write(
        "foreach-ls.toml",
        "[environments.prod]\nvar_files = [\"envs/prod.tfvars\"]\n\n[environments.staging]\nvar_files = [\"envs/staging.tfvars\"]\n",
    );
    write("envs/prod.tfvars", "regions = { use1 = \"us-east-1\", euw1 = \"eu-west-1\" }\n");
    write("envs/staging.tfvars", "regions = { use1 = \"us-east-1\" }\n");
    write("live/main.tf", &ROOT.replace("KEY", "use1"));
    ok(git(&["add", "."]));
    let first = git(&["commit", "-q", "-m", "initial"]);
    assert!(first.status.success(), "a key of both environments passes:\n{}", report(&first));

    write("live/main.tf", &ROOT.replace("KEY", "euw1"));
    ok(git(&["add", "live/main.tf"]));
    let blocked = git(&["commit", "-q", "-m", "a key staging lacks"]);
    let r = report(&blocked);
    assert!(!blocked.status.success(), "a key staging lacks must block the commit:\n{r}");
    assert!(r.contains("error[unknown-provider-instance] (staging)"), "{r}");
}

/// This file's two tests need the same environment at the same time. `python3 -m venv` into a directory that another
/// test was creating failed ("File exists"), and the test skipped, hiding the failure. Now two builds at once make
/// it once between them, the second waiting for the first; a directory left half-made (no completion marker) is
/// removed and built again; and a build that fails for want of the tool is a skip, the directory gone.
#[test]
fn concurrent_installs_build_one_tool_directory_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let base = tempfile::tempdir().unwrap();
    let dir = base.path().join("tool");
    let builds = AtomicUsize::new(0);
    let install = || {
        let ready = || dir.join("bin/tool").is_file();
        let build = || {
            builds.fetch_add(1, Ordering::SeqCst);
            // As `python3 -m venv` fails on a directory another build is making.
            std::fs::create_dir(&dir).unwrap_or_else(|e| panic!("two builds at once: {e}"));
            std::thread::sleep(std::time::Duration::from_millis(300));
            std::fs::create_dir(dir.join("bin")).unwrap();
            std::fs::write(dir.join("bin/tool"), "").unwrap();
            Ok(())
        };
        install_once(&dir, &ready, &build)
    };
    std::thread::scope(|s| {
        let (a, b) = (s.spawn(install), s.spawn(install));
        a.join().expect("no panic").expect("built");
        b.join().expect("no panic").expect("built");
    });
    assert_eq!(builds.load(Ordering::SeqCst), 1);
    install().unwrap();
    assert_eq!(builds.load(Ordering::SeqCst), 1, "a complete directory is reused");

    // Interrupted after the tool was there but before the marker: built again, from an empty directory.
    std::fs::remove_file(dir.join(".foreach-ls-complete")).unwrap();
    std::fs::write(dir.join("leftover"), "").unwrap();
    install().unwrap();
    assert_eq!(builds.load(Ordering::SeqCst), 2);
    assert!(!dir.join("leftover").exists());

    let other = base.path().join("other");
    let offline = install_once(&other, &|| false, &|| {
        std::fs::create_dir(&other).unwrap();
        Err(Unavailable("the package index is unreachable".into()))
    });
    assert!(matches!(offline, Err(Unavailable(why)) if why.contains("unreachable")));
    assert!(!other.exists(), "a failed build leaves nothing half-made");
}
