//! Loads a workspace from disk into the analysis: the only code that reads configuration files, shared by
//! `foreach-ls check` and the language server.
//!
//! It walks the given roots (honouring `.gitignore`, skipping `.terraform/`, `.terragrunt-cache/` and `.git/`, and
//! the user's `--exclude` globs), reads every OpenTofu file once and in parallel, then keeps loading the
//! directories that module calls point to outside the walked tree until the analysis needs nothing more. Paths are
//! canonicalised, so a symlink loop ends as a module cycle in the analysis rather than as endless loading.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foreach_analysis::{AnalysisHost, Change, CliVariable, Settings};
use foreach_syntax::FileKind;
use globset::{Glob, GlobSet, GlobSetBuilder};
use rayon::prelude::*;

/// Files larger than this are reported as unreadable instead of being parsed (no real configuration is this big,
/// and it bounds memory on hostile input).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Directories never walked: tool caches and VCS metadata.
const SKIPPED_DIRS: &[&str] = &[".terraform", ".terragrunt-cache", ".git"];

/// One `--var` or `--var-file`, in the order given (OpenTofu applies them in order; later wins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderedVar {
    /// `NAME=VALUE`.
    Var(String),
    File(PathBuf),
}

/// A problem that stops the command before analysis (exit status 2).
#[derive(Debug)]
pub struct LoadError(pub String);

pub struct LoadOptions<'a> {
    pub paths: &'a [PathBuf],
    pub excludes: &'a [String],
    pub ordered_vars: &'a [OrderedVar],
    pub env_vars: Vec<(String, String)>,
    pub workspace_name: String,
}

impl<'a> LoadOptions<'a> {
    /// These paths, with no excludes, no variables and the `default` workspace.
    pub fn new(paths: &'a [PathBuf]) -> LoadOptions<'a> {
        LoadOptions { paths, excludes: &[], ordered_vars: &[], env_vars: Vec::new(), workspace_name: "default".into() }
    }
}

/// Where the files came from: the canonical root directories walked.
pub struct Loaded {
    pub host: AnalysisHost,
    pub roots: Vec<PathBuf>,
}

pub fn load(opts: &LoadOptions<'_>) -> Result<Loaded, LoadError> {
    let cwd = std::env::current_dir().map_err(|e| LoadError(format!("cannot read the current directory: {e}")))?;
    let paths: Vec<PathBuf> = if opts.paths.is_empty() { vec![PathBuf::from(".")] } else { opts.paths.to_vec() };
    let mut roots = Vec::new();
    for p in &paths {
        let canonical = p.canonicalize().map_err(|e| LoadError(format!("cannot read `{}`: {e}", p.display())))?;
        let dir =
            if canonical.is_dir() { canonical } else { canonical.parent().map(Path::to_path_buf).unwrap_or(canonical) };
        if !roots.contains(&dir) {
            roots.push(dir);
        }
    }
    let excludes = build_globset(opts.excludes)?;

    let mut files: Vec<PathBuf> = Vec::new();
    for root in &roots {
        walk(root, &excludes, &mut files)?;
    }
    files.sort();
    files.dedup();

    // Variables: var files are read like any file; their order among --var flags is kept.
    let mut cli_variables = Vec::new();
    let mut var_files = Vec::new();
    for v in opts.ordered_vars {
        match v {
            OrderedVar::Var(text) => {
                let Some((name, value)) = text.split_once('=') else {
                    return Err(LoadError(format!("`--var {text}` must have the form NAME=VALUE")));
                };
                cli_variables.push(CliVariable::Value { name: name.trim().to_string(), value: value.to_string() });
            }
            OrderedVar::File(path) => {
                let canonical = path
                    .canonicalize()
                    .map_err(|e| LoadError(format!("cannot read var file `{}`: {e}", path.display())))?;
                let name = canonical.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                if !FileKind::from_file_name(name).is_some_and(FileKind::is_tfvars) {
                    return Err(LoadError(format!(
                        "var file `{}` must be named *.tfvars or *.tfvars.json",
                        path.display()
                    )));
                }
                cli_variables.push(CliVariable::File(path_string(&canonical)));
                var_files.push(canonical);
            }
        }
    }
    files.extend(var_files);

    let mut host = AnalysisHost::new();
    host.set_file_reader(Some(std::sync::Arc::new(DiskReader { roots: roots.clone() })));
    let mut change = read_files(&files);
    change.roots = Some(roots.iter().map(|r| path_string(r)).collect());
    change.settings = Some(Settings {
        cli_variables,
        env_variables: opts.env_vars.clone(),
        workspace_name: opts.workspace_name.clone(),
        cwd: path_string(&cwd),
    });
    change.manifests = manifests(&files);
    host.apply_change(change);
    host.prime_caches();

    // Follow module calls out of the walked tree until nothing is missing. Each round loads at least one new
    // directory or marks it missing, so this ends; the bound is a guard against a bug, not a limit users meet.
    let mut seen: HashSet<String> = HashSet::new();
    for _ in 0..10_000 {
        let missing: Vec<String> = host.unloaded_dirs().into_iter().filter(|d| seen.insert(d.clone())).collect();
        if missing.is_empty() {
            break;
        }
        let mut change = Change::default();
        let mut new_files = Vec::new();
        for dir in missing {
            match Path::new(&dir).canonicalize() {
                Ok(canonical) if canonical.is_dir() => {
                    let canonical_str = path_string(&canonical);
                    if canonical_str != dir {
                        change.dir_aliases.push((dir.clone(), canonical_str.clone()));
                    }
                    change.dirs.push((canonical_str, true));
                    list_dir(&canonical, &mut new_files);
                }
                _ => change.dirs.push((dir, false)),
            }
        }
        let read = read_files(&new_files);
        change.files = read.files;
        host.apply_change(change);
        host.prime_caches();
    }
    Ok(Loaded { host, roots })
}

fn build_globset(globs: &[String]) -> Result<GlobSet, LoadError> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| LoadError(format!("invalid --exclude glob `{g}`: {e}")))?);
    }
    b.build().map_err(|e| LoadError(format!("invalid --exclude globs: {e}")))
}

