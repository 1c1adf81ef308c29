//! The analysis facade: the host (CLI or language server) applies [`Change`]s and asks questions.
//!
//! The host owns all IO. It reports what it read as file texts (or read errors), which directories exist, and
//! which lexical paths are aliases of others (symlinks). The analysis tells it which directories module calls need
//! that it has not loaded yet, so loading is a loop the host drives until nothing is missing.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::FileKind;
use rayon::prelude::*;
use salsa::{Durability, Setter};

use crate::base::FileId;
use crate::checks::workspace_diagnostics;
use crate::db::{Db, ModuleDir, RootDatabase, SourceFile, Workspace, file_summary, module_calls};
use crate::diagnostics::Diagnostic;
use crate::eval::scope::FileReader;
use crate::eval::{EvalContext, Value};
use crate::module_eval::scope_for_node;
use crate::paths::parent;
use crate::settings::Settings;
use crate::source_text::SourceText;
use crate::state::RootState;
use crate::tree::module_tree;

pub use crate::db::EXPRESSION_FILE;

/// The result of evaluating one expression: its value, and the diagnostics evaluating it raised.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub value: Value,
    pub diagnostics: Vec<Diagnostic>,
}

/// A batch of updates, applied at once so that salsa inputs change once per batch.
#[derive(Debug, Default)]
pub struct Change {
    /// Added or changed files: absolute path and the text, or why it could not be read.
    pub files: Vec<(String, Result<SourceText, String>)>,
    pub removed_files: Vec<String>,
    /// Directories the host looked for: path and whether it exists.
    pub dirs: Vec<(String, bool)>,
    /// Lexical path -> canonical path.
    pub dir_aliases: Vec<(String, String)>,
    /// `.terraform/modules/modules.json` text by root directory.
    pub manifests: Vec<(String, Arc<str>)>,
    /// The workspace named in `.terraform/environment`, by root directory.
    pub selected_workspaces: Vec<(String, String)>,
    /// Directories whose inputs a wrapper supplies, and its file (see `Workspace::input_wrappers`).
    pub input_wrappers: Vec<(String, String)>,
    /// The read boundaries (see `Workspace::read_roots`).
    pub read_roots: Option<Vec<String>>,
    pub settings: Option<Settings>,
    /// The state of a root module, by root directory: `Some` sets or replaces it, `None` removes it.
    pub states: Vec<(String, Option<RootState>)>,
}

pub struct AnalysisHost {
    db: RootDatabase,
    ws: Workspace,
    /// By path. A text kept on disk shares its path with its key here ([`SourceText::disk_path`]): a monorepo's
    /// paths are a megabyte a copy.
    files: HashMap<Arc<str>, SourceFile>,
    dirs: HashMap<String, ModuleDir>,
    next_file_id: u32,
    /// A fingerprint of each directory's `module` blocks as the tree last read them (see [`call_shape`]).
    call_shapes: HashMap<String, u64>,
}

