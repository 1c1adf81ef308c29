//! The LSP target: the bytes decode into a session (an encoding, a first text, then didChange / hover /
//! completion / symbols / definition requests with random ranges and text), which runs against a fresh in-process
//! server on a shared runtime. Every request must be answered, never with an internal error (a caught panic); the
//! session must end; and the server's text of the document (test-only `foreach-ls/documentText`) must equal the
//! reference model's.

use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

use super::model::{self, Encoding};

const URI: &str = "file:///fuzz/main.tf";
/// Pieces of OpenTofu for edits: random bytes alone rarely form the constructs the server reasons about.
const SNIPPETS: &[&str] = &[
    "provider \"aws\" {\n  alias = \"r\"\n  for_each = var.regions\n  region = each.value\n}\n",
    "resource \"aws_s3_bucket\" \"b\" {\n  for_each = var.regions\n  provider = aws.r[each.key]\n}\n",
    "variable \"regions\" {\n  default = [\"a\", \"b\"]\n}\n",
    "locals {\n  a = local.b\n  b = [for x in range(3) : x]\n}\n",
    "module \"m\" {\n  source = \"./m\"\n}\n",
    "${",
    "}",
    "{",
    "\"",
    "\n",
    "\r\n",
    "😀",
    "é",
    "each.",
    "var.",
    "local.",
    "aws.r[",
    "<<EOT\n",
    "EOT\n",
    " = ",
    "#",
];

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime")
    })
}

/// Reads the fuzz input as a stream of small decisions; past the end every decision is 0.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn text(&mut self) -> String {
        let n = self.byte() % 4;
        let mut s = String::new();
        for _ in 0..n {
            let b = self.byte();
            if b < 128 {
                s.push_str(SNIPPETS[b as usize % SNIPPETS.len()]);
            } else {
                s.push(char::from(b'!' + (b % 94)));
            }
        }
        s
    }
    /// A position: usually inside the text (mapped from an offset), sometimes past a line or the document.
    fn position(&mut self, text: &str, enc: Encoding) -> (u32, u32) {
        let kind = self.byte();
        let offset = (usize::from(self.byte()) << 8 | usize::from(self.byte())) % (text.len() + 1);
        let (line, col) = model::position(text, offset, enc);
        match kind % 8 {
            0 => (line, col + u32::from(self.byte())),
            1 => (line + u32::from(self.byte() % 4), col),
            2 => (u32::MAX, u32::MAX),
            _ => (line, col),
        }
    }
}

pub fn lsp(data: &[u8]) {
    let mut input = Bytes(&data[..data.len().min(4096)]);
    let fut = session(&mut input);
    runtime().block_on(async {
        tokio::time::timeout(Duration::from_secs(60), fut).await.expect("the session hung");
    });
}

fn at(line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
}

async fn session(input: &mut Bytes<'_>) {
    let utf8 = input.byte() % 2 == 0;
    let mut c = Client::start();
    let caps = if utf8 { json!({"general": {"positionEncodings": ["utf-8"]}}) } else { json!({}) };
    let init = c.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": caps})).await;
    let enc =
        if init["result"]["capabilities"]["positionEncoding"] == "utf-8" { Encoding::Utf8 } else { Encoding::Utf16 };
    c.notify("initialized", json!({})).await;
    let mut text = input.text();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "terraform", "version": 0, "text": text}}),
    )
    .await;
    let mut version = 0;
    let mut pending = Vec::new();
    while !input.is_empty() {
        let op = input.byte();
        match op % 10 {
            0..=4 => {
                let (sl, sc) = input.position(&text, enc);
                let (el, ec) = input.position(&text, enc);
                let new = input.text();
                model::apply(&mut text, [sl, sc, el, ec], &new, enc);
                version += 1;
                let range = json!({"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}});
                c.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"range": range, "text": new}]}),
                )
                .await;
            }
            5 => {
                text = input.text();
                version += 1;
                c.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
                )
                .await;
            }
            6 | 7 => {
                let (l, ch) = input.position(&text, enc);
                let method = if op % 10 == 6 { "textDocument/hover" } else { "textDocument/completion" };
                pending.push(c.send_request(method, at(l, ch)).await);
            }
            8 => {
                let (l, ch) = input.position(&text, enc);
                pending.push(c.send_request("textDocument/definition", at(l, ch)).await);
                let whole = json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": l, "character": ch}}});
                pending.push(c.send_request("textDocument/inlayHint", whole).await);
            }
            _ => {
                let p = json!({"textDocument": {"uri": URI}});
                pending.push(c.send_request("textDocument/documentSymbol", p).await);
            }
        }
    }
    for id in pending {
        let r = c.response(id).await;
        let code = r["error"]["code"].as_i64();
        // -32801 ContentModified: a newer edit cancelled the analysis, as it should.
        assert!(code.is_none() || code == Some(-32801), "request {id} failed: {r}");
    }
    // The edits may still be in flight: wait for the last version, then compare.
    let mut held = Value::Null;
    for _ in 0..500 {
        held = c.request(foreach_lsp::test_hooks::DOCUMENT_TEXT, json!({"textDocument": {"uri": URI}})).await;
        if held["result"]["version"] == version {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(held["result"]["version"], version, "{held}");
    assert_eq!(held["result"]["text"].as_str(), Some(text.as_str()), "the server's text differs from the model");
    let r = c.request("shutdown", Value::Null).await;
    assert!(r.get("error").is_none(), "{r}");
    c.notify("exit", Value::Null).await;
    let outcome = c.server.await.expect("the server task panicked");
    assert!(outcome.shutdown_requested);
}

/// A JSON-RPC client on an in-memory pipe to a fresh server.
pub struct Client {
    writer: WriteHalf<DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    backlog: Vec<Value>,
    next_id: i64,
    server: tokio::task::JoinHandle<foreach_lsp::ServeOutcome>,
}

impl Client {
    pub fn start() -> Client {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        let options = foreach_lsp::ServeOptions { test_hooks: true };
        let server = tokio::spawn(foreach_lsp::serve_with(server_read, server_write, options));
        let (read, writer) = tokio::io::split(client_end);
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(read_loop(read, tx));
        Client { writer, incoming, backlog: Vec::new(), next_id: 1, server }
    }

    async fn send(&mut self, msg: Value) {
        foreach_lsp::transport::write_frame(&mut self.writer, msg.to_string().as_bytes())
            .await
            .expect("server input closed");
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params})).await;
    }

    pub async fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        id
    }

    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.response(id).await
    }

    pub async fn response(&mut self, id: i64) -> Value {
        let is_it = |m: &Value| m.get("id") == Some(&json!(id)) && m.get("method").is_none();
        if let Some(i) = self.backlog.iter().position(is_it) {
            return self.backlog.swap_remove(i);
        }
        loop {
            let msg = self.incoming.recv().await.expect("the server closed the connection");
            if msg.get("method").is_some() && msg.get("id").is_some() {
                let reply = json!({"jsonrpc": "2.0", "id": msg["id"], "result": null});
                self.send(reply).await;
            } else if is_it(&msg) {
                return msg;
            } else if msg.get("id").is_some() {
                self.backlog.push(msg);
            }
        }
    }
}

async fn read_loop(read: ReadHalf<DuplexStream>, tx: mpsc::UnboundedSender<Value>) {
    let mut reader = BufReader::new(read);
    while let Ok(Some(Ok(body))) = foreach_lsp::transport::read_frame(&mut reader).await {
        let v: Value = serde_json::from_slice(&body).expect("the server sent invalid JSON");
        if tx.send(v).is_err() {
            return;
        }
    }
}
