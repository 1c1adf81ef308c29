//! Benchmark: instance-key completion inside `aws.many["` for a provider configuration with 7,500 instances (the
//! case issue 15 measured at 266 ms when every key was built and sent). Keys are filtered by what is typed and at
//! most `MAX_KEY_ITEMS` items are built. Run with `cargo bench -p foreach-analysis --bench completion`.
//!
//! - `nothing_typed`: `aws.many["` — the first 100 keys in OpenTofu's order, the list marked incomplete.
//! - `prefix_typed`: `aws.many["k74` — the keys starting with `k74` first.
//!
//! Each iteration asks a fresh snapshot, as a client's request does; the instance keys are memoised by the
//! analysis (as in the server, where the diagnostics pass computed them), so this times the completion itself.

use foreach_analysis::{AnalysisHost, Change};
use foreach_ide::FilePosition;
use foreach_syntax::TextSize;

fn main() {
    divan::main();
}

const PATH: &str = "/bench/main.tf";

fn host_and_position(typed: &str) -> (AnalysisHost, FilePosition) {
    let text = format!(
        "provider \"aws\" {{\n  alias    = \"many\"\n  for_each = toset([for i in range(7500) : \"k${{i}}\"])\n  region   = each.key\n}}\n\nresource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.many[\"{typed}\n}}\n"
    );
    let offset = text.find(&format!("[\"{typed}")).unwrap() + 2 + typed.len();
    let mut host = AnalysisHost::new();
    host.apply_change(Change { files: vec![(PATH.to_string(), Ok(text.into()))], ..Change::default() });
    let analysis = foreach_ide::Analysis::of(&host);
    let file = analysis.file_id(PATH).unwrap().unwrap();
    let pos = FilePosition { file, offset: TextSize::from(offset as u32) };
    // Warm the memoised instance keys, as the diagnostics pass does in the server.
    let _ = host.diagnostics();
    (host, pos)
}

#[divan::bench]
fn nothing_typed(bencher: divan::Bencher) {
    let (host, pos) = host_and_position("");
    bencher.bench_local(|| {
        let list = foreach_ide::Analysis::of(&host).completion_list(pos).unwrap();
        assert!(list.is_incomplete);
        list
    });
}

#[divan::bench]
fn prefix_typed(bencher: divan::Bencher) {
    let (host, pos) = host_and_position("k74");
    bencher.bench_local(|| {
        let list = foreach_ide::Analysis::of(&host).completion_list(pos).unwrap();
        assert_eq!(list.items[0].label, "\"k74\"");
        list
    });
}
