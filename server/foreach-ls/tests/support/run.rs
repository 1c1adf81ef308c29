//! Running the real `foreach-ls` binary in a directory, the way the CLI tests do (`TF_WORKSPACE` of the
//! environment removed, so a developer's shell does not change what the tests see).

#![allow(dead_code)] // Each test binary uses a different part of it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `foreach-ls ARGS` run in `dir`, with `input` on standard input.
pub fn run_with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_foreach-ls"))
        .args(args)
        .current_dir(dir)
        .env_remove("TF_WORKSPACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().expect("stdin is piped").write_all(input).expect("stdin takes the input");
    child.wait_with_output().expect("binary runs")
}

/// `foreach-ls ARGS` run in `dir`, with nothing on standard input.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    run_with_stdin(dir, args, b"")
}
