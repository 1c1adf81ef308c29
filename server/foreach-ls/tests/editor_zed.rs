//! The Zed extension (`editors/zed`) builds for `wasm32-wasip2`, the target Zed compiles dev extensions for. It is
//! its own Cargo workspace, built here into `target/zed`. Skips when the target is not installed
//! (`rustup target add wasm32-wasip2`) or crates.io is unreachable (any other failure to fetch fails); loading it
//! into Zed is not tested.

mod tools;

use std::process::Command;

use tools::{repo, report, skip, target_dir};

const TEST: &str = "editor_zed";
const WASM_TARGET: &str = "wasm32-wasip2";

#[test]
fn zed_extension_builds_for_wasm() {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    if !installed.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == WASM_TARGET)) {
        return skip(
            TEST,
            &format!("the {WASM_TARGET} Rust target (rustup target add {WASM_TARGET}) is not installed"),
        );
    }
    let manifest = repo().join("editors/zed/Cargo.toml");
    let cargo = |args: &[&str]| {
        Command::new(env!("CARGO"))
            .args(args)
            .arg("--manifest-path")
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", target_dir().join("zed"))
            .output()
            .expect("cargo runs")
    };
    let fetch = cargo(&["fetch", "--locked"]);
    if !fetch.status.success() {
        // Only an unreachable registry is a missing tool; anything else (a lock file out of date with the manifest,
        // a version that does not exist) is a mistake of ours and must fail.
        let said = report(&fetch);
        let offline = [
            "Could not resolve host",
            "Couldn't resolve host",
            "Couldn't connect",
            "Connection refused",
            "Network is unreachable",
            "network failure",
            "failed to connect",
            "timed out",
            "SSL connect error",
        ]
        .iter()
        .any(|m| said.contains(m));
        assert!(offline, "cargo fetch of the Zed extension failed:\n{said}");
        return skip(TEST, &format!("zed_extension_api could not be fetched from crates.io: {said}"));
    }
    let build = cargo(&["build", "--quiet", "--locked", "--release", "--target", WASM_TARGET]);
    assert!(build.status.success(), "building the Zed extension failed:\n{}", report(&build));
    let wasm = target_dir().join("zed").join(WASM_TARGET).join("release/foreach_ls_zed.wasm");
    let bytes = std::fs::read(&wasm).unwrap_or_else(|e| panic!("{}: {e}", wasm.display()));
    assert!(bytes.starts_with(b"\0asm"), "{} is not WebAssembly", wasm.display());
}
