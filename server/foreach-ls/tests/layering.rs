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

/// The sibling modules a module of `server/foreach-ide/src/` uses (`super::name::…`), tests excluded.
fn ide_imports() -> Vec<(String, Vec<String>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("server/foreach-ide/src");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the ide directory exists").flatten() {
        let path = entry.path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
        if path.extension().is_none_or(|e| e != "rs") || name == "lib" {
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

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `unsafe` is forbidden in the library crates and denied in the binary's package (Cargo.toml), where main.rs alone
/// allows it, to set one allocator option. A second `allow` anywhere else fails here, so that it is a decision of
/// its own and not a line slipped into a change.
#[test]
fn unsafe_code_is_allowed_only_in_main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root.join("server")).expect("the server directory exists").flatten() {
        // The hcl-edit fork is upstream's code, under upstream's own rules.
        if dir.file_name() != "vendor" && dir.path().is_dir() {
            rust_files(&dir.path(), &mut files);
        }
    }
    assert!(files.len() > 50, "the sources were found ({} files)", files.len());
    let allowing: Vec<String> = files
        .iter()
        .filter(|p| std::fs::read_to_string(p).unwrap_or_default().contains(concat!("allow(", "unsafe_code)")))
        .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
        .collect();
    assert_eq!(allowing, ["server/foreach-ls/src/main.rs"], "files that allow unsafe code");
}
