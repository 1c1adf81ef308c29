//! Loads a workspace from disk into the analysis: the only code that reads configuration files, shared by
//! `foreach-ls check` and the language server.
//!
//! It walks the given roots (skipping directories that `.gitignore` ignores, `.terraform/`, `.terragrunt-cache/`,
//! `.git/` and the user's `--exclude` globs; never a file of a walked directory because git ignores it), reads
//! every OpenTofu file once and in parallel (symbolic links to files included), then keeps loading the
//! directories that module calls point to outside the walked tree until the analysis needs nothing more. Paths are
//! canonicalised, so a symlink loop ends as a module cycle in the analysis rather than as endless loading.
//!
//! It sits on the analysis (and the IDE crate, for the project file's part in a rename) and must never depend on
//! the language server or the binary: both call it.

pub mod base;
pub mod environments;
pub mod plain_root;
pub mod project;
mod project_errors;
pub mod project_rename;
pub mod state;
mod wrappers;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foreach_analysis::source_text::SourceText;
use foreach_analysis::state::RootState;
use foreach_analysis::{AnalysisHost, Change, CliVariable, Settings};
use foreach_syntax::FileKind;
use globset::{Glob, GlobSet, GlobSetBuilder};
use rayon::prelude::*;

/// Files larger than this are reported as unreadable instead of being parsed (no real configuration is this big,
/// and it bounds memory on hostile input).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Directories never walked: tool caches and VCS metadata.
pub(crate) const SKIPPED_DIRS: &[&str] = &[".terraform", ".terragrunt-cache", ".git"];

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
    /// The workspace chosen explicitly (see `Settings::workspace_name`).
    pub workspace_name: Option<String>,
    /// States given explicitly (`--state`); they replace the roots' local state files.
    pub states: &'a [StateOption],
    /// The project file's `exclude` globs and the directory they are relative to (`project.rs`); they apply
    /// besides `excludes`, which are relative to each walked path.
    pub project_excludes: Option<(&'a Path, &'a [String])>,
    /// How the files' texts are kept once read.
    pub texts: KeepTexts,
}

/// How the loader keeps the texts it reads (`foreach_analysis::SourceText`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeepTexts {
    /// Compressed: the language server, which may read any file's text at any time.
    #[default]
    Compressed,
    /// Only their paths, read again where needed: `check`, a run that is over before the files change.
    OnDisk,
}

impl<'a> LoadOptions<'a> {
    /// These paths, with no excludes, no variables, no explicit state and the `default` workspace.
    pub fn new(paths: &'a [PathBuf]) -> LoadOptions<'a> {
        LoadOptions {
            paths,
            excludes: &[],
            ordered_vars: &[],
            env_vars: Vec::new(),
            workspace_name: None,
            states: &[],
            project_excludes: None,
            texts: KeepTexts::default(),
        }
    }
}

/// One `--state`: `FILE`, `-` (standard input), or `ROOT_DIR=FILE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateOption {
    /// The root module directory it is for; `None`: the one path given.
    pub root: Option<PathBuf>,
    pub source: StateSource,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateSource {
    File(PathBuf),
    /// Standard input, read once when the options are parsed (`check --fix` loads twice).
    Stdin(Arc<[u8]>),
}

impl StateOption {
    /// Reads the arguments of `--state`. `A=B` is `ROOT_DIR=FILE` when `A` is a directory (a state file whose name
    /// holds `=` is still a file); `-` reads standard input, which only one of them can.
    pub fn parse_all(args: &[String]) -> Result<Vec<StateOption>, LoadError> {
        let mut out = Vec::new();
        let mut stdin_read = false;
        for arg in args {
            let (root, file) = match arg.split_once('=') {
                Some((dir, f)) if !dir.is_empty() && Path::new(dir).is_dir() => (Some(PathBuf::from(dir)), f),
                _ => (None, arg.as_str()),
            };
            let source = if file == "-" {
                if stdin_read {
                    return Err(LoadError("`--state -` can be given only once (standard input is read once)".into()));
                }
                stdin_read = true;
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
                    .map_err(|e| LoadError(format!("cannot read state from standard input: {e}")))?;
                StateSource::Stdin(Arc::from(bytes))
            } else {
                StateSource::File(PathBuf::from(file))
            };
            out.push(StateOption { root, source });
        }
        Ok(out)
    }

