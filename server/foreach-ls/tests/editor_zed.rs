//! The Zed extension (`editors/zed`) builds for `wasm32-wasip2`, the target Zed compiles dev extensions for. It is
//! its own Cargo workspace, built here into `target/zed`. Skips when the target is not installed
//! (`rustup target add wasm32-wasip2`) or crates.io is unreachable; loading it into Zed is not tested.

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
        return skip(TEST, &format!("zed_extension_api could not be fetched from crates.io: {}", report(&fetch)));
    }
    let build = cargo(&["build", "--quiet", "--locked", "--release", "--target", WASM_TARGET]);
    assert!(build.status.success(), "building the Zed extension failed:\n{}", report(&build));
    let wasm = target_dir().join("zed").join(WASM_TARGET).join("release/foreach_ls_zed.wasm");
    let bytes = std::fs::read(&wasm).unwrap_or_else(|e| panic!("{}: {e}", wasm.display()));
    assert!(bytes.starts_with(b"\0asm"), "{} is not WebAssembly", wasm.display());
}
