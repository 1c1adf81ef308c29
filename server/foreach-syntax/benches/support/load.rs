//! Shared by the syntax benchmarks: the workspace's files, read into memory once.

use std::path::{Path, PathBuf};

/// Every `.tf` file under `dir`, in path order.
pub fn load(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            load(&path, out);
        } else if path.extension().is_some_and(|e| e == "tf") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                out.push(text);
            }
        }
    }
}
