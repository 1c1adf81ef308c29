//! The build enforces the layering of docs/architecture.md: the analysis core knows nothing of LSP, async
//! runtimes or editor buffers, and the syntax layer knows nothing of salsa.

use std::process::Command;

fn normal_deps(package: &str) -> String {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "-p", package, "-e", "normal", "--prefix", "none", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

fn crate_names(tree: &str) -> Vec<String> {
    tree.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect()
}

#[test]
fn analysis_has_no_lsp_or_runtime_dependencies() {
    let names = crate_names(&normal_deps("foreach-analysis"));
    for banned in ["tower-lsp", "tower-lsp-server", "lsp-types", "ls-types", "tokio", "ropey", "dashmap"] {
        assert!(!names.iter().any(|n| n == banned), "foreach-analysis depends on {banned}");
    }
}

#[test]
fn syntax_has_no_salsa() {
    let names = crate_names(&normal_deps("foreach-syntax"));
    assert!(!names.iter().any(|n| n == "salsa" || n == "foreach-analysis"), "foreach-syntax depends on salsa");
}
