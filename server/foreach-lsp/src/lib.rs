//! The language server of foreach-ls: LSP 3.17 over stdio, on tower-lsp-server and tokio.
//!
//! It is the only crate that knows LSP types. Handlers convert positions and types and call `foreach-analysis`
//! once on a snapshot; every piece of OpenTofu knowledge stays in the analysis, so the editor shows exactly what
//! `foreach-ls check` reports. Nothing here writes files: edits are only proposed to the client. It sits on the IDE
//! features (`foreach-ide`) and the loader and must never depend on the binary (`foreach-ls`).

pub mod backend;
pub mod config;
pub mod convert;
pub mod diagnostics;
pub mod documents;
mod early;
pub mod file_events;
pub mod file_queue;
pub mod handlers;
pub mod publisher;
pub mod pull_config;
pub mod state;
pub mod state_files;
pub mod test_hooks;
pub mod transport;
pub mod watch;
pub mod workspace;

pub use backend::Backend;
pub use transport::{ServeOptions, ServeOutcome, serve, serve_stdio, serve_with};
