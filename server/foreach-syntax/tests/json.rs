//! The JSON configuration syntax: one test per mapping rule, ranges checked by slicing the source.

use foreach_syntax::ast::*;
use foreach_syntax::{FileKind, Parse, TextRange, parse};

fn slice(src: &str, range: TextRange) -> &str {
    &src[usize::from(range.start())..usize::from(range.end())]
}

fn json(src: &str) -> Parse {
    let p = parse(src, FileKind::TfJson);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    p
}

fn only_block(body: &Body) -> &Block {
    let blocks: Vec<_> = body.blocks().collect();
    assert_eq!(blocks.len(), 1, "{body:?}");
    blocks[0]
}

#[test]
fn resource_takes_two_labels() {
    let src = r#"{"resource": {"aws_s3_bucket": {"logs": {"bucket": "x", "//": "a comment"}}}}"#;
    let p = json(src);
    let b = only_block(&p.body);
    assert_eq!(b.ident.name, "resource");
    assert_eq!(slice(src, b.ident.range), "\"resource\"");
    assert_eq!((b.label(0), b.label(1)), (Some("aws_s3_bucket"), Some("logs")));
    assert_eq!(slice(src, b.labels[1].range), "\"logs\"");
    assert_eq!(slice(src, b.body_range), r#"{"bucket": "x", "//": "a comment"}"#);
    assert_eq!(slice(src, b.range), r#""logs": {"bucket": "x", "//": "a comment"}"#);
    let names: Vec<_> = b.body.attributes().map(|a| a.key.name.as_str()).collect();
    assert_eq!(names, ["bucket"]);
    let bucket = b.body.attribute("bucket").unwrap();
    assert_eq!(slice(src, bucket.key.range), "\"bucket\"");
    assert_eq!(slice(src, bucket.value.range), "\"x\"");
    assert_eq!(bucket.value.as_string_literal().as_deref(), Some("x"));
}

#[test]
fn one_label_blocks_and_arrays_of_blocks() {
    let src = r#"{"provider": {"aws": [{"alias": "a"}, {"alias": "b"}]}, "module": {"m": {"source": "./m"}}, "variable": {"v": {}}, "output": {"o": {"value": 1}}}"#;
    let p = json(src);
    let kinds: Vec<_> = p.body.blocks().map(|b| (b.ident.name.as_str(), b.label(0).unwrap_or_default())).collect();
    assert_eq!(kinds, [("provider", "aws"), ("provider", "aws"), ("module", "m"), ("variable", "v"), ("output", "o")]);
    let second = p.body.blocks().nth(1).unwrap();
    assert_eq!(slice(src, second.body_range), r#"{"alias": "b"}"#);
}

#[test]
fn zero_label_blocks_and_locals() {
    let src = r#"{"locals": {"a": 1, "b": true, "c": null, "d": [1, "x"], "e": {"k": "v"}}, "moved": {"from": "aws_s3_bucket.a", "to": "aws_s3_bucket.b"}}"#;
    let p = json(src);
    let locals = p.body.blocks_named("locals").next().unwrap();
    assert!(locals.labels.is_empty());
    assert_eq!(locals.body.attribute("a").unwrap().value.kind, ExprKind::Number("1".into()));
    assert_eq!(locals.body.attribute("b").unwrap().value.kind, ExprKind::Bool(true));
    assert_eq!(locals.body.attribute("c").unwrap().value.kind, ExprKind::Null);
    let ExprKind::Tuple(items) = &locals.body.attribute("d").unwrap().value.kind else { panic!() };
    assert_eq!(slice(src, items[1].range), "\"x\"");
    let ExprKind::Object(items) = &locals.body.attribute("e").unwrap().value.kind else { panic!() };
    assert!(matches!(&items[0].key, ObjectKey::Expr(k) if k.as_string_literal().as_deref() == Some("k")));
    assert_eq!(slice(src, items[0].key.range()), "\"k\"");
    let moved = p.body.blocks_named("moved").next().unwrap();
    let from = &moved.body.attribute("from").unwrap().value;
    assert!(matches!(&from.kind, ExprKind::Traversal { .. }), "{from:?}");
    assert_eq!(slice(src, from.range), "aws_s3_bucket.a");
}

#[test]
fn strings_are_templates_with_exact_ranges() {
    let src = r#"{"locals": {"a": "${var.x}", "b": "pre-${var.y}"}}"#;
    let p = json(src);
    let locals = only_block(&p.body);
    let a = &locals.body.attribute("a").unwrap().value;
    assert_eq!(slice(src, a.range), "\"${var.x}\"");
    let ExprKind::Template(t) = &a.kind else { panic!() };
    assert_eq!(t.parts.len(), 1);
    let TemplatePart::Interpolation(inner) = &t.parts[0] else { panic!() };
    assert_eq!(slice(src, inner.range), "var.x");
    let ExprKind::Template(t) = &locals.body.attribute("b").unwrap().value.kind else { panic!() };
    assert!(
        matches!(&t.parts[0], TemplatePart::Literal { value, range } if value == "pre-" && slice(src, *range) == "pre-")
    );
}

#[test]
fn escaped_strings_get_the_whole_string_range() {
    let src = r#"{"locals": {"a": "\u0041${var.x}"}}"#;
    let p = json(src);
    let a = &only_block(&p.body).body.attribute("a").unwrap().value;
    let ExprKind::Template(t) = &a.kind else { panic!() };
    assert!(matches!(&t.parts[0], TemplatePart::Literal { value, .. } if value == "A"));
    let TemplatePart::Interpolation(inner) = &t.parts[1] else { panic!() };
    assert_eq!(slice(src, inner.range), r#""\u0041${var.x}""#);
}

#[test]
fn provider_and_depends_on_are_expressions() {
    let src = r#"{"resource": {"aws_s3_bucket": {"b": {"for_each": "${var.regions}", "provider": "aws.by_region[each.key]", "depends_on": ["aws_s3_bucket.a", "module.m"]}}}}"#;
    let p = json(src);
    let body = &only_block(&p.body).body;
    let provider = &body.attribute("provider").unwrap().value;
    let ExprKind::Traversal { base, steps } = &provider.kind else { panic!("{provider:?}") };
    assert!(matches!(&base.kind, ExprKind::Variable(i) if i.name == "aws"));
    assert_eq!(slice(src, provider.range), "aws.by_region[each.key]");
    assert_eq!(slice(src, steps[1].range), "[each.key]");
    let ExprKind::Tuple(deps) = &body.attribute("depends_on").unwrap().value.kind else { panic!() };
    assert_eq!(slice(src, deps[1].range), "module.m");
    assert!(matches!(deps[1].kind, ExprKind::Traversal { .. }));
    assert!(matches!(body.attribute("for_each").unwrap().value.kind, ExprKind::Template(_)));
}

#[test]
fn module_providers_keys_and_values_are_expressions() {
    let src = r#"{"module": {"m": {"providers": {"aws": "aws.west", "aws.east": "aws.by_region[\"us-east-1\"]"}}}}"#;
    let p = json(src);
    let providers = &only_block(&p.body).body.attribute("providers").unwrap().value;
    let ExprKind::Object(items) = &providers.kind else { panic!() };
    assert!(matches!(&items[0].key, ObjectKey::Ident(i) if i.name == "aws" && slice(src, i.range) == "aws"));
    assert_eq!(slice(src, items[0].value.range), "aws.west");
    assert!(matches!(&items[1].key, ObjectKey::Expr(e) if matches!(e.kind, ExprKind::Traversal { .. })));
    // The value has escapes: it keeps the whole string's range.
    assert!(matches!(items[1].value.kind, ExprKind::Traversal { .. }));
    assert_eq!(slice(src, items[1].value.range), r#""aws.by_region[\"us-east-1\"]""#);
}

#[test]
fn variable_default_is_literal_and_type_is_an_expression() {
    let src = r#"{"variable": {"v": {"type": "map(string)", "default": {"k": "${not_a_template}"}, "validation": {"condition": "${length(var.v) > 0}", "error_message": "e"}}}}"#;
    let p = json(src);
    let v = only_block(&p.body);
    let ty = &v.body.attribute("type").unwrap().value;
    let ExprKind::FuncCall(call) = &ty.kind else { panic!("{ty:?}") };
    assert_eq!(call.name.full_name(), "map");
    assert_eq!(slice(src, ty.range), "map(string)");
    let ExprKind::Object(items) = &v.body.attribute("default").unwrap().value.kind else { panic!() };
    assert_eq!(items[0].value.as_string_literal().as_deref(), Some("${not_a_template}"));
    let validation = v.body.blocks_named("validation").next().unwrap();
    assert!(validation.labels.is_empty());
    assert!(validation.body.attribute("condition").is_some());
}

#[test]
fn terraform_nested_blocks() {
    let src = r#"{"terraform": {"required_providers": {"aws": {"source": "hashicorp/aws"}}, "backend": {"s3": {"bucket": "b"}}, "encryption": {"key_provider": {"pbkdf2": {"k": {"passphrase": "p"}}}}}}"#;
    let p = json(src);
    let tf = only_block(&p.body);
    let rp = tf.body.blocks_named("required_providers").next().unwrap();
    assert!(rp.labels.is_empty());
    assert!(matches!(rp.body.attribute("aws").unwrap().value.kind, ExprKind::Object(_)));
    let backend = tf.body.blocks_named("backend").next().unwrap();
    assert_eq!(backend.label(0), Some("s3"));
    let enc = tf.body.blocks_named("encryption").next().unwrap();
    let kp = enc.body.blocks_named("key_provider").next().unwrap();
    assert_eq!((kp.label(0), kp.label(1)), (Some("pbkdf2"), Some("k")));
}

#[test]
fn resource_nested_blocks() {
    let src = r#"{"resource": {"r": {"n": {"lifecycle": {"ignore_changes": ["tags"], "precondition": [{"condition": "${true}", "error_message": "x"}]}, "provisioner": {"local-exec": {"command": "echo"}}, "dynamic": {"ingress": {"for_each": "${var.i}", "content": {"port": "${ingress.value}"}}}}}}}"#;
    let p = json(src);
    let r = only_block(&p.body);
    let lifecycle = r.body.blocks_named("lifecycle").next().unwrap();
    let ExprKind::Tuple(ic) = &lifecycle.body.attribute("ignore_changes").unwrap().value.kind else { panic!() };
    assert!(matches!(&ic[0].kind, ExprKind::Variable(i) if i.name == "tags"));
    assert_eq!(lifecycle.body.blocks_named("precondition").count(), 1);
    assert_eq!(r.body.blocks_named("provisioner").next().unwrap().label(0), Some("local-exec"));
    let dynamic = r.body.blocks_named("dynamic").next().unwrap();
    assert_eq!(dynamic.label(0), Some("ingress"));
    assert_eq!(dynamic.body.blocks_named("content").count(), 1);
}

#[test]
fn tfvars_json_values_are_literal() {
    let src = r#"{"regions": ["us-east-1", "${x}"], "n": 2}"#;
    let p = parse(src, FileKind::TfvarsJson);
    assert!(p.errors.is_empty());
    let ExprKind::Tuple(items) = &p.body.attribute("regions").unwrap().value.kind else { panic!() };
    assert_eq!(items[1].as_string_literal().as_deref(), Some("${x}"));
    assert_eq!(slice(src, p.body.attribute("n").unwrap().range), "\"n\": 2");
}

#[test]
fn invalid_json_has_a_precise_error() {
    let src = "{\n  \"locals\": {\"a\": 1,}\n}";
    let p = parse(src, FileKind::TfJson);
    assert_eq!(p.errors.len(), 1);
    assert!(p.errors[0].message.starts_with("invalid JSON"), "{:?}", p.errors);
    assert_eq!(slice(src, p.errors[0].range), ",");
    assert_eq!(usize::from(p.errors[0].range.start()), src.find(",}").unwrap());

    let src = "[\n1]";
    let p = parse(src, FileKind::TfJson);
    assert!(p.errors[0].message.contains("root"));
    assert_eq!(slice(src, p.errors[0].range), "[");
    let src = r#"{"resource": {"r": ["x"]}}"#;
    let p = parse(src, FileKind::TfJson);
    assert_eq!(p.errors.len(), 1);
    assert_eq!(slice(src, p.errors[0].range), "\"x\"");
    assert!(p.errors[0].message.contains("`resource`"));
    let p = parse("{\"a\": 1} // c", FileKind::TfJson);
    assert_eq!(p.errors.len(), 1);
}

#[test]
fn hcl_errors_inside_strings_point_into_the_string() {
    let src = r#"{"resource": {"r": {"n": {"provider": "aws.[", "x": "${"}}}}"#;
    let p = parse(src, FileKind::TfJson);
    let texts: Vec<&str> = p.errors.iter().map(|e| slice(src, e.range)).collect();
    assert_eq!(texts, ["[", "$"]);
    assert_eq!(usize::from(p.errors[0].range.start()), src.find("aws.[").unwrap() + 4);
    assert_eq!(usize::from(p.errors[1].range.start()), src.find("${").unwrap());
    let body = &only_block(&p.body).body;
    assert_eq!(body.attribute("provider").unwrap().value.kind, ExprKind::Invalid);
}

#[test]
fn empty_json_and_bom() {
    assert_eq!(parse("", FileKind::TfJson), Parse::default());
    let src = "\u{feff}{\"locals\": {\"a\": 1}}";
    let p = json(src);
    let a = only_block(&p.body).body.attribute("a").unwrap();
    assert_eq!(slice(src, a.range), "\"a\": 1");
}

#[test]
fn brackets_inside_strings_are_not_nesting() {
    let src = format!("{{\"locals\": {{\"a\": \"{}\"}}}}", "[".repeat(1000));
    let p = json(&src);
    assert_eq!(only_block(&p.body).body.attributes().count(), 1);
}

/// Found by the `syntax` fuzz target (server/fuzz/regressions/syntax/json-error-range-spans-lines): a root value
/// that is a string holding a raw line break gave an error range over two lines.
#[test]
fn error_ranges_stay_on_one_line() {
    let src = "\"l\u{1}\n \u{3}c\"";
    let p = parse(src, FileKind::TfJson);
    assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
    assert_eq!(slice(src, p.errors[0].range), "\"l\u{1}");
}
