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

/// `foreach-ls ARGS` run in `dir` with standard output a pipe whose reader is gone before the command writes (as
/// after `| head -1` has read its line): its status and what it wrote on standard error. The reader is closed right
/// after the start, long before the command has read and analysed anything (`std::io::pipe`, which would close it
/// before, is newer than the project's minimum Rust).
pub fn run_with_closed_stdout(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_foreach-ls"))
        .args(args)
        .current_dir(dir)
        .env_remove("TF_WORKSPACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("binary runs");
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}
