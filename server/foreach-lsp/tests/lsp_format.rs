//! `textDocument/formatting` and `textDocument/rangeFormatting` end to end: the real server on an in-memory pipe.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::{Value, json};

/// Applies LSP text edits (UTF-16 positions) to `text`.
fn apply(text: &str, edits: &Value) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let offset = |pos: &Value| -> usize {
        let line = pos["line"].as_u64().unwrap() as usize;
        let mut units = pos["character"].as_u64().unwrap() as usize;
        let start: usize = lines[..line].iter().map(|l| l.len()).sum();
        let mut at = start;
        for c in lines.get(line).copied().unwrap_or_default().chars() {
            if units == 0 {
                break;
            }
            units -= c.len_utf16();
            at += c.len_utf8();
        }
        at
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap().to_owned()))
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (start, end, new) in edits {
        out.replace_range(start..end, &new);
    }
    out
}

const UGLY: &str = "locals {\ne = \"😀\" # 😀\n  long_name=1\n}\n\nresource aws_instance \"x\" {\nami=\"a\"\n}\n";
const PRETTY: &str =
    "locals {\n  e         = \"😀\" # 😀\n  long_name = 1\n}\n\nresource \"aws_instance\" \"x\" {\n  ami = \"a\"\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formatting_and_range_formatting() {
    let ws = workspace(&[("main.tf", UGLY)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    let init = c.initialize(Some(&root), json!({})).await;
    assert_eq!(init["capabilities"]["documentFormattingProvider"], true);
    assert_eq!(init["capabilities"]["documentRangeFormattingProvider"], true);
    c.open(&main, UGLY).await;
    let options = json!({"tabSize": 2, "insertSpaces": true});

    let edits = c.request("textDocument/formatting", json!({"textDocument": {"uri": main}, "options": options})).await;
    assert_eq!(apply(UGLY, &edits), PRETTY);
    // Small edits, not the whole text: one per changed line.
    assert_eq!(edits.as_array().unwrap().len(), 4, "{edits}");

    // A range inside the resource formats the resource only.
    let range = json!({"start": {"line": 6, "character": 1}, "end": {"line": 6, "character": 2}});
    let edits = c
        .request(
            "textDocument/rangeFormatting",
            json!({"textDocument": {"uri": main}, "range": range, "options": options}),
        )
        .await;
    let expected =
        UGLY.replace("resource aws_instance \"x\" {\nami=\"a\"", "resource \"aws_instance\" \"x\" {\n  ami = \"a\"");
    assert_eq!(apply(UGLY, &edits), expected);

    // A syntax error: no edits (the file is left alone, as `tofu fmt` leaves it).
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main, "version": 1}, "contentChanges": [{"text": "a = [\n"}]}),
    )
    .await;
    let edits = c.request("textDocument/formatting", json!({"textDocument": {"uri": main}, "options": options})).await;
    assert!(edits.is_null() || edits.as_array().is_some_and(Vec::is_empty), "{edits}");
    c.shutdown().await;
}
