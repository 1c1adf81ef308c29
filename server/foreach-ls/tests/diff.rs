//! `foreach-ls diff` (`docs/diff.md`) on the cases under `testdata/diff/`, each its own test.
//!
//! A case is a directory. Against a state, the directory is the workspace (with its `terraform.tfstate`); against a
//! base, it holds `base/` and `current/`, and the command runs in `current/`. Each `expect-NAME.txt` of a case is one
//! run: its first line is the command (`$ diff --format json`), then what it prints on standard output, then a last
//! line `exit N`. `UPDATE_FIXTURES=1` writes the files from what the command prints (then read the diff).
//!
//! A case with `base/` and `current/` is run a second time as a git repository created by the test (the base
//! committed, the current files in the working tree): `--base DIR` replaced by `--base HEAD` must print the same,
//! apart from the line that names the base. The command itself never runs `git`; this test does, to build the
//! repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use libtest_mimic::{Arguments, Failed, Trial};

#[path = "support/run.rs"]
mod run;
use run::{run_in, run_with_closed_stdout};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory a case's commands run in.
fn workdir(case: &Path) -> PathBuf {
    if case.join("current").is_dir() { case.join("current") } else { case.to_path_buf() }
}

/// One run's arguments (after `diff`), from an expectation file's first line.
fn arguments(expect: &str) -> Result<Vec<String>, Failed> {
    let first = expect.lines().next().unwrap_or_default();
    let command = first.strip_prefix("$ diff").ok_or_else(|| Failed::from("the first line must be `$ diff ARGS`"))?;
    Ok(std::iter::once("diff".to_string()).chain(command.split_whitespace().map(str::to_string)).collect())
}

/// What a run printed, as an expectation file writes it.
fn transcript(dir: &Path, args: &[String]) -> String {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    show(args, run_in(dir, &refs))
}

fn show(args: &[String], o: Output) -> String {
    let stderr = String::from_utf8_lossy(&o.stderr);
    let mut out = format!("$ {}\n{}", args.join(" "), String::from_utf8_lossy(&o.stdout));
    if !stderr.is_empty() {
        out.push_str(&format!("stderr: {}", stderr));
    }
    out.push_str(&format!("exit {}\n", o.status.code().unwrap_or(-1)));
    out
}

