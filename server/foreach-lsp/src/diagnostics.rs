//! Pushing diagnostics: after each change the whole workspace's diagnostics are computed from a snapshot (salsa
//! re-runs only what the change touched), grouped by file, and published for every file whose list changed,
//! including files that are not open and files whose problems were fixed (an empty list clears them). Open
//! documents' lists carry the version they were computed for.
//!
//! When to publish: a change that follows a quiet moment (no other change within the debounce time) is published
//! at once, so a single keystroke is answered as fast as the analysis allows; a burst of changes (typing, a
//! search-and-replace, a branch switch) waits for `debounceMs` of quiet (at most 50 ms) and is published once. A
//! change arriving while diagnostics are being computed cancels that computation (salsa), so starting at once
//! never delays the newer change.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use foreach_analysis::Cancellable;
use tokio::sync::Notify;
use tower_lsp_server::ls_types::{self as lsp, Uri};

use crate::config::Config;
use crate::convert::{Files, path_to_uri, uri_to_path};
use crate::state::{Snapshot, State};

#[derive(Default)]
pub struct Publisher {
    generation: AtomicU64,
    notify: Notify,
    arrivals: Mutex<Arrivals>,
    published: tokio::sync::Mutex<HashMap<Uri, Vec<lsp::Diagnostic>>>,
}

/// When the two newest changes arrived.
#[derive(Default, Clone, Copy)]
struct Arrivals {
    newest: Option<Instant>,
    before: Option<Instant>,
}

impl Arrivals {
    /// How long to wait before publishing, at `now`: nothing after a lone change; until `debounce` has passed
    /// since the newest change while changes come in a burst.
    fn wait(&self, now: Instant, debounce: Duration) -> Duration {
        let (Some(newest), Some(before)) = (self.newest, self.before) else { return Duration::ZERO };
        if newest.saturating_duration_since(before) >= debounce {
            return Duration::ZERO;
        }
        (newest + debounce).saturating_duration_since(now)
    }
}

/// One file's diagnostics, ready to send.
pub struct FileDiagnostics {
    pub uri: Uri,
    pub version: Option<i32>,
    pub items: Vec<lsp::Diagnostic>,
}

impl Publisher {
    /// Asks for diagnostics to be recomputed (at once after a quiet moment, else once the changes stop).
    pub fn schedule(&self) {
        {
            let mut arrivals = self.arrivals.lock().unwrap_or_else(|e| e.into_inner());
            arrivals.before = arrivals.newest.replace(Instant::now());
        }
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_one();
    }

    /// The generation to publish and how long to wait first.
    fn next(&self, debounce: Duration) -> (u64, Duration) {
        let arrivals = *self.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        (self.generation.load(Ordering::SeqCst), arrivals.wait(Instant::now(), debounce))
    }
}

/// The publishing loop; runs for the server's lifetime.
pub async fn run(state: Arc<State>) {
    let mut done = 0;
    loop {
        state.publisher.notify.notified().await;
        let generation = loop {
            let (generation, wait) = state.publisher.next(state.config().debounce());
            if wait.is_zero() {
                break generation;
            }
            tokio::time::sleep(wait).await;
        };
        // A wake-up left by a change that the previous round already covered.
        if generation == done {
            continue;
        }
        if state.config().pull_diagnostics && state.caps().pull_diagnostics {
            let _ = state.client.workspace_diagnostic_refresh().await;
            done = generation;
            continue;
        }
        if publish_once(&state).await {
            done = generation;
        }
    }
}

