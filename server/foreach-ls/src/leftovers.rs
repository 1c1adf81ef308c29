//! Temporary files of interrupted writes: how they are named, and their removal by the next run that writes.
//!
//! Every write goes through a temporary file beside its target (`write.rs`). A run killed before its rename leaves
//! that file behind: hidden (a leading `.`) and ending in [`SUFFIX`], so that neither OpenTofu, the loader nor `fmt`
//! ever takes it for configuration. The next `fmt`, `check --fix` or `migrate --write` removes the ones in the
//! directories it works in and says so on standard error. A live writer holds a lock on its temporary file, so a
//! run never removes the file another one is still writing (the kernel drops the lock of a killed process).

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The end of every temporary file's name (not `.tf`: nothing may load it).
pub const SUFFIX: &str = ".foreach-ls.tmp";

/// Names earlier versions gave their temporary files (`.main.tf.foreach-ls-fix.<pid>`); removed too.
const LEGACY: [&str; 2] = [".foreach-ls-fix.", ".foreach-ls-migrate."];

/// The start of the temporary file of `name` (`.main.tf.`); `tempfile` adds random letters and [`SUFFIX`].
pub fn prefix(name: &OsStr) -> String {
    format!(".{}.", name.to_string_lossy())
}

/// Whether a file name is one of our temporary files.
pub fn is_leftover(name: &str) -> bool {
    let legacy = || {
        LEGACY.iter().any(|l| {
            name.rsplit_once(l).is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    name.starts_with('.') && (name.ends_with(SUFFIX) || legacy())
}

/// Removes the temporary files in `dir` that no running writer holds; returns those removed.
pub fn sweep(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !is_leftover(&name.to_string_lossy()) || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = std::fs::File::open(&path) else { continue };
        // Called as a trait function: std's own `File::try_lock` (Rust 1.89) is newer than the crate's rust-version.
        // A file system without locks cannot tell a live writer from a dead one: the file is removed, and a live
        // writer then fails to rename it and says so, with its target untouched.
        if matches!(fs4::FileExt::try_lock(&file), Err(fs4::TryLockError::WouldBlock)) {
            continue;
        }
        drop(file);
        if std::fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed.sort();
    removed
}

/// [`sweep`] of every directory once.
pub fn sweep_all<'a>(dirs: impl IntoIterator<Item = &'a Path>) -> Vec<PathBuf> {
    let mut dirs: Vec<&Path> = dirs.into_iter().collect();
    dirs.sort();
    dirs.dedup();
    dirs.into_iter().flat_map(sweep).collect()
}

/// One line per removed file, for standard error.
pub fn report(removed: &[PathBuf], cwd: &Path, err: &mut impl Write) {
    for path in removed {
        let shown = path.strip_prefix(cwd).unwrap_or(path);
        let _ = writeln!(err, "foreach-ls: removed {}, a temporary file left by an interrupted run", shown.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_leftover(".main.tf.a1B2c3.foreach-ls.tmp"));
        assert!(is_leftover(".main.tf.foreach-ls-fix.4242"));
        assert!(is_leftover(".main.tf.foreach-ls-migrate.4242"));
        assert!(!is_leftover("main.tf"));
        assert!(!is_leftover("x.foreach-ls.tmp"), "not hidden: not ours");
        assert!(!is_leftover(".terraform.lock.hcl"));
        assert!(!is_leftover(crate::journal::NAME), "the journal is no temporary file");
    }

    #[test]
    fn a_dead_writers_file_is_removed_a_live_ones_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dir.path().join(".a.tf.x1.foreach-ls.tmp");
        let live = dir.path().join(".b.tf.x2.foreach-ls.tmp");
        let other = dir.path().join("a.tf");
        for p in [&dead, &live, &other] {
            std::fs::write(p, "x").unwrap();
        }
        let holder = std::fs::File::open(&live).unwrap();
        fs4::FileExt::try_lock(&holder).unwrap();
        assert_eq!(sweep(dir.path()), vec![dead.clone()]);
        assert!(live.exists() && other.exists() && !dead.exists());
        drop(holder);
        assert_eq!(sweep_all([dir.path(), dir.path()]), vec![live]);
    }
}
