//! The stdio transport, hardened. tower-lsp-server stops reading after the first frame it cannot decode (invalid
//! JSON ends its input stream), so the server would die on one bad message. This layer sits between the real
//! streams and tower-lsp-server: it reads each frame itself, forwards the well-formed ones, and answers malformed
//! ones as JSON-RPC asks (`-32700` parse error, `-32600` invalid request, id `null` when unknown), writing the
//! answers between the server's own frames.
//!
//! It also owns the end of a session: `exit` after `shutdown`, or the client closing its end, ends [`serve`]; the
//! outcome says whether `shutdown` came first, which decides the process status (0, or 1 as the LSP `exit`
//! notification asks). Nothing is left running: the reader is aborted, and [`serve_stdio`] drops the runtime
//! without waiting for analyses still in flight.

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::{LspService, Server};

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use crate::Backend;
use crate::state::State;

/// Largest accepted frame (a 64 MB file opened in the editor, plus JSON escaping).
const MAX_FRAME: usize = 256 * 1024 * 1024;

/// How long requests still running may take to answer once the client has closed its end.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// How a session is served.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServeOptions {
    /// Enables the test-only hooks of `test_hooks.rs`. Never set in normal use.
    pub test_hooks: bool,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeOutcome {
    /// `shutdown` was received before `exit` (or before the input closed).
    pub shutdown_requested: bool,
}

/// Serves on `input`/`output` until the client sends `exit` or closes the input.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    serve_with(input, output, ServeOptions::default()).await;
}

/// [`serve`], with options, reporting how the session ended.
pub async fn serve_with<I, O>(input: I, output: O, options: ServeOptions) -> ServeOutcome
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    serve_session(input, output, options).await.0
}

/// [`serve_with`], also handing out the session's state, weakly: tests check that nothing keeps it alive.
async fn serve_session<I, O>(input: I, output: O, options: ServeOptions) -> (ServeOutcome, std::sync::Weak<State>)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (server_in, mut to_server) = tokio::io::duplex(1 << 16);
    let (mut from_server, server_out) = tokio::io::duplex(1 << 16);
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Vec<u8>>();

    let state_slot: Arc<OnceLock<Arc<State>>> = Arc::default();
    let slot = Arc::clone(&state_slot);
    let (service, socket) = LspService::build(move |client| {
        let state = Arc::new(State::with_test_hooks(client, options.test_hooks));
        let _ = slot.set(Arc::clone(&state));
        Backend::with_state(state)
    })
    .custom_method(crate::test_hooks::DOCUMENT_TEXT, Backend::document_text)
    .custom_method(crate::test_hooks::LENS_COMPUTATIONS, Backend::lens_computations)
    .finish();
    let server = tokio::spawn(Server::new(server_in, server_out, socket).serve(service));

    // Input: frames from the client; good ones go to the server, bad ones are answered here.
    let errors = out_tx.clone();
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        loop {
            match read_frame(&mut input).await {
                Ok(Some(Ok(body))) => match check(&body) {
                    Ok(()) => {
                        if write_frame(&mut to_server, &body).await.is_err() {
                            return;
                        }
                    }
                    Err(answer) => {
                        let _ = errors.send(answer.to_string().into_bytes());
                    }
                },
                Ok(Some(Err(bad_header))) => {
                    tracing::warn!("malformed frame header: {bad_header}");
                    let answer = error_response(Value::Null, -32700, "Parse error");
                    let _ = errors.send(answer.to_string().into_bytes());
                }
                Ok(None) => {
                    tracing::info!("the client closed the connection");
                    return;
                }
                Err(e) => {
                    tracing::warn!(
                        "the client's connection broke off in the middle of a message ({e}); ending the session"
                    );
                    return;
                }
            }
        }
    });

    // Output: the server's frames and our answers, whole frames only.
    let from_server_tx = out_tx;
    let pump = tokio::spawn(async move {
        let mut r = BufReader::new(&mut from_server);
        while let Ok(Some(Ok(body))) = read_frame(&mut r).await {
            if from_server_tx.send(body).is_err() {
                return;
            }
        }
    });
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(body) = out_rx.recv().await {
            if write_frame(&mut output, &body).await.is_err() || output.flush().await.is_err() {
                return;
            }
        }
    });
    // The session ends at `exit`, or when the client has gone away: then in-flight requests get a moment to
    // answer, and are dropped after it (an analysis still running must not keep the process alive).
    let mut server = server;
    let mut reader = reader;
    tokio::select! {
        _ = &mut server => reader.abort(),
        _ = async {
            let _ = (&mut reader).await;
            tokio::time::sleep(CLOSE_GRACE).await;
        } => server.abort(),
    }
    let _ = tokio::time::timeout(CLOSE_GRACE, pump).await;
    let _ = tokio::time::timeout(CLOSE_GRACE, writer).await;
    let state = state_slot.get();
    if let Some(state) = state {
        state.end_session();
    }
    let shutdown_requested = state.is_some_and(|s| s.shutdown_requested.load(Ordering::SeqCst));
    (ServeOutcome { shutdown_requested }, state.map(Arc::downgrade).unwrap_or_default())
}

