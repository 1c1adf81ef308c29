//! Budgets: huge results, deep nesting and long loops end in an `evaluation-limit` diagnostic, never in a stack
//! overflow, an out-of-memory or a hang; and random small expressions never panic.

mod eval_support;

use eval_support::*;
use foreach_base::diagnostics::Code;
use foreach_eval::budget::Budget;
use foreach_eval::{EvalContext, ModuleScope};
use proptest::prelude::*;

/// Evaluates with small limits (the defaults are a million elements, 16 MiB and 5 million steps: the same
/// code paths, just slower to reach in a debug build).
fn limited(expr: &str) {
    let mut inputs = inputs("", Vec::new());
    inputs.budget = Budget { max_collection: 10_000, max_string: 100_000, max_steps: 200_000, ..Budget::default() };
    let s = ModuleScope::new(inputs);
    let (v, d) = eval_with(&s, expr);
    assert!(v.is_unknown(), "`{expr}` should be unknown");
    assert!(d.iter().any(|d| d.code == Code::EvaluationLimit), "`{expr}`: {d:#?}");
}

#[test]
fn huge_collections_hit_the_size_limit() {
    limited("range(1e9)");
    limited("range(0, 1e12, 0.5)");
    limited("setproduct(range(1000), range(1000), range(1000))");
    limited("length(range(20000))");
    // The default limits apply without any configuration.
    let (v, d) = eval_in("", "range(1e9)");
    assert!(v.is_unknown() && d[0].code == Code::EvaluationLimit);
    assert!(d[0].message.contains("1000000000 elements"), "{}", d[0].message);
    limited("[for x in range(1000) : [for y in range(1000) : [for z in range(1000) : z]]]");
}

#[test]
fn huge_strings_hit_the_size_limit() {
    limited("join(\"\", [for i in range(9000) : \"0123456789abcdefghijklmnop\"])");
    limited("\"%{ for i in range(9000) }0123456789abcdefghijklmnop%{ endfor }\"");
    limited("format(\"%99999999s\", \"x\")");
}

#[test]
fn steps_are_bounded() {
    let mut inputs = inputs("", Vec::new());
    inputs.budget = Budget { max_steps: 10_000, ..Budget::default() };
    let s = ModuleScope::new(inputs);
    let e = foreach_syntax::parse_expr("[for x in range(100) : [for y in range(100) : x * y]]").unwrap();
    let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
    assert!(v.is_unknown());
    assert!(s.diagnostics().iter().any(|d| d.code == Code::EvaluationLimit && d.message.contains("steps")));
}

#[test]
fn deep_nesting_is_bounded() {
    let mut inputs = inputs("", Vec::new());
    inputs.budget = Budget { max_depth: 40, ..Budget::default() };
    let s = ModuleScope::new(inputs);
    let deep = format!("{}1{}", "[".repeat(60), "]".repeat(60));
    let e = foreach_syntax::parse_expr(&deep).unwrap();
    s.eval(EXPR_FILE, &e, &EvalContext::default());
    assert!(s.diagnostics().iter().any(|d| d.code == Code::EvaluationLimit && d.message.contains("nesting")));
}

#[test]
fn long_local_chains_need_no_recursion() {
    // 5,000 locals, each using the previous one: evaluated in dependency order, not recursively.
    let mut m = String::from("locals {\n  l0 = 0\n");
    for i in 1..5000 {
        m.push_str(&format!("  l{i} = local.l{} + 1\n", i - 1));
    }
    m.push_str("}\n");
    let s = scope(&m);
    assert_eq!(foreach_eval::render::compact(&s.local_value("l4999").unwrap()), "4999");
}

#[test]
fn values_nested_through_locals_are_bounded() {
    // Each local wraps the previous one: without a bound, printing or dropping the last value would recurse
    // 3,000 levels deep.
    let mut m = String::from("locals {\n  l0 = 0\n");
    for i in 1..3000 {
        m.push_str(&format!("  l{i} = [local.l{}]\n", i - 1));
    }
    m.push_str("}\n");
    let s = scope(&m);
    let values = s.evaluate_all();
    let d = s.diagnostics();
    // The refused value becomes unknown, which the next locals wrap again: every 256th local is refused.
    assert_eq!(d.len(), 11, "{d:#?}");
    assert!(d.iter().all(|d| d.code == Code::EvaluationLimit));
    assert!(d[0].message.contains("`local.l256`: the value nests 257 levels deep"), "{}", d[0].message);
    let last = &values.locals.last().unwrap().1;
    assert!(last.depth() <= 256);
    let _ = foreach_eval::render::console(last);
}

#[test]
fn nesting_through_merge_for_and_splat_is_bounded() {
    // The depth bound is computed from the expression and the bounds of the locals it uses (`merge` and
    // `local.x` add nothing, constructors and `for` one level, a splat may wrap): every way of nesting one level
    // per local must still be caught, at the local that passes the limit.
    for (what, step) in [
        ("merge", "merge(local.p, { k = local.p })"),
        ("for", "{ for k, v in { a = local.p } : k => v }"),
        ("nested for", "[for x in [local.p] : x]"),
        ("splat", "({ a = local.p })[*]"),
        ("conditional", "true ? { a = local.p } : null"),
        ("try", "try({ a = local.p }, null)"),
        ("shadowing binding", "[for var in [{ a = local.p }] : var.a]"),
    ] {
        let mut m = String::from("locals {\n  l0 = {}\n");
        for i in 1..400 {
            m.push_str(&format!("  l{i} = {}\n", step.replace("local.p", &format!("local.l{}", i - 1))));
        }
        m.push_str("}\n");
        let s = scope(&m);
        let values = s.evaluate_all();
        let d = s.diagnostics();
        assert!(!d.is_empty(), "{what}: no limit diagnostic");
        assert!(d.iter().all(|d| d.code == Code::EvaluationLimit), "{what}: {d:#?}");
        assert!(d[0].message.contains("levels deep"), "{what}: {}", d[0].message);
        for (_, v) in &values.locals {
            assert!(v.depth() <= 256, "{what}");
        }
    }
}

