//! A packed expression unpacks to exactly the tree that was packed, ranges included: on every attribute of every
//! fixture and docs example, on the dev corpus when it is unpacked (the corpus test of foreach-ls unpacks it under
//! `target/corpus`), on JSON files (whose escaped strings carry one fixed range) and nested as deep as the parser allows (64 levels).

#[path = "support/files.rs"]
mod files;

use std::path::{Path, PathBuf};

use files::repo;

use foreach_syntax::ast::{Body, Expr, Structure};
use foreach_syntax::{FileKind, PackedExpr, parse, parse_expr};

/// Every file the parser reads, by its name.
fn parsed(path: &Path) -> bool {
    FileKind::from_file_name(&path.file_name().unwrap_or_default().to_string_lossy()).is_some()
}

fn round_trip(expr: &Expr, what: &str) {
    let packed = PackedExpr::pack(expr).unwrap_or_else(|| panic!("{what}: could not pack"));
    let unpacked = packed.unpack(expr.range);
    // `Expr`'s equality compares ranges at every node, so this is the whole tree as parsed.
    assert!(unpacked == *expr, "{what}: unpacked\n{unpacked:#?}\nbut packed\n{expr:#?}");
}

/// Round-trips every attribute of `body`, nested blocks included; returns how many.
fn round_trip_body(body: &Body, what: &str) -> usize {
    let mut n = 0;
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => {
                round_trip(&a.value, &format!("{what}: `{}`", a.key.name));
                n += 1;
            }
            Structure::Block(b) => n += round_trip_body(&b.body, what),
        }
    }
    n
}

fn round_trip_files(files: &[PathBuf]) -> usize {
    let mut n = 0;
    for path in files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let Some(kind) = FileKind::from_file_name(&name) else { continue };
        n += round_trip_body(&parse(&text, kind).body, &path.display().to_string());
    }
    n
}

#[test]
fn every_attribute_of_the_fixtures_and_docs_round_trips() {
    let mut files = Vec::new();
    files::files_under(&repo().join("testdata"), &parsed, &mut files);
    files::files_under(&repo().join("docs"), &parsed, &mut files);
    assert!(files.iter().any(|f| f.to_string_lossy().ends_with(".tf.json")), "no JSON fixture found");
    let n = round_trip_files(&files);
    assert!(n > 1000, "only {n} attributes in {} files", files.len());
}

#[test]
fn every_attribute_of_the_dev_corpus_round_trips() {
    let Some(files) = files::dev_corpus_files(&parsed) else { return };
    assert!(round_trip_files(&files) > 50_000);
}

#[test]
fn json_strings_with_escapes_keep_their_fixed_range() {
    let text = r#"{"locals": {"greeting": "caf\u00e9 ${var.name}", "list": ["a\"b", 1, true, null]}}"#;
    let parse = parse(text, FileKind::from_file_name("main.tf.json").unwrap());
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    assert_eq!(round_trip_body(&parse.body, "json"), 2);
}

#[test]
fn expressions_deeply_nested_and_far_into_a_file_round_trip() {
    let deep = format!("{}1{}", "[".repeat(64), "]".repeat(64));
    round_trip(&parse_expr(&deep).unwrap(), "64 nested tuples");
    let deep = format!("x = {}1{}\n", "{a = ".repeat(60), "}".repeat(60));
    let parse_deep = parse(&deep, FileKind::from_file_name("main.tf").unwrap());
    assert!(parse_deep.errors.is_empty(), "{:?}", parse_deep.errors);
    assert_eq!(round_trip_body(&parse_deep.body, "60 nested objects"), 1);
    // Offsets above 2^21 take four bytes as varints; the ranges are packed relative to the expression's start.
    let tail =
        "x = { a = \"€\", b = \"${var.y}\", c = { for k, v in m : k => v... } }\ny = <<-EOT\n  ${var.y}\n  EOT\n";
    let text = format!("{}\n{tail}", "#".repeat(3_000_000));
    let parse_far = parse(&text, FileKind::from_file_name("main.tf").unwrap());
    assert!(parse_far.errors.is_empty(), "{:?}", parse_far.errors);
    assert_eq!(round_trip_body(&parse_far.body, "far"), 2);
}
