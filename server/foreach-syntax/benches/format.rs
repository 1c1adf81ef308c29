//! Formatting latency and throughput (`docs/performance.md`): `format` on one large file (what an editor's
//! format-on-save waits for) and on every file of a generated 20 MB workspace (what `foreach-ls fmt --recursive`
//! does: on one thread, and on every core as the command runs it).
//!
//! Generate the workspaces first (`python3 /work/shared/tools/gen-workspace.py /tmp/ws --modules 1000 --mb 20`; the
//! large file is `/tmp/ws10/main.tf`), or point `FOREACH_BENCH_WS` / `FOREACH_BENCH_FILE` elsewhere; then
//! `cargo bench -p foreach-syntax --bench format`.

#[path = "support/load.rs"]
mod support;

use std::path::PathBuf;

use support::load;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use foreach_syntax::FileKind;
use foreach_syntax::format::format;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let file = std::env::var_os("FOREACH_BENCH_FILE").map_or_else(|| PathBuf::from("/tmp/ws10/main.tf"), PathBuf::from);
    match std::fs::read_to_string(&file) {
        Ok(text) => {
            eprintln!("{}: {} lines", file.display(), text.lines().count());
            let mut group = c.benchmark_group("format_file");
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function("format", |b| b.iter(|| std::hint::black_box(format(&text, FileKind::Tf).ok())));
            group.finish();
        }
        Err(e) => eprintln!("skipped format_file: {}: {e}", file.display()),
    }

    let dir = std::env::var_os("FOREACH_BENCH_WS").map_or_else(|| PathBuf::from("/tmp/ws"), PathBuf::from);
    let mut files = Vec::new();
    load(&dir, &mut files);
    if files.is_empty() {
        eprintln!("skipped format_workspace: no .tf files under {}", dir.display());
        return;
    }
    let bytes: usize = files.iter().map(String::len).sum();
    eprintln!("{} files, {:.1} MB", files.len(), bytes as f64 / 1e6);
    let mut group = c.benchmark_group("format_workspace");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function("format", |b| {
        b.iter(|| {
            for text in &files {
                std::hint::black_box(format(text, FileKind::Tf).ok());
            }
        })
    });
    // As `foreach-ls fmt` does it: files in parallel on every core.
    group.bench_function("format_parallel", |b| {
        use rayon::prelude::*;
        b.iter(|| files.par_iter().for_each(|text| drop(std::hint::black_box(format(text, FileKind::Tf).ok()))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
