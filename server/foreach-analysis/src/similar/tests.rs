//! The table test of the RFC's rules: for each rule at least three pairs that are too similar and three that are
//! not, each written as two HCL expressions. Every pair is checked in both orders (the relation is symmetric).

use super::*;
use foreach_syntax::parse_expr;

/// `(rule, a, b, too similar?)`.
const TABLE: &[(&str, &str, &str, bool)] = &[
    // No references: never similar, even when identical; a reference anywhere makes literals count.
    ("no-references", r#"{"foo" = "bar"}"#, r#"{"foo" = "bar"}"#, false),
    ("no-references", r#"toset(["foo", "bar"])"#, r#"toset(["foo", "bar"])"#, false),
    ("no-references", "[for x in [1, 2] : x]", "[for x in [1, 2] : x]", false),
    ("no-references", r#""${1}-a""#, r#""${1}-a""#, false),
    ("no-references", "{ k = 1 }", "{ k = 1 }", false),
    ("no-references", r#"{"foo" = local.i + -2}"#, r#"{"foo" = local.i + -2}"#, true),
    ("no-references", "[for x in var.l : x]", "[for x in var.l : x]", true),
    ("no-references", "each.value", "each.value", true),
    // Parentheses are transparent, on either side and nested.
    ("parentheses", "(local.stuff)", "local.stuff", true),
    ("parentheses", "((var.x))", "(var.x)", true),
    ("parentheses", "(var.x).a", "var.x.a", true),
    ("parentheses", "(var.a + var.b) * 2", "(var.a + var.b) * 2", true),
    ("parentheses", "(var.x)", "var.y", false),
    ("parentheses", "(var.a + var.b) * 2", "var.a + var.b * 2", false),
    ("parentheses", "(local.stuff)", "[local.stuff]", false),
    // Traversals: root and attribute names byte for byte, index steps by `==` on their values, same step kinds.
    ("traversal", "var.aws_regions", "var.aws_regions", true),
    ("traversal", r#"var.foo["bar"]"#, r#"var.foo["bar"]"#, true),
    ("traversal", "var.foo[1]", "var.foo[1.0]", true),
    ("traversal", "var.foo.0", "var.foo[0]", true),
    ("traversal", "local.a.b.c", "local.a.b.c", true),
    ("traversal", "var.aws_regions", "local.aws_regions", false),
    ("traversal", "var.foo.bar", r#"var.foo["bar"]"#, false),
    ("traversal", "var.foo[0]", r#"var.foo["0"]"#, false),
    ("traversal", "var.Regions", "var.regions", false),
    ("traversal", "var.foo", "var.foo.bar", false),
    ("traversal", "var.a[*].b", "var.a[*].b", false),
    // Literals inside a larger expression with a reference: equal by `==`.
    ("literal", "var.a + 1", "var.a + 1.0", true),
    ("literal", "var.a == null", "var.a == null", true),
    ("literal", "var.a && true", "var.a && true", true),
    ("literal", r#"var.a == "x""#, r#"var.a == "x""#, true),
    ("literal", "var.a + 1", "var.a + 2", false),
    ("literal", r#"var.a == 1"#, r#"var.a == "1""#, false),
    ("literal", "var.a && true", "var.a && false", false),
    ("literal", "var.a == null", "var.a == false", false),
    // Function calls: the same name as written, the same number of arguments, arguments similar.
    ("function", "toset(var.regions)", "toset(var.regions)", true),
    ("function", "merge(var.a, var.b)", "merge(var.a, var.b)", true),
    ("function", "keys(var.m)", "(keys((var.m)))", true),
    ("function", r#"lookup(var.m, "k", 1)"#, r#"lookup(var.m, "k", 1.0)"#, true),
    ("function", "toset(var.regions)", "core::toset(var.regions)", false),
    ("function", "toset(var.regions)", "tolist(var.regions)", false),
    ("function", "merge(var.a, var.b)", "merge(var.b, var.a)", false),
    ("function", "merge(var.a)", "merge(var.a, {})", false),
    // Conditionals: predicate and both results similar.
    ("conditional", "var.on ? var.a : {}", "var.on ? var.a : {}", true),
    ("conditional", "(var.on) ? var.a : var.b", "var.on ? (var.a) : var.b", true),
    ("conditional", "var.n > 1 ? var.a : var.b", "var.n > 1.0 ? var.a : var.b", true),
    ("conditional", "var.on ? var.a : {}", "var.off ? var.a : {}", false),
    ("conditional", "var.on ? var.a : var.b", "var.on ? var.b : var.a", false),
    ("conditional", "var.on ? var.a : {}", "var.on ? var.a : []", false),
    // Index expressions with a dynamic key: the collection and the key similar.
    ("dynamic-index", "var.m[local.k]", "var.m[local.k]", true),
    ("dynamic-index", "var.m[each.key].regions", "var.m[each.key].regions", true),
    ("dynamic-index", "merge(var.a)[var.k]", "merge(var.a)[var.k]", true),
    ("dynamic-index", "var.m[local.k + 1]", "var.m[local.k + 1.0]", true),
    ("dynamic-index", "var.m[local.k]", "var.m[local.j]", false),
    ("dynamic-index", "var.m[local.k]", "var.n[local.k]", false),
    ("dynamic-index", r#"var.m[local.k]"#, r#"var.m["k"]"#, false),
    ("dynamic-index", "var.m[local.k].a", "var.m[local.k].b", false),
    // Tuple constructors: the same length, elements similar in order.
    ("tuple", "[var.a, var.b]", "[var.a, var.b]", true),
    ("tuple", "[var.a, 1]", "[var.a, 1.0]", true),
    ("tuple", "[[var.a]]", "[([var.a])]", true),
    ("tuple", "[var.a, var.b]", "[var.b, var.a]", false),
    ("tuple", "[var.a]", "[var.a, var.a]", false),
    ("tuple", "[var.a]", "{ a = var.a }", false),
    // Object constructors: the same length, keys and values similar in source order; `k` and `"k"` are one key.
    ("object", "{ a = var.a, b = var.b }", "{ a = var.a, b = var.b }", true),
    ("object", r#"{ "a" = var.a }"#, "{ a = var.a }", true),
    ("object", "{ (local.k) = var.a }", "{ (local.k) = var.a }", true),
    ("object", r#"{ ("a") = var.a }"#, "{ a = var.a }", true),
    ("object", r#"{"foo" = local.i + -2}"#, r#"{"foo": local.i + -2}"#, true),
    ("object", "{ a = var.a, b = var.b }", "{ b = var.b, a = var.a }", false),
    ("object", "{ a = var.a }", "{ b = var.a }", false),
    ("object", "{ a = var.a }", "{ a = var.a, b = 1 }", false),
    ("object", "{ (a) = var.a }", "{ a = var.a }", false),
    // `for` expressions: the same temporary names, collection/key/value/condition similar, the same grouping.
    ("for", "{ for k, v in var.m : k => v }", "{ for k, v in var.m : k => v }", true),
    ("for", "[for v in var.l : v if v != null]", "[for v in var.l : v if v != null]", true),
    ("for", "{ for k, v in var.m : v.g => k... }", "{ for k, v in (var.m) : v.g => k... }", true),
    (
        "for",
        "{ for k, v in var.m : k => v if try(v.enabled, true) }",
        "{ for k, v in var.m : k => v if try(v.enabled, true) }",
        true,
    ),
    ("for", "{ for k, v in var.m : k => v }", "{ for key, v in var.m : key => v }", false),
    ("for", "{ for k, v in var.m : v.g => k... }", "{ for k, v in var.m : v.g => k }", false),
    ("for", "[for v in var.l : v if v != null]", "[for v in var.l : v]", false),
    ("for", "{ for k, v in var.m : k => v }", "[for k, v in var.m : v]", false),
    ("for", "{ for k, v in var.m : k => v if try(v.enabled, true) }", "var.m", false),
    // Binary operations: the same operator, both operands similar (no commutativity).
    ("binary", "var.a + var.b", "var.a + var.b", true),
    ("binary", "var.a * 2", "var.a * 2.00", true),
    ("binary", "var.a || var.b && var.c", "var.a || (var.b && var.c)", true),
    ("binary", "var.a + var.b", "var.b + var.a", false),
    ("binary", "var.a + var.b", "var.a - var.b", false),
    ("binary", "var.a == var.b", "var.a != var.b", false),
    // Unary operations: the same operator, the operand similar.
    ("unary", "-var.n", "-var.n", true),
    ("unary", "!var.on", "!(var.on)", true),
    ("unary", "-local.i + 2", "-local.i + 2", true),
    ("unary", "-var.n", "var.n", false),
    ("unary", "!var.on", "!var.off", false),
    ("unary", "-var.n", "!var.n", false),
    // Templates: the same number of parts, parts similar; a single interpolation is a one-part template (RFC).
    ("template", r#""${local.x}""#, r#""${local.x}""#, true),
    ("template", r#""${var.env}-${var.region}""#, r#""${var.env}-${var.region}""#, true),
    ("template", r#""%{if var.on}${var.a}%{endif}""#, r#""%{if var.on}${var.a}%{endif}""#, true),
    ("template", "<<EOT\n${var.a}\nEOT", r#""${var.a}\n""#, true),
    ("template", r#""${local.x}""#, "local.x", false),
    ("template", r#""${var.env}-${var.region}""#, r#""${var.env}_${var.region}""#, false),
    ("template", r#""${var.env}-${var.region}""#, r#""${var.env}-""#, false),
    ("template", r#""%{for r in var.l}${r}%{endfor}""#, r#""%{for r in var.l}${r}%{endfor}""#, false),
    // Anything else, and any two different kinds: never similar.
    ("other", "var.l[*].id", "var.l[*].id", false),
    ("other", "var.l.*.id", "var.l.*.id", false),
    ("other", "toset(var.l)", "[var.l]", false),
    ("other", "var.m", "{ for k, v in var.m : k => v }", false),
];

fn expr(src: &str) -> Expr {
    parse_expr(src).unwrap_or_else(|e| panic!("`{src}` does not parse: {}", e.message))
}

#[test]
fn the_rfc_table() {
    let mut failures = Vec::new();
    for (rule, a, b, want) in TABLE {
        let (ea, eb) = (expr(a), expr(b));
        for (x, y, xs, ys) in [(&ea, &eb, a, b), (&eb, &ea, b, a)] {
            if too_similar(x, y) != *want {
                failures.push(format!("[{rule}] `{xs}` vs `{ys}`: expected {want}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_has_three_positive_and_three_negative_cases() {
    let rules = [
        "no-references",
        "parentheses",
        "traversal",
        "literal",
        "function",
        "conditional",
        "dynamic-index",
        "tuple",
        "object",
        "for",
        "binary",
        "unary",
        "template",
    ];
    for rule in rules {
        let count = |want: bool| TABLE.iter().filter(|(r, _, _, w)| *r == rule && *w == want).count();
        assert!(count(true) >= 3 && count(false) >= 3, "{rule}: {} positive, {} negative", count(true), count(false));
    }
    assert!(TABLE.iter().filter(|(r, ..)| *r == "other").count() >= 3);
}

#[test]
fn for_temporaries_are_not_references() {
    assert!(!has_reference(&expr("[for x in [1] : x]")));
    assert!(!has_reference(&expr(r#""%{for s in ["a"]}${s}%{endfor}""#)));
    assert!(!has_reference(&expr("{ foo = 1 }")));
    assert!(has_reference(&expr("[for x in [1] : y]")));
    assert!(has_reference(&expr("[for x in [1] : [for y in [2] : x + y + z]]")));
    assert!(has_reference(&expr("{ (k) = 1 }")));
}

#[test]
fn first_line_clips_multi_line_ranges() {
    let text = "for_each = merge(\n  var.a,\n)";
    let e = expr(&text[11..]);
    let range = TextRange::new(e.range.start() + TextSize::from(11), e.range.end() + TextSize::from(11));
    assert_eq!(&text[first_line(text, range)], "merge(");
}

/// Every `for_each` value in a file, in source order, blocks nested at any depth.
fn for_each_values(body: &foreach_syntax::ast::Body) -> Vec<&Expr> {
    let mut out = Vec::new();
    for s in &body.structures {
        match s {
            foreach_syntax::ast::Structure::Attribute(a) if a.key.name == "for_each" => out.push(a.value.as_ref()),
            foreach_syntax::ast::Structure::Attribute(_) => {}
            foreach_syntax::ast::Structure::Block(b) => out.extend(for_each_values(&b.body)),
        }
    }
    out
}

#[test]
fn json_expressions_are_compared_like_native_ones() {
    // OpenTofu's own JSON fixture: both sides `${local.instances}`. OpenTofu stays silent; the RFC's rules apply.
    let json = r#"{
  "locals": { "instances": { "a": {}, "b": {} } },
  "provider": { "aws": { "alias": "by_key", "for_each": "${local.instances}" } },
  "resource": { "aws_vpc": { "x": { "for_each": "${local.instances}", "provider": "aws.by_key[each.key]" } } }
}"#;
    let parsed = foreach_syntax::parse(json, foreach_syntax::FileKind::TfJson);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let values = for_each_values(&parsed.body);
    assert_eq!(values.len(), 2);
    assert!(too_similar(values[0], values[1]));
    // And a JSON expression matches the same expression written natively.
    assert!(too_similar(values[0], &expr(r#""${local.instances}""#)));
}

#[test]
fn json_sites_get_the_warning_without_a_fix() {
    let json = r#"{"resource": {"aws_vpc": {"x": {"for_each": "${local.instances}"}}}}"#;
    let parsed = foreach_syntax::parse(json, foreach_syntax::FileKind::TfJson);
    let value = for_each_values(&parsed.body)[0];
    let site = SimilarSite {
        user: SimilarUser::Resource,
        file: FileId(1),
        file_kind: foreach_syntax::FileKind::TfJson,
        text: json,
        for_each: value,
        address: "aws_vpc.x",
        provider: "aws.by_key",
        providers_entry: None,
        provider_for_each: FileRange::new(FileId(1), value.range),
        collection: CollectionKind::ObjectMap,
        variable: None,
    };
    let d = too_similar_diagnostic(&site);
    assert_eq!(d.code, Code::TooSimilarForEach);
    assert!(d.fixes.is_empty());
}

#[test]
fn the_message_names_the_provider_the_entry_and_the_fix() {
    let text = "for_each = var.regions";
    let value = expr("var.regions");
    let shifted = Expr::new(value.kind.clone(), TextRange::at(TextSize::from(11), value.range.len()));
    let site = |entry| SimilarSite {
        user: SimilarUser::Module,
        file: FileId(1),
        file_kind: foreach_syntax::FileKind::Tf,
        text,
        for_each: &shifted,
        address: "module.network",
        provider: "aws.by_region",
        providers_entry: entry,
        provider_for_each: FileRange::new(FileId(2), TextRange::default()),
        collection: CollectionKind::ObjectMap,
        variable: None,
    };
    let (a, b) = (too_similar_diagnostic(&site(Some("aws"))), too_similar_diagnostic(&site(Some("aws.east"))));
    assert_ne!(a.message, b.message, "two keyed entries must stay two diagnostics");
    assert!(a.message.contains("`aws.by_region` (passed as `aws`)") && a.message.contains("`enabled`"));
    assert_eq!(&text[a.location.range], "var.regions");
    assert_eq!(a.related[0].location.file, FileId(2));
    // The escape targets one instance of the module call: `-target='module.network'` would destroy them all.
    assert!(a.related[0].message.contains(r#"`tofu apply -destroy -target='module.network["<key>"]'`"#), "{a:?}");
    assert!(!a.related[0].message.contains("-target=module.network"), "{a:?}");
    assert_eq!(a.fixes.len(), 1);
    // Without the variable's declaration the filter cannot be known to work: offered, not applied.
    assert!(!a.fixes[0].automatic);
    assert_eq!(check_too_similar(&site(Some("aws")), &expr("(var.regions)")), Some(a));
    assert_eq!(check_too_similar(&site(Some("aws")), &expr("local.regions")), None);
}
