//! The language server of foreach-ls: LSP 3.17 over stdio, on tower-lsp-server and tokio.
//!
//! It is the only crate that knows LSP types. Handlers convert positions and types and call `foreach-analysis`
//! once on a snapshot; every piece of OpenTofu knowledge stays in the analysis, so the editor shows exactly what
//! `foreach-ls check` reports. Nothing here writes files: edits are only proposed to the client.

pub mod backend;
pub mod config;
pub mod convert;
pub mod diagnostics;
pub mod documents;
pub mod handlers;
pub mod state;
pub mod workspace;

use tower_lsp_server::{LspService, Server};

pub use backend::Backend;

/// Serves LSP on stdin/stdout until the client sends `exit`. Returns the process exit code: 0 after a
/// `shutdown` request, 1 when `exit` came without one (as the specification asks).
pub fn serve_stdio() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("foreach-ls: cannot start the async runtime: {e}");
            return 101;
        }
    };
    runtime.block_on(async {
        let (service, socket) = LspService::new(Backend::new);
        Server::new(tokio::io::stdin(), tokio::io::stdout(), socket).serve(service).await;
    });
    // tower-lsp-server ends `serve` on `exit`; blocking tasks (an analysis in flight) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    0
}
