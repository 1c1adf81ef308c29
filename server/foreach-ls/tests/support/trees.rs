//! Directory trees for the tests of the writing commands: copied with their symbolic links kept as links, and
//! snapshotted (every entry's kind, link target, bytes and mode) to compare before and after a command.

#![allow(dead_code)] // Each test binary uses a different part of it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// One entry of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Dir,
    File { bytes: Vec<u8>, mode: u32 },
    Link(PathBuf),
}

/// Relative path -> entry, for every entry under a directory (links not followed).
pub type Tree = BTreeMap<PathBuf, Entry>;

pub fn snapshot(root: &Path) -> Tree {
    let mut out = Tree::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Tree) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        let rel = path.strip_prefix(root).unwrap().to_path_buf();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.file_type().is_symlink() {
            out.insert(rel, Entry::Link(std::fs::read_link(&path).unwrap()));
        } else if meta.is_dir() {
            out.insert(rel, Entry::Dir);
            walk(root, &path, out);
        } else {
            use std::os::unix::fs::PermissionsExt;
            let bytes = std::fs::read(&path).unwrap_or_default();
            out.insert(rel, Entry::File { bytes, mode: meta.permissions().mode() & 0o7777 });
        }
    }
}

/// Copies `from` into `to` (created), symbolic links as links.
pub fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        let ty = e.file_type().unwrap();
        if ty.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &target).unwrap();
        } else if ty.is_dir() {
            copy(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Writes `files` (relative path, text) under `root`; a text starting with `-> ` makes a symbolic link to the rest.
pub fn write(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        match text.strip_prefix("-> ") {
            Some(target) => std::os::unix::fs::symlink(target, &p).unwrap(),
            None => std::fs::write(&p, text).unwrap(),
        }
    }
}

/// The temporary files of interrupted writes under `root` (`leftovers.rs` names them).
pub fn leftovers(root: &Path) -> Vec<PathBuf> {
    snapshot(root)
        .into_keys()
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(foreach_ls::leftovers::is_leftover))
        .collect()
}

/// `foreach-ls ARGS` in `dir`, with the test hooks on and `env` added.
pub fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    command(dir, args, env).output().expect("the binary runs")
}

/// `FOREACH_LS_TEST_BIN` runs another build instead (main's, to show that a test fails without the change).
pub fn command(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let bin = std::env::var_os("FOREACH_LS_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_foreach-ls").into());
    let mut c = Command::new(bin);
    c.args(args).current_dir(dir).env_remove("TF_WORKSPACE").env("FOREACH_LS_TEST_HOOKS", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

pub fn said(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Whether this process runs as root (for mounting a small file system; permissions do not stop root).
pub fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(2) == Some("0")))
        .unwrap_or(false)
}

/// A tmpfs of `size` mounted on a fresh directory, unmounted when dropped; `Err` (why) when it cannot be had.
pub struct Tmpfs {
    pub dir: tempfile::TempDir,
}

impl Tmpfs {
    pub fn mount(size: &str) -> Result<Tmpfs, String> {
        if !is_root() {
            return Err("mounting a small tmpfs needs root".to_string());
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let o = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size},mode=0755"), "tmpfs"])
            .arg(dir.path())
            .output()
            .map_err(|e| format!("mount does not run: {e}"))?;
        if !o.status.success() {
            return Err(format!("mount -t tmpfs failed: {}", String::from_utf8_lossy(&o.stderr).trim()));
        }
        Ok(Tmpfs { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Makes the file system read-only.
    pub fn remount_read_only(&self) {
        let o = Command::new("mount").args(["-o", "remount,ro"]).arg(self.path()).output().unwrap();
        assert!(o.status.success(), "remount,ro: {}", String::from_utf8_lossy(&o.stderr));
    }

    /// Fills the file system, then frees `free` bytes: what is left for writes.
    pub fn fill_leaving(&self, free: u64) {
        use std::io::Write;
        let filler = self.path().join("filler");
        let mut f = std::fs::File::create(&filler).unwrap();
        let chunk = vec![b'x'; 4096];
        let mut written = 0u64;
        while let Ok(n) = f.write(&chunk) {
            if n == 0 {
                break;
            }
            written += n as u64;
        }
        let _ = f.sync_all();
        f.set_len(written.saturating_sub(free)).unwrap();
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.dir.path()).status();
    }
}
