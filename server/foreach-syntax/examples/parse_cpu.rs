//! Parse throughput measured in CPU time of the measuring thread, best of 7 rounds: our `parse` against raw
//! hcl-edit `parse_body`. Wall-clock benchmarks (`benches/parse.rs`) swing with the load of a shared machine;
//! on-CPU time much less, which keeps the ratio between the two meaningful there.
//!
//! `python3 /work/shared/tools/gen-workspace.py /tmp/ws --modules 1000 --mb 20`, then
//! `cargo run --release -p foreach-syntax --example parse_cpu [DIR]` (Linux only: reads `/proc/thread-self/schedstat`).

use std::path::{Path, PathBuf};

/// Nanoseconds this thread has spent on a CPU.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

fn load(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            load(&path, out);
        } else if path.extension().is_some_and(|e| e == "tf") {
            out.extend(std::fs::read_to_string(&path).ok());
        }
    }
}

/// The best CPU time of `rounds` runs of `f`.
fn best(rounds: usize, mut f: impl FnMut()) -> Option<u64> {
    let mut best = u64::MAX;
    for _ in 0..rounds {
        let start = cpu_ns()?;
        f();
        best = best.min(cpu_ns()?.saturating_sub(start));
    }
    Some(best.max(1))
}

fn main() {
    let dir = std::env::args().nth(1).map_or_else(|| PathBuf::from("/tmp/ws"), PathBuf::from);
    let mut files = Vec::new();
    load(&dir, &mut files);
    if files.is_empty() {
        eprintln!("no .tf files under {}", dir.display());
        return;
    }
    let mb = files.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    let raw = best(7, || {
        for text in &files {
            std::hint::black_box(hcl_edit::parser::parse_body(text).ok());
        }
    });
    let ours = best(7, || {
        for text in &files {
            std::hint::black_box(foreach_syntax::parse(text, foreach_syntax::FileKind::Tf));
        }
    });
    let (Some(raw), Some(ours)) = (raw, ours) else {
        eprintln!("cannot read /proc/thread-self/schedstat");
        return;
    };
    let rate = |ns: u64| mb / (ns as f64 / 1e9);
    println!(
        "{} files, {mb:.1} MB: hcl-edit parse_body {:.1} MB/s, foreach-syntax parse {:.1} MB/s, ratio {:.2}",
        files.len(),
        rate(raw),
        rate(ours),
        ours as f64 / raw as f64
    );
}
