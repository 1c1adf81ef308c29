//! The build enforces the layering of docs/architecture.md: the analysis core knows nothing of LSP, async
//! runtimes or editor buffers, the syntax layer knows nothing of salsa, and no two IDE modules import each other.

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

/// The sibling modules a module of `server/foreach-analysis/src/ide/` uses (`super::name::…`), tests excluded.
fn ide_imports() -> Vec<(String, Vec<String>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("server/foreach-analysis/src/ide");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the ide directory exists").flatten() {
        let path = entry.path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
        if path.extension().is_none_or(|e| e != "rs") || name == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
        let mut uses: Vec<String> = Vec::new();
        for (at, _) in code.match_indices("super::") {
            let rest = &code[at + "super::".len()..];
            let module: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if rest[module.len()..].starts_with("::") && module != "super" && !uses.contains(&module) {
                uses.push(module);
            }
        }
        out.push((name, uses));
    }
    out
}

#[test]
fn ide_modules_do_not_import_each_other() {
    let imports = ide_imports();
    assert!(imports.iter().any(|(m, _)| m == "hover"), "the ide modules were found");
    let uses = |a: &str, b: &str| imports.iter().any(|(m, u)| m == a && u.iter().any(|x| x == b));
    let mut cycles = Vec::new();
    for (a, used) in &imports {
        for b in used {
            if a < b && uses(b, a) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "ide modules that import each other (move what both need to a third module): {cycles:?}"
    );
}