/// Serves on a fresh multi-threaded runtime over stdin/stdout, logging to stderr. Returns the process status:
/// 0 after `shutdown`, 1 when the session ended without it (`exit` alone, or the client went away).
/// `FOREACH_LS_TEST_HOOKS=1` enables the test-only hooks (`docs/reliability.md`).
pub fn serve_stdio() -> i32 {
    // Our own crates at `info`, dependencies at `warn`: salsa logs every query execution at `info`, which would
    // flood the editor's log pane and cost time on every edit. `FOREACH_LS_LOG` (EnvFilter syntax) overrides.
    let filter = tracing_subscriber::EnvFilter::try_from_env("FOREACH_LS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,foreach_lsp=info,foreach_analysis=info"));
    let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).with_env_filter(filter).try_init();
    let options = ServeOptions { test_hooks: std::env::var_os("FOREACH_LS_TEST_HOOKS").is_some_and(|v| v == "1") };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("foreach-ls: cannot start the async runtime: {e}");
            return 101;
        }
    };
    let outcome = runtime.block_on(serve_with(tokio::io::stdin(), tokio::io::stdout(), options));
    // Blocking tasks (an analysis in flight, the thread blocked reading stdin) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    if outcome.shutdown_requested {
        0
    } else {
        tracing::info!("the session ended without `shutdown`");
        1
    }
}

/// A message tower-lsp-server can decode, or the error answer for it.
fn check(body: &[u8]) -> Result<(), Value> {
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return Err(error_response(Value::Null, -32700, "Parse error"));
    };
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let valid_id = matches!(id, Value::Null | Value::Number(_) | Value::String(_));
    let is_request = v.get("method").is_some_and(Value::is_string);
    let is_response = v.get("id").is_some() && (v.get("result").is_some() || v.get("error").is_some());
    if v.get("jsonrpc") == Some(&json!("2.0")) && valid_id && (is_request || is_response) {
        Ok(())
    } else {
        Err(error_response(if valid_id { id } else { Value::Null }, -32600, "Invalid request"))
    }
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Writes `body` as one frame (a `Content-Length` header, then the body); the caller flushes. Public for the test
/// and fuzzing clients, like [`read_frame`].
pub async fn write_frame<W: AsyncWrite + Unpin>(w: &mut W, body: &[u8]) -> std::io::Result<()> {
    w.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes()).await?;
    w.write_all(body).await
}

/// One frame: `Ok(None)` at the end of input, `Ok(Some(Err(_)))` for a frame whose headers are unusable (its
/// body, if any, cannot be delimited and the reader resynchronises at the next header block). Public for the
/// test and fuzzing clients, which read the server's frames the same way.
pub async fn read_frame<R: AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<Option<Result<Vec<u8>, String>>> {
    let mut len: Option<usize> = None;
    let mut bad: Option<String> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await? == 0 {
            if saw_header {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the input ended inside a message's headers",
                ));
            }
            return Ok(None);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                match value.trim().parse::<usize>() {
                    Ok(n) if n <= MAX_FRAME => len = Some(n),
                    _ => bad = Some(format!("invalid Content-Length `{}`", value.trim())),
                }
            }
        } else {
            bad = Some(format!("not a header: `{line}`"));
        }
    }
    if let Some(b) = bad {
        return Ok(Some(Err(b)));
    }
    let Some(len) = len else { return Ok(Some(Err("missing Content-Length".to_string()))) };
    let mut body = vec![0; len];
    let mut got = 0;
    while got < len {
        let n = r.read(&mut body[got..]).await?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("the input ended {got} bytes into a message of {len}"),
            ));
        }
        got += n;
    }
    Ok(Some(Ok(body)))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn send(to: &mut (impl AsyncWrite + Unpin), message: Value) {
        write_frame(to, message.to_string().as_bytes()).await.unwrap();
    }

    /// A session that ends leaves nothing running that holds its state: the diagnostics loop, which waits for
    /// changes forever, is stopped with it (it kept every session's database alive in a process serving many, such
    /// as the LSP fuzz target, which ran out of memory).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_ended_session_frees_its_state() {
        let (mut client_out, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_in) = tokio::io::duplex(1 << 16);
        let session = tokio::spawn(serve_session(server_in, server_out, ServeOptions::default()));
        // Every frame is read (so the server never blocks on a full pipe); the ids of responses are passed on.
        let (ids_tx, mut ids) = mpsc::unbounded_channel::<Value>();
        let drain = tokio::spawn(async move {
            let mut r = BufReader::new(client_in);
            while let Ok(Some(Ok(body))) = read_frame(&mut r).await {
                let message: Value = serde_json::from_slice(&body).unwrap();
                if message.get("method").is_none() {
                    let _ = ids_tx.send(message["id"].clone());
                }
            }
        });
        let uri = "file:///w/main.tf";
        send(
            &mut client_out,
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        )
        .await;
        while ids.recv().await.expect("the server answers initialize") != json!(1) {}
        send(&mut client_out, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})).await;
        let text = "variable \"regions\" {\n  default = [\"a\"]\n}\n";
        let open = json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": text}});
        send(&mut client_out, json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": open})).await;
        send(&mut client_out, json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null})).await;
        // As a client does: `exit` once `shutdown` is answered.
        while ids.recv().await.expect("the server answers shutdown") != json!(2) {}
        send(&mut client_out, json!({"jsonrpc": "2.0", "method": "exit", "params": null})).await;
        let (outcome, state) = tokio::time::timeout(std::time::Duration::from_secs(30), session)
            .await
            .expect("the session ends after exit")
            .unwrap();
        assert!(outcome.shutdown_requested);
        // Aborted tasks are dropped the next time the runtime looks at them: give it a moment, not forever.
        let freed = async {
            while state.upgrade().is_some() {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), freed)
            .await
            .expect("the state of the ended session is still alive: a background task outlived it");
        drop(client_out);
        let _ = drain.await;
    }
}
