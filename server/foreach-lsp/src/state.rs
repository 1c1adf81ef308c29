//! The server's shared state: the analysis host behind one lock, the open documents, settings, and how work runs.
//!
//! Reads take a snapshot under the lock and answer on a blocking thread; writes apply a change under the lock on a
//! blocking thread (salsa cancels the snapshots still running, which then unwind with `Cancelled`). A snapshot is
//! never held across an `.await`, so a write can always finish.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use foreach_analysis::ide::FilePosition;
use foreach_analysis::{Analysis, AnalysisHost, Cancellable, Change};
use foreach_syntax::LineIndex;
use tower_lsp_server::Client;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{TextDocumentPositionParams, Uri};

use crate::config::Config;
use crate::convert::{PositionEncoding, uri_to_path};
use crate::diagnostics::Publisher;
use crate::documents::Documents;

/// The analysis host and, per path, the document version whose text it holds.
pub struct Host {
    pub host: AnalysisHost,
    pub versions: HashMap<String, i32>,
}

/// What the client told us it can do.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClientCaps {
    pub work_done_progress: bool,
    pub pull_diagnostics: bool,
    pub watch_files: bool,
}

pub struct State {
    pub client: Client,
    pub docs: Documents,
    pub host: Mutex<Host>,
    pub encoding: RwLock<PositionEncoding>,
    pub config: RwLock<Config>,
    pub roots: RwLock<Vec<PathBuf>>,
    pub caps: RwLock<ClientCaps>,
    pub publisher: Publisher,
    /// Whether `shutdown` was received: `exit` before it ends the process with status 1 (LSP `exit`).
    pub shutdown_requested: AtomicBool,
    /// Test-only hooks (`test_hooks.rs`); always off in normal use.
    pub test_hooks: bool,
}

/// A snapshot plus the document versions its texts belong to.
pub struct Snapshot {
    pub analysis: Analysis,
    pub versions: HashMap<String, i32>,
    pub encoding: PositionEncoding,
}

impl State {
    pub fn new(client: Client) -> State {
        State::with_test_hooks(client, false)
    }

    pub fn with_test_hooks(client: Client, test_hooks: bool) -> State {
        State {
            client,
            docs: Documents::default(),
            host: Mutex::new(Host { host: AnalysisHost::new(), versions: HashMap::new() }),
            encoding: RwLock::new(PositionEncoding::Utf16),
            config: RwLock::new(Config::default()),
            roots: RwLock::new(Vec::new()),
            caps: RwLock::new(ClientCaps::default()),
            publisher: Publisher::default(),
            shutdown_requested: AtomicBool::new(false),
            test_hooks,
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
        Snapshot { analysis: host.host.analysis(), versions: host.versions.clone(), encoding: self.encoding() }
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
        self.catch_up(&p.text_document.uri).await;
        let disturbance = crate::test_hooks::disturbance(self, &p.text_document.uri);
        self.with_analysis(move |snap| {
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
        let state = Arc::clone(self);
        let joined = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                let snap = state.snapshot();
                f(&snap)
            }))
        })
        .await;
        match joined {
            Ok(Ok(Ok(t))) => Ok(t),
            Ok(Ok(Err(_cancelled))) => Err(content_modified()),
            Ok(Err(panic)) => {
                let msg = panic_message(&*panic);
                tracing::error!("analysis panicked: {msg}");
                Err(Error {
                    code: ErrorCode::InternalError,
                    message: format!("internal error: {msg}").into(),
                    data: None,
                })
            }
            Err(e) => {
                tracing::error!("analysis task failed: {e}");
                Err(Error::internal_error())
            }
        }
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

    /// Brings the analysis up to the newest text of `uri` in the document store, so that a request sent after a
    /// burst of edits answers for the last one even when the edits' own updates have not reached the host yet.
    async fn catch_up(self: &Arc<Self>, uri: &Uri) {
        let Some(path) = uri_to_path(uri) else { return };
        let state = Arc::clone(self);
        let u = uri.clone();
        let behind = tokio::task::spawn_blocking(move || {
            let version = state.docs.version(&u);
            version.is_some() && state.lock_host().versions.get(&path) != version.as_ref()
        })
        .await
        .unwrap_or(false);
        if behind {
            self.sync_document(uri.clone()).await;
        }
    }

    /// Sends the latest text of an open document to the analysis (whichever edit task gets here first applies
    /// the newest text, so edits can never be applied out of order).
    pub async fn sync_document(self: &Arc<Self>, uri: Uri) {
        let Some(path) = uri_to_path(&uri) else { return };
        self.apply(move |state, host| {
            let mut change = Change::default();
            if let (Some(text), Some(version)) = (state.docs.text(&uri), state.docs.version(&uri)) {
                if host.versions.get(&path) == Some(&version) {
                    return change;
                }
                host.versions.insert(path.clone(), version);
                change.files.push((path, Ok(text)));
            }
            change
        })
        .await;
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
