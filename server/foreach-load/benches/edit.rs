//! Benchmark: re-analysing a large workspace after a one-character edit, the work behind every
//! didChange -> publishDiagnostics of the language server, without the protocol around it.
//!
//! `cargo bench -p foreach-load --bench edit` on the shared generated workspace of 500 modules / 10 MB
//! (`python3 server/bench/gen-workspace.py /tmp/ws10 --modules 500 --mb 10`; another one with
//! `FOREACH_BENCH_WS=/path FOREACH_BENCH_FILE=relative/file.tf`, e.g. the dev corpus and
//! `terraform-aws-modules+terraform-aws-ecs/modules/service/main.tf`).
//!
//! - `edit_then_workspace_diagnostics`: the edit flips `local.common_tags` to `local.common_tagz` and back (in
//!   another file: a `z` after the reference nearest its middle), so every iteration changes a diagnostic, like
//!   the language-server benchmark;
//! - `edit_then_file_diagnostics`: the same edit, then only the edited file's diagnostics.

use std::sync::{Arc, Mutex, OnceLock};

use foreach_analysis::host::{AnalysisHost, Change};
use foreach_load::path_string;

#[path = "support/workspace.rs"]
mod support;

use support::loaded_workspace;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

struct Edited {
    host: AnalysisHost,
    path: String,
    texts: [Arc<str>; 2],
    flip: usize,
}

fn workspace() -> &'static Mutex<Edited> {
    static WS: OnceLock<Mutex<Edited>> = OnceLock::new();
    WS.get_or_init(|| {
        let (root, host) = loaded_workspace();
        let file = std::env::var("FOREACH_BENCH_FILE").unwrap_or_else(|_| "modules/m00485/main.tf".into());
        let path = path_string(&root.join(&file).canonicalize().expect("the edited file exists"));
        let good = std::fs::read_to_string(&path).expect("the edited file reads");
        let bad = misspelt(&good);
        Mutex::new(Edited { host, path, texts: [Arc::from(good), Arc::from(bad)], flip: 0 })
    })
}

/// The text with one reference misspelt: `local.common_tags` -> `local.common_tagz` in the generated workspace, else
/// a `z` appended to the `var.`/`local.` reference nearest the middle of the file (a real file of the corpus).
fn misspelt(good: &str) -> String {
    if let Some(at) = good.find("local.common_tags") {
        let at = at + 16;
        return format!("{}z{}", &good[..at], &good[at + 1..]);
    }
    let middle = good.len() / 2;
    let start = ["var.", "local."]
        .iter()
        .flat_map(|p| good.match_indices(p).map(move |(i, _)| i + p.len()))
        .min_by_key(|i| i.abs_diff(middle))
        .expect("the edited file has a var. or local. reference");
    let end = start + good[start..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).unwrap_or(0);
    format!("{}z{}", &good[..end], &good[end..])
}

fn edit(ws: &mut Edited) {
    ws.flip ^= 1;
    let text = ws.texts[ws.flip].clone();
    ws.host.apply_change(Change { files: vec![(ws.path.clone(), Ok(text.into()))], ..Change::default() });
}

#[divan::bench(sample_count = 60, sample_size = 1)]
fn edit_then_workspace_diagnostics(b: divan::Bencher) {
    let mut ws = workspace().lock().unwrap();
    b.bench_local(|| {
        edit(&mut ws);
        ws.host.diagnostics().len()
    });
}

#[divan::bench(sample_count = 60, sample_size = 1)]
fn edit_then_file_diagnostics(b: divan::Bencher) {
    let mut ws = workspace().lock().unwrap();
    b.bench_local(|| {
        edit(&mut ws);
        let analysis = foreach_ide::Analysis::of(&ws.host);
        let file = analysis.file_id(&ws.path).unwrap().unwrap();
        analysis.file_diagnostics(file).unwrap().len()
    });
}
