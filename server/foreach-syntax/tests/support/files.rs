//! The files the syntax tests read: the repository's fixtures and docs, and the dev corpus when it is unpacked.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir`, at any depth, for which `keep` holds.
pub fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, keep, out);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

/// The dev corpus's files for which `keep` holds, or `None` (saying so) when the corpus is not unpacked: the corpus
/// test of foreach-ls unpacks it under `target/corpus`.
pub fn dev_corpus_files(keep: &dyn Fn(&Path) -> bool) -> Option<Vec<PathBuf>> {
    let corpus = repo().join("target/corpus/dev-corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is not unpacked (the corpus test of foreach-ls unpacks it)", corpus.display());
        return None;
    }
    let mut files = Vec::new();
    files_under(&corpus, keep, &mut files);
    Some(files)
}
