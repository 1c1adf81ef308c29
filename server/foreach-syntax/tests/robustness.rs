//! Bad input never panics, overflows the stack or hangs. These run on the default test thread (no big stack), in
//! debug builds too.

use foreach_syntax::{ColumnEncoding, FileKind, LineCol, LineIndex, TextRange, TextSize, parse, parse_expr};

fn slice(src: &str, range: TextRange) -> &str {
    &src[usize::from(range.start())..usize::from(range.end())]
}

fn names(p: &foreach_syntax::Parse) -> Vec<&str> {
    p.body
        .structures
        .iter()
        .map(|s| match s {
            foreach_syntax::ast::Structure::Attribute(a) => a.key.name.as_str(),
            foreach_syntax::ast::Structure::Block(b) => b.ident.name.as_str(),
        })
        .collect()
}

#[test]
fn ten_thousand_nested_parentheses_keep_the_rest_of_the_file() {
    let src = format!("x = 1\na = {}1{}\nb = 2\n", "(".repeat(10_000), ")".repeat(10_000));
    let p = parse(&src, FileKind::Tf);
    assert_eq!(names(&p), ["x", "b"]);
    assert_eq!(p.errors.len(), 1);
    assert!(p.errors[0].message.contains("nested too deeply"));
    assert_eq!(slice(&src, p.errors[0].range), "(");
    assert_eq!(usize::from(p.errors[0].range.start()), "x = 1\na = ".len() + 256);
}

#[test]
fn ten_thousand_nested_brackets_and_blocks() {
    let src = format!("a = {}{}\nb = 2\n", "[".repeat(10_000), "]".repeat(10_000));
    let p = parse(&src, FileKind::Tf);
    assert_eq!(names(&p), ["b"]);
    assert_eq!(p.errors.len(), 1);

    let src = format!("{}\nb = 2\n", "a {\n".repeat(10_000) + &"}\n".repeat(10_000));
    let p = parse(&src, FileKind::Tf);
    assert_eq!(names(&p), ["b"]);
    assert!(!p.errors.is_empty());

    let src = format!("{{\"locals\": {{\"a\": {}{}}}}}", "[".repeat(10_000), "]".repeat(10_000));
    let p = parse(&src, FileKind::TfJson);
    assert_eq!(p.errors.len(), 1);
    assert!(p.errors[0].message.contains("nested too deeply"));

    assert!(parse_expr(&format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000))).is_err());
}

#[test]
fn nesting_just_below_our_limit_is_handled_by_the_parser() {
    // Deeper than hcl-edit's own limit (64) but below ours (256): hcl-edit must reject it without overflowing.
    for depth in [60, 100, 255] {
        for (open, close) in [("(", ")"), ("[", "]"), ("{x = ", "}")] {
            let src = format!("a = {}1{}\nb = 2\n", open.repeat(depth), close.repeat(depth));
            let p = parse(&src, FileKind::Tf);
            assert!(names(&p).contains(&"b"), "{depth} {open}");
        }
        let src = format!("a = {}x{}\n", "\"${".repeat(depth), "}\"".repeat(depth));
        let _ = parse(&src, FileKind::Tf);
        let src = format!("{}{}", "a {\n".repeat(depth), "}\n".repeat(depth));
        let _ = parse(&src, FileKind::Tf);
        let _ = parse_expr(&format!("{}x", "!".repeat(depth * 40)));
        let _ = parse_expr(&format!("{}x", "-".repeat(depth * 40)));
        let _ = parse_expr(&"a ? b : ".repeat(depth * 40));
        let _ = parse_expr(&"1 + ".repeat(depth * 40));
    }
}

/// A realistic 10 MB configuration.
fn big_config() -> String {
    let block = "resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[each.key]\n  for_each = toset([\"a\", \"b\"])\n  bucket   = \"logs-${each.key}\"\n  tags = {\n    Name = \"x\"\n  }\n}\n\n";
    block.repeat(10 * 1024 * 1024 / block.len())
}

#[test]
fn ten_megabyte_file_valid_and_broken() {
    // Debug builds of the parser are slow (well under 1 MB/s), so each 10 MB text is parsed only once here.
    let src = big_config();
    let p = parse(&src, FileKind::Tf);
    assert!(p.errors.is_empty());
    let blocks = p.body.structures.len();
    assert!(blocks > 40_000);
    // Broken at the start: the fast path fails at once and recovery keeps everything else.
    let broken = format!("}}\n{src}");
    let p = parse(&broken, FileKind::Tf);
    assert_eq!(p.body.structures.len(), blocks);
    assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
    assert_eq!(slice(&broken, p.errors[0].range), "}");
    let index = LineIndex::new(&broken);
    let end = index.line_col(TextSize::of(&broken), ColumnEncoding::Utf16);
    assert_eq!(index.offset(end, ColumnEncoding::Utf16), TextSize::of(&broken));
}

