//! Benchmark: renaming a module's variable in the generated workspace of 500 modules (its declaration, its
//! references and the argument in the root's module call), on an analysed snapshot, as the language server
//! answers `textDocument/rename`.
//!
//! `cargo bench -p foreach-load --bench rename` (the workspace: `python3 server/bench/gen-workspace.py /tmp/ws10
//! --modules 500 --mb 10`; another with `FOREACH_BENCH_WS=/path`).

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use foreach_analysis::host::AnalysisHost;
use foreach_analysis::ide::FilePosition;
use foreach_load::{LoadOptions, load, path_string};
use foreach_syntax::TextSize;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

fn workspace() -> &'static Mutex<(AnalysisHost, FilePosition)> {
    static WS: OnceLock<Mutex<(AnalysisHost, FilePosition)>> = OnceLock::new();
    WS.get_or_init(|| {
        let root = PathBuf::from(std::env::var("FOREACH_BENCH_WS").unwrap_or_else(|_| "/tmp/ws10".into()));
        assert!(
            root.is_dir(),
            "{} is missing: python3 server/bench/gen-workspace.py {} --modules 500 --mb 10",
            root.display(),
            root.display()
        );
        let loaded = load(&LoadOptions::new(std::slice::from_ref(&root))).expect("the workspace loads");
        let host = loaded.host;
        let _ = host.diagnostics();
        let path = path_string(&root.join("modules/m00485/main.tf").canonicalize().expect("the module exists"));
        let text = std::fs::read_to_string(&path).expect("the module reads");
        let at = text.find("variable \"name_prefix\"").expect("the generated module declares name_prefix") + 11;
        let file = host.analysis().file_id(&path).unwrap().expect("the module is loaded");
        Mutex::new((host, FilePosition { file, offset: TextSize::from(at as u32) }))
    })
}

#[divan::bench(sample_count = 50)]
fn rename_a_module_variable(bencher: divan::Bencher) {
    let ws = workspace().lock().unwrap();
    let (host, pos) = &*ws;
    let analysis = host.analysis();
    bencher.bench_local(|| {
        let edits = analysis.rename(*pos, "prefix_of_names").unwrap().expect("renamable");
        assert!(edits.len() >= 3, "{edits:?}");
        edits
    });
}
