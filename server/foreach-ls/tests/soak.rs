//! Soak: 10,000 random edits into one running `foreach-ls serve` over stdio, with a hover every 250 edits. After
//! every 1,000 the server's text of the document (test-only `foreach-ls/documentText`) must equal the reference
//! model's, and its resident memory must stay within `LEAK_ALLOWANCE_KIB` of the figure after warm-up (the first
//! 2,000 edits).
//! Bounded at 60 s. `cargo test --test soak -- --nocapture` prints the figures (docs/reliability.md).

#[path = "../../fuzz/src/model.rs"]
#[allow(dead_code)]
mod model;
#[path = "support/stdio.rs"]
mod stdio;

use std::time::{Duration, Instant};

use model::Encoding;
use serde_json::json;
use stdio::Server;

const DOC: &str = "file:///soak/main.tf";
const EDITS: u32 = 10_000;
const WARM_UP: u32 = 2_000;
/// Resident memory keeps creeping up by a few MiB after warm-up without any leak: the allocator's pages fragment and
/// the growth slows down (measured: +5.7 MiB by 10,000 edits at worst, +9.7 MiB by 40,000), so a relative bound of
/// 20% of a ~25 MiB process failed at random. A leak is linear in the edits: 16 MiB over the 8,000 edits after
/// warm-up catches anything that keeps 2 KiB per edit, an eighth of the document.
const LEAK_ALLOWANCE_KIB: u64 = 16 * 1024;
const SNIPPETS: &[&str] = &[
    "provider \"aws\" {\n  alias    = \"r\"\n  for_each = toset(var.regions)\n  region   = each.value\n}\n",
    "resource \"aws_s3_bucket\" \"b\" {\n  for_each = toset(var.regions)\n  provider = aws.r[each.key]\n}\n",
    "variable \"regions\" {\n  default = [\"eu-west-1\", \"us-east-1\"]\n}\n",
    "locals {\n  a = [for x in range(10) : x * 2]\n}\n",
    "local.a",
    "var.regions",
    "\"😀\"",
    "é",
    "{",
    "}",
    "\n",
    "x",
    " = ",
];

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn ten_thousand_edits_keep_the_text_and_the_memory() {
    let start = Instant::now();
    let mut s = Server::start();
    s.initialize();
    let mut text = SNIPPETS[..4].concat();
    s.open(DOC, &text);
    let mut rng = Rng(0x5eed_f00d_dead_beef);
    let enc = Encoding::Utf16;
    let mut baseline = None;
    let mut samples = Vec::new();
    for version in 1..=EDITS {
        let a = rng.below(text.len() + 1);
        // Keep the document between a few hundred bytes and about 16 KB: delete more when it is long.
        let span = if text.len() > 16_000 { rng.below(2_000) } else { rng.below(12) };
        let (sl, sc) = model::position(&text, a, enc);
        let (el, ec) = model::position(&text, a + span, enc);
        let new = if text.len() > 16_000 { "" } else { SNIPPETS[rng.below(SNIPPETS.len())] };
        model::apply(&mut text, [sl, sc, el, ec], new, enc);
        let range = json!({"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}});
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": DOC, "version": version}, "contentChanges": [{"range": range, "text": new}]}),
        );
        if version % 250 == 0 {
            let (l, c) = model::position(&text, rng.below(text.len() + 1), enc);
            let id = s.send_request(
                "textDocument/hover",
                json!({"textDocument": {"uri": DOC}, "position": {"line": l, "character": c}}),
            );
            let r = s.response(id);
            let code = r["error"]["code"].as_i64();
            assert!(code.is_none() || code == Some(-32801), "hover failed after edit {version}: {r}");
        }
        if version % 1_000 == 0 {
            let held = s.request("foreach-ls/documentText", json!({"textDocument": {"uri": DOC}}));
            assert_eq!(held["result"]["version"], version, "{held}");
            assert_eq!(held["result"]["text"].as_str(), Some(text.as_str()), "text differs after edit {version}");
            let rss = s.rss_kib();
            samples.push((version, rss, text.len()));
            if version == WARM_UP {
                baseline = Some(rss);
            }
            if let Some(b) = baseline {
                assert!(
                    rss <= b + LEAK_ALLOWANCE_KIB,
                    "RSS grew from {b} KiB to {rss} KiB by edit {version}: {samples:?}"
                );
            }
        }
    }
    let elapsed = start.elapsed();
    for (v, rss, len) in &samples {
        eprintln!("after {v:>5} edits: RSS {:>7.1} MiB, document {len} bytes", *rss as f64 / 1024.0);
    }
    eprintln!("{EDITS} edits in {:.1} s", elapsed.as_secs_f64());
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
    s.request("shutdown", serde_json::Value::Null);
    s.notify("exit", serde_json::Value::Null);
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(0));
}