    /// How messages name it: the path as given, or standard input.
    pub fn label(&self) -> String {
        match &self.source {
            StateSource::File(f) => f.display().to_string(),
            StateSource::Stdin(_) => "from standard input".to_string(),
        }
    }
}

/// Where the files came from: the canonical root directories walked.
pub struct Loaded {
    pub host: AnalysisHost,
    pub roots: Vec<PathBuf>,
    /// Every directory whose files were all read (walked, or loaded because a module call points there): the
    /// analysis of a file in such a directory sees its whole module. The language server publishes diagnostics
    /// only for files in these directories (a module seen half-loaded reports its siblings' names as undefined).
    pub listed_dirs: HashSet<String>,
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
    let project_excludes = match opts.project_excludes {
        Some((dir, globs)) => Some((dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()), build_globset(globs)?)),
        None => None,
    };

    let mut files: Vec<PathBuf> = Vec::new();
    let mut listed_dirs: HashSet<String> = HashSet::new();
    for root in &roots {
        walk(root, &excludes, project_excludes.as_ref(), &mut files, &mut listed_dirs)?;
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

    let mut read_roots: Vec<PathBuf> = roots.iter().map(|r| read_boundary(r)).collect();
    read_roots.sort();
    read_roots.dedup();
    let mut host = AnalysisHost::new();
    host.set_file_reader(Some(std::sync::Arc::new(DiskReader { roots: read_roots.clone() })));
    let mut change = read_files(&files, opts.texts);
    change.read_roots = Some(read_roots.iter().map(|r| path_string(r)).collect());
    change.settings = Some(Settings {
        cli_variables,
        env_variables: opts.env_vars.clone(),
        workspace_name: opts.workspace_name.clone(),
        root_workspaces: Vec::new(),
        cwd: path_string(&cwd),
    });
    read_data_dirs(&files, &mut change);
    let config_dirs: HashSet<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    change.input_wrappers = wrappers::input_wrappers(config_dirs, &read_roots)
        .into_iter()
        .map(|(dir, wrapper)| (path_string(&dir), wrapper))
        .collect();
    host.apply_change(change);
    host.prime_caches();

    follow_module_calls(&mut host, &mut listed_dirs, opts.texts);
    load_states(&mut host, &roots, opts.states)?;
    Ok(Loaded { host, roots, listed_dirs })
}

/// Gives each root module its state: the one given with `--state`, else its local state file if it has one. A
/// state given explicitly that cannot be read stops the command; a local one becomes an `unreadable-state` warning.
/// States are only read, never written.
fn load_states(host: &mut AnalysisHost, given: &[PathBuf], options: &[StateOption]) -> Result<(), LoadError> {
    let root_dirs: HashSet<String> = host.root_dirs().into_iter().collect();
    let mut states: HashMap<String, RootState> = HashMap::new();
    for opt in options {
        let label = opt.label();
        let dir = match (&opt.root, given) {
            (Some(dir), _) => dir
                .canonicalize()
                .map_err(|e| LoadError(format!("cannot use state {label}: cannot read `{}`: {e}", dir.display())))?,
            (None, [one]) => one.clone(),
            (None, _) => {
                return Err(LoadError(format!(
                    "`--state {label}` is for a single root; with several paths, write `--state ROOT_DIR=FILE`"
                )));
            }
        };
        let dir = path_string(&dir);
        if !root_dirs.contains(&dir) {
            return Err(LoadError(format!("cannot use state {label}: `{dir}` holds no root module")));
        }
        if states.contains_key(&dir) {
            return Err(LoadError(format!("cannot use state {label}: another `--state` is already given for `{dir}`")));
        }
        let read;
        let bytes: &[u8] = match &opt.source {
            StateSource::File(f) => {
                read = std::fs::read(f).map_err(|e| LoadError(format!("cannot read state {label}: {e}")))?;
                &read
            }
            StateSource::Stdin(bytes) => bytes,
        };
        let bindings =
            state::read_state(bytes).map_err(|why| LoadError(format!("cannot read state {label}: {why}")))?;
        states.insert(dir, RootState::Bindings(Arc::new(bindings)));
    }
    for (root, path) in host.local_state_paths() {
        if states.contains_key(&root) {
            continue;
        }
        if let Some(state) = state::read_root_state(&path, false) {
            states.insert(root, state);
        }
    }
    if !states.is_empty() {
        host.apply_change(Change {
            states: states.into_iter().map(|(k, v)| (k, Some(v))).collect(),
            ..Change::default()
        });
    }
    Ok(())
}

/// Loads the directories that module calls point to and that the host has not seen, until nothing is missing;
/// each becomes a listed directory (or is marked missing). Used after the walk, and by the language server after
/// loading the directory of a document opened outside every workspace folder.
pub fn follow_module_calls(host: &mut AnalysisHost, listed_dirs: &mut HashSet<String>, texts: KeepTexts) {
    // Each round loads at least one new directory or marks it missing, so this ends; the bound is a guard against
    // a bug, not a limit users meet.
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
                    change.dirs.push((canonical_str.clone(), true));
                    listed_dirs.insert(canonical_str);
                    list_dir(&canonical, &mut new_files);
                }
                _ => change.dirs.push((dir, false)),
            }
        }
        let read = read_files(&new_files, texts);
        change.files = read.files;
        host.apply_change(change);
        host.prime_caches();
    }
}

