//! Records the git commit the binary is built from, for `foreach-ls --version` (`0.1.0 (abc1234)`).
//!
//! Only a build from a checkout of this repository has a commit: a build from a crates.io package (or from the
//! `cargo package` copy under target/package/, which sits inside the checkout) says `unknown` rather than the commit
//! of whatever repository happens to enclose the sources. `FOREACH_LS_COMMIT` overrides both, for builds from a
//! source archive that knows its commit.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).current_dir(dir).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-env-changed=FOREACH_LS_COMMIT");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let commit = match std::env::var("FOREACH_LS_COMMIT") {
        Ok(c) if !c.is_empty() => c,
        _ => from_checkout(&root).unwrap_or_else(|| "unknown".to_owned()),
    };
    println!("cargo:rustc-env=FOREACH_LS_COMMIT={commit}");
}

/// The short commit of HEAD when `root` (the package root) is the top of a git work tree, and the files whose
/// change means a new commit, so that cargo re-runs this script after a commit or checkout and not otherwise.
fn from_checkout(root: &Path) -> Option<String> {
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != root.canonicalize().ok()? {
        return None;
    }
    let commit = git(root, &["rev-parse", "--short", "HEAD"])?;
    // HEAD names the branch; the branch's ref file (or packed-refs) names the commit. Paths as git reports them
    // (relative to `root`), which also works in a linked worktree where `.git` is a file.
    let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    // Only files that exist: cargo re-runs the script on every build while a watched file is missing (a branch's
    // ref is either a loose file or a line of packed-refs, rarely both).
    for name in watched {
        if let Some(p) = git(root, &["rev-parse", "--git-path", &name]) {
            let path = root.join(p);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    Some(commit)
}
