//! Benchmark: reading a large state file into the analysis's bindings (`foreach_load::state::read_state`), the work
//! `check --state` adds before the analysis.
//!
//! `cargo bench -p foreach-load --bench state` on the state `server/bench/gen-state.py /tmp/bigstate` writes (50 MB,
//! 100,000 resource instances; another one with `FOREACH_BENCH_STATE=/path/to/state`). The allocation profiler
//! reports the largest amount allocated at once (`max alloc`): what decoding holds besides the file's bytes, which
//! `check` reads into memory first. The whole command's peak resident memory is measured with `/usr/bin/time`
//! (`docs/performance.md`).

use std::path::PathBuf;
use std::sync::OnceLock;

use divan::AllocProfiler;

#[global_allocator]
static ALLOC: AllocProfiler<mimalloc::MiMalloc> = AllocProfiler::new(mimalloc::MiMalloc);

fn main() {
    divan::main();
}

fn state_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let path =
            PathBuf::from(std::env::var("FOREACH_BENCH_STATE").unwrap_or_else(|_| "/tmp/bigstate/big.tfstate".into()));
        std::fs::read(&path).unwrap_or_else(|e| {
            panic!("{}: {e}; generate it with `python3 server/bench/gen-state.py /tmp/bigstate`", path.display())
        })
    })
}

/// Decoding the bytes already in memory.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn decode(bencher: divan::Bencher) {
    let bytes = state_bytes();
    bencher.counter(divan::counter::BytesCount::new(bytes.len())).bench(|| {
        let bindings = foreach_load::state::read_state(divan::black_box(bytes)).expect("the state reads");
        assert!(bindings.objects.len() >= 100_000 || std::env::var_os("FOREACH_BENCH_STATE").is_some());
        bindings
    });
}