/// The change that loads one directory from disk: every OpenTofu file in it (except those in `skip`, e.g. open
/// editor buffers, whose text the caller has) and the directory itself as listed. A directory that is not on disk
/// (buffers not saved yet) changes nothing: its buffers are all there is.
pub fn directory_change(dir: &Path, skip: &HashSet<String>) -> Change {
    if !dir.is_dir() {
        return Change::default();
    }
    let mut files = Vec::new();
    list_dir(dir, &mut files);
    files.retain(|f| !skip.contains(&path_string(f)));
    let mut change = read_files(&files, KeepTexts::Compressed);
    change.dirs.push((path_string(dir), true));
    change
}

/// Where file functions may read when `dir` is checked: the repository that holds it, i.e. the nearest enclosing
/// directory with a `.git` entry (a directory, or the file of a worktree or submodule), else `dir` itself.
///
/// Not the checked path alone: `check live/prod` must read `${path.module}/../../shared/regions.json` as OpenTofu
/// does, and a repository is the unit a user trusts. Not the whole disk either: the guarantee that configuration
/// cannot make foreach-ls read `/etc/passwd` or a home directory stands (`DiskReader` checks again after links).
pub fn read_boundary(dir: &Path) -> PathBuf {
    dir.ancestors().find(|a| a.join(".git").exists()).unwrap_or(dir).to_path_buf()
}

fn build_globset(globs: &[String]) -> Result<GlobSet, LoadError> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| LoadError(format!("invalid --exclude glob `{g}`: {e}")))?);
    }
    b.build().map_err(|e| LoadError(format!("invalid --exclude globs: {e}")))
}

