//! End-to-end: builds the real `foreach-ls` binary and runs `editors/tests/lsp` with pytest-lsp, a client we did
//! not write, in a virtual environment under `target/`. When this machine cannot have Python or the package (no
//! `python3`, the package index unreachable), the test prints why and passes without running (the in-process tests
//! still cover the protocol); a failure of ours while installing fails it.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../foreach-ls/tests/tools/venv.rs"]
mod venv;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn skip(reason: &str) {
    println!("SKIPPED e2e_pytest: {reason}");
    eprintln!("SKIPPED e2e_pytest: {reason}");
}

/// The venv's python with pytest-lsp installed (built once, shared safely: `venv.rs`), or why this machine cannot
/// have it.
fn venv(target: &Path) -> Result<PathBuf, String> {
    let ready = |bin: &Path| {
        Command::new(bin.join("python")).args(["-c", "import pytest_lsp"]).output().is_ok_and(|o| o.status.success())
    };
    let bin = venv::python_venv(&target.join("lsp-e2e-venv"), &["pytest-lsp"], &ready)
        .map_err(|venv::Unavailable(why)| why)?;
    Ok(bin.join("python"))
}

#[test]
fn pytest_lsp_drives_the_real_binary() {
    let repo = repo();
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo.join("target"), PathBuf::from);
    let python = match venv(&target) {
        Ok(p) => p,
        Err(reason) => return skip(&reason),
    };
    let build = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--bin", "foreach-ls"])
        .current_dir(&repo)
        .status()
        .expect("cargo build runs");
    assert!(build.success(), "building foreach-ls failed");
    let binary = target.join("debug").join("foreach-ls");
    let out = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "editors/tests/lsp"])
        .env("FOREACH_LS", &binary)
        .current_dir(&repo)
        .output()
        .expect("pytest runs");
    let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{report}");
    assert!(out.status.success(), "pytest-lsp e2e failed:\n{report}");
}
