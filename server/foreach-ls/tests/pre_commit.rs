//! The real `pre-commit` (PyPI, in `target/pre-commit-venv`) runs foreach-ls's hooks in temporary git repositories,
//! offline: a wrong instance key blocks the commit, the fix lets it through.
//!
//! - The hook of `.pre-commit-hooks.yaml` (the build-from-source one) is used as a `repo: local` hook with
//!   `language: system` (the published `language: rust` would build the binary with `cargo install`); everything
//!   else (entry, file pattern, serial run) is the published definition.
//! - The hook repository `packaging/pre-commit/` (`language: python`) is used as users use it: pre-commit clones a
//!   git repository made of that directory and installs its package, whose dependency is the `foreach-ls` wheel,
//!   packed from the binary under test by `scripts/package-wheel.sh`; pip's only sources are that wheel and a
//!   setuptools wheel (downloaded once into `target/pre-commit-wheels`). Its first run, the install included, is timed.

mod tools;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use tools::venv::{Unavailable, install_once};
use tools::{binary, copy_dir, path_with_binary, python_venv, repo, report, skip, target_dir};

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

/// A git repository in a temporary directory with a pre-commit configuration installed, a HOME of its own, and
/// environment variables for its commands (pip's package sources).
struct HookRepo {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
    env: Vec<(&'static str, OsString)>,
}

impl HookRepo {
    /// This checkout's build-from-source hook, as a local hook.
    fn new() -> Result<HookRepo, String> {
        HookRepo::with_config(&local_config(), Vec::new())
    }

    fn with_config(config: &str, env: Vec<(&'static str, OsString)>) -> Result<HookRepo, String> {
        let bin = python_venv("pre-commit-venv", &["pre-commit"], "pre-commit")?;
        let repo = HookRepo { dir: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap(), env };
        ok(repo.git(&["init", "-q", "-b", "main"]));
        repo.write(".pre-commit-config.yaml", config);
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
        let mut git = command(Path::new("git"), self.dir.path(), self.home.path());
        git.envs(self.env.iter().map(|(k, v)| (k, v))).args(args).output().expect("git runs")
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

/// The Rust target of the binary under test, for `scripts/package-wheel.sh` (which tags a `-linux-gnu` wheel for this
/// machine only); `None` where the packaging scripts (bash) do not run.
fn host_target() -> Option<String> {
    let arch = std::env::consts::ARCH;
    match std::env::consts::OS {
        "linux" if cfg!(target_env = "musl") => Some(format!("{arch}-unknown-linux-musl")),
        "linux" => Some(format!("{arch}-unknown-linux-gnu")),
        "macos" => Some(format!("{arch}-apple-darwin")),
        _ => None,
    }
}

/// The setuptools wheel pip needs to build the hook repository's package (its `build-system`), downloaded once into
/// `target/pre-commit-wheels` with the pip of `pre-commit-venv`, so that the hook installs with no index at all.
fn setuptools_wheels(pre_commit_bin: &Path) -> Result<PathBuf, String> {
    const SETUPTOOLS: &str = "setuptools==80.9.0";
    let dir = target_dir().join("pre-commit-wheels");
    let have = |dir: &Path| {
        std::fs::read_dir(dir)
            .is_ok_and(|mut d| d.any(|e| e.unwrap().file_name().to_string_lossy().starts_with("setuptools-80.9.0-")))
    };
    if !have(&dir) {
        let out = Command::new(pre_commit_bin.join("pip"))
            .args(["download", "-q", "--disable-pip-version-check", "--only-binary=:all:", "--no-deps", "--dest"])
            .arg(&dir)
            .arg(SETUPTOOLS)
            .output()
            .map_err(|e| format!("pip: {e}"))?;
        if !out.status.success() || !have(&dir) {
            return Err(format!("pip download {SETUPTOOLS} failed: {}", report(&out)));
        }
    }
    Ok(dir)
}

/// A git repository made of `packaging/pre-commit/` (what is published as the hook repository), and its commit.
fn hook_repository(home: &Path) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("packaging/pre-commit"), dir.path());
    let git = |args: &[&str]| ok(command(Path::new("git"), dir.path(), home).args(args).output().expect("git runs"));
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "hook repository"]);
    let rev = git(&["rev-parse", "HEAD"]).trim().to_owned();
    (dir, rev)
}

/// The files named `name` under `dir`, at any depth.
fn find_files(dir: &Path, name: &str, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            find_files(&path, name, found);
        } else if entry.file_name() == name {
            found.push(path);
        }
    }
}

