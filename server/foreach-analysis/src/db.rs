//! The salsa database: its inputs and the per-file and per-module queries.
//!
//! Inputs are what the host (CLI or language server) knows: file texts, which files each directory holds, the
//! workspace's settings. Everything else is derived by tracked functions, so an edit re-runs only the queries
//! that read what changed. Parse trees are the only large values: `parse` keeps a bounded number in memory (LRU),
//! and everything downstream reads compact summaries.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::{FileKind, Parse};

use crate::base::FileId;
use crate::eval::scope::FileReader;
use crate::model::lower::{FileSummary, lower_file};
use crate::model::module::{Module, ModuleFile, build_module};
use crate::reparse::ReparseStore;
use crate::settings::Settings;
use crate::source_text::SourceText;
use crate::state::RootState;

#[salsa::db]
pub trait Db: salsa::Database {
    /// How file functions (`file`, `templatefile`, …) read files; `None` when the host allows no reads. Reads
    /// through it are not tracked by salsa: a changed template file is seen on the next change to the workspace.
    fn file_reader(&self) -> Option<Arc<dyn FileReader>>;

    /// Where edited files keep the items of their last parse.
    fn reparse(&self) -> &ReparseStore;
}

#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    file_reader: Option<Arc<dyn FileReader>>,
    /// Shared by the database's clones (the parallel workers of `prime_caches`).
    reparse: Arc<ReparseStore>,
}

impl RootDatabase {
    /// A database that reports every salsa event to `callback` (tests count query executions with it).
    pub fn with_event_callback(callback: Box<dyn Fn(salsa::Event) + Send + Sync + 'static>) -> RootDatabase {
        RootDatabase { storage: salsa::Storage::new(Some(callback)), file_reader: None, reparse: Arc::default() }
    }

    pub fn set_file_reader(&mut self, reader: Option<Arc<dyn FileReader>>) {
        self.file_reader = reader;
    }

    /// The store of edited files' items, shared: readying a file for editing parses it without holding the host.
    pub fn reparse_store(&self) -> Arc<ReparseStore> {
        Arc::clone(&self.reparse)
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {
    fn file_reader(&self) -> Option<Arc<dyn FileReader>> {
        self.file_reader.clone()
    }

    fn reparse(&self) -> &ReparseStore {
        &self.reparse
    }
}

/// One file the host has loaded (or tried to).
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(copy)]
    pub id: FileId,
    /// Absolute, `/`-separated path. Shared with the host's map of files and with a text kept on disk: a large
    /// workspace has tens of thousands of files, and three copies of each path were a megabyte of `check`'s peak.
    #[returns(ref)]
    pub path: Arc<str>,
    #[returns(copy)]
    pub kind: FileKind,
    /// Kept compressed for files read from disk; [`SourceFile::text`] reads it.
    #[returns(ref)]
    pub source: SourceText,
    /// Why the file could not be read as text, if it could not.
    #[returns(ref)]
    pub load_error: Option<String>,
}

impl SourceFile {
    /// The file's text (decompressed anew if it is kept compressed: read it, do not keep it).
    pub fn text(self, db: &dyn Db) -> Arc<str> {
        self.source(db).text()
    }

    pub fn file_name(self, db: &dyn Db) -> &str {
        let path = self.path(db);
        path.rsplit('/').next().unwrap_or(path)
    }
}

/// The file id of an expression given to `AnalysisHost::evaluate_in` (it is in no file): with the inputs, because
/// queries that report on such an expression (`refcheck.rs`) must not import the host that feeds them.
pub const EXPRESSION_FILE: crate::base::FileId = crate::base::FileId(u32::MAX - 1);

/// A directory that may hold a module, with the files foreach-ls reads in it.
#[salsa::input(debug)]
pub struct ModuleDir {
    /// Absolute, `/`-separated, canonical path.
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub files: Arc<[SourceFile]>,
    /// False when the host found no such directory (a module source pointing nowhere).
    #[returns(copy)]
    pub exists: bool,
    /// The module's calls as of the last change, copied here by the host from [`module_calls`] whenever they
    /// change. The module tree reads this instead of the query: an input of high durability that changes only
    /// when a call does, it keeps the tree (which every module instance reads) at high durability, so that after
    /// a keystroke salsa takes the instances of every module the keystroke cannot reach as valid without walking
    /// their dependencies (see `host.rs`).
    #[returns(ref)]
    pub tree_calls: Arc<Vec<Arc<crate::model::items::ModuleCall>>>,
}

