//! Language-server benchmark on a generated workspace. Prints: time from `initialize` to the first diagnostics,
//! from `didOpen` to the document's first diagnostics (opened while the workspace is being indexed, as an editor
//! restores its files, and opened after), from `didOpen` while indexing to the first finding that needs evaluation
//! (in the generated root: `provider = aws.by_region["nope-1"]` appended; in another file a local with a missing
//! key), didChange -> publishDiagnostics latency after one-character edits and
//! after edits that add or remove a broken line at the end of the file (`broken_N =`, as typing a new attribute
//! does), hover and completion latency (p50/p99), and resident memory.
//!
//! python3 /work/shared/tools/gen-workspace.py /tmp/ws10 --modules 500 --mb 10
//! cargo bench -p foreach-lsp --bench lsp -- /tmp/ws10 [relative/file.tf]
//!
//! Latencies are measured at the client over an in-memory pipe, so they include JSON-RPC framing and transport:
//! an upper bound of the server-side time from didChange receipt to publishDiagnostics.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{TestClient, uri};
use serde_json::json;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `text` with copies of its `resource` blocks appended (each copy's name suffixed `_copyN`, its references left
/// pointing at the originals, so the copies are valid) until it has at least `lines` lines.
fn grow(text: &str, lines: usize) -> String {
    let source: Vec<&str> = text.lines().collect();
    let mut blocks: Vec<&[&str]> = Vec::new();
    let mut i = 0;
    while i < source.len() {
        if source[i].starts_with("resource \"")
            && let Some(len) = source[i..].iter().position(|l| *l == "}")
        {
            blocks.push(&source[i..=i + len]);
            i += len + 1;
        } else {
            i += 1;
        }
    }
    let mut out = text.to_string();
    let mut count = source.len();
    let mut copy = 0;
    while count < lines && !blocks.is_empty() {
        let block = blocks[copy % blocks.len()];
        let header = block[0].trim_end_matches(" {").trim_end_matches('"');
        out.push_str(&format!("\n{header}_copy{copy}\" {{\n"));
        for l in &block[1..] {
            out.push_str(l);
            out.push('\n');
        }
        count += block.len() + 1;
        copy += 1;
    }
    out
}

/// Where the benchmark types. In the generated workspace: the `s` of the first `local.common_tags`, flipped to `z`
/// and back (an undeclared local, then fine again). In any other file: a `z` typed after the `var.`/`local.`
/// reference nearest the middle of the file, then deleted again.
struct EditSite {
    flip: bool,
    /// The reference as it is in the file (`var.name`).
    reference: String,
    /// The reference as written, found in the diagnostic's message while it is broken.
    marker: String,
}

impl EditSite {
    fn find(text: &str) -> EditSite {
        if text.contains("local.common_tags") {
            return EditSite { flip: true, reference: "local.common_tags".into(), marker: "common_tagz".into() };
        }
        let middle = text.len() / 2;
        let reference = reference_near(text, middle).expect("the file has a `var.` or `local.` reference");
        let name = reference.split_once('.').map(|(_, n)| n).unwrap_or(&reference);
        EditSite { flip: false, marker: format!("{name}z"), reference: reference.clone() }
    }

    /// The line and column just after the edited character's position.
    fn position(&self, lines: &[&str]) -> (usize, usize) {
        let needle = self.reference.as_str();
        let middle = lines.len() / 2;
        let mut found: Vec<(usize, usize)> = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let mut from = 0;
            while let Some(at) = l[from..].find(needle) {
                let end = from + at + needle.len();
                let boundary = !l[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-');
                if boundary {
                    found.push((i, end));
                }
                from = end;
            }
        }
        let (line, end) = if self.flip {
            found[0]
        } else {
            *found.iter().min_by_key(|(i, _)| i.abs_diff(middle)).expect("the reference is in the file")
        };
        (line, if self.flip { end - 1 } else { end })
    }

    fn broken(&self, lines: &[&str], line: usize, col: usize) -> String {
        let mut t = String::new();
        for (i, l) in lines.iter().enumerate() {
            if i == line && self.flip {
                t.push_str(&format!("{}z{}", &l[..col], &l[col + 1..]));
            } else if i == line {
                t.push_str(&format!("{}z{}", &l[..col], &l[col..]));
            } else {
                t.push_str(l);
            }
            t.push('\n');
        }
        t
    }

    /// The content change that mends (`mends`) or breaks the reference again.
    fn change(&self, line: usize, col: usize, mends: bool) -> serde_json::Value {
        let at = |c: usize| json!({"line": line, "character": c});
        match (self.flip, mends) {
            (true, true) => json!({"range": {"start": at(col), "end": at(col + 1)}, "text": "s"}),
            (true, false) => json!({"range": {"start": at(col), "end": at(col + 1)}, "text": "z"}),
            (false, true) => json!({"range": {"start": at(col), "end": at(col + 1)}, "text": ""}),
            (false, false) => json!({"range": {"start": at(col), "end": at(col)}, "text": "z"}),
        }
    }
}

/// The `var.NAME` or `local.NAME` reference that starts nearest `offset`.
fn reference_near(text: &str, offset: usize) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for prefix in ["var.", "local."] {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix) {
            let start = from + at;
            let name_end = text[start + prefix.len()..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .map_or(text.len(), |e| start + prefix.len() + e);
            let preceded = text[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.');
            if name_end > start + prefix.len() && !preceded {
                let distance = start.abs_diff(offset);
                if best.as_ref().is_none_or(|(d, _)| distance < *d) {
                    best = Some((distance, text[start..name_end].to_string()));
                }
            }
            from = start + prefix.len();
        }
    }
    best.map(|(_, r)| r)
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let root = PathBuf::from(args.first().cloned().unwrap_or_else(|| "/tmp/ws10".into())).canonicalize().unwrap();
    let file = root.join(args.get(1).cloned().unwrap_or_else(|| "main.tf".into()));
    let text = std::fs::read_to_string(&file).expect("benchmark file");
    let edit = EditSite::find(&text);
    // The generated workspace's issue case is a 2,000-line file; its module files have about 1,000 lines, so the
    // opened document is grown to LSP_BENCH_LINES (default 2,000 there) with renamed copies of its resources. Real
    // files are opened as they are.
    let default_lines = if edit.flip { 2000 } else { 0 };
    let want_lines = std::env::var("LSP_BENCH_LINES").ok().and_then(|n| n.parse().ok()).unwrap_or(default_lines);
    let text = grow(&text, want_lines);
    let doc = uri(&file);

    // The document opened with its mistake right after `initialized`, while the workspace is being indexed: the
    // time until its first diagnostics that show the mistake (a server of its own, so that nothing is warm).
    let during_indexing = {
        let lines: Vec<&str> = text.lines().collect();
        let (line, col) = edit.position(&lines);
        let broken = edit.broken(&lines, line, col);
        let mut c = TestClient::start();
        c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
        let opened = Instant::now();
        c.open(&doc, &broken).await;
        c.diagnostics_for(&doc, |d| d.iter().any(|d| d["message"].as_str().is_some_and(|m| m.contains(&edit.marker))))
            .await;
        let elapsed = opened.elapsed();
        // The indexing goes on after the first diagnostics: let it end, or it would slow the next server's.
        c.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end").await;
        c.shutdown().await;
        elapsed
    };

    // The first finding that needs evaluation, in the generated root: a reference to a provider instance its
    // `.tfvars` does not give, appended to the document opened while the workspace is being indexed (a server of its
    // own). Directory-local findings published first do not count.
    // Anywhere else (a generated child module): a missing key in a local, which the module's instances evaluate
    // (the generated roots' `for_each` leave the children's variables unknown).
    let probe_line = text.lines().count() + 2;
    let probe = if text.contains("alias    = \"by_region\"") {
        Some((
            format!(
                "{text}\nresource \"aws_s3_bucket\" \"early_probe\" {{\n  provider = aws.by_region[\"nope-1\"]\n}}\n"
            ),
            "unknown-provider-instance",
        ))
    } else {
        Some((format!("{text}\nlocals {{\n  early_probe = {{ known = 1 }}[\"nope-1\"]\n}}\n"), "evaluation-error"))
    };
    let evaluation_during_indexing = if let Some((probe, code)) = probe {
        let mut c = TestClient::start();
        c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
        let opened = Instant::now();
        c.open(&doc, &probe).await;
        c.diagnostics_for(&doc, |d| {
            d.iter().any(|d| d["code"] == code && d["range"]["start"]["line"].as_u64() == Some(probe_line as u64))
        })
        .await;
        let elapsed = opened.elapsed();
        let before_index =
            c.backlog_matching(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end").is_empty();
        c.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end").await;
        c.shutdown().await;
        Some((elapsed, before_index))
    } else {
        None
    };

    let mut c = TestClient::start();
    let start = Instant::now();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    // The end of the indexing progress, then the first diagnostics of the document, opened with a mistake.
    c.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end").await;
    let indexed = start.elapsed();
    let lines: Vec<&str> = text.lines().collect();
    let (line, col) = edit.position(&lines);
    let broken = edit.broken(&lines, line, col);
    let opened = Instant::now();
    c.open(&doc, &broken).await;
    c.diagnostics_for(&doc, |d| d.iter().any(|d| d["message"].as_str().is_some_and(|m| m.contains(&edit.marker))))
        .await;
    let open_to_diagnostics = opened.elapsed();
    let first_diagnostics = start.elapsed();
    println!("workspace: {} ({} lines in {}, as opened)", root.display(), lines.len(), file.display());
    println!("initialize -> index done: {}", ms(indexed));
    println!("didOpen while indexing -> its first diagnostics: {}", ms(during_indexing));
    if let Some((elapsed, before_index)) = evaluation_during_indexing {
        let when = if before_index { "before the index was done" } else { "after the index was done" };
        println!("didOpen while indexing -> its first evaluation finding: {} ({when})", ms(elapsed));
    }
    println!("didOpen -> its first diagnostics: {}", ms(open_to_diagnostics));
    println!("initialize -> first diagnostics: {}", ms(first_diagnostics));

    // One-character edits that flip a diagnostic on and off.
    // LSP_BENCH_EDITS raises the count, e.g. to profile the edit path with `perf record`; LSP_BENCH_SAMPLES prints
    // every edit's latency.
    let edits: i32 = std::env::var("LSP_BENCH_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(60);
    let mut edit_samples = Vec::new();
    for v in 1..=edits {
        let mends = v % 2 == 1;
        let change = json!({
            "textDocument": {"uri": doc, "version": v},
            "contentChanges": [edit.change(line, col, mends)]
        });
        let t = Instant::now();
        c.notify("textDocument/didChange", change).await;
        let marker = edit.marker.clone();
        c.diagnostics_for(&doc, |d| {
            d.iter().any(|d| d["message"].as_str().is_some_and(|m| m.contains(&marker))) != mends
        })
        .await;
        edit_samples.push(t.elapsed());
    }
    if std::env::var_os("LSP_BENCH_SAMPLES").is_some() {
        // Each edit's latency in order (odd ones mend the reference, even ones break it): where a tail comes from.
        let each: Vec<String> = edit_samples.iter().map(|d| format!("{:.1}", d.as_secs_f64() * 1000.0)).collect();
        println!("didChange -> publishDiagnostics, each edit (ms): {}", each.join(" "));
    }
    let p50 = percentile(&mut edit_samples, 0.5);
    let p99 = percentile(&mut edit_samples, 0.99);
    println!("didChange -> publishDiagnostics: p50 {} p99 {} (n={})", ms(p50), ms(p99), edit_samples.len());

    // Typing a new attribute at the end of the file: each edit adds a line `broken_N =` (a syntax error until its
    // value is typed) or removes it again, so that the file's last item is broken, then mended.
    let mut broken_samples = Vec::new();
    let end_line = lines.len();
    for v in 1..=edits {
        let adds = v % 2 == 1;
        let at = |l: usize| json!({"line": l, "character": 0});
        let content = if adds {
            json!({"range": {"start": at(end_line), "end": at(end_line)}, "text": format!("broken_{v} =\n")})
        } else {
            json!({"range": {"start": at(end_line), "end": at(end_line + 1)}, "text": ""})
        };
        let change = json!({"textDocument": {"uri": doc, "version": edits + v}, "contentChanges": [content]});
        let t = Instant::now();
        c.notify("textDocument/didChange", change).await;
        c.diagnostics_for(&doc, |d| {
            d.iter().any(|d| d["code"] == "syntax-error" && d["range"]["start"]["line"] == end_line) == adds
        })
        .await;
        broken_samples.push(t.elapsed());
    }
    let p50 = percentile(&mut broken_samples, 0.5);
    let p99 = percentile(&mut broken_samples, 0.99);
    println!(
        "didChange -> publishDiagnostics, a broken line added or removed at the end: p50 {} p99 {} (n={})",
        ms(p50),
        ms(p99),
        broken_samples.len()
    );

    let mut hover = Vec::new();
    let mut completion = Vec::new();
    let at = json!({"textDocument": {"uri": doc}, "position": {"line": line, "character": col - 2}});
    for _ in 0..200 {
        let t = Instant::now();
        let h = c.request("textDocument/hover", at.clone()).await;
        hover.push(t.elapsed());
        assert!(!h.is_null());
        let t = Instant::now();
        c.request("textDocument/completion", at.clone()).await;
        completion.push(t.elapsed());
    }
    println!("hover: p50 {} p99 {}", ms(percentile(&mut hover, 0.5)), ms(percentile(&mut hover, 0.99)));
    println!("completion: p50 {} p99 {}", ms(percentile(&mut completion, 0.5)), ms(percentile(&mut completion, 0.99)));
    println!("resident memory (server and bench client): {:.0} MB", rss_mb());
    c.shutdown().await;
}
