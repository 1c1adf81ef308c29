//! Installing a tool into a directory under `target/` (a Python virtual environment from PyPI), shared safely by the
//! tests that run at the same time: the threads of one test binary (`pre_commit.rs` has two tests on one
//! environment) and other test binaries. The directory is built once, under an exclusive lock on `<dir>.lock`, and
//! counts as built only once a marker written after its probe runs is there; one left half-made by an interrupted run
//! is removed and built again. It is built in place under the lock rather than beside it and renamed, because a
//! virtual environment's scripts hold its absolute path.
//!
//! A failure is told apart from a tool this machine cannot have: [`Unavailable`] (no `python3`, no `venv` module,
//! the package index unreachable) lets the test skip, saying why; anything else is a failure of ours and panics, so
//! the test fails instead of skipping over it.
//!
//! Used through `tools/mod.rs`; it depends on nothing of the crate.

#![allow(dead_code)] // Each test binary uses a different part of it.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Why this machine cannot have the tool: the test skips, saying so.
#[derive(Debug)]
pub struct Unavailable(pub String);

/// Written into a tool directory once it is complete and its probe runs; a directory without it is half-made.
const COMPLETE: &str = ".foreach-ls-complete";

/// Makes `dir` with `build` unless it is complete already (its marker there and `ready` true), holding an exclusive
/// lock on `<dir>.lock` from the check to the marker, so that a concurrent caller waits and then finds it complete.
/// A directory that is there but not complete is removed first. Panics when the build succeeds but `ready` is false.
// std's `File::lock` (Rust 1.89) is newer than the crate's rust-version (1.85), which is for building the binary;
// the tests run on the development toolchain.
#[allow(clippy::incompatible_msrv)]
pub fn install_once(
    dir: &Path,
    ready: &dyn Fn() -> bool,
    build: &dyn Fn() -> Result<(), Unavailable>,
) -> Result<(), Unavailable> {
    let name = dir.file_name().expect("a tool directory has a name").to_string_lossy();
    let parent = dir.parent().expect("a tool directory has a parent");
    std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
    let lock_path = parent.join(format!("{name}.lock"));
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", lock_path.display()));
    // Released when `lock` is dropped, on a panic too.
    lock.lock().unwrap_or_else(|e| panic!("cannot lock {}: {e}", lock_path.display()));
    if dir.join(COMPLETE).is_file() && ready() {
        return Ok(());
    }
    if std::fs::symlink_metadata(dir).is_ok() {
        std::fs::remove_dir_all(dir).unwrap_or_else(|e| panic!("cannot remove the half-made {}: {e}", dir.display()));
    }
    if let Err(unavailable) = build() {
        let _ = std::fs::remove_dir_all(dir);
        return Err(unavailable);
    }
    assert!(ready(), "{} was built, but its probe does not run", dir.display());
    std::fs::write(dir.join(COMPLETE), "").unwrap_or_else(|e| panic!("cannot mark {} complete: {e}", dir.display()));
    Ok(())
}

/// A virtual environment at `dir` with `packages` installed from PyPI, built once ([`install_once`]); `ready` tells
/// whether they run (given the environment's `bin/`). Returns that `bin/`.
pub fn python_venv(dir: &Path, packages: &[&str], ready: &dyn Fn(&Path) -> bool) -> Result<PathBuf, Unavailable> {
    let bin = dir.join("bin");
    install_once(dir, &|| ready(&bin), &|| build_venv(dir, packages))?;
    Ok(bin)
}

fn build_venv(dir: &Path, packages: &[&str]) -> Result<(), Unavailable> {
    let out = match Command::new("python3").args(["-m", "venv"]).arg(dir).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Unavailable(format!("python3 is not installed ({e})")));
        }
        Err(e) => panic!("python3 does not start: {e}"),
    };
    if !out.status.success() {
        let said = report(&out);
        // Debian and Ubuntu ship the `venv` module's pip bootstrap as a package of its own.
        if ["ensurepip is not available", "No module named venv", "No module named ensurepip"]
            .iter()
            .any(|m| said.contains(m))
        {
            return Err(Unavailable(format!(
                "python3 cannot create virtual environments (on Debian: apt-get install python3-venv): {said}"
            )));
        }
        panic!("python3 -m venv {} failed: {said}", dir.display());
    }
    let out = Command::new(dir.join("bin").join("pip"))
        .args(["install", "-q", "--disable-pip-version-check"])
        .args(packages)
        .output()
        .unwrap_or_else(|e| panic!("the pip of {} does not start: {e}", dir.display()));
    if !out.status.success() {
        let said = report(&out);
        if index_unreachable(&said) {
            return Err(Unavailable(format!("pip cannot reach the package index: {said}")));
        }
        panic!("pip install {} failed: {said}", packages.join(" "));
    }
    Ok(())
}

/// pip's words when it cannot reach the package index (no network, no name resolution, a proxy or TLS interception
/// in the way). A package or version that does not exist, with the index reachable, is a mistake of ours.
fn index_unreachable(said: &str) -> bool {
    [
        "NewConnectionError",
        "Failed to establish a new connection",
        "Temporary failure in name resolution",
        "Name or service not known",
        "Network is unreachable",
        "No route to host",
        "Connection refused",
        "ConnectTimeoutError",
        "ReadTimeoutError",
        "ProxyError",
        "SSLError",
        "Could not fetch URL",
    ]
    .iter()
    .any(|m| said.contains(m))
}

fn report(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}
