//! Benchmark: renaming a module's variable in the generated workspace of 500 modules (its declaration, its
//! references and the argument in the root's module call), on an analysed snapshot, as the language server
//! answers `textDocument/rename`.
//!
//! `cargo bench -p foreach-load --bench rename` (the workspace: `python3 server/bench/gen-workspace.py /tmp/ws10
//! --modules 500 --mb 10`; another with `FOREACH_BENCH_WS=/path`).

use std::sync::{Mutex, OnceLock};

use foreach_analysis::host::AnalysisHost;
use foreach_ide::FilePosition;
use foreach_load::path_string;
use foreach_syntax::TextSize;

#[path = "support/workspace.rs"]
mod support;

use support::loaded_workspace;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

fn workspace() -> &'static Mutex<(AnalysisHost, FilePosition)> {
    static WS: OnceLock<Mutex<(AnalysisHost, FilePosition)>> = OnceLock::new();
    WS.get_or_init(|| {
        let (root, host) = loaded_workspace();
        let path = path_string(&root.join("modules/m00485/main.tf").canonicalize().expect("the module exists"));
        let text = std::fs::read_to_string(&path).expect("the module reads");
        let at = text.find("variable \"name_prefix\"").expect("the generated module declares name_prefix") + 11;
        let file = foreach_ide::Analysis::of(&host).file_id(&path).unwrap().expect("the module is loaded");
        Mutex::new((host, FilePosition { file, offset: TextSize::from(at as u32) }))
    })
}

#[divan::bench(sample_count = 50)]
fn rename_a_module_variable(bencher: divan::Bencher) {
    let ws = workspace().lock().unwrap();
    let (host, pos) = &*ws;
    let analysis = foreach_ide::Analysis::of(host);
    bencher.bench_local(|| {
        let edits = analysis.rename(*pos, "prefix_of_names").unwrap().expect("renamable");
        assert!(edits.len() >= 3, "{edits:?}");
        edits
    });
}
