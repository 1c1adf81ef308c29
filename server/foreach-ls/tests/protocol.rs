//! Protocol robustness of the real `foreach-ls serve` process over stdio: how a session ends (exit statuses, a
//! client that disappears), crash isolation, cancellation, bad messages and an edit burst. Crash isolation and
//! cancellation use the test-only hooks (`FOREACH_LS_TEST_HOOKS=1`, `docs/reliability.md`).

#[path = "support/stdio.rs"]
mod stdio;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stdio::Server;

const DOC: &str = "file:///protocol-test/main.tf";

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

fn hover_text(s: &mut Server, uri: &str, line: u32, character: u32) -> String {
    let r = s.request("textDocument/hover", at(uri, line, character));
    assert!(r.get("error").is_none(), "{r}");
    r["result"]["contents"]["value"].as_str().unwrap_or_default().to_string()
}

#[test]
fn exit_after_shutdown_is_status_zero() {
    let mut s = Server::start();
    s.initialize();
    let r = s.request("shutdown", Value::Null);
    assert!(r.get("error").is_none(), "{r}");
    // After shutdown every request is refused as invalid (LSP), and the process keeps waiting for `exit`.
    let r = s.request("textDocument/hover", at(DOC, 0, 0));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    s.notify("exit", Value::Null);
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(0));
}

#[test]
fn exit_without_shutdown_is_status_one() {
    let mut s = Server::start();
    s.initialize();
    s.notify("exit", Value::Null);
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(1));
}

/// A client that disappears: the process ends by itself, promptly, with nothing left running.
#[test]
fn closed_stdin_ends_the_process() {
    let mut s = Server::start();
    s.initialize();
    s.open(DOC, "locals {\n  a = 1\n}\n");
    s.request("textDocument/hover", at(DOC, 1, 3));
    let start = Instant::now();
    s.close_stdin();
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(1), "{}", s.stderr());
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?} to exit", start.elapsed());

    // After `shutdown`, losing the client is a clean end.
    let mut s = Server::start();
    s.initialize();
    let r = s.request("shutdown", Value::Null);
    assert!(r.get("error").is_none());
    s.close_stdin();
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(0), "{}", s.stderr());

    // Before `initialize`, too, and while a slow analysis is still running.
    let mut s = Server::start();
    s.close_stdin();
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(1));
    let mut s = Server::start();
    s.initialize();
    s.open(DOC, "# __foreach_ls_test_slow__\nlocals {\n  a = 1\n}\n");
    s.send_request("textDocument/hover", at(DOC, 2, 3));
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    s.close_stdin();
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(1));
    assert!(start.elapsed() < Duration::from_secs(3), "waited for the analysis: {:?}", start.elapsed());
}

#[test]
fn a_panic_in_one_request_is_isolated() {
    let mut s = Server::start();
    s.initialize();
    let bad = "file:///protocol-test/bad/main.tf";
    s.open(bad, "# __foreach_ls_test_panic__\nlocals {\n  a = 1\n  b = local.a\n}\n");
    s.open(DOC, "locals {\n  a = \"fine\"\n  b = local.a\n}\n");
    let r = s.request("textDocument/hover", at(bad, 3, 9));
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("forced panic"), "{r}");
    // Other requests, other documents and later edits of the same document all still work.
    assert!(hover_text(&mut s, DOC, 2, 9).contains("\"fine\""));
    let r = s.request("textDocument/completion", at(bad, 3, 9));
    assert_eq!(r["error"]["code"], -32603, "{r}");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": bad, "version": 1}, "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": ""}]}),
    );
    let mut text = String::new();
    for _ in 0..100 {
        text = hover_text(&mut s, bad, 2, 9);
        if !text.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(text.contains('1'), "{text}");
    // Logged with tracing, on stderr.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !s.stderr().contains("analysis panicked") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(s.stderr().contains("analysis panicked: test hook: forced panic"), "{}", s.stderr());
    s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
    assert_eq!(s.wait_exit(Duration::from_secs(10)), Some(0));
}

