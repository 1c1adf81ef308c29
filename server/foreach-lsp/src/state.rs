//! The server's shared state: the analysis host behind one lock, the open documents, settings, and how work runs.
//!
//! Reads take a snapshot under the lock and answer on a blocking thread; writes apply a change under the lock on a
//! blocking thread (salsa cancels the snapshots still running, which then unwind with `Cancelled`). A snapshot is
//! never held across an `.await`, so a write can always finish.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use foreach_analysis::{AnalysisHost, Change};
use foreach_ide::FilePosition;
use foreach_ide::{Analysis, Cancellable};
use foreach_load::project::{Project, ProjectError};
use foreach_syntax::LineIndex;
use tower_lsp_server::Client;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{TextDocumentPositionParams, Uri};

use crate::config::Config;
use crate::convert::{ClientUris, PositionEncoding, uri_to_path};
use crate::documents::Documents;
use crate::publisher::Publisher;

/// The analysis host and, per path, the document version whose text it holds.
pub struct Host {
    pub host: AnalysisHost,
    pub versions: HashMap<String, i32>,
    /// The directories whose files the host has all read (see [`foreach_load::Loaded::listed_dirs`]); `None` until
    /// the first indexing is installed. Diagnostics are published only for files in these directories: until its
    /// module is loaded, a document's siblings are missing and their names would be reported as undefined.
    pub listed_dirs: Option<Arc<HashSet<String>>>,
    /// The state files the `state` setting gives root modules, by root directory (`state_files.rs`).
    pub configured_states: BTreeMap<String, String>,
    /// The state file each root module's state was last read from, and whether the setting names it (a root
    /// without one has no state); compared after files change on disk (`state_files::refresh`).
    pub state_sources: BTreeMap<String, (String, bool)>,
    /// The project file `foreach-ls.toml` found above the workspace folders, or why it cannot be used (shown as a
    /// diagnostic on the file); read at every indexing (`workspace.rs`).
    pub project: Option<std::result::Result<Arc<foreach_load::project::Project>, foreach_load::project::ProjectError>>,
}

impl Host {
    fn new() -> Host {
        Host {
            host: AnalysisHost::new(),
            versions: HashMap::new(),
            listed_dirs: None,
            configured_states: BTreeMap::new(),
            state_sources: BTreeMap::new(),
            project: None,
        }
    }

    pub fn is_listed(&self, dir: &str) -> bool {
        self.listed_dirs.as_ref().is_some_and(|l| l.contains(dir))
    }

    /// Loads from disk the directories of open documents that no indexing listed (a file opened outside every
    /// workspace folder, or in a directory created since), and the modules they call; open buffers keep their
    /// text. Does nothing before the first indexing, which lists the workspace.
    pub fn list_document_dirs(&mut self, open: &[String]) {
        let Some(listed) = &self.listed_dirs else { return };
        let mut dirs: Vec<&str> =
            open.iter().filter_map(|p| p.rsplit_once('/').map(|(d, _)| d)).filter(|d| !listed.contains(*d)).collect();
        dirs.sort_unstable();
        dirs.dedup();
        if dirs.is_empty() {
            return;
        }
        let skip: HashSet<String> = open.iter().cloned().collect();
        let mut listed = (**listed).clone();
        for dir in dirs {
            self.host.apply_change(foreach_load::directory_change(std::path::Path::new(dir), &skip));
            listed.insert(dir.to_string());
        }
        foreach_load::follow_module_calls(&mut self.host, &mut listed, foreach_load::KeepTexts::Compressed);
        self.listed_dirs = Some(Arc::new(listed));
    }
}

/// The project file of the workspace: the nearest `foreach-ls.toml` at or above the first folder that has one
/// (several folders with different project files: the first one's applies).
pub(crate) fn discover_project(roots: &[Root]) -> Option<std::result::Result<Arc<Project>, ProjectError>> {
    roots.iter().find_map(|r| Project::discover(&r.path).map(|p| p.map(Arc::new)).transpose())
}

