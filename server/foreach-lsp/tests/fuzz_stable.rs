//! The fuzz targets of `server/fuzz` on stable, bounded: every corpus file and every crasher found so far
//! (`server/fuzz/corpus/<target>/`, `server/fuzz/regressions/<target>/`), then a few thousand proptest cases per
//! target built from OpenTofu tokens (random bytes rarely reach the interesting paths). Long runs use cargo-fuzz
//! (`docs/reliability.md`). A failure here is a bug in the code under test or a broken invariant of the target.

#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

use std::path::PathBuf;

use proptest::prelude::*;

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// Runs `target` on every file of its corpus and regression directories; returns how many there were.
fn replay(name: &str, target: fn(&[u8])) -> usize {
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir().join(dir).join(name)) else { continue };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            eprintln!("replaying {}", p.display());
            target(&data);
            n += 1;
        }
    }
    n
}

#[test]
fn corpora_and_crashers_replay() {
    for (name, target) in [
        ("syntax", targets::syntax as fn(&[u8])),
        ("eval", targets::eval),
        ("similar", targets::similar),
        ("lsp", targets::lsp),
    ] {
        assert!(replay(name, target) > 0, "no corpus for `{name}`");
    }
}

/// OpenTofu source made of tokens that matter to the parser and evaluator, with some noise.
fn hcl() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => prop::sample::select(vec![
            "a", "b", "x", "var.regions", "local.m", "local.l", "local.self", "each.key", "each.value", "aws.r",
            "1", "1.5e3", "-", "!", "+", "*", "/", "%", "==", "&&", "||", "?", ":", "=", "=>", "...", ".", ",",
            "[", "]", "(", ")", "{", "}", "\"", "${", "%{", "~}", "\n", " ", "\\", "for", "in", "if", "endfor",
            "endif", "null", "true", "<<EOT\n", "\nEOT\n", "<<-EOT\n", "#", "//", "/*", "*/", "[*]", ".*",
            "range(", "setproduct(", "toset(", "file(\"a.txt\")", "templatefile(\"t.tpl\", {x = 2})",
            "jsondecode(file(\"j.json\"))", "format(\"%s\", ", "upper(", "keys(", "lookup(", "try(", "can(",
            "resource \"r\" \"n\" {\n", "provider \"aws\" {\n", "locals {\n", "variable \"v\" {\n",
            "😀", "é", "\r\n", "\t", "\0",
        ]).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, max_shrink_iters: 2_000, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(3000))]
    #[test]
    fn syntax(src in hcl()) {
        targets::syntax(src.as_bytes());
    }

    #[test]
    fn eval(src in hcl()) {
        targets::eval(src.as_bytes());
    }

    #[test]
    fn similar(a in hcl(), b in hcl()) {
        targets::similar(format!("{a}\0{b}").as_bytes());
    }
}

proptest! {
    #![proptest_config(config(300))]
    #[test]
    fn lsp(data in prop::collection::vec(any::<u8>(), 0..300)) {
        targets::lsp(&data);
    }
}