/// Finds the OpenTofu files under `root`.
///
/// `.gitignore` (and `.git/info/exclude`) decide only which *directories* are walked, never which files of a
/// walked directory are read: OpenTofu reads every file of a module directory whatever git ignores, and GitHub's
/// standard Terraform `.gitignore` lists `*.tfvars` and `*_override.tf`, which change values and blocks. An ignored
/// directory (a build output, a vendored copy) is not taken for a root module, but is still loaded when a module
/// call points at it (`load`'s second phase).
///
/// Symbolic links to files are read as files of the directory that holds the link, as OpenTofu does (a shared
/// `common-variables.tf` linked into every root is a common layout). Links to directories are not walked into:
/// the directory they point to is walked on its own if it is inside the tree, and loaded under its real path when
/// a module call points through the link, so each module directory is analysed once and a link loop cannot recur.
fn walk(
    root: &Path,
    excludes: &GlobSet,
    project_excludes: Option<&(PathBuf, GlobSet)>,
    out: &mut Vec<PathBuf>,
    listed_dirs: &mut HashSet<String>,
) -> Result<(), LoadError> {
    let root_owned = root.to_path_buf();
    let walk_excludes = excludes.clone();
    let project_owned = project_excludes.cloned();
    // A path matches a project glob by its path relative to the project file's directory.
    let by_project = |project: Option<&(PathBuf, GlobSet)>, path: &Path| {
        project.is_some_and(|(dir, globs)| {
            path.strip_prefix(dir).is_ok_and(|rel| !rel.as_os_str().is_empty() && globs.is_match(rel))
        })
    };
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| {
            if !entry.file_type().is_some_and(|t| t.is_dir()) {
                return false;
            }
            let name = entry.file_name().to_str().unwrap_or_default();
            if SKIPPED_DIRS.contains(&name) {
                return false;
            }
            let rel = entry.path().strip_prefix(&root_owned).unwrap_or(entry.path());
            rel.as_os_str().is_empty()
                || !(walk_excludes.is_match(rel) || by_project(project_owned.as_ref(), entry.path()))
        })
        .build_parallel();
    // On every core: a walk lists each directory and looks for ignore files in it, a few system calls per
    // directory that were a tenth of a `check` of the dev corpus on one thread. The caller sorts the files.
    let found: std::sync::Mutex<(Vec<PathBuf>, Vec<String>)> = std::sync::Mutex::default();
    walker.run(|| {
        Box::new(|entry| {
            // An unreadable directory inside the tree is skipped rather than fatal: the rest can still be checked.
            let Ok(entry) = entry else { return ignore::WalkState::Continue };
            let mut files = Vec::new();
            list_dir(entry.path(), &mut files);
            files.retain(|f| {
                let rel = f.strip_prefix(root).unwrap_or(f);
                !(excludes.is_match(rel) || by_project(project_excludes, f))
            });
            let mut found = found.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            found.0.extend(files);
            found.1.push(path_string(entry.path()));
            ignore::WalkState::Continue
        })
    });
    let (files, dirs) = found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    out.extend(files);
    listed_dirs.extend(dirs);
    Ok(())
}

/// The OpenTofu files directly in `dir` (module directories are not walked recursively), including symbolic links
/// to files. A link that leads nowhere (dangling, or a loop) is listed too: OpenTofu fails to read it, and so does
/// the loader, which reports it as an unreadable file. Except a link to a variables file: OpenTofu loads
/// `terraform.tfvars(.json)` only if `os.Stat` finds it (internal/command/meta_vars.go) and other `*.tfvars` only
/// through `-var-file`; a dangling `*.auto.tfvars` it does fail on, but such a link points at a file kept out of
/// git that the user is meant to create (terraform-example-foundation links every environment to a
/// `common.auto.tfvars` copied from an example, and ignores `*.tfvars`), so it is left out like any file missing
/// from the checkout: the variables it sets have no value here.
fn list_dir(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(kind) = FileKind::from_file_name(name) else { continue };
        let Ok(file_type) = entry.file_type() else { continue };
        let target = file_type.is_symlink().then(|| std::fs::metadata(entry.path()));
        // A link to nothing is read, and fails, as OpenTofu reads it; except a variables file, left out like a file
        // missing from the checkout: OpenTofu loads `terraform.tfvars(.json)` only when a stat (which follows links)
        // finds it, and a dangling `*.auto.tfvars` points at a file kept out of git that each user creates.
        if matches!(target, Some(Err(_))) && kind.is_tfvars() {
            continue;
        }
        let is_file = file_type.is_file() || target.is_some_and(|t| t.map_or(true, |m| m.is_file()));
        if is_file {
            out.push(entry.path());
        }
    }
}

/// Reads files in parallel, each once. Binary, non-UTF-8 and oversized files become read errors that the analysis
/// reports as diagnostics; the command goes on.
fn read_files(paths: &[PathBuf], texts: KeepTexts) -> Change {
    let read = |p: &PathBuf| -> Result<SourceText, String> {
        let text = read_text(p)?;
        Ok(match (texts, p.to_str()) {
            // The path must read the file again as it is: a path that is not UTF-8 keeps its text compressed.
            (KeepTexts::OnDisk, Some(path)) => SourceText::on_disk(path, text.len()),
            _ => SourceText::compressed(&text),
        })
    };
    let files: Vec<(String, Result<SourceText, String>)> =
        paths.par_iter().map(|p| (path_string(p), read(p))).collect();
    Change { files, ..Change::default() }
}

