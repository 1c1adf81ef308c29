//! Shared by the analysis benchmarks: the generated workspace they run on, loaded and fully analysed once.

use std::path::PathBuf;

use foreach_analysis::host::AnalysisHost;
use foreach_load::{LoadOptions, load};

/// `FOREACH_BENCH_WS` (default `/tmp/ws10`) loaded, with every diagnostic computed, and its root directory.
pub fn loaded_workspace() -> (PathBuf, AnalysisHost) {
    let root = PathBuf::from(std::env::var("FOREACH_BENCH_WS").unwrap_or_else(|_| "/tmp/ws10".into()));
    assert!(
        root.is_dir(),
        "{} is missing: python3 server/bench/gen-workspace.py {} --modules 500 --mb 10",
        root.display(),
        root.display()
    );
    let host = load(&LoadOptions::new(std::slice::from_ref(&root))).expect("the workspace loads").host;
    let _ = host.diagnostics();
    (root, host)
}
