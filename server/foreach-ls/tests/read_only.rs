//! No writes: `check` over a read-only copy of every fixture under `testdata/` works, reports what it reports on
//! the original, and leaves every file (names, sizes, contents, modification times) as it was. The tests may run as
//! root, which ignores permissions, so the tree is compared before and after as well.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

fn set_read_only(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for e in std::fs::read_dir(p).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            set_read_only(&e.path());
        } else {
            std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o444)).unwrap();
        }
    }
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o555)).unwrap();
}

fn set_writable(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    for e in std::fs::read_dir(p).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            set_writable(&e.path());
        }
    }
}

type Snapshot = BTreeMap<PathBuf, (u64, Vec<u8>, SystemTime)>;

fn snapshot(root: &Path, dir: &Path, out: &mut Snapshot) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let meta = std::fs::symlink_metadata(e.path()).unwrap();
        let rel = e.path().strip_prefix(root).unwrap().to_path_buf();
        if meta.is_dir() {
            out.insert(rel, (0, Vec::new(), meta.modified().unwrap()));
            snapshot(root, &e.path(), out);
        } else {
            out.insert(rel, (meta.len(), std::fs::read(e.path()).unwrap(), meta.modified().unwrap()));
        }
    }
}

fn check(dir: &Path) -> (i32, Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_foreach-ls"))
        .args(["check", "--format", "json", "."])
        .current_dir(dir)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code().unwrap(), v)
}

#[test]
fn check_on_a_read_only_copy_of_the_fixtures() {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("testdata");
    copy_tree(&repo().join("testdata"), &copy);
    let (want_code, want) = check(&copy);
    set_read_only(&copy);
    let mut before = Snapshot::new();
    snapshot(&copy, &copy, &mut before);
    let (code, got) = check(&copy);
    let mut after = Snapshot::new();
    snapshot(&copy, &copy, &mut after);
    set_writable(&copy);
    assert_eq!(code, want_code);
    assert_eq!(code, 1, "the fixtures contain errors");
    assert_eq!(got["diagnostics"], want["diagnostics"]);
    assert!(got["diagnostics"].as_array().unwrap().len() > 50);
    assert!(before == after, "check changed the tree");
}
