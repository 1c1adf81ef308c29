//! The queue of files changed on disk that `file_events.rs` has not applied yet, kept apart from it so that the
//! server state can own the queue without depending on the code that applies it (as with `publisher.rs`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use tower_lsp_server::ls_types::Uri;

/// The events not yet applied, newest per path.
#[derive(Default)]
pub struct Queue {
    pub(crate) inner: Mutex<Pending>,
}

#[derive(Default)]
pub struct Pending {
    /// Path -> (whether it was deleted, the event's URI).
    pub(crate) events: HashMap<String, (bool, Uri)>,
    /// When the first and the newest of them arrived.
    pub(crate) first: Option<Instant>,
    pub(crate) last: Option<Instant>,
    /// Whether a drain task is running.
    pub(crate) draining: bool,
}
