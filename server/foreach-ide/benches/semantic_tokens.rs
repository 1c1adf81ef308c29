//! Benchmark: the semantic tokens of one big file, `/tmp/ws10/main.tf` (5,853 lines, made by
//! `python3 server/bench/gen-workspace.py`; `FOREACH_BENCH_FILE` names another). The file is parsed once, as the
//! server's memoised parse has it when the editor asks; `big_file` times the walk and the gap lexer,
//! `big_file_with_parse` adds the parse.
//! Run with `cargo bench -p foreach-analysis --bench semantic_tokens`.

use foreach_ide::semantic_tokens_of;
use foreach_syntax::FileKind;

fn main() {
    divan::main();
}

#[divan::bench]
fn big_file(bencher: divan::Bencher) {
    let path = std::env::var("FOREACH_BENCH_FILE").unwrap_or_else(|_| "/tmp/ws10/main.tf".to_string());
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {path} is missing (generate it with server/bench/gen-workspace.py)");
        return;
    };
    let parsed = foreach_syntax::parse(&text, FileKind::Tf);
    let count = semantic_tokens_of(&text, &parsed.body).len();
    eprintln!("{path}: {} lines, {count} tokens", text.lines().count());
    bencher.bench_local(|| semantic_tokens_of(&text, &parsed.body).len());
}

/// The same with the parse included, as after an edit that dropped the memoised tree.
#[divan::bench]
fn big_file_with_parse(bencher: divan::Bencher) {
    let path = std::env::var("FOREACH_BENCH_FILE").unwrap_or_else(|_| "/tmp/ws10/main.tf".to_string());
    let Ok(text) = std::fs::read_to_string(&path) else { return };
    bencher.bench_local(|| semantic_tokens_of(&text, &foreach_syntax::parse(&text, FileKind::Tf).body).len());
}