/// The published hook repository (`packaging/pre-commit/`, `language: python`) as users configure it: pre-commit
/// clones it and pip installs its package with the `foreach-ls` wheel, with no index (offline), in seconds. The
/// installed binary is the one under test; a wrong key blocks the commit, the fix passes.
#[test]
fn pre_commit_python_hook_installs_the_wheel_and_blocks_a_wrong_key() {
    const FIRST_RUN_LIMIT: Duration = Duration::from_secs(60);
    let Some(target) = host_target() else {
        return skip("pre_commit_python", "the packaging scripts (bash) do not run on this platform");
    };
    let pre_commit = match python_venv("pre-commit-venv", &["pre-commit"], "pre-commit") {
        Ok(bin) => bin,
        Err(reason) => {
            return skip("pre_commit_python", &format!("pre-commit (pip install pre-commit) unavailable: {reason}"));
        }
    };
    let setuptools = match setuptools_wheels(&pre_commit) {
        Ok(dir) => dir,
        Err(reason) => return skip("pre_commit_python", &reason),
    };
    // The wheel, packed from the binary under test as a release's is from its archive.
    let wheels = tempfile::tempdir().unwrap();
    let out = Command::new("bash")
        .arg(repo().join("scripts/package-wheel.sh"))
        .arg(&target)
        .arg(binary())
        .arg("--out")
        .arg(wheels.path())
        .output()
        .expect("bash runs");
    match out.status.code() {
        Some(0) => {}
        // A tool the script installs (pypa's `wheel`) could not be had.
        Some(3) => return skip("pre_commit_python", &format!("scripts/package-wheel.sh: {}", report(&out))),
        _ => panic!("scripts/package-wheel.sh failed:\n{}", report(&out)),
    }

    let home = tempfile::tempdir().unwrap();
    let (hooks, rev) = hook_repository(home.path());
    let config =
        format!("repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: foreach-ls\n", hooks.path().display());
    let find_links = format!("{} {}", wheels.path().display(), setuptools.display());
    let env = vec![
        // pip: the wheel and setuptools, nothing else (PIP_FIND_LINKS takes a space-separated list).
        ("PIP_NO_INDEX", OsString::from("1")),
        ("PIP_FIND_LINKS", OsString::from(find_links)),
        ("PIP_DISABLE_PIP_VERSION_CHECK", OsString::from("1")),
        // Without the binary under test: the hook must run the one its wheel installed.
        ("PATH", std::env::var_os("PATH").unwrap_or_default()),
    ];
    let repo = match HookRepo::with_config(&config, env) {
        Ok(repo) => repo,
        Err(reason) => return skip("pre_commit_python", &format!("pre-commit unavailable: {reason}")),
    };
    let write = |path: &str, text: &str| repo.write(path, text);
    let git = |args: &[&str]| repo.git(args);
    write("envs/prod/main.tf", &ROOT.replace("KEY", "apse2"));
    ok(git(&["add", "."]));

    // The first run installs the hook: cloning the hook repository, a virtual environment, the wheel.
    let start = Instant::now();
    let blocked = git(&["commit", "-q", "-m", "wrong key"]);
    let first_run = start.elapsed();
    let r = report(&blocked);
    println!("first run of the python hook, install included: {:.1} s", first_run.as_secs_f64());
    assert!(!blocked.status.success(), "a wrong key must block the commit:\n{r}");
    assert!(r.contains("unknown-provider-instance") && r.contains("apse2"), "{r}");
    assert!(first_run < FIRST_RUN_LIMIT, "the hook's first run took {first_run:?} (limit {FIRST_RUN_LIMIT:?}):\n{r}");

    // pre-commit installed the wheel's binary, the one under test, in the hook's environment.
    let mut installed = Vec::new();
    find_files(repo.home.path(), "foreach-ls", &mut installed);
    assert_eq!(installed.len(), 1, "one foreach-ls in the hook's environment: {installed:?}");
    let same = std::fs::read(&installed[0]).unwrap() == std::fs::read(binary()).unwrap();
    assert!(same, "{} is not the binary under test", installed[0].display());

    write("envs/prod/main.tf", &ROOT.replace("KEY", "euw1"));
    ok(git(&["add", "envs/prod/main.tf"]));
    let fixed = git(&["commit", "-q", "-m", "fix the key"]);
    assert!(fixed.status.success(), "the fix must pass:\n{}", report(&fixed));
}
