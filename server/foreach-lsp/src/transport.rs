//! The stdio transport, hardened. tower-lsp-server stops reading after the first frame it cannot decode (invalid
//! JSON ends its input stream), so the server would die on one bad message. This layer sits between the real
//! streams and tower-lsp-server: it reads each frame itself, forwards the well-formed ones, and answers malformed
//! ones as JSON-RPC asks (`-32700` parse error, `-32600` invalid request, id `null` when unknown), writing the
//! answers between the server's own frames.

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::{LspService, Server};

use crate::Backend;

/// Largest accepted frame (a 64 MB file opened in the editor, plus JSON escaping).
const MAX_FRAME: usize = 256 * 1024 * 1024;

/// Serves on `input`/`output` until the client sends `exit` or closes the input.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (server_in, mut to_server) = tokio::io::duplex(1 << 16);
    let (mut from_server, server_out) = tokio::io::duplex(1 << 16);
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Vec<u8>>();

    let (service, socket) = LspService::new(Backend::new);
    let server = tokio::spawn(Server::new(server_in, server_out, socket).serve(service));

    // Input: frames from the client; good ones go to the server, bad ones are answered here.
    let errors = out_tx.clone();
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        loop {
            match read_frame(&mut input).await {
                Ok(Some(Ok(body))) => match check(&body) {
                    Ok(()) => {
                        let header = format!("Content-Length: {}\r\n\r\n", body.len());
                        if to_server.write_all(header.as_bytes()).await.is_err()
                            || to_server.write_all(&body).await.is_err()
                        {
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
                Ok(None) | Err(_) => return,
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
            let header = format!("Content-Length: {}\r\n\r\n", body.len());
            if output.write_all(header.as_bytes()).await.is_err()
                || output.write_all(&body).await.is_err()
                || output.flush().await.is_err()
            {
                return;
            }
        }
    });
    let _ = server.await;
    reader.abort();
    let _ = pump.await;
    let _ = writer.await;
}

/// Serves on a fresh multi-threaded runtime over stdin/stdout.
pub fn serve_stdio() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("foreach-ls: cannot start the async runtime: {e}");
            return 101;
        }
    };
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // Blocking tasks (an analysis in flight) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    0
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

/// One frame: `Ok(None)` at the end of input, `Ok(Some(Err(_)))` for a frame whose headers are unusable (its
/// body, if any, cannot be delimited and the reader resynchronises at the next header block).
async fn read_frame<R: AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<Option<Result<Vec<u8>, String>>> {
    let mut len: Option<usize> = None;
    let mut bad: Option<String> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await? == 0 {
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
    r.read_exact(&mut body).await?;
    Ok(Some(Ok(body)))
}
