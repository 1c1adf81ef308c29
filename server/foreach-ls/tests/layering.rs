//! The build enforces the layering of docs/architecture.md: which crate may depend on which, that no crate's modules
//! import each other in a ring of any length, and inside the analysis which modules are inputs, queries and checks.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/import_rings.rs"]
mod import_rings;
use import_rings::ImportGraph;

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

/// The workspace's crates in layer order, lowest first, with the crates of the workspace each may depend on
/// (normal dependencies; tests may use more). Every member must be listed.
const CRATE_LAYERS: &[(&str, &[&str])] = &[
    ("foreach-hcl-edit", &[]),
    ("foreach-syntax", &["foreach-hcl-edit"]),
    ("foreach-base", &["foreach-syntax"]),
    ("foreach-eval", &["foreach-syntax", "foreach-base"]),
    ("foreach-analysis", &["foreach-syntax", "foreach-base", "foreach-eval"]),
    ("foreach-ide", &["foreach-syntax", "foreach-base", "foreach-eval", "foreach-analysis"]),
    ("foreach-load", &["foreach-syntax", "foreach-analysis", "foreach-ide"]),
    ("foreach-lsp", &["foreach-syntax", "foreach-analysis", "foreach-ide", "foreach-load"]),
    ("foreach-ls", &["foreach-syntax", "foreach-analysis", "foreach-ide", "foreach-load", "foreach-lsp"]),
    // Test only: the fixture harness knows nothing of the analysis (tests hand it diagnostics as plain data); it
    // reads fixtures' files with the syntax layer's file kinds.
    ("foreach-fixture", &["foreach-syntax"]),
];

#[test]
fn each_crate_depends_only_on_the_crates_below_it() {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let members: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let listed: Vec<&str> = CRATE_LAYERS.iter().map(|(name, _)| *name).collect();
    let mut sorted_members = members.clone();
    sorted_members.sort_unstable();
    let mut sorted_listed = listed.clone();
    sorted_listed.sort_unstable();
    assert_eq!(sorted_members, sorted_listed, "CRATE_LAYERS must list exactly the workspace's crates");
    let mut wrong = Vec::new();
    for p in packages {
        let name = p["name"].as_str().unwrap();
        let allowed = CRATE_LAYERS.iter().find(|(n, _)| *n == name).map(|(_, a)| *a).unwrap_or_default();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let dep = d["name"].as_str().unwrap();
            let normal = d["kind"].is_null();
            if normal && members.contains(&dep) && !allowed.contains(&dep) {
                wrong.push(format!("{name} depends on {dep}"));
            }
        }
    }
    assert!(wrong.is_empty(), "dependencies against the layers of docs/architecture.md: {wrong:?}");
}

/// What the layers below the language server must never pull in, however indirectly.
#[test]
fn lower_crates_have_no_lsp_runtime_or_database_dependencies() {
    let editor = ["tower-lsp", "tower-lsp-server", "lsp-types", "ls-types", "tokio", "ropey", "dashmap"];
    for krate in ["foreach-analysis", "foreach-ide"] {
        let names = crate_names(&normal_deps(krate));
        for banned in editor {
            assert!(!names.iter().any(|n| n == banned), "{krate} depends on {banned}");
        }
    }
    for krate in ["foreach-syntax", "foreach-base", "foreach-eval"] {
        let names = crate_names(&normal_deps(krate));
        for banned in editor.iter().chain(&["salsa", "foreach-analysis"]) {
            assert!(!names.iter().any(|n| n == banned), "{krate} depends on {banned}");
        }
    }
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

/// The source directories of the workspace's crates (the hcl-edit fork is upstream's code, under upstream's rules).
fn crate_sources() -> Vec<(String, PathBuf)> {
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("server");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&server).expect("the server directory exists").flatten() {
        let src = entry.path().join("src");
        if entry.file_name() != "vendor" && src.is_dir() {
            out.push((entry.file_name().to_string_lossy().into_owned(), src));
        }
    }
    out.sort();
    out
}

/// Inside every crate, imports run one way: no ring of modules of any length (`docs/architecture.md`).
#[test]
fn no_crate_has_an_import_ring() {
    let crates = crate_sources();
    assert!(crates.iter().any(|(name, _)| name == "foreach-analysis"), "the crates were found: {crates:?}");
    let mut rings = Vec::new();
    for (name, src) in &crates {
        for ring in ImportGraph::read(src).rings() {
            rings.push(format!("{name}: {ring}"));
        }
    }
    assert!(
        rings.is_empty(),
        "modules that import each other in a ring (move what they share below them):\n{}",
        rings.join("\n")
    );
}

