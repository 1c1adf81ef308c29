//! The configuration as it is in a base revision, for `foreach-ls diff --base` (`docs/diff.md`): after the current
//! configuration is analysed, the host's files under the top directory are replaced by the base's, so that the same
//! host analyses the base with the same values. Only what differs is replaced, so salsa reuses every summary and
//! every module instance the change does not reach, and one host's memory serves both sides.
//!
//! Where the base comes from is a [`BaseTree`]: a git revision read from the repository's objects (the binary's
//! `diff/git.rs`; never a `git` process) or another checkout on disk ([`DirTree`]). Only the directories the current
//! side loaded, the directories of the walked paths at the base, and the module directories the base's calls need
//! are read. What is not part of the configuration's history stays as it is on disk: directories outside the top
//! directory and `tofu init`'s data directories (`.terraform/modules`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use foreach_analysis::eval::scope::FileReader;
use foreach_analysis::source_text::SourceText;
use foreach_analysis::{AnalysisHost, Change};
use foreach_syntax::FileKind;
use rayon::prelude::*;

use crate::{DiskReader, LoadError, SKIPPED_DIRS, path_string};

/// What is in a directory of the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
}

/// A configuration elsewhere, read by paths relative to its top directory (`/`-separated, `""` for the top).
pub trait BaseTree: Send + Sync {
    /// The entries of directory `dir`; `None` when the base has no such directory.
    fn list(&self, dir: &str) -> Option<Vec<(String, EntryKind)>>;
    /// The bytes of file `path`.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// Whether file `path` holds exactly `bytes` (a tree that can tell without reading, git by the blob id, may).
    fn holds(&self, path: &str, bytes: &[u8]) -> bool {
        self.read(path).is_ok_and(|b| b == bytes)
    }
}

/// Another checkout on disk.
pub struct DirTree {
    pub root: PathBuf,
}

impl BaseTree for DirTree {
    fn list(&self, dir: &str) -> Option<Vec<(String, EntryKind)>> {
        let entries = std::fs::read_dir(self.root.join(dir)).ok()?;
        let mut out = Vec::new();
        for e in entries.flatten() {
            let Some(name) = e.file_name().to_str().map(str::to_string) else { continue };
            let Ok(meta) = std::fs::metadata(e.path()) else { continue };
            out.push((name, if meta.is_dir() { EntryKind::Dir } else { EntryKind::File }));
        }
        Some(out)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(self.root.join(path)).map_err(|e| e.to_string())
    }
}

/// The paths file functions read while the current side was analysed, so that the base side re-evaluates when one
/// of them differs there (salsa does not track those reads).
pub struct RecordingReader {
    inner: Arc<dyn FileReader>,
    read: Mutex<HashSet<String>>,
}

impl RecordingReader {
    pub fn new(inner: Arc<dyn FileReader>) -> RecordingReader {
        RecordingReader { inner, read: Mutex::new(HashSet::new()) }
    }

    fn note(&self, path: &str) {
        if let Ok(mut read) = self.read.lock() {
            read.insert(path.to_string());
        }
    }

    pub fn paths(&self) -> Vec<String> {
        self.read.lock().map(|r| r.iter().cloned().collect()).unwrap_or_default()
    }
}

impl FileReader for RecordingReader {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.note(path);
        self.inner.read(path)
    }
    fn is_file(&self, path: &str) -> bool {
        self.note(path);
        self.inner.is_file(path)
    }
    fn walk(&self, dir: &str) -> Result<Vec<String>, String> {
        self.note(dir);
        self.inner.walk(dir)
    }
    fn missing(&self, path: &str) -> bool {
        self.note(path);
        self.inner.missing(path)
    }
    fn links_outside(&self, path: &str) -> bool {
        self.inner.links_outside(path)
    }
}

/// Where the base is laid over the current files.
pub struct BaseSource {
    pub tree: Arc<dyn BaseTree>,
    /// The current directory the base's top directory stands for (canonical).
    pub top: PathBuf,
}

impl BaseSource {
    /// `path`'s place in the base, when the base has a say over it: under the top directory, outside the data
    /// directories `tofu init` fills.
    fn relative(&self, path: &str) -> Option<String> {
        let rel = Path::new(path).strip_prefix(&self.top).ok()?;
        let rel = path_string(rel);
        let data_dir = std::env::var("TF_DATA_DIR").unwrap_or_else(|_| ".terraform".to_string());
        if rel.split('/').any(|c| c == data_dir || c == ".terraform" || c == ".git") {
            return None;
        }
        Some(rel)
    }

