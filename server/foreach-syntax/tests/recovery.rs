//! Error recovery: a syntax error in one item must not hide the others, and every error points at the offending
//! token.

use foreach_syntax::ast::*;
use foreach_syntax::{FileKind, Parse, TextRange, parse};

fn slice(src: &str, range: TextRange) -> &str {
    &src[usize::from(range.start())..usize::from(range.end())]
}

fn tf(src: &str) -> Parse {
    parse(src, FileKind::Tf)
}

/// The names of the top-level items, blocks as `ident.label.label`.
fn names(body: &Body) -> Vec<String> {
    body.structures
        .iter()
        .map(|s| match s {
            Structure::Attribute(a) => a.key.name.to_string(),
            Structure::Block(b) => {
                let mut name = b.ident.name.to_string();
                for l in &b.labels {
                    name.push('.');
                    name.push_str(&l.value);
                }
                name
            }
        })
        .collect()
}

/// The source text each error covers.
fn error_texts<'a>(src: &'a str, parse: &Parse) -> Vec<&'a str> {
    parse.errors.iter().map(|e| slice(src, e.range)).collect()
}

#[test]
fn broken_middle_block_keeps_the_others() {
    let src = "resource \"a\" \"one\" {\n  x = 1\n}\n\nresource \"a\" \"two\" {\n  y = = 2\n}\n\nresource \"a\" \"three\" {\n  z = 3\n}\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["resource.a.one", "resource.a.two", "resource.a.three"]);
    assert_eq!(error_texts(src, &p), ["="]);
    assert_eq!(usize::from(p.errors[0].range.start()), src.find("= = 2").unwrap() + 2);
    let two = p.body.blocks().nth(1).unwrap();
    assert!(two.body.structures.is_empty());
    assert_eq!(slice(src, two.range), "resource \"a\" \"two\" {\n  y = = 2\n}");
    let three = p.body.blocks().nth(2).unwrap();
    assert_eq!(slice(src, three.body.attribute("z").unwrap().range), "z = 3");
}

#[test]
fn unclosed_brace_does_not_swallow_the_rest() {
    let src = "locals {\n  a = 1\n\nresource \"r\" \"n\" {\n  b = 2\n}\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["locals", "resource.r.n"]);
    assert_eq!(error_texts(src, &p), ["{"]);
    assert_eq!(p.errors[0].range.start(), 7.into());
    assert!(p.errors[0].message.contains("unclosed"));
    let locals = p.body.blocks().next().unwrap();
    assert_eq!(locals.body.attribute("a").unwrap().value.kind, ExprKind::Number("1".into()));
}

#[test]
fn unterminated_string() {
    let src = "a = \"abc\nb = 1\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["b"]);
    assert_eq!(error_texts(src, &p), ["\""]);
    assert_eq!(p.errors[0].range.start(), 4.into());
}

#[test]
fn unterminated_heredoc() {
    let src = "a = <<EOT\n  text\n\nb = 1\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["b"]);
    assert_eq!(error_texts(src, &p), ["<"]);
    assert_eq!(p.errors[0].range.start(), 4.into());
}

#[test]
fn garbage_lines_between_blocks() {
    let src = "a {\n}\nthis is not hcl\n}}}\nb {\n}\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["a", "b"]);
    assert_eq!(p.errors.len(), 2, "{:?}", p.errors);
    assert_eq!(error_texts(src, &p)[1], "}");
    assert!(p.errors[0].range.start() > 6.into() && p.errors[0].range.end() < 22.into());
}

#[test]
fn half_typed_provider_reference_inside_a_resource() {
    let src = "resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\n  bucket   = \"x\"\n}\n\noutput \"o\" {\n  value = 1\n}\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["resource.aws_s3_bucket.b", "output.o"]);
    let res = p.body.blocks().next().unwrap();
    assert_eq!(names(&res.body), ["bucket"]);
    assert_eq!(slice(src, res.body.attribute("bucket").unwrap().value.range), "\"x\"");
    assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
    let err = p.errors[0].range;
    assert_eq!(slice(src, err), "[");
    assert_eq!(usize::from(err.start()), src.find("[\n").unwrap());
    assert!(p.errors[0].message.contains("unclosed"));
}

#[test]
fn errors_inside_nested_blocks_keep_the_siblings() {
    let src = "resource \"r\" \"n\" {\n  lifecycle {\n    ignore_changes = [\n  }\n  count = 2\n}\n";
    let p = tf(src);
    let res = p.body.blocks().next().unwrap();
    assert_eq!(names(&res.body), ["lifecycle", "count"]);
    assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
}

#[test]
fn error_after_closing_brace_is_reported() {
    let src = "a {\n  x = 1\n} junk\nb = 2\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["a", "b"]);
    assert_eq!(p.errors.len(), 1);
    assert!(slice(src, p.errors[0].range).len() <= 4, "{p:?}");
}

#[test]
fn valid_file_takes_the_fast_path_with_identical_result() {
    let src = "a = 1\nb {\n  c = [1, 2]\n}\n";
    let whole = tf(src);
    assert!(whole.errors.is_empty());
    // Appending a broken item must leave the earlier items unchanged, ranges included.
    let broken = format!("{src}d = (\n");
    let p = tf(&broken);
    assert_eq!(p.body.structures[..2], whole.body.structures[..]);
    assert_eq!(p.errors.len(), 1);
}

#[test]
fn missing_value_points_at_the_equals_sign() {
    let src = "a {\n  b = \n  c = 1\n}\n";
    let p = tf(src);
    assert_eq!(names(&p.body.blocks().next().unwrap().body), ["c"]);
    assert_eq!(error_texts(src, &p), ["="]);
    assert_eq!(usize::from(p.errors[0].range.start()), src.find("= \n").unwrap());
}

#[test]
fn redefined_attribute_is_reported_at_the_second_key() {
    let src = "a = 1\nb = 2\na = 3\n";
    let p = tf(src);
    assert_eq!(names(&p.body), ["a", "b", "a"]);
    assert_eq!(error_texts(src, &p), ["a"]);
    assert_eq!(usize::from(p.errors[0].range.start()), src.rfind('a').unwrap());
}

#[test]
fn heredoc_closing_the_file_without_a_line_break() {
    // Terraform rejects it; the tree is still complete.
    let src = "a = 1\nb = <<EOT\nx\nEOT";
    let p = tf(src);
    assert_eq!(names(&p.body), ["a", "b"]);
    assert_eq!(error_texts(src, &p), ["EOT"]);
    assert!(tf("b = <<EOT\nx\nEOT\n").errors.is_empty());
    assert!(tf("b = <<EOT\nx\nEOT  ").errors.len() == 1);
    // A standalone expression may end right after the delimiter (the evaluator wraps template text that way).
    assert!(foreach_syntax::parse_expr("<<EOT\nx\nEOT").is_ok());
    assert!(foreach_syntax::parse_expr("<<EOT\nx\nEOT\n").is_ok());
}