#[test]
fn a_slow_request_can_be_cancelled() {
    let mut s = Server::start();
    s.initialize();
    let slow = "file:///protocol-test/slow/main.tf";
    s.open(slow, "# __foreach_ls_test_slow__\nlocals {\n  a = 1\n}\n");
    s.open(DOC, "locals {\n  a = \"fine\"\n  b = local.a\n}\n");
    let start = Instant::now();
    let id = s.send_request("textDocument/hover", at(slow, 2, 3));
    std::thread::sleep(Duration::from_millis(100));
    s.notify("$/cancelRequest", json!({"id": id}));
    let r = s.response(id);
    assert_eq!(r["error"]["code"], -32800, "{r}");
    assert!(start.elapsed() < Duration::from_secs(4), "the cancellation waited for the request");
    // The server answers other requests meanwhile.
    assert!(hover_text(&mut s, DOC, 2, 9).contains("\"fine\""));
}

#[test]
fn bad_messages_are_answered_and_the_session_goes_on() {
    let mut s = Server::start();
    // Before initialize: ServerNotInitialized.
    let r = s.request("textDocument/hover", at(DOC, 0, 0));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    s.initialize();
    // Malformed JSON, a JSON value that is no message, a bad header and a bad Content-Length.
    s.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let r = s.wait_for(|m| m["error"]["code"] == -32700);
    assert!(r["id"].is_null());
    s.send_raw(b"Content-Length: 7\r\n\r\n[1,2,3]");
    s.wait_for(|m| m["error"]["code"] == -32600);
    s.send_raw(b"Content-Length: lots\r\n\r\n");
    s.wait_for(|m| m["error"]["code"] == -32700);
    // Wrong types in params: invalid params for a request, ignored for a notification.
    let r = s.request("textDocument/hover", json!({"textDocument": {"uri": 5}, "position": "here"}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    s.notify("textDocument/didOpen", json!({"textDocument": {"uri": DOC, "version": "one", "text": 7}}));
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": DOC}, "contentChanges": "x"}));
    let r = s.request("workspace/symbol", json!({"query": 3}));
    assert!(r.get("error").is_some(), "{r}");
    // Still serving.
    s.open(DOC, "locals {\n  a = \"ok\"\n  b = local.a\n}\n");
    assert!(hover_text(&mut s, DOC, 2, 9).contains("\"ok\""));
}

/// 100 incremental edits in a burst, each depending on the one before: the hover after them sees the final text.
#[test]
fn a_hover_after_a_burst_of_a_hundred_edits_sees_the_final_text() {
    let mut s = Server::start();
    s.initialize();
    s.open(DOC, "locals {\n  s = \"\"\n  t = local.s\n}\n");
    let mut expected = String::new();
    for i in 0..100u32 {
        let ch = char::from(b'a' + (i % 26) as u8);
        let col = 7 + i;
        let range = json!({"start": {"line": 1, "character": col}, "end": {"line": 1, "character": col}});
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": DOC, "version": i + 1}, "contentChanges": [{"range": range, "text": ch.to_string()}]}),
        );
        expected.push(ch);
    }
    // The first hover after the burst answers for the final text (or ContentModified, if an edit's own update
    // lands while it runs; then the next one), never for an older text.
    let mut seen = Value::Null;
    for _ in 0..20 {
        seen = s.request("textDocument/hover", at(DOC, 2, 13));
        if seen["error"]["code"] != -32801 {
            break;
        }
    }
    let seen = seen["result"]["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(seen.contains(&format!("\"{expected}\"")), "{seen}");
    let held = s.request("foreach-ls/documentText", json!({"textDocument": {"uri": DOC}}));
    assert_eq!(held["result"]["version"], 100);
    assert_eq!(held["result"]["text"], format!("locals {{\n  s = \"{expected}\"\n  t = local.s\n}}\n"));
}
