//! Test-only hooks of the commands that write files, on only with `FOREACH_LS_TEST_HOOKS=1` in the environment (as
//! the language server's, `docs/reliability.md`); editors and users never set it. They widen the moments a test must
//! hit: a file changed by someone else between the read and the rename, a kill between two renames.

use std::path::Path;
use std::time::{Duration, Instant};

/// A file whose text holds this marker makes the write wait before its last check: it creates `<file>.paused`
/// and waits (at most 30 s) until the test removes it.
pub const PAUSE_MARKER: &str = "__foreach_ls_test_pause_write__";

fn enabled() -> bool {
    std::env::var_os("FOREACH_LS_TEST_HOOKS").is_some_and(|v| v == "1")
}

/// `FOREACH_LS_TEST_WRITE_DELAY_MS`: how long each write step waits (a slow disk), to let a kill land between steps.
pub fn delay() {
    if !enabled() {
        return;
    }
    if let Some(ms) = std::env::var("FOREACH_LS_TEST_WRITE_DELAY_MS").ok().and_then(|v| v.parse::<u64>().ok()) {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// Runs right before a staged text is compared with its target and renamed over it.
pub fn before_commit(target: &Path) {
    if !enabled() {
        return;
    }
    delay();
    if !std::fs::read_to_string(target).is_ok_and(|t| t.contains(PAUSE_MARKER)) {
        return;
    }
    let mut flag = target.as_os_str().to_owned();
    flag.push(".paused");
    let flag = Path::new(&flag);
    if std::fs::write(flag, "").is_err() {
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while flag.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}
