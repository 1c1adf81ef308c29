//! The `foreach-ls` binary's library half: command-line parsing, loading a workspace from disk, rendering reports.

/// Entry point of the binary; returns the process exit code.
pub fn run() -> i32 {
    0
}