fn walk(root: &Path, excludes: &GlobSet, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let root_owned = root.to_path_buf();
    let excludes = excludes.clone();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| {
            let name = entry.file_name().to_str().unwrap_or_default();
            if entry.file_type().is_some_and(|t| t.is_dir()) && SKIPPED_DIRS.contains(&name) {
                return false;
            }
            let rel = entry.path().strip_prefix(&root_owned).unwrap_or(entry.path());
            rel.as_os_str().is_empty() || !excludes.is_match(rel)
        })
        .build();
    for entry in walker {
        // An unreadable directory inside the tree is skipped rather than fatal: the rest can still be checked.
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let name = entry.file_name().to_str().unwrap_or_default();
        if FileKind::from_file_name(name).is_some() {
            out.push(entry.into_path());
        }
    }
    Ok(())
}

/// The OpenTofu files directly in `dir` (module directories are not walked recursively).
fn list_dir(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if FileKind::from_file_name(name).is_some() && entry.file_type().is_ok_and(|t| t.is_file()) {
            out.push(entry.path());
        }
    }
}

/// Reads files in parallel, each once. Binary, non-UTF-8 and oversized files become read errors that the analysis
/// reports as diagnostics; the command goes on.
fn read_files(paths: &[PathBuf]) -> Change {
    let files: Vec<(String, Result<Arc<str>, String>)> =
        paths.par_iter().map(|p| (path_string(p), read_text(p))).collect();
    Change { files, ..Change::default() }
}

pub fn read_text(path: &Path) -> Result<Arc<str>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read this file: {e}"))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "this file is {} MB; foreach-ls reads files of at most {} MB",
            meta.len() / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read this file: {e}"))?;
    if bytes.contains(&0) {
        return Err("this file contains NUL bytes: it looks binary, not like OpenTofu configuration".to_string());
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(Arc::from(s)),
        Err(e) => Err(format!(
            "this file is not valid UTF-8 (invalid byte at offset {}); OpenTofu reads only UTF-8",
            e.utf8_error().valid_up_to()
        )),
    }
}

/// `.terraform/modules/modules.json` of every directory that holds configuration.
fn manifests(files: &[PathBuf]) -> Vec<(String, Arc<str>)> {
    let dirs: HashSet<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    let mut out = Vec::new();
    for dir in dirs {
        let manifest = dir.join(".terraform").join("modules").join("modules.json");
        if let Ok(text) = std::fs::read_to_string(&manifest) {
            out.push((path_string(dir), Arc::from(text)));
        }
    }
    out
}

/// The `/`-separated form the analysis uses for paths.
pub fn path_string(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// File functions' access to the disk. The evaluator has already checked that each path stays inside the
/// workspace root as written; this checks it again after following symbolic links (a link inside the workspace
/// to `/etc/passwd` is no way out), only reads (never writes), and refuses oversized files like the loader does.
pub struct DiskReader {
    /// The canonical roots walked: every file read must be inside one of them.
    pub roots: Vec<PathBuf>,
}

impl DiskReader {
    fn confined(&self, path: &str) -> Result<PathBuf, String> {
        let real = Path::new(path).canonicalize().map_err(|e| e.to_string())?;
        if self.roots.iter().any(|r| real.starts_with(r)) {
            Ok(real)
        } else {
            Err("it links to a file outside the workspace root; foreach-ls only reads files inside it".to_string())
        }
    }
}

impl foreach_analysis::eval::scope::FileReader for DiskReader {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let path = &self.confined(path)?;
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(format!("the file is larger than {} MB", MAX_FILE_BYTES / (1024 * 1024)));
        }
        std::fs::read(path).map_err(|e| e.to_string())
    }

    fn is_file(&self, path: &str) -> bool {
        self.confined(path).is_ok_and(|p| p.is_file())
    }

    fn walk(&self, dir: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        // No symlink following: `fileset` must not escape the root through a link, nor loop.
        for entry in ignore::WalkBuilder::new(dir).standard_filters(false).follow_links(false).build() {
            let entry = entry.map_err(|e| e.to_string())?;
            if entry.file_type().is_some_and(|t| t.is_file())
                && let Ok(rel) = entry.path().strip_prefix(dir)
            {
                out.push(path_string(rel));
            }
        }
        out.sort();
        Ok(out)
    }
}
