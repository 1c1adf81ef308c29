//! Emacs in batch mode runs `editors/emacs/test/batch.el`: it loads the user snippet `editors/emacs/foreach-ls.el`,
//! opens a fixture with eglot, and checks the server's `unknown-provider-instance` error line (through flymake) and
//! the instance-key completion inside `aws.by_region[`. Needs `emacs` with eglot: Emacs 29+, or Debian bookworm's
//! Emacs 28 with its `elpa-eglot` package, which `.ci/run` installs. Skips (passing, with a `SKIPPED` line) when
//! neither is there.

mod tools;

use std::process::Command;

use tools::{binary, copy_dir, path_with_binary, repo, report, run_editor_script, skip};

const TEST: &str = "editor_emacs";

/// Runs `editors/emacs/test/eglot-setup.el`, which loads eglot the way `batch.el` does; `Err` with the reason when
/// Emacs or eglot is missing.
fn emacs_with_eglot() -> Result<(), String> {
    let out = Command::new("emacs")
        .args(["--batch", "-Q", "-l"])
        .arg(repo().join("editors/emacs/test/eglot-setup.el"))
        .output()
        .map_err(|e| format!("emacs is not installed ({e}); on Debian: apt-get install emacs-nox elpa-eglot"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("emacs has no eglot (on Debian bookworm: apt-get install elpa-eglot): {}", report(&out)))
    }
}

#[test]
fn emacs_eglot_shows_diagnostics_and_completes_instance_keys() {
    if let Err(reason) = emacs_with_eglot() {
        return skip(TEST, &reason);
    }
    assert!(binary().exists());
    let editors = repo().join("editors/emacs");
    let ws = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("editors/fixtures/multi-region"), ws.path());
    let home = tempfile::tempdir().unwrap();
    let report = run_editor_script(
        Command::new("emacs")
            .args(["--batch", "-Q", "-l"])
            .arg(editors.join("test/batch.el"))
            .arg(editors.join("foreach-ls.el"))
            .arg(ws.path().join("main.tf"))
            .env("PATH", path_with_binary())
            // Emacs may write state (eglot events, auto-saves) under HOME: keep it out of the user's.
            .env("HOME", home.path())
            .current_dir(ws.path()),
        "the batch-mode Emacs test",
    );
    assert!(report.contains("ok: completion"), "{report}");
    assert!(report.contains("[unknown-provider-instance]"), "{report}");
}