    fn absolute(&self, rel: &str) -> String {
        if rel.is_empty() { path_string(&self.top) } else { format!("{}/{rel}", path_string(&self.top)) }
    }
}

/// What switching to the base changed.
#[derive(Debug, Default)]
pub struct Switched {
    /// Files whose text differs, was added or removed at the base.
    pub files_changed: usize,
    /// Files read from the base.
    pub files_read: usize,
}

/// Replaces the configuration in `host` by the base's: every loaded file under the top directory, the directories
/// under `walked` (the paths given to the command) as the base has them, and the module directories the base's
/// calls need. File functions read the base too. `recorded` are the paths file functions read on the current side:
/// when one of them differs at the base, every module instance is evaluated again.
pub fn switch_to_base(
    host: &mut AnalysisHost,
    base: &BaseSource,
    walked: &[PathBuf],
    recorded: &[String],
    read_roots: &[PathBuf],
) -> Result<Switched, LoadError> {
    let mut switched = Switched::default();
    let mut by_dir: HashMap<String, Vec<String>> = HashMap::new();
    for (_, (path, _)) in host.file_table() {
        let dir = foreach_analysis::paths::parent(&path).to_string();
        by_dir.entry(dir).or_default().push(path);
    }
    // The directories of the walked paths at the base: a root the change deletes is still compared.
    for w in walked {
        let Some(rel) = base.relative(&path_string(w)) else { continue };
        let mut stack = vec![rel];
        while let Some(dir) = stack.pop() {
            let Some(entries) = base.tree.list(&dir) else { continue };
            let mut has_files = false;
            for (name, kind) in entries {
                let child = if dir.is_empty() { name.clone() } else { format!("{dir}/{name}") };
                match kind {
                    EntryKind::Dir if !SKIPPED_DIRS.contains(&name.as_str()) => stack.push(child),
                    EntryKind::File => has_files |= FileKind::from_file_name(&name).is_some(),
                    EntryKind::Dir => {}
                }
            }
            if has_files {
                by_dir.entry(base.absolute(&dir)).or_default();
            }
        }
    }
    // Each directory on its own thread: comparing a file reads and hashes it.
    let parts: Vec<(Change, Switched)> = by_dir
        .par_iter()
        .map(|(dir, current)| {
            let (mut change, mut part) = (Change::default(), Switched::default());
            switch_dir(base, dir, current, &mut change, &mut part);
            (change, part)
        })
        .collect();
    let mut change = Change::default();
    for (part, counts) in parts {
        change.files.extend(part.files);
        change.removed_files.extend(part.removed_files);
        change.dirs.extend(part.dirs);
        switched.files_changed += counts.files_changed;
        switched.files_read += counts.files_read;
    }
    host.apply_change(change);
    host.set_file_reader(Some(Arc::new(BaseReader {
        base: BaseSource { tree: base.tree.clone(), top: base.top.clone() },
        disk: DiskReader { roots: read_roots.to_vec() },
    })));
    let differs = recorded.iter().any(|p| match base.relative(p) {
        Some(rel) => !std::fs::read(p).is_ok_and(|bytes| base.tree.holds(&rel, &bytes)),
        None => false,
    });
    if differs {
        // File functions read something the base has otherwise: salsa does not track those reads, so every
        // instance is evaluated again (setting an input to the same value invalidates what reads it).
        let roots = read_roots.iter().map(|r| path_string(r)).collect();
        host.apply_change(Change { read_roots: Some(roots), ..Change::default() });
    }
    host.prime_caches();
    // The module directories the base's calls need.
    let mut seen: HashSet<String> = HashSet::new();
    for _ in 0..10_000 {
        let missing: Vec<String> = host.unloaded_dirs().into_iter().filter(|d| seen.insert(d.clone())).collect();
        if missing.is_empty() {
            break;
        }
        let mut change = Change::default();
        for dir in missing {
            match base.relative(&dir) {
                Some(_) => switch_dir(base, &dir, &[], &mut change, &mut switched),
                None => {
                    let disk = crate::directory_change(Path::new(&dir), &HashSet::new());
                    change.files.extend(disk.files);
                    change.dirs.extend(disk.dirs);
                }
            }
        }
        host.apply_change(change);
        host.prime_caches();
    }
    Ok(switched)
}

