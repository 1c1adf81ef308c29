//! One test per node kind: the tree shape and every range, checked by slicing the source (never hand-written
//! offsets).

use foreach_syntax::ast::*;
use foreach_syntax::{FileKind, TextRange, parse, parse_expr};

fn slice(src: &str, range: TextRange) -> &str {
    &src[usize::from(range.start())..usize::from(range.end())]
}

/// Parses `src` as a `.tf` file that must be valid and returns the value of its only attribute.
fn value(src: &str) -> Expr {
    let parse = parse(src, FileKind::Tf);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    parse.body.attributes().next().expect("an attribute").value.as_ref().clone()
}

fn template(e: &Expr) -> &Template {
    match &e.kind {
        ExprKind::Template(t) => t,
        other => panic!("not a template: {other:?}"),
    }
}

fn literal(part: &TemplatePart) -> (&str, TextRange) {
    match part {
        TemplatePart::Literal { value, range } => (value.as_str(), *range),
        other => panic!("not a literal: {other:?}"),
    }
}

#[test]
fn attribute_and_block_ranges() {
    let src = "a = 1\nresource \"aws_s3_bucket\" logs /* c */ {\n  b = true\n}\n";
    let parse = parse(src, FileKind::Tf);
    assert!(parse.errors.is_empty());
    let attr = parse.body.attributes().next().unwrap();
    assert_eq!(slice(src, attr.range), "a = 1");
    assert_eq!(slice(src, attr.key.range), "a");
    let block = parse.body.blocks().next().unwrap();
    assert_eq!(slice(src, block.ident.range), "resource");
    assert_eq!(block.label(0), Some("aws_s3_bucket"));
    assert!(block.labels[0].quoted);
    assert_eq!(slice(src, block.labels[0].range), "\"aws_s3_bucket\"");
    assert_eq!(block.label(1), Some("logs"));
    assert!(!block.labels[1].quoted);
    assert_eq!(slice(src, block.labels[1].range), "logs");
    assert_eq!(slice(src, block.range), "resource \"aws_s3_bucket\" logs /* c */ {\n  b = true\n}");
    assert_eq!(slice(src, block.body_range), "{\n  b = true\n}");
    let inner = block.body.attribute("b").unwrap();
    assert_eq!(slice(src, inner.range), "b = true");
    assert_eq!(inner.value.kind, ExprKind::Bool(true));
}

#[test]
fn one_line_block_and_empty_block() {
    let src = "locals { x = null }\nterraform {}\n";
    let parse = parse(src, FileKind::Tf);
    assert!(parse.errors.is_empty());
    let blocks: Vec<_> = parse.body.blocks().collect();
    assert_eq!(slice(src, blocks[0].body_range), "{ x = null }");
    assert_eq!(blocks[0].body.attribute("x").unwrap().value.kind, ExprKind::Null);
    assert_eq!(slice(src, blocks[1].body_range), "{}");
    assert!(blocks[1].body.structures.is_empty());
}

#[test]
fn numbers_keep_their_source_text() {
    for (src, text) in
        [("a = 1.50", "1.50"), ("a = 1e3", "1e3"), ("a = -7", "-7"), ("a = 0", "0"), ("a = 1e400", "1e400")]
    {
        let e = value(src);
        assert_eq!(e.kind, ExprKind::Number(text.into()), "{src}");
        assert_eq!(slice(src, e.range), text);
    }
}