/// The ring check sees a ring of three written three ways (`use crate::`, `super::` and an inline path), names it in
/// import order, and is not fooled by a facade's re-exports, comments, strings or test modules.
#[test]
fn the_ring_check_finds_a_planted_ring() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let p = src.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("lib.rs", "mod a;\nmod b;\nmod c;\nmod base;\npub use a::Thing;\n");
    write("base.rs", "pub struct Id;\n// crate::a::Thing in a comment\nconst S: &str = \"crate::a::Thing\";\n");
    write("a.rs", "use crate::b::{Other, base_user};\npub struct Thing;\n");
    write("b/mod.rs", "use super::c::Third;\npub struct Other;\npub fn base_user(_: crate::base::Id) {}\n");
    write(
        "c.rs",
        "pub struct Third;\nfn f() -> crate::Thing { todo!() }\n#[cfg(test)]\nmod tests {\n    use crate::b::Other;\n}\n",
    );
    let graph = ImportGraph::read(src);
    let rings = graph.rings();
    assert_eq!(rings.len(), 1, "{rings:?}");
    assert_eq!(rings[0].cycle, ["a", "b", "c", "a"]);
    assert_eq!(rings[0].to_string(), "a -> b -> c -> a (a ring of 3: a, b, c)");

    // Break it at the bottom: `c` no longer reaches up into `a`.
    write("c.rs", "pub struct Third;\nfn f() -> crate::base::Id { todo!() }\n");
    assert!(ImportGraph::read(src).rings().is_empty());

    // A parent and its child that import each other are a ring too.
    write("b/mod.rs", "mod inner;\nuse inner::Deep;\npub struct Other;\npub fn base_user(_: crate::base::Id) {}\n");
    write("b/inner.rs", "pub struct Deep;\nuse super::Other;\n");
    let rings = ImportGraph::read(src).rings();
    assert_eq!(rings.iter().map(|r| r.cycle.clone()).collect::<Vec<_>>(), [["b", "b::inner", "b"]]);
}

/// The analysis crate's layers, lowest first: a module may import modules of its own layer or of a lower one, never
/// of a higher one (docs/architecture.md, "Inside the analysis"). Every module must be listed, so a new one is placed
/// on purpose. A `::*` entry covers a module and everything below it.
const ANALYSIS_LAYERS: &[(&str, &[&str])] = &[
    (
        "inputs and their types",
        &[
            "db",
            "settings",
            "source_text",
            "reparse",
            "paths",
            "model::*",
            "state",
            "state::address",
            "versions",
            "versions::constraint",
            "versions::features",
            "versions::releases",
            "versions::usage",
        ],
    ),
    ("quick-fix builders", &["fixes::*"]),
    (
        "queries",
        &[
            "chunks",
            "vars",
            "tree",
            "tree_model",
            "instance_scope",
            "init_values",
            "module_eval",
            "similar::*",
            "providers::config",
            "providers::reference",
            "providers::expand",
            "providers::unknown_instance",
            "providers::local_names",
            "providers::resolve",
            "state::queries",
            "state::declared",
            "versions::reading",
            "instances::*",
        ],
    ),
    (
        "checks",
        &[
            "checks",
            "refcheck",
            "module_outputs",
            "test_refs",
            "init_settings",
            "suppress",
            "tree_locations",
            "providers",
            "providers::checks",
            "providers::passing",
            "providers::not_inherited",
            "providers::missing_key",
            "providers::test_files",
            "state::checks",
            "state::too_similar",
            "versions::checks",
        ],
    ),
    ("the host and the commands", &["crate", "host", "inspect", "migrate::*", "diff::*"]),
];

fn analysis_layer(module: &str) -> Option<usize> {
    ANALYSIS_LAYERS.iter().position(|(_, modules)| {
        modules.iter().any(|m| match m.strip_suffix("::*") {
            Some(prefix) => module == prefix || module.starts_with(&format!("{prefix}::")),
            None => module == *m,
        })
    })
}

#[test]
fn the_analysis_imports_only_from_its_own_layer_or_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("server/foreach-analysis/src");
    let graph = ImportGraph::read(&src);
    let mut unplaced = Vec::new();
    let mut upward = Vec::new();
    for (module, imports) in &graph.imports {
        let name = import_rings::display(module);
        let Some(layer) = analysis_layer(&name) else {
            unplaced.push(name);
            continue;
        };
        for target in imports {
            let target = import_rings::display(target);
            if let Some(t) = analysis_layer(&target)
                && t > layer
            {
                upward
                    .push(format!("{name} ({}) imports {target} ({})", ANALYSIS_LAYERS[layer].0, ANALYSIS_LAYERS[t].0));
            }
        }
    }
    assert!(unplaced.is_empty(), "analysis modules in no layer of ANALYSIS_LAYERS: {unplaced:?}");
    assert!(upward.is_empty(), "imports that reach up a layer:\n{}", upward.join("\n"));
}
