//! A JSON-RPC client for the real `foreach-ls serve` process over stdio (the protocol and soak tests), with the
//! test-only hooks enabled (`FOREACH_LS_TEST_HOOKS=1`, `docs/reliability.md`).

#![allow(dead_code)] // Each test binary uses a different part of it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Server {
    pub child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    backlog: Vec<Value>,
    next_id: i64,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    pub fn start() -> Server {
        // `FOREACH_LS_TEST_BIN`: another build (a release one for figures, main's to show a test fails without a change).
        let bin = std::env::var_os("FOREACH_LS_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_foreach-ls").into());
        let mut child = Command::new(bin)
            .arg("serve")
            .env("FOREACH_LS_TEST_HOOKS", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a frame without Content-Length")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).expect("the server sent invalid JSON");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Server { child, stdin, incoming, backlog: Vec::new(), next_id: 1, stderr }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin closed");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, msg: &Value) {
        let body = msg.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The whole response (`result` or `error`) to a new request.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    pub fn response(&mut self, id: i64) -> Value {
        self.wait_for(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// The next message matching `pred`; server requests are answered with `null`.
    pub fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = match self.incoming.recv_timeout(left) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => panic!("timed out; stderr:\n{}", self.stderr()),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout; stderr:\n{}", self.stderr()),
            };
            if msg.get("method").is_some() && msg.get("id").is_some() {
                self.send(&json!({"jsonrpc": "2.0", "id": msg["id"], "result": null}));
            }
            if pred(&msg) {
                return msg;
            }
            // Keep responses; drop notifications (diagnostics, logs) so a long session does not pile them up.
            if msg.get("id").is_some() && msg.get("method").is_none() {
                self.backlog.push(msg);
            }
        }
    }

    /// The next message of any kind within `limit` (server requests answered with `null`), `None` on time-out.
    pub fn recv(&mut self, limit: Duration) -> Option<Value> {
        if !self.backlog.is_empty() {
            return Some(self.backlog.remove(0));
        }
        match self.incoming.recv_timeout(limit) {
            Ok(msg) => {
                if msg.get("method").is_some() && msg.get("id").is_some() {
                    self.send(&json!({"jsonrpc": "2.0", "id": msg["id"], "result": null}));
                }
                Some(msg)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout; stderr:\n{}", self.stderr()),
        }
    }

    pub fn initialize(&mut self) -> Value {
        let r = self.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
        assert!(r.get("error").is_none(), "{r}");
        self.notify("initialized", json!({}));
        r
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 0, "text": text}}),
        );
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; `None` if it is still running after `limit` (it is then killed).
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }

    /// Resident memory of the server process in KiB (`VmRSS`).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
