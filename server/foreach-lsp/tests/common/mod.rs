//! A minimal JSON-RPC client for in-process tests: the server runs on an in-memory duplex pipe, and the test
//! sends raw frames (so it can also send malformed ones) and reads responses and notifications.

#![allow(dead_code)] // Each test binary uses a different part of it.

use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

pub struct TestClient {
    writer: WriteHalf<DuplexStream>,
    incoming: mpsc::UnboundedReceiver<Value>,
    /// Messages read but not yet asked for.
    backlog: VecDeque<Value>,
    next_id: i64,
}

pub const TIMEOUT: Duration = Duration::from_secs(20);

impl TestClient {
    pub fn start() -> TestClient {
        TestClient::start_with(foreach_lsp::ServeOptions::default())
    }

    /// A server with the test hooks of `test_hooks.rs` on.
    pub fn start_with_hooks() -> TestClient {
        TestClient::start_with(foreach_lsp::ServeOptions { test_hooks: true })
    }

    fn start_with(options: foreach_lsp::ServeOptions) -> TestClient {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(foreach_lsp::serve_with(server_read, server_write, options));
        let (read, writer) = tokio::io::split(client_end);
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(read_loop(read, tx));
        TestClient { writer, incoming, backlog: VecDeque::new(), next_id: 1 }
    }

    pub async fn send_raw(&mut self, body: &str) {
        foreach_lsp::transport::write_frame(&mut self.writer, body.as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    pub async fn send(&mut self, msg: Value) {
        self.send_raw(&msg.to_string()).await;
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params})).await;
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub async fn request_full(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        self.wait_for(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none()).await
    }

    /// Sends a request and returns its result. A request that a change arriving meanwhile cancelled ("content
    /// modified", as the protocol asks the server to answer) is sent again, as editors do.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        const CONTENT_MODIFIED: i64 = -32801;
        let mut r = self.request_full(method, params.clone()).await;
        for _ in 0..20 {
            if r["error"]["code"].as_i64() != Some(CONTENT_MODIFIED) {
                break;
            }
            r = self.request_full(method, params.clone()).await;
        }
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// The next message matching `pred` (others are kept for later; server requests that don't match are answered
    /// with null).
    pub async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i).unwrap();
        }
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        loop {
            let msg = tokio::time::timeout_at(deadline, self.incoming.recv())
                .await
                .expect("timed out waiting for a message")
                .expect("server closed the connection");
            if pred(&msg) {
                // A server request asked for is answered by the caller (`respond`).
                return msg;
            }
            if msg.get("method").is_some() && msg.get("id").is_some() {
                // A request from the server (registerCapability, workDoneProgress/create): accept it.
                let id = msg["id"].clone();
                self.send(json!({"jsonrpc": "2.0", "id": id, "result": null})).await;
            }
            self.backlog.push_back(msg);
        }
    }

    /// The messages received so far that match `pred` and that no `wait_for` has taken (they stay queued).
    pub fn backlog_matching(&self, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        self.backlog.iter().filter(|m| pred(m)).cloned().collect()
    }

    /// Answers a request from the server.
    pub async fn respond(&mut self, request: &Value, result: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": result})).await;
    }

    /// The next `publishDiagnostics` for `uri` satisfying `pred`.
    pub async fn diagnostics_for(&mut self, uri: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let uri = uri.to_string();
        let msg = self
            .wait_for(|m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri.as_str()
                    && pred(m["params"]["diagnostics"].as_array().map(Vec::as_slice).unwrap_or(&[]))
            })
            .await;
        msg["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    pub async fn initialize(&mut self, root: Option<&Path>, capabilities: Value) -> Value {
        let root_uri = root.map(uri);
        let folders = root_uri.as_ref().map(|u| json!([{"uri": u, "name": "ws"}]));
        let r = self
            .request(
                "initialize",
                json!({"processId": null, "rootUri": root_uri, "workspaceFolders": folders, "capabilities": capabilities}),
            )
            .await;
        self.notify("initialized", json!({})).await;
        r
    }

    pub async fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 0, "text": text}}),
        )
        .await;
    }

    pub async fn shutdown(&mut self) {
        let r = self.request_full("shutdown", Value::Null).await;
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null).await;
    }
}

async fn read_loop(read: ReadHalf<DuplexStream>, tx: mpsc::UnboundedSender<Value>) {
    let mut reader = BufReader::new(read);
    while let Ok(Some(Ok(body))) = foreach_lsp::transport::read_frame(&mut reader).await {
        let Ok(v) = serde_json::from_slice::<Value>(&body) else { return };
        if tx.send(v).is_err() {
            return;
        }
    }
}

pub fn uri(path: &Path) -> String {
    tower_lsp_server::ls_types::Uri::from_file_path(path).unwrap().as_str().to_string()
}

/// A temporary workspace with the given files.
pub fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The canonical path of a temp dir (macOS `/var` vs `/private/var`).
pub fn canonical(dir: &tempfile::TempDir) -> std::path::PathBuf {
    dir.path().canonicalize().unwrap()
}