/// The change that makes directory `dir` (absolute) hold the base's files instead of `current` (absolute paths).
fn switch_dir(base: &BaseSource, dir: &str, current: &[String], change: &mut Change, switched: &mut Switched) {
    let Some(rel) = base.relative(dir) else { return };
    let entries = base.tree.list(&rel);
    let names: HashSet<String> = entries
        .iter()
        .flatten()
        .filter(|(name, kind)| *kind == EntryKind::File && FileKind::from_file_name(name).is_some())
        .map(|(name, _)| name.clone())
        .collect();
    if entries.is_none() {
        change.dirs.push((dir.to_string(), false));
    } else {
        change.dirs.push((dir.to_string(), true));
    }
    let mut present = HashSet::new();
    for path in current {
        let name = path.rsplit('/').next().unwrap_or(path);
        if !names.contains(name) {
            change.removed_files.push(path.clone());
            switched.files_changed += 1;
            continue;
        }
        present.insert(name.to_string());
        let rel_file = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
        if std::fs::read(path).is_ok_and(|bytes| base.tree.holds(&rel_file, &bytes)) {
            continue;
        }
        change.files.push((path.clone(), read_base(base, &rel_file)));
        switched.files_changed += 1;
        switched.files_read += 1;
    }
    for name in names.iter().filter(|n| !present.contains(*n)) {
        let rel_file = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        change.files.push((format!("{dir}/{name}"), read_base(base, &rel_file)));
        switched.files_changed += 1;
        switched.files_read += 1;
    }
}

/// A base file's text, refused as the loader refuses files (`read_text`).
fn read_base(base: &BaseSource, rel: &str) -> Result<SourceText, String> {
    let bytes = base.tree.read(rel).map_err(|e| format!("cannot read this file at the base: {e}"))?;
    if bytes.len() as u64 > crate::MAX_FILE_BYTES {
        return Err(format!("this file is larger than {} MB at the base", crate::MAX_FILE_BYTES / (1024 * 1024)));
    }
    crate::text_of(bytes).map(|t| SourceText::compressed(&t))
}

/// File functions on the base side: paths under the top directory read the base, others the disk.
struct BaseReader {
    base: BaseSource,
    disk: DiskReader,
}

impl FileReader for BaseReader {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        match self.base.relative(path) {
            Some(rel) => self.base.tree.read(&rel),
            None => self.disk.read(path),
        }
    }

    fn is_file(&self, path: &str) -> bool {
        match self.base.relative(path) {
            Some(rel) => {
                let (dir, name) = rel.rsplit_once('/').unwrap_or(("", &rel));
                self.base.tree.list(dir).is_some_and(|es| es.iter().any(|(n, k)| n == name && *k == EntryKind::File))
            }
            None => self.disk.is_file(path),
        }
    }

    fn walk(&self, dir: &str) -> Result<Vec<String>, String> {
        let Some(rel) = self.base.relative(dir) else { return self.disk.walk(dir) };
        let mut out = Vec::new();
        let mut stack = vec![String::new()];
        while let Some(sub) = stack.pop() {
            let full = match (rel.is_empty(), sub.is_empty()) {
                (_, true) => rel.clone(),
                (true, false) => sub.clone(),
                (false, false) => format!("{rel}/{sub}"),
            };
            let Some(entries) = self.base.tree.list(&full) else {
                return Err(format!("no directory `{dir}` at the base"));
            };
            for (name, kind) in entries {
                let child = if sub.is_empty() { name } else { format!("{sub}/{name}") };
                match kind {
                    EntryKind::File => out.push(child),
                    EntryKind::Dir => stack.push(child),
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// Nothing at all at the base (no file and no directory): a directory is not missing, `fileset` lists it.
    fn missing(&self, path: &str) -> bool {
        match self.base.relative(path) {
            Some(rel) if rel.is_empty() => false,
            Some(rel) => {
                let (dir, name) = rel.rsplit_once('/').unwrap_or(("", &rel));
                self.base.tree.list(dir).is_none_or(|es| !es.iter().any(|(n, _)| n == name))
            }
            None => self.disk.missing(path),
        }
    }
}
