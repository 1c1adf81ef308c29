//! Shared set-up for the tests that drive real external tools (Neovim, pre-commit, the VS Code client libraries):
//! installing them from their registries into `target/`, and skipping with a `SKIPPED <test>: <reason>` line
//! naming the missing tool when that is impossible (no network, no Python or Node). The tests then pass without
//! running: the in-process tests still cover the server, and CI's log says what was not exercised. A skip is only
//! for a tool this machine cannot have: a failure of ours while installing (two tests building one environment at
//! once, a half-made one left behind) fails the test (`venv.rs`).

#![allow(dead_code)] // Each test binary uses a different part of it.

pub mod venv;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from)
}

/// The `foreach-ls` binary cargo built for this test.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_foreach-ls"))
}

/// `PATH` with the directory of the `foreach-ls` binary first, so configurations that run plain `foreach-ls` (as
/// users' do) find the one under test.
pub fn path_with_binary() -> OsString {
    let dir = binary().parent().unwrap().to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest))).unwrap()
}

/// Reports a skipped test. cargo hides the output of passing tests, so the line is also written to
/// `target/test-skips/<test>.txt`, which `.ci/run` prints after the test run.
pub fn skip(test: &str, reason: &str) {
    let line = format!("SKIPPED {test}: {reason}");
    println!("{line}");
    eprintln!("{line}");
    let dir = target_dir().join("test-skips");
    let _ = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(dir.join(format!("{test}.txt")), line + "\n"));
}

/// Runs an editor's scripted test (`cmd`), prints what it said (shown when the test fails, or with `--nocapture`)
/// and asserts it succeeded; returns what it said for further checks.
pub fn run_editor_script(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what} does not start: {e}"));
    let said = report(&out);
    println!("{said}");
    assert!(out.status.success(), "{what} failed:\n{said}");
    said
}

/// Stdout and stderr of a finished command, for assertion messages.
pub fn report(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A virtual environment `target/<name>` with `packages` installed from PyPI, built once for all the tests that
/// need it, however many run at the same time ([`venv::python_venv`]); `probe` is a program in its `bin/` that must
/// run (`--version`) once they are. `Err` only when this machine cannot have it (the reason, for [`skip`]); a
/// failure of ours panics.
pub fn python_venv(name: &str, packages: &[&str], probe: &str) -> Result<PathBuf, String> {
    let ready = |bin: &Path| Command::new(bin.join(probe)).arg("--version").output().is_ok_and(|o| o.status.success());
    venv::python_venv(&target_dir().join(name), packages, &ready).map_err(|venv::Unavailable(why)| why)
}

/// `npm ci` in `dir` unless its `node_modules` is already up to date with `package-lock.json`.
pub fn npm_ci(dir: &Path) -> Result<(), String> {
    let lock = dir.join("package-lock.json");
    let stamp = dir.join("node_modules").join(".package-lock.json");
    let fresh = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if matches!((fresh(&stamp), fresh(&lock)), (Some(stamp), Some(lock)) if stamp >= lock) {
        return Ok(());
    }
    let out = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("npm: {e}"))?;
    if !out.status.success() {
        return Err(format!("npm ci failed: {}", report(&out)));
    }
    Ok(())
}

/// Copies a directory tree (fixtures into a temporary workspace).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// Unpacks the dev corpus archive under `base` (its `dev-corpus/` directory) once per archive version (its size and
/// modification time); each test that reads it has a `base` of its own, so they never race.
pub fn unpack_corpus(archive: &Path, base: &Path) -> Result<PathBuf, String> {
    let meta = std::fs::metadata(archive).map_err(|e| e.to_string())?;
    let stamp = format!("{} {:?}", meta.len(), meta.modified().ok());
    let dir = base.join("dev-corpus");
    let stamp_file = base.join("unpacked-from.txt");
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str()) && dir.is_dir() {
        return Ok(dir);
    }
    let _ = std::fs::remove_dir_all(base);
    std::fs::create_dir_all(base).map_err(|e| e.to_string())?;
    let status = Command::new("tar")
        .arg("-C")
        .arg(base)
        .arg("-xJf")
        .arg(archive)
        .status()
        .map_err(|e| format!("tar does not run: {e}"))?;
    if !status.success() || !dir.is_dir() {
        return Err(format!("`tar -xJf` ended with {status}"));
    }
    std::fs::write(&stamp_file, stamp).map_err(|e| e.to_string())?;
    Ok(dir)
}