/// The durability of everything loaded: the workspace's layout (directories, aliases, manifests, settings, states),
/// the texts as read from disk and each module's calls as the module tree sees them (`ModuleDir::tree_calls`).
/// A text changed afterwards (a keystroke) becomes low: after it, salsa takes every result that reads only
/// high-durability inputs as valid without walking its dependencies, so a keystroke costs what depends on the
/// edited file, not a walk over every module instance of the workspace.
///
/// A result whose durability drops is not backdated even when its value is unchanged (salsa: a less durable
/// result is a change its readers must see), so the first keystroke in a file re-runs everything that reads the
/// file, once. The module tree reads the calls through `tree_calls`, which the host updates only when they
/// change, so that cascade stops at the edited module and its instances instead of reaching the whole tree.
const LOADED: Durability = Durability::HIGH;

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::new()
    }
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost::with_database(RootDatabase::default())
    }

    /// A host over a given (empty) database, e.g. one made with [`RootDatabase::with_event_callback`].
    pub fn with_database(db: RootDatabase) -> AnalysisHost {
        let ws = Workspace::builder(
            Arc::from([]),
            Arc::new(HashMap::new()),
            Arc::new(HashMap::new()),
            Arc::new(HashMap::new()),
            Arc::new(HashMap::new()),
            Arc::from([]),
            Arc::new(Settings::default()),
            Arc::new(HashMap::new()),
        )
        .durability(LOADED)
        .new(&db);
        AnalysisHost {
            db,
            ws,
            files: HashMap::new(),
            dirs: HashMap::new(),
            next_file_id: 0,
            call_shapes: HashMap::new(),
        }
    }

    pub fn apply_change(&mut self, change: Change) {
        let mut touched_dirs: Vec<String> = Vec::new();
        let mut edited_dirs: Vec<String> = Vec::new();
        for (path, text) in change.files {
            let name = path.rsplit('/').next().unwrap_or(&path);
            let Some(kind) = FileKind::from_file_name(name) else { continue };
            let (text, error) = match text {
                Ok(t) => (t, None),
                Err(e) => (SourceText::from(""), Some(e)),
            };
            match self.files.get(path.as_str()) {
                Some(file) => {
                    // An editor opening a file sends it unchanged: nothing to invalidate.
                    if file.source(&self.db).is(&text) && *file.load_error(&self.db) == error {
                        continue;
                    }
                    self.db.reparse().mark_edited(file.id(&self.db));
                    file.set_source(&mut self.db).with_durability(Durability::LOW).to(text);
                    file.set_load_error(&mut self.db).with_durability(Durability::LOW).to(error);
                    edited_dirs.push(parent(&path).to_string());
                }
                None => {
                    let id = FileId(self.next_file_id);
                    self.next_file_id += 1;
                    let key = text.disk_path().cloned().unwrap_or_else(|| Arc::from(path.as_str()));
                    // One string for the path wherever it is the same (a backslash in a file's name is a `/` here).
                    let shared: Arc<str> = if *key == *path { key.clone() } else { Arc::from(path.as_str()) };
                    let file = SourceFile::builder(id, shared, kind, text, error).durability(LOADED).new(&self.db);
                    self.files.insert(key, file);
                    touched_dirs.push(parent(&path).to_string());
                }
            }
        }
        for path in change.removed_files {
            if self.files.remove(path.as_str()).is_some() {
                touched_dirs.push(parent(&path).to_string());
            }
        }
        let mut dirs_changed = false;
        for (path, exists) in change.dirs {
            match self.dirs.get(&path) {
                Some(d) => {
                    if d.exists(&self.db) != exists {
                        d.set_exists(&mut self.db).with_durability(LOADED).to(exists);
                    }
                }
                None => {
                    let d = ModuleDir::builder(path.clone(), Arc::from([]), exists, Arc::default())
                        .durability(LOADED)
                        .new(&self.db);
                    self.dirs.insert(path, d);
                    dirs_changed = true;
                }
            }
        }
        touched_dirs.sort();
        touched_dirs.dedup();
        // One pass over all files groups the touched directories' files (a bulk load touches every directory).
        let touched: std::collections::HashSet<&str> = touched_dirs.iter().map(String::as_str).collect();
        let mut by_dir: HashMap<String, Vec<(&str, SourceFile)>> = HashMap::new();
        // An edit of an open file touches no directory: skip the pass (tens of thousands of paths in a monorepo).
        if !touched.is_empty() {
            for (p, f) in &self.files {
                let dir = parent(p);
                if touched.contains(dir) {
                    by_dir.entry(dir.to_string()).or_default().push((p, *f));
                }
            }
        }
        for dir in &touched_dirs {
            let mut fs = by_dir.remove(dir).unwrap_or_default();
            fs.sort_by(|a, b| a.0.cmp(b.0));
            let files: Vec<SourceFile> = fs.into_iter().map(|(_, f)| f).collect();
            match self.dirs.get(dir) {
                Some(d) => {
                    d.set_files(&mut self.db).with_durability(LOADED).to(Arc::from(files));
                }
                None => {
                    let d = ModuleDir::builder(dir.clone(), Arc::from(files), true, Arc::default())
                        .durability(LOADED)
                        .new(&self.db);
                    self.dirs.insert(dir.clone(), d);
                    dirs_changed = true;
                }
            }
        }
        edited_dirs.extend(touched_dirs);
        self.sync_tree_calls(edited_dirs);
        if dirs_changed {
            let mut dirs: Vec<(&String, &ModuleDir)> = self.dirs.iter().collect();
            dirs.sort_by(|a, b| a.0.cmp(b.0));
            let dirs: Vec<ModuleDir> = dirs.into_iter().map(|(_, d)| *d).collect();
            self.ws.set_dirs(&mut self.db).with_durability(LOADED).to(Arc::from(dirs));
        }
        if !change.dir_aliases.is_empty() {
            let mut aliases = (**self.ws.dir_aliases(&self.db)).clone();
            aliases.extend(change.dir_aliases);
            self.ws.set_dir_aliases(&mut self.db).with_durability(LOADED).to(Arc::new(aliases));
        }
        if !change.manifests.is_empty() {
            let mut manifests = (**self.ws.manifests(&self.db)).clone();
            manifests.extend(change.manifests);
            self.ws.set_manifests(&mut self.db).with_durability(LOADED).to(Arc::new(manifests));
        }
        if !change.selected_workspaces.is_empty() {
            let mut selected = (**self.ws.selected_workspaces(&self.db)).clone();
            selected.extend(change.selected_workspaces);
            self.ws.set_selected_workspaces(&mut self.db).with_durability(LOADED).to(Arc::new(selected));
        }
        if !change.input_wrappers.is_empty() {
            let mut wrappers = (**self.ws.input_wrappers(&self.db)).clone();
            wrappers.extend(change.input_wrappers);
            self.ws.set_input_wrappers(&mut self.db).with_durability(LOADED).to(Arc::new(wrappers));
        }
        if let Some(roots) = change.read_roots {
            self.ws.set_read_roots(&mut self.db).with_durability(LOADED).to(Arc::from(roots));
        }
        if let Some(settings) = change.settings {
            self.ws.set_settings(&mut self.db).with_durability(LOADED).to(Arc::new(settings));
        }
        if !change.states.is_empty() {
            let mut states = (**self.ws.states(&self.db)).clone();
            for (root, state) in change.states {
                match state {
                    Some(s) => states.insert(root, s),
                    None => states.remove(&root),
                };
            }
            self.ws.set_states(&mut self.db).with_durability(LOADED).to(Arc::new(states));
        }
    }

    /// Copies the calls of the directories whose files changed into `ModuleDir::tree_calls` where they differ (see
    /// [`LOADED`]). Their modules are summarised on all cores first: loading a workspace touches every directory.
    fn sync_tree_calls(&mut self, mut paths: Vec<String>) {
        paths.sort();
        paths.dedup();
        let dirs: Vec<ModuleDir> = paths.iter().filter_map(|p| self.dirs.get(p).copied()).collect();
        if dirs.len() > 1 {
            dirs.par_iter().for_each_with(self.db.clone(), |db, dir| {
                module_calls(db, *dir);
            });
        }
        for dir in dirs {
            let calls = module_calls(&self.db, dir);
            let shape = call_shape(&calls);
            let path = dir.path(&self.db).clone();
            // Only moved (a keystroke above a `module` block): the tree would be the same, and its findings are
            // moved to where the calls are now by `tree_locations`.
            if shape.is_some() && self.call_shapes.get(&path) == shape.as_ref() {
                continue;
            }
            if **dir.tree_calls(&self.db) != *calls {
                dir.set_tree_calls(&mut self.db).with_durability(LOADED).to(calls);
            }
            match shape {
                Some(shape) => self.call_shapes.insert(path, shape),
                None => self.call_shapes.remove(&path),
            };
        }
    }

    /// Parses and summarises every configuration file on all cores. Purely a speed-up: every query computes what
    /// it needs on demand anyway.
    pub fn prime_caches(&self) {
        // Largest first, so one big file does not start last and leave the other cores idle.
        let mut files: Vec<SourceFile> = self.files.values().copied().collect();
        files.sort_by_key(|f| std::cmp::Reverse(f.source(&self.db).len()));
        files.par_iter().for_each_with(self.db.clone(), |db, file| {
            if file.kind(db).is_config() {
                file_summary(db, *file);
            } else {
                crate::db::parse(db, *file);
            }
        });
    }

    /// Local module directories that calls point to and the host has not loaded yet.
    pub fn unloaded_dirs(&self) -> Vec<String> {
        module_tree(&self.db, self.ws).unloaded_dirs.clone()
    }

    /// For each root module that keeps its state locally, the root directory and the state file of the workspace
    /// in effect (the host reads it, if it exists, and reports it in [`Change::states`]).
    pub fn local_state_paths(&self) -> Vec<(String, String)> {
        crate::state::queries::local_state_paths(&self.db, self.ws)
    }

    /// The directories of the root modules.
    pub fn root_dirs(&self) -> Vec<String> {
        let tree = module_tree(&self.db, self.ws);
        tree.roots.iter().map(|r| tree.node(*r).dir.path(&self.db).clone()).collect()
    }

    /// Computes every diagnostic of the workspace once, so that what asks next (a language server's first publish,
    /// after a document is opened) finds them memoised and pays only for what changed since. For a host that is
    /// being loaded and not yet shared: nothing can cancel it.
    pub fn prime_diagnostics(&self) {
        self.prime_module_diagnostics();
        self.prime_instance_values();
        let ws = self.ws;
        crate::checks::WORKSPACE_PASSES.par_iter().for_each_with(self.db.clone(), |db, pass| {
            pass(db, ws);
        });
        workspace_diagnostics(&self.db, self.ws);
    }

    /// The findings of directory `dir` that its files alone decide (`checks::dir_local_diagnostics`): what
    /// [`AnalysisHost::diagnostics`] reports for them, whatever else the host holds.
    pub fn dir_local_diagnostics(&self, dir: &str) -> Vec<Diagnostic> {
        crate::checks::dir_local_diagnostics(&self.db, self.ws, dir)
    }

    /// The findings of directory `dir` that its module and its instances decide (`checks::dir_diagnostics`), each
    /// one [`AnalysisHost::diagnostics`] reports too, without evaluating the rest of the workspace.
    pub fn dir_diagnostics(&self, dir: &str) -> Vec<Diagnostic> {
        crate::checks::dir_diagnostics(&self.db, self.ws, dir)
    }

    /// Every diagnostic in the workspace, sorted by file and position.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.prime_diagnostics();
        (*workspace_diagnostics(&self.db, self.ws)).clone()
    }

    /// Computes the per-directory diagnostics and per-file suppressions on all cores, so that
    /// `workspace_diagnostics`, which runs on one thread, finds them memoised. Purely a speed-up (on the 1,000-module
    /// benchmark workspace these are about a third of the diagnostics pass).
    /// Evaluates every module instance on all cores, a level of the tree at a time (an instance reads its parent's
    /// call arguments), so that `workspace_diagnostics` finds them memoised: a repository of many root modules has
    /// thousands of instances on the first level alone. Purely a speed-up, like `prime_module_diagnostics`.
    fn prime_instance_values(&self) {
        let tree = crate::tree::module_tree(&self.db, self.ws);
        let mut depth: Vec<usize> = Vec::with_capacity(tree.nodes.len());
        let mut levels: Vec<Vec<crate::tree::NodeId>> = Vec::new();
        for (index, node) in tree.nodes.iter().enumerate() {
            // The tree lists a parent before its children.
            let d = node.parent.and_then(|p| depth.get(p.0 as usize)).map_or(0, |d| d + 1);
            depth.push(d);
            if levels.len() <= d {
                levels.resize_with(d + 1, Vec::new);
            }
            levels[d].push(crate::tree::NodeId(index as u32));
        }
        let ws = self.ws;
        for level in &levels {
            level.par_iter().for_each_with(self.db.clone(), |db, id| {
                crate::module_eval::instance_values(db, ws, *id);
            });
        }
    }

    fn prime_module_diagnostics(&self) {
        let dirs: Vec<ModuleDir> = self.ws.dirs(&self.db).to_vec();
        dirs.par_iter().for_each_with(self.db.clone(), |db, dir| {
            crate::checks::module_diagnostics(db, *dir);
            for file in dir.files(db).iter() {
                crate::suppress::file_suppressions(db, *file);
            }
        });
    }

    /// Readies the file at `path`, which an editor opened, for its first keystrokes (`ReparseStore::prepare`):
    /// returns the work (parsing the file and copying its tree), to run without holding the host; `None` for a
    /// file the host does not have.
    pub fn prepare_editing(&self, path: &str) -> Option<impl FnOnce() + Send + 'static> {
        let file = self.files.get(path)?;
        let (id, text, kind) = (file.id(&self.db), file.text(&self.db), file.kind(&self.db));
        let store = self.db.reparse_store();
        Some(move || store.prepare(id, &text, kind))
    }

    pub fn file_path(&self, id: FileId) -> Option<String> {
        self.files.values().find(|f| f.id(&self.db) == id).map(|f| f.path(&self.db).to_string())
    }

    pub fn file_text(&self, id: FileId) -> Option<Arc<str>> {
        self.files.values().find(|f| f.id(&self.db) == id).map(|f| f.text(&self.db))
    }

    /// Paths and texts of all loaded files by id (one pass, for rendering many diagnostics). The texts stay as the
    /// host keeps them: a report reads only those of the files it quotes.
    pub fn file_table(&self) -> HashMap<FileId, (String, SourceText)> {
        self.file_table_of(|_| true)
    }

    /// [`AnalysisHost::file_table`] of only the files `wanted` keeps: a report of a few findings in a workspace of
    /// thousands of files need not copy every path (1.4 MB on the dev corpus, at `check`'s peak).
    pub fn file_table_of(&self, wanted: impl Fn(FileId) -> bool) -> HashMap<FileId, (String, SourceText)> {
        self.files
            .values()
            .filter(|f| wanted(f.id(&self.db)))
            .map(|f| (f.id(&self.db), (f.path(&self.db).to_string(), f.source(&self.db).clone())))
            .collect()
    }

    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Lets file functions read files through `reader` (the host decides what may be read).
    pub fn set_file_reader(&mut self, reader: Option<Arc<dyn FileReader>>) {
        self.db.set_file_reader(reader);
    }

    /// Evaluates `expr` in the static scope of the root module in directory `dir` (the `eval` command); when
    /// `dir` holds no root module, in an empty scope (literals, functions and `path.*` only).
    pub fn evaluate_in(&self, dir: &str, expr: &str) -> Evaluation {
        let tree = module_tree(&self.db, self.ws);
        let node = tree.roots.iter().copied().find(|r| tree.node(*r).dir.path(&self.db) == dir);
        // A directory without configuration still evaluates literals and functions, like `tofu console` there.
        let (scope, mut diagnostics) = match node {
            Some(node) => scope_for_node(&self.db, self.ws, tree.node(node)),
            None => (crate::module_eval::empty_root_scope(&self.db, self.ws, dir), Vec::new()),
        };
        let value = match foreach_syntax::parse_expr(expr) {
            Ok(parsed) => {
                // A resource, data source or module call the module does not declare is an error, as in `tofu
                // console`, not a value known after apply.
                let module_dir = match node {
                    Some(n) => Some(tree.node(n).dir),
                    None => crate::db::dir_index(&self.db, self.ws).get(dir).copied(),
                };
                let undeclared = crate::refcheck::undeclared_in_expression(&self.db, module_dir, expr, &parsed);
                let ctx = EvalContext { origin: "the expression".to_string(), ..EvalContext::default() };
                let v = scope.eval(EXPRESSION_FILE, &parsed, &ctx);
                diagnostics.extend(scope.take_diagnostics());
                match undeclared.first() {
                    Some(d) => {
                        let cause =
                            crate::eval::UnknownCause::Error { message: d.message.clone(), location: d.location };
                        diagnostics.extend(undeclared.iter().cloned());
                        Value::unknown(cause)
                    }
                    None => v,
                }
            }
            Err(e) => {
                diagnostics.push(Diagnostic::new(
                    crate::Code::SyntaxError,
                    crate::FileRange::new(EXPRESSION_FILE, e.range),
                    e.message,
                ));
                Value::unknown(crate::eval::UnknownCause::Invalid {
                    location: crate::FileRange::new(EXPRESSION_FILE, e.range),
                })
            }
        };
        Evaluation { value, diagnostics }
    }

    /// Plans `foreach-ls migrate` for the module in directory `dir` (`migrate/`).
    pub fn migrate_providers(
        &self,
        dir: &str,
        opts: &crate::migrate::Options,
    ) -> Result<crate::migrate::Plan, Vec<String>> {
        crate::migrate::plan_providers(&self.db, self.ws, dir, opts)
    }

    /// What each aliased `provider` configuration of the root module in `dir` evaluates to, by alias or instance
    /// key, nested blocks included (`migrate::configuration_values`; the migration tests compare before and after).
    pub fn provider_configuration_values(
        &self,
        dir: &str,
        provider: &str,
    ) -> std::collections::BTreeMap<String, Value> {
        crate::migrate::configuration_values(&self.db, self.ws, dir, provider)
    }

    /// What each resource, data source and module call instance of the root module in `dir` evaluates to, and its
    /// `moved` blocks (`migrate::block_values`; the migration tests compare merged blocks with the old ones).
    #[allow(clippy::type_complexity)]
    pub fn block_values(&self, dir: &str) -> (std::collections::BTreeMap<String, Value>, Vec<(String, String)>) {
        crate::migrate::block_values(&self.db, self.ws, dir)
    }

    /// The database and the workspace as of now, for a snapshot (`foreach_ide::Analysis::of`) that answers
    /// questions on another thread. The next `apply_change` cancels it: its queries then return `Err(Cancelled)`,
    /// so a snapshot must never be held while applying a change on the same thread.
    pub fn snapshot(&self) -> (RootDatabase, Workspace) {
        (self.db.clone(), self.ws)
    }

    /// The id of the loaded file at this absolute path.
    pub fn file_id(&self, path: &str) -> Option<FileId> {
        self.files.get(path).map(|f| f.id(&self.db))
    }

    /// Whether `path` is a loaded file.
    pub fn has_file(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// The settings in effect (what the last [`Change::settings`] gave).
    pub fn settings(&self) -> Arc<Settings> {
        self.ws.settings(&self.db).clone()
    }

    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    pub fn workspace(&self) -> Workspace {
        self.ws
    }
}

/// A fingerprint of what the module tree reads of a directory's calls (`tree.rs`): their names, files and the
/// literal values of their `source` and `version`. Equal fingerprints mean the same tree; only the places of its findings may
/// differ, which `tree_locations.rs` takes from the current calls. `None` when a `source` or `version` is not a
/// literal (the tree evaluates it in the module as it is now, so its findings may point outside the call) or is
/// written in another file than its block (an override file).
fn call_shape(calls: &[Arc<crate::model::items::ModuleCall>]) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for call in calls {
        call.site.file.hash(&mut hasher);
        call.name.hash(&mut hasher);
        for arg in [&call.source, &call.version] {
            match arg {
                Some(a) if a.file == call.site.file => a.expr().as_string_literal()?.hash(&mut hasher),
                Some(_) => return None,
                None => 0u8.hash(&mut hasher),
            }
        }
    }
    Some(hasher.finish())
}