/// Everything loaded, plus the settings that shape evaluation.
#[salsa::input(debug)]
pub struct Workspace {
    #[returns(ref)]
    pub dirs: Arc<[ModuleDir]>,
    /// Lexical paths the host resolved to another (canonical) directory, e.g. through a symlink.
    #[returns(ref)]
    pub dir_aliases: Arc<HashMap<String, String>>,
    /// `.terraform/modules/modules.json` texts, by the root directory that holds them.
    #[returns(ref)]
    pub manifests: Arc<HashMap<String, Arc<str>>>,
    /// The workspace `tofu workspace select` chose in a root directory (its `.terraform/environment`), by directory.
    #[returns(ref)]
    pub selected_workspaces: Arc<HashMap<String, String>>,
    /// Root module directories whose inputs a wrapper supplies (`terragrunt.hcl` in or above it, `atmos.yaml`
    /// above it), with the wrapper's file as the host names it (`terragrunt.hcl`, `../../atmos.yaml`): their
    /// defaults may be overridden, so a root there that cannot run as it is uses none (`instance_scope.rs`).
    #[returns(ref)]
    pub input_wrappers: Arc<HashMap<String, String>>,
    /// Where file functions may read: for each directory the user asked to check, the repository that holds it
    /// (the nearest enclosing directory with `.git`), or the directory itself outside a repository.
    #[returns(ref)]
    pub read_roots: Arc<[String]>,
    #[returns(ref)]
    pub settings: Arc<Settings>,
    /// The state each root module is checked against, by root directory (`--state`, or its local state file).
    #[returns(ref)]
    pub states: Arc<HashMap<String, RootState>>,
}

/// Parses one file. At most a few hundred trees stay cached; the rest are dropped and re-parsed on demand.
#[salsa::tracked(returns(clone), lru = 256)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Arc<Parse> {
    if file.load_error(db).is_some() {
        return Arc::new(Parse::default());
    }
    db.reparse().parse(file.id(db), &file.text(db), file.kind(db))
}

/// The items a configuration file declares, and its syntax errors.
///
/// It parses the text itself instead of reading the memoised [`parse`]: the tree is dropped as soon as it is
/// summarised, so checking a large workspace never holds every tree at once (salsa's LRU only evicts between
/// revisions, too late for one `check` run).
#[salsa::tracked(returns(clone))]
pub fn file_summary(db: &dyn Db, file: SourceFile) -> Arc<FileSummary> {
    if file.load_error(db).is_some() {
        return Arc::new(FileSummary::default());
    }
    let text = file.text(db);
    let parse = db.reparse().parse(file.id(db), &text, file.kind(db));
    let mut summary = lower_file(file.id(db), &parse.body);
    summary.has_suppression_marker = text.contains(crate::diagnostics::SUPPRESSION_MARKER);
    // A text kept compressed or on disk is one nobody is editing (an editor's open documents are kept plain).
    if !file.source(db).is_plain() {
        summary.items.pack_expressions();
    }
    summary.syntax_errors = parse.errors.iter().cloned().collect();
    Arc::new(summary)
}

/// The module calls of a directory's module, which is all the module tree reads of most modules: an edit elsewhere
/// in the module (a resource body, a local) stops here instead of rebuilding the tree.
#[salsa::tracked(returns(clone))]
pub fn module_calls(db: &dyn Db, dir: ModuleDir) -> Arc<Vec<Arc<crate::model::items::ModuleCall>>> {
    Arc::new(module(db, dir).module_calls.to_vec())
}

/// The merged configuration of a module directory.
#[salsa::tracked(returns(clone))]
pub fn module(db: &dyn Db, dir: ModuleDir) -> Arc<Module> {
    let files = dir.files(db);
    let summaries: Vec<(SourceFile, Arc<FileSummary>)> =
        files.iter().filter(|f| f.kind(db).is_config()).map(|f| (*f, file_summary(db, *f))).collect();
    let inputs: Vec<ModuleFile> = summaries
        .iter()
        .map(|(f, s)| ModuleFile { file: f.id(db), name: f.file_name(db), kind: f.kind(db), summary: s })
        .collect();
    Arc::new(build_module(&inputs))
}

/// Directories by path (aliases included), for resolving module sources.
#[salsa::tracked(returns(clone))]
pub fn dir_index(db: &dyn Db, ws: Workspace) -> Arc<HashMap<String, ModuleDir>> {
    let mut map: HashMap<String, ModuleDir> = ws.dirs(db).iter().map(|d| (d.path(db).clone(), *d)).collect();
    for (alias, target) in ws.dir_aliases(db).iter() {
        if let Some(d) = map.get(target).copied() {
            map.insert(alias.clone(), d);
        }
    }
    Arc::new(map)
}

/// Files by id, for turning diagnostics back into paths and texts.
#[salsa::tracked(returns(clone))]
pub fn file_index(db: &dyn Db, ws: Workspace) -> Arc<HashMap<FileId, SourceFile>> {
    Arc::new(ws.dirs(db).iter().flat_map(|d| d.files(db).iter().map(|f| (f.id(db), *f))).collect())
}
