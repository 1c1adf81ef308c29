//! When to publish diagnostics: the generation of changes not yet published and the debounce between them (see
//! `diagnostics.rs` for what is published). Kept apart from the publishing so that the server state can own a
//! publisher without depending on the code that computes diagnostics from that state.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use tower_lsp_server::ls_types::{self as lsp, Uri};

#[derive(Default)]
pub struct Publisher {
    generation: AtomicU64,
    pub(crate) notify: Notify,
    arrivals: Mutex<Arrivals>,
    /// What was last sent per file, so that only changed lists are sent again.
    pub(crate) published: tokio::sync::Mutex<HashMap<Uri, Vec<lsp::Diagnostic>>>,
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
    pub(crate) fn next(&self, debounce: Duration) -> (u64, Duration) {
        let arrivals = *self.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        (self.generation.load(Ordering::SeqCst), arrivals.wait(Instant::now(), debounce))
    }
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