/// A workspace folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub path: PathBuf,
    /// The folder's name, for settings keyed by name.
    pub name: Option<String>,
}

impl Root {
    pub fn of_folder(folder: &tower_lsp_server::ls_types::WorkspaceFolder) -> Option<Root> {
        Some(Root { path: uri_to_path(&folder.uri)?.into(), name: Some(folder.name.clone()) })
    }
}

/// What the client told us it can do.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClientCaps {
    pub work_done_progress: bool,
    pub pull_diagnostics: bool,
    pub watch_files: bool,
    /// `completionItem.snippetSupport`: snippets only for clients that expand them.
    pub snippets: bool,
    /// `textDocument.codeLens`: without it, the instance lenses are sent as inlay hints (`code_lens.rs`).
    pub code_lens: bool,
    /// `workspace.configuration`: settings can be pulled per workspace folder (`pull_config.rs`).
    pub configuration: bool,
    /// `didChangeWatchedFiles.relativePatternSupport`: a watcher can be relative to any directory (`watch.rs`).
    pub relative_patterns: bool,
}

pub struct State {
    pub client: Client,
    pub docs: Documents,
    /// How the client spells the URI of each document it opened (`convert::ClientUris`).
    pub uris: ClientUris,
    pub host: Mutex<Host>,
    pub encoding: RwLock<PositionEncoding>,
    pub config: RwLock<Config>,
    pub roots: RwLock<Vec<Root>>,
    pub caps: RwLock<ClientCaps>,
    pub publisher: Publisher,
    /// Incremented by every (re-)indexing: a run installs its result only if no newer run has started, so
    /// overlapping re-reads (settings and folders changing quickly) end with the newest roots and settings.
    pub index_generation: std::sync::atomic::AtomicU64,
    /// Whether `shutdown` was received: `exit` before it ends the process with status 1 (LSP `exit`).
    pub shutdown_requested: AtomicBool,
    /// Test-only hooks (`test_hooks.rs`); always off in normal use.
    pub test_hooks: bool,
    /// Held while state files are re-read after a change on disk, so that an older read never lands after a newer
    /// one (the reading itself is done outside the host lock).
    pub state_reads: Mutex<()>,
    /// The configured state files the client has been asked to watch (`watch.rs`).
    pub watched_states: Mutex<Vec<String>>,
    /// Files changed on disk, not yet applied (`file_events.rs`).
    pub file_events: crate::file_queue::Queue,
    /// Open documents over [`MAX_ANALYSED_BYTES`], whose newest text the analysis does not get (logged once each).
    oversized: Mutex<HashSet<Uri>>,
    /// Open documents whose early findings are being computed (`early.rs`): one computation per document at a time,
    /// which starts again when the text changed meanwhile.
    pub early_running: Mutex<HashSet<Uri>>,
    /// The version of each open document whose list from the loaded workspace was published before the first index
    /// was installed (`early::publish_loaded`): the earlier lists, which hold less, are not sent over it.
    pub early_loaded: Mutex<HashMap<Uri, i32>>,
    /// Set once the first indexing is installed ([`Host::listed_dirs`] is `Some` from then on): read by every
    /// `didChange` without waiting for the host lock, which an edit being applied holds.
    pub indexed_once: AtomicBool,
    /// The session's background tasks (the diagnostics loop, indexing, delayed edits, watcher registration), aborted
    /// when the session ends: the diagnostics loop waits for changes forever, and with it the whole state (the
    /// analysis database, the documents) would outlive [`serve`](crate::serve) in a process that goes on running.
    background: std::sync::Mutex<Vec<tokio::task::AbortHandle>>,
}

/// The largest open document the analysis is given (VS Code turns off its own large-file features from 20 MB).
pub const MAX_ANALYSED_BYTES: usize = 20 << 20;

/// A snapshot plus the document versions its texts belong to.
pub struct Snapshot {
    pub analysis: Analysis,
    pub versions: HashMap<String, i32>,
    /// See [`Host::listed_dirs`].
    pub listed_dirs: Option<Arc<HashSet<String>>>,
    pub encoding: PositionEncoding,
    /// See [`State::uris`].
    pub uris: ClientUris,
}

