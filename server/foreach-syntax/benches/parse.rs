//! Parse throughput (MB/s) on a generated workspace: our `parse` against raw hcl-edit `parse_body_spanned` (what
//! `parse` calls) on the same files, so the cost of conversion (and of the fast-path checks) stays visible.
//!
//! Generate the workspace first, or point `FOREACH_BENCH_WS` at another directory:
//! `python3 /work/shared/tools/gen-workspace.py /tmp/ws --modules 1000 --mb 20`
//! then `cargo bench -p foreach-syntax --bench parse`.

#[path = "support/load.rs"]
mod support;

use std::path::PathBuf;

use support::load;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use foreach_syntax::{FileKind, parse};

fn bench(c: &mut Criterion) {
    let dir = std::env::var_os("FOREACH_BENCH_WS").map_or_else(|| PathBuf::from("/tmp/ws"), PathBuf::from);
    let mut files = Vec::new();
    load(&dir, &mut files);
    if files.is_empty() {
        eprintln!("skipped: no .tf files under {} (run gen-workspace.py or set FOREACH_BENCH_WS)", dir.display());
        return;
    }
    let bytes: usize = files.iter().map(String::len).sum();
    eprintln!("{} files, {:.1} MB", files.len(), bytes as f64 / 1e6);

    let mut group = c.benchmark_group("parse_workspace");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function("hcl_edit_parse_body", |b| {
        b.iter(|| {
            for text in &files {
                std::hint::black_box(hcl_edit::parser::parse_body_spanned(text).ok());
            }
        })
    });
    group.bench_function("foreach_syntax_parse", |b| {
        b.iter(|| {
            for text in &files {
                std::hint::black_box(parse(text, FileKind::Tf));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