#[test]
fn hostile_json_and_regex_are_rejected() {
    let deep = format!("jsondecode(\"{}{}\")", "[".repeat(500), "]".repeat(500));
    assert!(fails(&deep).contains("nesting too deep"));
    assert!(fails("regex(\"(\", \"x\")").contains("invalid regular expression"));
}

fn expr_strategy() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("1".to_string()),
        Just("-2.5".to_string()),
        Just("\"s\"".to_string()),
        Just("null".to_string()),
        Just("true".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("local.x".to_string()),
        Just("var.v".to_string()),
        Just("data.a.b".to_string()),
        Just("each.key".to_string()),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{ k = {a}, j = {b} }}")),
            (
                inner.clone(),
                inner.clone(),
                prop_oneof![Just("+"), Just("%"), Just("/"), Just("=="), Just("&&"), Just("<")]
            )
                .prop_map(|(a, b, op)| format!("({a} {op} {b})")),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| format!("({a} ? {b} : {c})")),
            inner.clone().prop_map(|a| format!("[for x in {a} : x]")),
            inner.clone().prop_map(|a| format!("{{ for k, v in {a} : k => v... }}")),
            inner.clone().prop_map(|a| format!("\"${{{a}}}%{{ for x in {a} }}${{x}}%{{ endfor }}\"")),
            inner.clone().prop_map(|a| format!("{a}[0]")),
            inner.clone().prop_map(|a| format!("{a}.k")),
            inner.clone().prop_map(|a| format!("{a}[*].k")),
            (
                prop_oneof![
                    Just("length"),
                    Just("tolist"),
                    Just("toset"),
                    Just("tomap"),
                    Just("keys"),
                    Just("values"),
                    Just("flatten"),
                    Just("jsonencode"),
                    Just("upper"),
                    Just("sum"),
                    Just("sort"),
                    Just("distinct"),
                    Just("one"),
                    Just("abs"),
                    Just("tostring"),
                    Just("yamlencode"),
                    Just("compact"),
                    Just("reverse")
                ],
                inner.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (
                prop_oneof![
                    Just("merge"),
                    Just("concat"),
                    Just("coalesce"),
                    Just("setunion"),
                    Just("setproduct"),
                    Just("zipmap"),
                    Just("format"),
                    Just("lookup"),
                    Just("element"),
                    Just("range"),
                    Just("max")
                ],
                inner.clone(),
                inner
            )
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]
    #[test]
    fn random_expressions_never_panic(expr in expr_strategy()) {
        let module = "variable \"v\" {\n  default = [1, \"a\"]\n  sensitive = true\n}\nlocals {\n  x = { k = [1, 2] }\n}\n";
        if let Ok(e) = foreach_syntax::parse_expr(&expr) {
            let s = scope(module);
            let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
            let _ = foreach_eval::render::console(&v);
            let _ = s.diagnostics();
        }
    }
}

/// Text made of the characters YAML, gzip headers and base64 care about, passed to the decoders as an HCL string.
fn hostile_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("-"),
            Just(":"),
            Just(" "),
            Just("  "),
            Just("\t"),
            Just("\n"),
            Just("["),
            Just("]"),
            Just("{"),
            Just("}"),
            Just(","),
            Just("&a"),
            Just("*a"),
            Just("<<"),
            Just("!!str"),
            Just("!!int"),
            Just("!x"),
            Just("?"),
            Just("|"),
            Just(">"),
            Just("'"),
            Just("\""),
            Just("#"),
            Just("%YAML 1.1"),
            Just("---"),
            Just("..."),
            Just("yes"),
            Just("0x1F"),
            Just(".inf"),
            Just("2001-12-14"),
            Just("H4sI"),
            Just("="),
            Just("AAAA"),
            Just("/w=="),
            Just("é"),
            Just("\u{FEFF}"),
            Just("a"),
            Just("1"),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]
    #[test]
    fn hostile_decoder_input_never_panics(text in hostile_text(), f in prop_oneof![
        Just("yamldecode(@)"), Just("base64gunzip(@)"), Just("textdecodebase64(@, \"Shift_JIS\")"),
        Just("textdecodebase64(@, \"UTF-16\")"), Just("textencodebase64(@, \"ISO-2022-JP\")"),
        Just("base64gunzip(base64gzip(@))"),
    ]) {
        let expr = f.replace('@', &foreach_eval::render::go_quote(&text));
        let parsed = foreach_syntax::parse_expr(&expr);
        prop_assert!(parsed.is_ok(), "{expr} does not parse");
        if let Ok(e) = parsed {
            let s = scope("");
            let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
            let _ = foreach_eval::render::console(&v);
            let d = s.diagnostics();
            // Either a value or an error diagnostic with the call's location, never both missing.
            prop_assert!(v.is_wholly_known() || !d.is_empty(), "{expr}: unknown without a diagnostic");
            if f == "base64gunzip(base64gzip(@))" {
                prop_assert_eq!(v.as_str(), Some(text.as_str()));
            }
        }
    }
}