/// Reads a file's text and keeps it compressed: once the file is parsed and summarised, the analysis reads its text
/// again only to look for suppression comments and to quote it in a finding or a fix (an editor's open documents
/// replace theirs with the editor's text, kept as it is).
pub fn read_source(path: &Path) -> Result<SourceText, String> {
    read_text(path).map(|text| SourceText::compressed(&text))
}

/// Reads a file's text, refusing what OpenTofu would not read as configuration: oversized, binary (NUL bytes),
/// git-crypt encrypted or not UTF-8.
fn read_text(path: &Path) -> Result<String, String> {
    use std::io::Read;
    // Opened first and measured through the open file: one lookup of the path instead of two (the kernel's path
    // walk was a few percent of a `check` of the dev corpus, whose files lie deep in their repositories).
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read this file: {e}"))?;
    let len = file.metadata().map_err(|e| format!("cannot read this file: {e}"))?.len();
    if len > MAX_FILE_BYTES {
        return Err(format!(
            "this file is {} MB; foreach-ls reads files of at most {} MB",
            len / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes).map_err(|e| format!("cannot read this file: {e}"))?;
    text_of(bytes)
}

/// A file's bytes as configuration text, or why OpenTofu would not read them: binary (NUL bytes), git-crypt
/// encrypted or not UTF-8.
pub(crate) fn text_of(bytes: Vec<u8>) -> Result<String, String> {
    if bytes.starts_with(b"\0GITCRYPT\0") {
        return Err(foreach_analysis::diagnostics::GIT_CRYPT_ENCRYPTED.to_string());
    }
    if bytes.contains(&0) {
        return Err("this file contains NUL bytes: it looks binary, not like OpenTofu configuration".to_string());
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => Err(format!(
            "this file is not valid UTF-8 (invalid byte at offset {}); OpenTofu reads only UTF-8",
            e.utf8_error().valid_up_to()
        )),
    }
}

/// What `tofu init` and `tofu workspace select` left in the data directory (`.terraform`, or `TF_DATA_DIR` when set,
/// relative to each directory like OpenTofu's working directory) of every directory that holds configuration:
/// `modules/modules.json` (where remote module sources were installed) and `environment` (the selected workspace; a
/// missing, unreadable or empty file selects nothing). One pass over the directories for both.
fn read_data_dirs(files: &[PathBuf], change: &mut Change) {
    let data_dir = std::env::var_os("TF_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(".terraform"));
    let dirs: HashSet<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    // On every core: two failed opens per directory, thousands of them in a large repository.
    let found: Vec<(String, Option<Arc<str>>, Option<String>)> = dirs
        .into_par_iter()
        .filter_map(|dir| {
            let data = dir.join(&data_dir);
            let manifest = std::fs::read_to_string(data.join("modules").join("modules.json")).ok().map(Arc::from);
            let selected = std::fs::read_to_string(data.join("environment"))
                .ok()
                .map(|text| text.trim().to_string())
                .filter(|name| !name.is_empty() && !name.contains('\n'));
            (manifest.is_some() || selected.is_some()).then(|| (path_string(dir), manifest, selected))
        })
        .collect();
    for (dir, manifest, selected) in found {
        if let Some(text) = manifest {
            change.manifests.push((dir.clone(), text));
        }
        if let Some(name) = selected {
            change.selected_workspaces.push((dir, name));
        }
    }
}

/// The workspace chosen outside the configuration: `TF_WORKSPACE`, which OpenTofu prefers to the one selected in
/// `.terraform/environment` (an empty value chooses nothing). Shared by the command line and the language server.
pub fn workspace_from_env() -> Option<String> {
    std::env::var("TF_WORKSPACE").ok().filter(|w| !w.is_empty())
}

/// The `/`-separated form the analysis uses for paths.
pub fn path_string(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// File functions' access to the disk. The evaluator has already checked that each path stays inside a read
/// boundary as written; this checks it again after following symbolic links (a link inside the repository to
/// `/etc/passwd` is no way out), only reads (never writes), and refuses oversized files like the loader does.
pub struct DiskReader {
    /// The canonical read boundaries ([`read_boundary`] of each root walked): every file read must be inside one.
    pub roots: Vec<PathBuf>,
}

impl DiskReader {
    fn confined(&self, path: &str) -> Result<PathBuf, String> {
        let real = Path::new(path).canonicalize().map_err(|e| e.to_string())?;
        if self.roots.iter().any(|r| real.starts_with(r)) {
            Ok(real)
        } else {
            Err("it links to a file outside the repository being checked; foreach-ls only reads files inside it"
                .to_string())
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

    fn links_outside(&self, path: &str) -> bool {
        Path::new(path).canonicalize().is_ok_and(|real| !self.roots.iter().any(|r| real.starts_with(r)))
    }

    fn missing(&self, path: &str) -> bool {
        let path = Path::new(path);
        if !matches!(std::fs::symlink_metadata(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
            return false;
        }
        // Say "missing" only below a directory inside a read boundary, so that a link in the repository cannot be
        // used to probe which paths exist elsewhere.
        path.ancestors().skip(1).find(|a| a.exists()).is_some_and(|a| self.confined(&a.to_string_lossy()).is_ok())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts read from disk are kept compressed, read back byte for byte, and a file that cannot be read as text is
    /// still a read error (not a compressed empty text).
    #[test]
    fn texts_read_from_disk_are_kept_compressed() {
        let dir = tempfile::tempdir().unwrap();
        let block = "resource \"aws_s3_bucket\" \"b\" {\n  for_each = toset([\"eu-west-1\", \"us-east-1\"])\n  bucket   = \"b-${each.key}\"\n}\n";
        let text = format!("# \u{e9}t\u{e9}\r\n{}", block.repeat(50));
        let path = dir.path().join("main.tf");
        std::fs::write(&path, &text).unwrap();
        let binary = dir.path().join("binary.tf");
        std::fs::write(&binary, b"resource \0").unwrap();

        let source = read_source(&path).unwrap();
        assert!(source.is_compressed(), "{source:?}");
        assert_eq!(source.len(), text.len());
        assert_eq!(&*source.text(), text.as_str());
        assert!(read_source(&binary).unwrap_err().contains("NUL bytes"));

        let change = read_files(&[path.clone(), binary.clone()], KeepTexts::Compressed);
        let kept: Vec<bool> =
            change.files.iter().map(|(_, t)| t.as_ref().is_ok_and(SourceText::is_compressed)).collect();
        assert_eq!(kept, [true, false]);

        // `check` keeps only the paths, and the same files are still read errors.
        let change = read_files(&[path.clone(), binary], KeepTexts::OnDisk);
        let kept: Vec<bool> = change.files.iter().map(|(_, t)| t.as_ref().is_ok_and(SourceText::is_on_disk)).collect();
        assert_eq!(kept, [true, false]);
        assert!(change.files[1].1.as_ref().unwrap_err().contains("NUL bytes"));
        let on_disk = change.files[0].1.as_ref().unwrap();
        assert_eq!((on_disk.len(), &*on_disk.text()), (text.len(), text.as_str()));
    }

    /// A file over the size limit is refused before it is read (a sparse file: nothing is written), and a path
    /// that is not a file is a read error, not an empty text.
    #[test]
    fn oversized_files_and_directories_are_read_errors() {
        let dir = tempfile::tempdir().unwrap();
        let huge = dir.path().join("huge.tf");
        std::fs::File::create(&huge).unwrap().set_len(MAX_FILE_BYTES + 1024 * 1024).unwrap();
        let error = read_text(&huge).unwrap_err();
        assert!(error.contains("this file is 65 MB; foreach-ls reads files of at most 64 MB"), "{error}");
        let not_a_file = dir.path().join("dir.tf");
        std::fs::create_dir(&not_a_file).unwrap();
        assert!(read_text(&not_a_file).unwrap_err().starts_with("cannot read this file"));
        assert!(read_text(&dir.path().join("missing.tf")).unwrap_err().starts_with("cannot read this file"));
    }
}