fn run_expectation(case: &Path, file: &Path) -> Result<(), Failed> {
    let expected = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let args = arguments(&expected)?;
    let actual = transcript(&workdir(case), &args);
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(file, &actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    if actual != expected {
        return Err(format!("{}:\n--- expected\n{expected}\n--- actual\n{actual}", file.display()).into());
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs (the test builds its repository with it)");
    assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// A repository whose `HEAD` commit holds `base/` and whose working tree holds `current/`.
fn repository(case: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&case.join("base"), dir.path());
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    for entry in std::fs::read_dir(dir.path()).unwrap().flatten() {
        if entry.file_name() == ".git" {
            continue;
        }
        if entry.path().is_dir() {
            std::fs::remove_dir_all(entry.path()).unwrap();
        } else {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    copy_dir(&case.join("current"), dir.path());
    dir
}

/// The same runs with `--base HEAD` in a git repository: the same output, but for the line that names the base.
fn run_from_git(case: &Path, files: &[PathBuf]) -> Result<(), Failed> {
    let repository = repository(case);
    for file in files {
        let expected = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
        let args: Vec<String> =
            arguments(&expected)?.into_iter().map(|a| if a == "../base" { "HEAD".to_string() } else { a }).collect();
        if !args.iter().any(|a| a == "HEAD") {
            continue;
        }
        // With an empty PATH: the command reads the repository itself and cannot run `git`.
        let o = Command::new(env!("CARGO_BIN_EXE_foreach-ls"))
            .args(&args)
            .current_dir(repository.path())
            .env("PATH", "")
            .env_remove("TF_WORKSPACE")
            .output()
            .expect("binary runs");
        let actual = show(&args, o);
        if normalise(&actual) != normalise(&expected) {
            return Err(format!("{} from git:\n--- expected\n{expected}\n--- actual\n{actual}", file.display()).into());
        }
    }
    Ok(())
}

/// A transcript with the base named the same way, whether a directory or a revision: `the checkout ../base` and
/// `HEAD (0123456789ab)` become `BASE`, and so do the JSON `base` members.
fn normalise(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut l = line.replace("--base ../base", "--base HEAD").replace("the checkout ../base", "BASE");
        if let Some(i) = l.find("HEAD (") {
            let rest = &l[i + "HEAD (".len()..];
            if rest.len() > 12 && rest[..12].bytes().all(|b| b.is_ascii_hexdigit()) && rest[12..].starts_with(')') {
                l = format!("{}BASE{}", &l[..i], &rest[13..]);
            }
        }
        match l.trim() {
            t if t.starts_with(r#""commit": "#) => {}
            r#""ref": "HEAD","# | r#""dir": "../base""# => out.push("BASE".to_string()),
            _ => out.push(l),
        }
    }
    out.join("\n")
}

/// Bad usage exits 2 and says why on standard error.
fn usage_errors() -> Result<(), Failed> {
    let case = repo().join("testdata/diff/state-moved");
    let repository = repository(&repo().join("testdata/diff/base-revision"));
    let not_a_repository = tempfile::tempdir().unwrap();
    std::fs::write(not_a_repository.path().join("main.tf"), "resource \"aws_vpc\" \"v\" {\n}\n").unwrap();
    let cases: &[(&Path, &[&str], &str)] = &[
        (&case, &["diff", "--base", "HEAD", "--state", "terraform.tfstate"], "give one"),
        (&case, &["diff", "--format", "yaml"], "invalid value 'yaml'"),
        (not_a_repository.path(), &["diff"], "no root module here has a state to compare with"),
        (not_a_repository.path(), &["diff", "--base", "main"], "needs a git repository"),
        (repository.path(), &["diff", "--base", "no-such-branch"], "names no revision here"),
        (&case, &["diff", "--env", "prod"], "prod"),
    ];
    for (dir, args, message) in cases {
        let o = run_in(dir, args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        if o.status.code() != Some(2) || !stderr.contains(message) {
            return Err(format!("{args:?}: exit {:?}, expected 2 and `{message}` in: {stderr}", o.status.code()).into());
        }
    }
    Ok(())
}

/// A reader that stops early (`foreach-ls diff | head -1`) ends the command quietly with status 0, in every format,
/// `--deny-destroy` or not.
fn closed_stdout() -> Result<(), Failed> {
    let case = repo().join("testdata/diff/state-keys-renamed");
    for args in [&["diff"][..], &["diff", "--format", "json"], &["diff", "--deny-destroy"]] {
        let (status, stderr) = run_with_closed_stdout(&case, args);
        if status != Some(0) || !stderr.is_empty() {
            return Err(format!("{args:?}: exit {status:?}, expected 0 and nothing on stderr: {stderr}").into());
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let root = repo().join("testdata/diff");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).collect();
    cases.sort();
    let mut trials = Vec::new();
    for case in cases.into_iter().filter(|c| c.is_dir()) {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&case)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.starts_with("expect-") && n.ends_with(".txt")
            })
            .collect();
        files.sort();
        for file in &files {
            let (case, file) = (case.clone(), file.clone());
            let stem = file.file_stem().unwrap().to_string_lossy().trim_start_matches("expect-").to_string();
            trials.push(Trial::test(format!("{name}/{stem}"), move || run_expectation(&case, &file)));
        }
        if case.join("base").is_dir() {
            let case = case.clone();
            trials.push(Trial::test(format!("{name}/git"), move || run_from_git(&case, &files)));
        }
    }
    trials.push(Trial::test("usage-errors", usage_errors));
    trials.push(Trial::test("closed-stdout", closed_stdout));
    libtest_mimic::run(&args, trials).exit();
}