#[test]
fn one_ten_megabyte_line() {
    let src = format!("a = \"{}\"\nb = [{}1]\n", "x".repeat(10 * 1024 * 1024), "1, ".repeat(1024 * 1024));
    let p = parse(&src, FileKind::Tf);
    assert!(p.errors.is_empty());
    assert_eq!(names(&p), ["a", "b"]);
    // The same line, unterminated.
    let src = format!("a = \"{}\nb = 1\n", "x".repeat(10 * 1024 * 1024));
    let p = parse(&src, FileKind::Tf);
    assert_eq!(names(&p), ["b"]);
    let index = LineIndex::new(&src);
    assert_eq!(index.line_col(TextSize::from(5_000_000), ColumnEncoding::Char), LineCol { line: 0, col: 5_000_000 });
}

#[test]
fn nul_bytes_and_control_characters() {
    let src = "a = 1\0\nb = 2\n\0\0\0\nc {\n  d = \"\0\"\n}\n";
    let p = parse(src, FileKind::Tf);
    assert!(names(&p).contains(&"b"));
    assert!(names(&p).contains(&"c"));
    assert!(!p.errors.is_empty());
    for e in &p.errors {
        assert!(!e.range.is_empty() && usize::from(e.range.end()) <= src.len());
    }
    let p = parse("\0", FileKind::TfJson);
    assert_eq!(p.errors.len(), 1);
}

#[test]
fn empty_and_comment_only_texts() {
    for kind in [FileKind::Tf, FileKind::TfJson, FileKind::Tfvars, FileKind::TfvarsJson] {
        let p = parse("", kind);
        assert!(p.errors.is_empty() && p.body.structures.is_empty(), "{kind:?}");
    }
    let p = parse("# a\n// b\n/* c */\n\n  \t\n", FileKind::Tf);
    assert!(p.errors.is_empty() && p.body.structures.is_empty());
    let p = parse("/* unterminated", FileKind::Tf);
    assert_eq!(p.errors.len(), 1);
    assert!(parse_expr("").is_err());
}

#[test]
fn every_prefix_of_a_file_parses_without_panicking() {
    // What an editor sends while a file is typed, character by character.
    let src = "resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"é😀\"]\n  x = <<-EOT\n    ${a} %{ if b ~}c%{ endif }\n  EOT\n  y = { for k, v in m : k => v... if v }\n}\n";
    for (i, _) in src.char_indices() {
        let p = parse(&src[..i], FileKind::Tf);
        for e in &p.errors {
            assert!(usize::from(e.range.end()) <= i, "{i}: {e:?}");
        }
        let _ = parse(&src[..i], FileKind::TfJson);
    }
}

/// Runs `f` on another thread and fails if it has not finished after `bound`: for inputs where a regression would
/// mean exponential time, so the test fails instead of hanging the suite. A bound on termination, not a speed
/// measurement (the benchmarks do that): without the fix these inputs take 2^50 steps.
fn finishes_within<T: Send + 'static>(
    bound: std::time::Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(bound)
        .unwrap_or_else(|_| panic!("{what} did not finish within {bound:?}: exponential backtracking?"))
}

#[test]
fn unclosed_operands_after_operators_are_not_parsed_twice_per_level() {
    // Found by the `eval` fuzz target: every `(` left open after a binary operator doubled the parser's work (hcl-edit
    // patch 10). 50 levels, just below hcl-edit's own nesting limit of 64.
    let bound = std::time::Duration::from_secs(60);
    for (prefix, end) in [("a + b + (", ""), ("a + b + (", " # comment"), ("f(a) * (", ""), ("a == (", "")] {
        let expr = prefix.repeat(50) + end;
        let e = expr.clone();
        let result = finishes_within(bound, "parse_expr", move || parse_expr(&e).map(|_| ()).map_err(|e| e.message));
        assert!(result.is_err(), "{expr}");
        let src = format!("locals {{\n  x = {expr}\n}}\ny = 1\n");
        let s = src.clone();
        let p = finishes_within(bound, "parse", move || parse(&s, FileKind::Tf));
        assert_eq!(names(&p), ["locals", "y"], "{src}");
        assert!(!p.errors.is_empty(), "{src}");
    }
}