impl State {
    pub fn new(client: Client) -> State {
        State::with_test_hooks(client, false)
    }

    pub fn with_test_hooks(client: Client, test_hooks: bool) -> State {
        crate::test_hooks::start_counting(test_hooks);
        State {
            client,
            docs: Documents::default(),
            uris: ClientUris::default(),
            host: Mutex::new(Host::new()),
            encoding: RwLock::new(PositionEncoding::Utf16),
            config: RwLock::new(Config::default()),
            roots: RwLock::new(Vec::new()),
            caps: RwLock::new(ClientCaps::default()),
            publisher: Publisher::default(),
            index_generation: std::sync::atomic::AtomicU64::new(0),
            shutdown_requested: AtomicBool::new(false),
            test_hooks,
            state_reads: Mutex::new(()),
            watched_states: Mutex::new(Vec::new()),
            file_events: crate::file_queue::Queue::default(),
            oversized: Mutex::new(HashSet::new()),
            early_running: Mutex::new(HashSet::new()),
            early_loaded: Mutex::new(HashMap::new()),
            indexed_once: AtomicBool::new(false),
            background: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Runs `task` in the background of this session; [`State::end_session`] aborts it if it is still running.
    pub fn spawn_background(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        let handle = tokio::spawn(task).abort_handle();
        let mut tasks = self.background.lock().unwrap_or_else(|e| e.into_inner());
        // Edits spawn short tasks all session long: forget the finished ones.
        tasks.retain(|t| !t.is_finished());
        tasks.push(handle);
    }

    /// Aborts the background tasks; called when the session is over.
    pub fn end_session(&self) {
        for task in self.background.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
            task.abort();
        }
    }

    pub fn shutdown(&self) {
        self.shutdown_requested.store(true, Ordering::SeqCst);
    }

    pub fn encoding(&self) -> PositionEncoding {
        *self.encoding.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn config(&self) -> Config {
        self.config.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn caps(&self) -> ClientCaps {
        *self.caps.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn lock_host(&self) -> std::sync::MutexGuard<'_, Host> {
        self.host.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn snapshot(&self) -> Snapshot {
        let host = self.lock_host();
        Snapshot {
            analysis: foreach_ide::Analysis::of(&host.host),
            versions: host.versions.clone(),
            listed_dirs: host.listed_dirs.clone(),
            encoding: self.encoding(),
            uris: self.uris.clone(),
        }
    }

    /// The preamble of every position-based request: runs `f` on a snapshot with the analysis position of a
    /// document position and the file's line index (for converting results back). `None` when the document is not
    /// a file the analysis knows.
    pub async fn at_position<T, F>(self: &Arc<Self>, p: TextDocumentPositionParams, f: F) -> Result<Option<T>>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot, FilePosition, &LineIndex) -> Cancellable<Option<T>> + Send + 'static,
    {
        let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
        let disturbance = crate::test_hooks::disturbance(self.test_hooks, &self.docs, &p.text_document.uri);
        self.run_on_snapshot(Some(p.text_document.uri.clone()), move |snap| {
            crate::test_hooks::disturb(disturbance);
            let a = &snap.analysis;
            let Some(file) = a.file_id(&path)? else { return Ok(None) };
            let Some(index) = a.line_index(file)? else { return Ok(None) };
            let offset = crate::convert::offset(&index, p.position, snap.encoding);
            f(snap, FilePosition { file, offset }, &index)
        })
        .await
    }

    /// Runs `f` on a snapshot on a blocking thread. Cancellation (a newer change) answers `ContentModified`; a
    /// panic is caught, logged with `tracing` and answered as an internal error: the snapshot and the thread die
    /// with it, the host and the document store are untouched, and the server keeps serving.
    pub async fn with_analysis<T, F>(self: &Arc<Self>, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Cancellable<T> + Send + 'static,
    {
        self.run_on_snapshot(None, f).await
    }

    /// [`State::with_analysis`] for a request about one document: the analysis first gets the document's newest
    /// text, since the `didChange` sent before the request may still be on its way to the host.
    pub async fn with_document<T, F>(self: &Arc<Self>, document: Uri, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Cancellable<T> + Send + 'static,
    {
        self.run_on_snapshot(Some(document), f).await
    }

    /// The project file when it defines environments: hover and completion then answer per environment.
    pub fn environments(&self) -> Option<Arc<foreach_load::project::Project>> {
        match &self.lock_host().project {
            Some(Ok(p)) if !p.environments.is_empty() => Some(Arc::clone(p)),
            _ => None,
        }
    }

    /// `f` at a document position once per environment of `project` that applies to some root, with the
    /// environment's name; `None` when none applies (answer as without environments). Runs under the host lock
    /// (the settings change per environment), so nothing cancels it.
    pub async fn at_position_per_environment<T, F>(
        self: &Arc<Self>,
        project: Arc<foreach_load::project::Project>,
        p: TextDocumentPositionParams,
        f: F,
    ) -> Result<Option<Vec<(String, T)>>>
    where
        T: Send + 'static,
        F: Fn(&Analysis, FilePosition, &LineIndex, PositionEncoding) -> Cancellable<Option<T>> + Send + 'static,
    {
        let Some(path) = uri_to_path(&p.text_document.uri) else { return Ok(None) };
        let encoding = self.encoding();
        self.with_host(
            move |host| {
                let envs = foreach_load::environments::selected(&project, None);
                let passes = foreach_load::environments::each(host, &project, &envs, |host, _| {
                    let a = foreach_ide::Analysis::of(host);
                    let answer = (|| {
                        let Some(file) = a.file_id(&path)? else { return Ok(None) };
                        let Some(index) = a.line_index(file)? else { return Ok(None) };
                        let offset = crate::convert::offset(&index, p.position, encoding);
                        f(&a, FilePosition { file, offset }, &index, encoding)
                    })();
                    answer.ok().flatten()
                });
                passes.ok().flatten().map(|passes| {
                    passes.into_iter().filter_map(|p| p.result.map(|r| (p.env.name.clone(), r))).collect()
                })
            },
            |_, r| Ok(r),
        )
        .await
    }

    /// Runs `f` on the host under its lock (on a blocking thread, so it may change inputs and run queries that no
    /// edit cancels), then `g` on a snapshot taken before the lock is released. Used to check each environment of
    /// the project file: an edit waits for `f`, and cancels `g` like any snapshot.
    pub async fn with_host<R, T, F, G>(self: &Arc<Self>, f: F, g: G) -> Result<T>
    where
        T: Send + 'static,
        R: Send + 'static,
        F: FnOnce(&mut AnalysisHost) -> R + Send + 'static,
        G: FnOnce(&Snapshot, R) -> Cancellable<T> + Send + 'static,
    {
        let state = Arc::clone(self);
        let joined = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                let mut guard = state.lock_host();
                let r = f(&mut guard.host);
                let snap = Snapshot {
                    analysis: foreach_ide::Analysis::of(&guard.host),
                    versions: guard.versions.clone(),
                    listed_dirs: guard.listed_dirs.clone(),
                    encoding: state.encoding(),
                    uris: state.uris.clone(),
                };
                drop(guard);
                g(&snap, r)
            }))
        })
        .await;
        settle(joined)
    }