#[test]
fn quoted_string_literal_is_one_processed_part() {
    let src = r#"a = "x\ty\u00e9$${z}%%{w}""#;
    let e = value(src);
    assert_eq!(slice(src, e.range), r#""x\ty\u00e9$${z}%%{w}""#);
    let t = template(&e);
    assert_eq!(t.kind, TemplateKind::Quoted);
    assert_eq!(t.parts.len(), 1);
    let (v, r) = literal(&t.parts[0]);
    assert_eq!(v, "x\tyé${z}%{w}");
    assert_eq!(slice(src, r), r#"x\ty\u00e9$${z}%%{w}"#);
    assert_eq!(e.as_string_literal().as_deref(), Some("x\tyé${z}%{w}"));
}

#[test]
fn empty_string() {
    let src = r#"a = """#;
    let e = value(src);
    assert_eq!(e.as_string_literal().as_deref(), Some(""));
}

#[test]
fn template_with_interpolation() {
    let src = r#"a = "pre-${var.x}-post""#;
    let e = value(src);
    let t = template(&e);
    assert_eq!(t.parts.len(), 3);
    assert_eq!(literal(&t.parts[0]).0, "pre-");
    assert_eq!(slice(src, literal(&t.parts[0]).1), "pre-");
    let TemplatePart::Interpolation(inner) = &t.parts[1] else { panic!() };
    assert_eq!(slice(src, inner.range), "var.x");
    assert_eq!(literal(&t.parts[2]).0, "-post");
    assert_eq!(t.as_literal(), None);
}

#[test]
fn strip_markers_trim_neighbouring_literals() {
    let src = "a = \"x  ${~ 1 ~}  y %{~ if true ~}  t  %{~ else ~}  e  %{~ endif ~}  z\"";
    let t = template(&value(src)).clone();
    assert_eq!(literal(&t.parts[0]).0, "x");
    assert_eq!(literal(&t.parts[2]).0, "y");
    let TemplatePart::If(directive) = &t.parts[3] else { panic!("{t:?}") };
    let TemplateIf { then_part, else_part, range, .. } = &**directive;
    assert_eq!(slice(src, *range), "%{~ if true ~}  t  %{~ else ~}  e  %{~ endif ~}");
    assert_eq!(literal(&then_part.parts[0]).0, "t");
    assert_eq!(literal(&else_part.as_ref().unwrap().parts[0]).0, "e");
    assert_eq!(literal(&t.parts[4]).0, "z");
}

#[test]
fn template_for_directive() {
    let src = r#"a = "%{ for k, v in var.m }${k}=${v},%{ endfor }""#;
    let t = template(&value(src)).clone();
    let TemplatePart::For(directive) = &t.parts[0] else { panic!() };
    let TemplateFor { key_var, value_var, collection, body, range } = &**directive;
    assert_eq!(slice(src, *range), "%{ for k, v in var.m }${k}=${v},%{ endfor }");
    assert_eq!(slice(src, key_var.as_ref().unwrap().range), "k");
    assert_eq!(value_var.name, "v");
    assert_eq!(slice(src, collection.range), "var.m");
    assert_eq!(body.parts.len(), 4);
}

#[test]
fn heredoc_and_indented_heredoc() {
    let src = "a = <<EOT\n  x ${y}\n  z\nEOT\n";
    let e = value(src);
    assert_eq!(slice(src, e.range), "<<EOT\n  x ${y}\n  z\nEOT");
    let t = template(&e);
    assert_eq!(t.kind, TemplateKind::Heredoc);
    assert_eq!(literal(&t.parts[0]).0, "  x ");
    assert_eq!(literal(&t.parts[2]).0, "\n  z\n");

    let src = "a = <<-EOT\n    x\n      y\n    EOT\n";
    let e = value(src);
    let t = template(&e);
    assert_eq!(t.as_literal().as_deref(), Some("x\n  y\n"));
}

#[test]
fn a_heredoc_ends_at_its_own_closing_line() {
    // hcl-edit patch 11: an empty heredoc followed by another one swallowed everything up to the second closing
    // line; a line that starts with the delimiter but has more on it (`EOF"` in a shell script) is text.
    let src = "a = <<EOT\n  EOT\nb = (true ? <<-EOT\nx\nEOT\n  : \"\")\nc = <<EOF\nsh << EOF\nEOF\"\n EOF \n";
    let parse = parse(src, FileKind::Tf);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    let attrs: Vec<_> = parse.body.attributes().collect();
    let names: Vec<&str> = attrs.iter().map(|a| a.key.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(template(&attrs[0].value).as_literal().as_deref(), Some(""));
    assert_eq!(slice(src, attrs[0].value.range), "<<EOT\n  EOT");
    assert_eq!(template(&attrs[2].value).as_literal().as_deref(), Some("sh << EOF\nEOF\"\n"));
}

#[test]
fn tuples_and_objects() {
    let src = r#"a = [1, "b", { k = 1, "q" = 2, (var.x) = 3, m: 4 }]"#;
    let e = value(src);
    let ExprKind::Tuple(items) = &e.kind else { panic!() };
    assert_eq!(items.len(), 3);
    assert_eq!(slice(src, items[1].range), "\"b\"");
    let ExprKind::Object(obj) = &items[2].kind else { panic!() };
    assert_eq!(slice(src, items[2].range), r#"{ k = 1, "q" = 2, (var.x) = 3, m: 4 }"#);
    assert!(matches!(&obj[0].key, ObjectKey::Ident(i) if i.name == "k"));
    assert_eq!(slice(src, obj[0].key.range()), "k");
    assert!(matches!(&obj[1].key, ObjectKey::Expr(e) if e.as_string_literal().as_deref() == Some("q")));
    assert_eq!(slice(src, obj[1].key.range()), "\"q\"");
    assert!(matches!(&obj[2].key, ObjectKey::Expr(e) if matches!(e.kind, ExprKind::Parenthesis(_))));
    assert_eq!(slice(src, obj[2].key.range()), "(var.x)");
    assert_eq!(slice(src, obj[3].value.range), "4");
}

#[test]
fn a_redefined_object_key_keeps_its_last_item_in_the_last_place() {
    // hcl-edit's object is a map: of each key only the last item is kept, where that item stands. Identifier keys
    // match by name; expression keys by expression (`"k"` and `("k")` are different keys to the parser).
    let src = r#"a = { x = 1, y = 2, x = 3, "k" = 4, ("k") = 5, "k" = 6, z = 7, y = 8 }"#;
    let e = value(src);
    let ExprKind::Object(obj) = &e.kind else { panic!() };
    let items: Vec<(&str, &str)> = obj.iter().map(|i| (slice(src, i.key.range()), slice(src, i.value.range))).collect();
    assert_eq!(items, [("x", "3"), ("(\"k\")", "5"), ("\"k\"", "6"), ("z", "7"), ("y", "8")]);
}

#[test]
fn traversals_with_every_step() {
    let src = "a = aws.by_region[each.key].x.0[*].y.*.z";
    let e = value(src);
    assert_eq!(slice(src, e.range), "aws.by_region[each.key].x.0[*].y.*.z");
    let ExprKind::Traversal { base, steps } = &e.kind else { panic!() };
    assert!(matches!(&base.kind, ExprKind::Variable(i) if i.name == "aws"));
    assert_eq!(slice(src, base.range), "aws");
    let texts: Vec<&str> = steps.iter().map(|s| slice(src, s.range)).collect();
    assert_eq!(texts, [".by_region", "[each.key]", ".x", ".0", "[*]", ".y", ".*", ".z"]);
    assert!(matches!(&steps[0].op, TraversalOp::GetAttr(i) if slice(src, i.range) == "by_region"));
    assert!(matches!(&steps[1].op, TraversalOp::Index(i) if slice(src, i.range) == "each.key"));
    assert_eq!(steps[3].op, TraversalOp::LegacyIndex(0));
    assert_eq!(steps[4].op, TraversalOp::FullSplat);
    assert_eq!(steps[6].op, TraversalOp::AttrSplat);
}

#[test]
fn function_calls_with_namespaces_and_expansion() {
    let src = "a = provider::aws::arn_parse(x, core::toset(y)...)";
    let e = value(src);
    let ExprKind::FuncCall(call) = &e.kind else { panic!() };
    assert_eq!(call.name.full_name(), "provider::aws::arn_parse");
    assert_eq!(slice(src, call.name.namespace[1].range), "aws");
    assert_eq!(slice(src, call.name.name.range), "arn_parse");
    assert!(call.expand_final);
    let ExprKind::FuncCall(inner) = &call.args[1].kind else { panic!() };
    assert_eq!(inner.name.full_name(), "core::toset");
    assert!(!inner.expand_final);
    assert_eq!(slice(src, call.args[1].range), "core::toset(y)");

    let e = value("a = f()");
    let ExprKind::FuncCall(call) = &e.kind else { panic!() };
    assert!(call.args.is_empty() && call.name.namespace.is_empty());
}

#[test]
fn parentheses_conditionals_and_operators() {
    let src = "a = (x + 1) * 2 == 4 && !b ? -c : d % 3";
    let e = value(src);
    let ExprKind::Conditional { cond, then_expr, else_expr } = &e.kind else { panic!() };
    assert_eq!(slice(src, cond.range), "(x + 1) * 2 == 4 && !b");
    let ExprKind::Binary { lhs, op: BinaryOp::And, rhs } = &cond.kind else { panic!("{cond:?}") };
    assert_eq!(slice(src, lhs.range), "(x + 1) * 2 == 4");
    assert!(matches!(&rhs.kind, ExprKind::Unary { op: UnaryOp::Not, .. }));
    assert_eq!(slice(src, rhs.range), "!b");
    let ExprKind::Binary { lhs: mul, op: BinaryOp::Eq, .. } = &lhs.kind else { panic!() };
    let ExprKind::Binary { lhs: paren, op: BinaryOp::Mul, .. } = &mul.kind else { panic!() };
    assert_eq!(slice(src, paren.range), "(x + 1)");
    assert_eq!(slice(src, paren.unparenthesized().range), "x + 1");
    assert!(matches!(&then_expr.kind, ExprKind::Unary { op: UnaryOp::Neg, .. }));
    assert_eq!(slice(src, else_expr.range), "d % 3");
}

#[test]
fn for_expressions() {
    let src = "a = [for i, v in var.l : upper(v) if v != \"\"]";
    let e = value(src);
    let ExprKind::For(f) = &e.kind else { panic!() };
    assert_eq!(slice(src, e.range), "[for i, v in var.l : upper(v) if v != \"\"]");
    assert_eq!(slice(src, f.key_var.as_ref().unwrap().range), "i");
    assert_eq!(slice(src, f.collection.range), "var.l");
    assert!(f.key_expr.is_none());
    assert_eq!(slice(src, f.value_expr.range), "upper(v)");
    assert_eq!(slice(src, f.cond.as_ref().unwrap().range), "v != \"\"");
    assert!(!f.grouping);

    let src = "a = {for v in var.l : v.k => v...}";
    let e = value(src);
    let ExprKind::For(f) = &e.kind else { panic!() };
    assert!(f.key_var.is_none());
    assert_eq!(slice(src, f.key_expr.as_ref().unwrap().range), "v.k");
    assert_eq!(slice(src, f.value_expr.range), "v");
    assert!(f.grouping);
}

#[test]
fn parse_expr_standalone() {
    let e = parse_expr("{ a = [1, 2] }").unwrap();
    assert!(matches!(e.kind, ExprKind::Object(_)));
    // Surrounding whitespace and newlines are fine (a CLI `-var` value); ranges stay relative to the text.
    let src = "\n [1,\n 2]\r\n";
    let e = parse_expr(src).unwrap();
    assert_eq!(slice(src, e.range), "[1,\n 2]");
    let src = "[1, ";
    let err = parse_expr(src).unwrap_err();
    // The text ends too early: the error points at its last character.
    assert_eq!(slice(src, err.range), ",");
    assert!(parse_expr("  ").is_err());
    assert!(parse_expr(&"(".repeat(1000)).unwrap_err().message.contains("nested too deeply"));
}

#[test]
fn bom_is_skipped_and_ranges_stay_in_original_text() {
    let src = "\u{feff}a = \"x\"\n";
    let parse = parse(src, FileKind::Tf);
    assert!(parse.errors.is_empty());
    let attr = parse.body.attributes().next().unwrap();
    assert_eq!(slice(src, attr.range), "a = \"x\"");
}

#[test]
fn syntax_error_points_at_the_offending_character() {
    let src = "a = 1\nb = ]\n";
    let parse = parse(src, FileKind::Tf);
    assert_eq!(parse.errors.len(), 1);
    assert_eq!(slice(src, parse.errors[0].range), "]");
}

#[test]
fn repeated_object_key_keeps_the_last_item() {
    let src = "a = { x = 1, y = 2, x = 3 }";
    let e = value(src);
    let ExprKind::Object(items) = &e.kind else { panic!() };
    let texts: Vec<&str> = items.iter().map(|i| slice(src, i.value.range)).collect();
    assert_eq!(texts, ["2", "3"]);
    assert_eq!(slice(src, items[1].key.range()), "x");
}

#[test]
fn indented_heredoc_leaves_blank_lines_alone() {
    // Values checked with `terraform console`: whitespace-only lines neither set the indentation nor lose any.
    let src = "a = <<-EOT\n    a\n      \n\t  b\n    EOT\n";
    assert_eq!(template(&value(src)).as_literal().as_deref(), Some(" a\n      \nb\n"));
    let src = "a = <<-EOT\n    a\n  \n      b ${x}\n    EOT\n";
    let t = template(&value(src)).clone();
    assert_eq!(literal(&t.parts[0]).0, "a\n  \n  b ");
    assert_eq!(literal(&t.parts[2]).0, "\n");
    let src = "a = <<-EOT\n  ${x}\n    b\n  EOT\n";
    let t = template(&value(src)).clone();
    assert_eq!(literal(&t.parts[0]).0, "");
    assert_eq!(literal(&t.parts[2]).0, "\n  b\n");
}

#[test]
fn directive_bodies_in_quoted_strings_process_escapes() {
    let src = r#"a = "%{ if x }a\tb%{ endif }""#;
    let t = template(&value(src)).clone();
    let TemplatePart::If(directive) = &t.parts[0] else { panic!() };
    let then_part = &directive.then_part;
    assert_eq!(then_part.as_literal().as_deref(), Some("a\tb"));
}

/// Renders a template whose interpolations are string literals (or `x`, the `for` variable, taking `each` in turn)
/// and whose `if` conditions are true.
fn render(t: &Template, each: &[&str], x: &str) -> String {
    let mut s = String::new();
    for part in &t.parts {
        match part {
            TemplatePart::Literal { value, .. } => s.push_str(value),
            TemplatePart::Interpolation(e) => s.push_str(&e.as_string_literal().unwrap_or_else(|| x.to_owned())),
            TemplatePart::If(d) => s.push_str(&render(&d.then_part, each, x)),
            TemplatePart::For(d) => each.iter().for_each(|v| s.push_str(&render(&d.body, each, v))),
        }
    }
    s
}

#[test]
fn strip_markers_in_heredocs_stop_at_line_breaks() {
    // Expected values come from `terraform console`: in heredoc text a `~` strips whitespace only up to the nearest
    // line break, so indentation on the next line survives.
    let cases = [
        ("a = <<EOT\n%{ for x in [\"1\", \"2\"] ~}\n  ${x}\n%{ endfor ~}\nend\nEOT\n", "  1\n  2\nend\n"),
        ("a = <<EOT\nstart\n  %{~ if true ~}\n  yes\n  %{~ endif ~}\n  tail\nEOT\n", "start\n  yes\n  tail\n"),
        ("a = <<EOT\nx   ${~ \"y\" ~}   z\nw\nEOT\n", "xyz\nw\n"),
        ("a = \"a  %{~ if true ~}  b  %{~ endif ~}  c\"", "abc"),
    ];
    for (src, expected) in cases {
        assert_eq!(render(template(&value(src)), &["1", "2"], ""), expected, "{src}");
    }
}

#[test]
fn indented_heredocs_match_terraform() {
    // Each expected value was printed by `terraform console` for the same heredoc. hclsyntax applies strip
    // markers first and then removes the smallest indentation of the lines that start with text.
    let cases = [
        ("    l1 %{~ if true }\n    l2\n    %{~ endif }\n", "    l1\n    l2\n\n"),
        (
            "    %{ for x in [\"1\", \"2\"] ~}\n      item ${x}\n    %{ endfor ~}\n    done\n",
            "      item 1\n      item 2\n    done\n",
        ),
        ("      a\n    b ${\"z\"}\n      %{ if true }c%{ endif }\n", "  a\nb z\n  c\n"),
        ("    a\n      \n\t  b\n", " a\n      \nb\n"),
        ("    a\n  \n      b ${\"y\"}\n", "a\n  \n  b y\n"),
        ("  ${\"q\"}\n    b\n", "q\n  b\n"),
        ("\n    a\n   %{ if true }x%{ endif }\n", "\n a\nx\n"),
        ("    x ${~ \"y\" ~}\n      z\n", "xy      z\n"),
    ];
    for (body, expected) in cases {
        let src = format!("a = <<-EOT\n{body}    EOT\n");
        assert_eq!(render(template(&value(&src)), &["1", "2"], ""), expected, "{body:?}");
    }
}

/// A long name or string written several times in a file is allocated once: a label, a reference's attribute, an
/// object key and a literal share one string. Short ones are stored inline, and equal texts in different files are
/// not shared (each parse has its own strings).
#[test]
fn long_strings_of_a_file_share_one_allocation() {
    let name = "awscloudmap_discoverinstances_operation_per_account_steady_rate";
    let src = format!(
        "variable \"{name}\" {{}}\nlocals {{\n  q = {{\n    {name} = var.{name}\n    code = \"{name}\"\n    short = \"short\"\n  }}\n}}\n"
    );
    let first = parse(&src, FileKind::Tf);
    assert!(first.errors.is_empty(), "{:?}", first.errors);
    let mut blocks = first.body.blocks();
    let label = &blocks.next().unwrap().labels[0].value;
    let locals = blocks.next().unwrap();
    let ExprKind::Object(items) = &locals.body.attributes().next().unwrap().value.kind else { panic!("not an object") };
    let ObjectKey::Ident(key) = &items[0].key else { panic!("not an identifier key") };
    let ExprKind::Traversal { steps, .. } = &items[0].value.kind else { panic!("not a traversal") };
    let TraversalOp::GetAttr(attr) = &steps[0].op else { panic!("not an attribute step") };
    let (code, _) = literal(&template(&items[1].value).parts[0]);
    let TemplatePart::Literal { value: short, .. } = &template(&items[2].value).parts[0] else { panic!("no literal") };
    assert!(label.is_heap_allocated() && !short.is_heap_allocated());
    for other in [key.name.as_str(), attr.name.as_str(), code] {
        assert_eq!(other, name);
        assert_eq!(other.as_ptr(), label.as_ptr(), "`{other}` is a copy, not the label's string");
    }
    let again = parse(&src, FileKind::Tf);
    assert_ne!(again.body.blocks().next().unwrap().labels[0].value.as_ptr(), label.as_ptr());
}