/// Computes and sends; false when a newer change cancelled the computation (that change has scheduled another
/// round).
async fn publish_once(state: &Arc<State>) -> bool {
    let config = state.config();
    let Ok((all, versions)) =
        state.with_analysis(move |snap| Ok((compute(snap, &config)?, snap.versions.clone()))).await
    else {
        return false;
    };
    let mut published = state.publisher.published.lock().await;
    let mut fresh: HashMap<Uri, Vec<lsp::Diagnostic>> = HashMap::new();
    for fd in all {
        if published.get(&fd.uri) != Some(&fd.items) {
            state.client.publish_diagnostics(fd.uri.clone(), fd.items.clone(), fd.version).await;
        }
        fresh.insert(fd.uri, fd.items);
    }
    for uri in published.keys() {
        if !fresh.contains_key(uri) {
            let version = uri_to_path(uri).and_then(|p| versions.get(&p).copied());
            state.client.publish_diagnostics(uri.clone(), Vec::new(), version).await;
        }
    }
    *published = fresh;
    true
}

/// Every file's diagnostics in LSP form, with severity overrides applied.
/// Only files in listed directories (see [`crate::state::Host::listed_dirs`]); nothing before the first indexing.
pub fn compute(snap: &Snapshot, config: &Config) -> Cancellable<Vec<FileDiagnostics>> {
    let Some(listed) = &snap.listed_dirs else { return Ok(Vec::new()) };
    let diags = snap.analysis.diagnostics()?;
    let files = Files { analysis: &snap.analysis, encoding: snap.encoding };
    let mut out: Vec<FileDiagnostics> = Vec::new();
    let mut i = 0;
    while i < diags.len() {
        let file = diags[i].location.file;
        let end = diags[i..].iter().position(|d| d.location.file != file).map_or(diags.len(), |n| i + n);
        let group = &diags[i..end];
        i = end;
        let Some(path) = snap.analysis.file_path(file)? else { continue };
        if !path.rsplit_once('/').is_some_and(|(dir, _)| listed.contains(dir)) {
            continue;
        }
        let Some(uri) = path_to_uri(&path) else { continue };
        let Some(index) = snap.analysis.line_index(file)? else { continue };
        let mut items = Vec::new();
        for d in group {
            let Some(severity) = config.severity_for(d.code.as_str(), d.severity) else { continue };
            let mut item = files.diagnostic(&index, d)?;
            item.severity = Some(crate::convert::severity(severity));
            items.push(item);
        }
        if !items.is_empty() {
            out.push(FileDiagnostics { uri, version: snap.versions.get(&path).copied(), items });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEBOUNCE: Duration = Duration::from_millis(5);

    fn at(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    #[test]
    fn a_first_change_is_published_at_once() {
        let t0 = Instant::now();
        let arrivals = Arrivals { newest: Some(t0), before: None };
        assert_eq!(arrivals.wait(t0, DEBOUNCE), Duration::ZERO);
    }

    #[test]
    fn a_change_after_a_quiet_moment_is_published_at_once() {
        let t0 = Instant::now();
        let arrivals = Arrivals { newest: Some(at(t0, 400)), before: Some(t0) };
        assert_eq!(arrivals.wait(at(t0, 400), DEBOUNCE), Duration::ZERO);
    }

    #[test]
    fn a_burst_waits_for_quiet_after_its_newest_change() {
        let t0 = Instant::now();
        let arrivals = Arrivals { newest: Some(at(t0, 2)), before: Some(t0) };
        assert_eq!(arrivals.wait(at(t0, 3), DEBOUNCE), Duration::from_millis(4));
        assert_eq!(arrivals.wait(at(t0, 7), DEBOUNCE), Duration::ZERO);
        assert_eq!(arrivals.wait(at(t0, 30), DEBOUNCE), Duration::ZERO);
    }

    #[test]
    fn the_debounce_setting_decides_what_is_a_burst() {
        let t0 = Instant::now();
        let arrivals = Arrivals { newest: Some(at(t0, 20)), before: Some(t0) };
        assert_eq!(arrivals.wait(at(t0, 20), DEBOUNCE), Duration::ZERO);
        assert_eq!(arrivals.wait(at(t0, 20), Duration::from_millis(50)), Duration::from_millis(50));
    }
}