    /// [`State::with_analysis`], after bringing the analysis up to the newest text of `document`: a request must
    /// see the edits sent before it, but the `didChange` that carried them may still be on its way to the host
    /// (notifications and requests are handled concurrently).
    async fn run_on_snapshot<T, F>(self: &Arc<Self>, document: Option<Uri>, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Cancellable<T> + Send + 'static,
    {
        let state = Arc::clone(self);
        let joined = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                if let Some(uri) = &document {
                    state.catch_up(uri);
                }
                let snap = state.snapshot();
                f(&snap)
            }))
        })
        .await;
        settle(joined)
    }

    /// Applies a change on a blocking thread, then schedules diagnostics.
    pub async fn apply(self: &Arc<Self>, make: impl FnOnce(&State, &mut Host) -> Change + Send + 'static) {
        let state = Arc::clone(self);
        let result = tokio::task::spawn_blocking(move || {
            let mut host = state.lock_host();
            let change = make(&state, &mut host);
            host.host.apply_change(change);
        })
        .await;
        if let Err(e) = result {
            tracing::error!("applying a change failed: {e}");
        }
        self.publisher.schedule();
    }

    /// Gives the analysis the newest text of `uri` if the `didChange` carrying it has not yet (on the calling
    /// thread, under the host lock). Schedules nothing: that `didChange` will, so a request that catches up (a
    /// pull for diagnostics, say) never causes another round of diagnostics by itself.
    pub fn catch_up(&self, uri: &Uri) {
        let mut host = self.lock_host();
        let change = self.newest_text(uri, &mut host);
        if !change.files.is_empty() {
            host.host.apply_change(change);
        }
    }

    /// Sends the latest text of an open document to the analysis (whichever edit task gets here first applies
    /// the newest text, so edits can never be applied out of order).
    pub async fn sync_document(self: &Arc<Self>, uri: Uri) {
        self.apply(move |state, host| state.newest_text(&uri, host)).await;
    }

    /// The change that gives the analysis the document's newest text, empty when it already has it or the text is
    /// too large to analyse.
    pub fn newest_text(&self, uri: &Uri, host: &mut Host) -> Change {
        let mut change = Change::default();
        let Some(path) = uri_to_path(uri) else { return change };
        if let Some((text, version)) = self.docs.text_unless_version(uri, host.versions.get(&path).copied()) {
            if !self.analysable(uri, &text) {
                return change;
            }
            host.versions.insert(path.clone(), version);
            change.files.push((path, Ok(text.into())));
        }
        change
    }

    /// Whether an open document's text is small enough to analyse as the user types. A larger one (a log pasted
    /// into the wrong tab) is held, but the analysis keeps the document's last smaller text (or the file's on disk)
    /// until it shrinks: parsing 50 MB on every keystroke would hold every other request for seconds.
    pub fn analysable(&self, uri: &Uri, text: &str) -> bool {
        let mut oversized = self.oversized.lock().unwrap_or_else(|e| e.into_inner());
        if text.len() <= MAX_ANALYSED_BYTES {
            if oversized.remove(uri) {
                tracing::info!("{} is small enough to analyse again", uri.as_str());
            }
            return true;
        }
        if oversized.insert(uri.clone()) {
            tracing::warn!(
                "{} is {:.1} MB, over the {} MB the server analyses while editing: its diagnostics and features use \
                 its last smaller text until it shrinks (`foreach-ls check` checks the file whole)",
                uri.as_str(),
                text.len() as f64 / 1e6,
                MAX_ANALYSED_BYTES >> 20
            );
        }
        false
    }
}

/// A blocking task's outcome as a request's answer: cancellation (a newer change) is `ContentModified`; a panic is
/// logged and answered as an internal error.
fn settle<T>(joined: std::result::Result<std::thread::Result<Cancellable<T>>, tokio::task::JoinError>) -> Result<T> {
    match joined {
        Ok(Ok(Ok(t))) => Ok(t),
        Ok(Ok(Err(_cancelled))) => Err(content_modified()),
        Ok(Err(panic)) => {
            let msg = panic_message(&*panic);
            tracing::error!("analysis panicked: {msg}");
            Err(Error { code: ErrorCode::InternalError, message: format!("internal error: {msg}").into(), data: None })
        }
        Err(e) => {
            tracing::error!("analysis task failed: {e}");
            Err(Error::internal_error())
        }
    }
}

pub fn content_modified() -> Error {
    Error { code: ErrorCode::ContentModified, message: "content modified".into(), data: None }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}
