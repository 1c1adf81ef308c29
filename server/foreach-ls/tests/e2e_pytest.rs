//! End-to-end: runs `editors/tests/lsp` with pytest-lsp, a client we did not write, against the `foreach-ls` binary
//! cargo built for this test, in a virtual environment under `target/`. When this machine cannot have Python or the
//! package (no `python3`, the package index unreachable), the test prints why and passes without running (the
//! in-process tests still cover the protocol); a failure of ours while installing fails it.
//!
//! It lives in this package, not beside the protocol tests in `foreach-lsp`, for `CARGO_BIN_EXE_foreach-ls`: building
//! the binary from a test of another package resolved the dependencies' features differently and compiled a second
//! copy of most of them, which filled CI's disk.

mod tools;

use std::path::Path;
use std::process::Command;

#[test]
fn pytest_lsp_drives_the_real_binary() {
    // Ready once the package imports, not only once its python runs.
    let ready = |bin: &Path| {
        Command::new(bin.join("python")).args(["-c", "import pytest_lsp"]).output().is_ok_and(|o| o.status.success())
    };
    let python = match tools::venv::python_venv(&tools::target_dir().join("lsp-e2e-venv"), &["pytest-lsp"], &ready) {
        Ok(bin) => bin.join("python"),
        Err(tools::venv::Unavailable(reason)) => return tools::skip("e2e_pytest", &reason),
    };
    let out = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "editors/tests/lsp"])
        .env("FOREACH_LS", tools::binary())
        .current_dir(tools::repo())
        .output()
        .expect("pytest runs");
    let report = tools::report(&out);
    println!("{report}");
    assert!(out.status.success(), "pytest-lsp e2e failed:\n{report}");
}
