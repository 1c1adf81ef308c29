//! Values, numbers, types and conversion on their own: printing as OpenTofu prints, exactness, set order, and
//! cty's conversion and unification rules.

mod eval_support;

use eval_support::*;
use foreach_eval::render::{compact, console, console_type};
use foreach_eval::type_expr::{parse_constraint, parse_variable_type};
use foreach_eval::{Constraint, Number, Type, Value, convert, unify};

#[test]
fn numbers_print_like_opentofu() {
    let cases = [
        ("1", "1"),
        ("1.50", "1.5"),
        ("1e3", "1000"),
        ("1e21", "1000000000000000000000"),
        ("1e-7", "0.0000001"),
        ("0.1", "0.1"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("0", "0"),
    ];
    for (text, want) in cases {
        assert_eq!(Number::parse(text).unwrap().to_text(), want, "{text}");
    }
    assert_eq!(Number::from_f64(0.1).unwrap().to_text(), "0.1");
    assert_eq!(Number::from_f64(f64::INFINITY).unwrap().to_text(), "+Inf");
    assert!(Number::from_f64(f64::NAN).is_none());
    assert_eq!(Number::from_i64(i64::MIN).to_text(), "-9223372036854775808");
    assert!(Number::parse("1e99999999").is_none());
    assert!(Number::parse("abc").is_none());
    assert!(Number::parse("").is_none());
    assert!(Number::parse("1e").is_none());
}

/// A product beyond the 512-bit precision whose shortest decimal keeps every digit: Go's `roundShortest` then rounds
/// at the end of the digits, which is nothing to do (a panic here before; found by the `eval` fuzz target). The
/// expected text is what `terraform console` prints.
#[test]
fn shortest_digits_that_round_at_their_end() {
    let expr = "778-80162165981718889097188877188877801*621659817881097188877188877801*62165981788109718887789\
                *77188877801*6216598178810*97188877188877801*621659817881097188877890888";
    let want = "-89815630425835095129061198556604417027993917513805772751729739776287773553028379633643031443171778\
                774030548050851696549810778664329596890221507630542971144";
    assert_eq!(ev(expr), want);
}

#[test]
fn number_arithmetic_is_exact_where_cty_is() {
    let n = |s: &str| Number::parse(s).unwrap();
    assert_eq!(n("9007199254740993").add(&n("1")).to_text(), "9007199254740994");
    assert_eq!(n("0.1").add(&n("0.2")).to_text(), "0.3");
    assert_eq!(n("2").div(&n("3")).unwrap().to_text().len(), 156);
    assert!(n("0").div(&n("0")).is_none());
    assert_eq!(n("7").rem(&n("0")).unwrap().to_text(), "7");
    assert_eq!(n("-2.5").floor().to_text(), "-3");
    assert_eq!(n("2.5").ceil().to_text(), "3");
    assert_eq!(n("1e400").cmp_num(&n("1e399")), std::cmp::Ordering::Greater);
    assert_eq!(n("-0").cmp_num(&n("0")), std::cmp::Ordering::Equal);
    assert_eq!(n("3.14159").to_fixed(2), "3.14");
    assert_eq!(n("2.5").to_fixed(0), "2");
    assert_eq!(n("1234.5").to_exponent(3, false), "1.234e+03");
}

#[test]
fn sets_are_ordered_the_cty_way() {
    assert_eq!(c("toset([\"b\", \"B\", \"a\", \"10\", \"9\"])"), "toset([\"10\", \"9\", \"B\", \"a\", \"b\"])");
    assert_eq!(c("toset([10, 9, -1, 1.5])"), "toset([-1, 1.5, 9, 10])");
    assert_eq!(c("toset([true, false, true])"), "toset([false, true])");
}

#[test]
fn console_rendering() {
    assert_eq!(
        ev("{ a = [1, \"x\"], b = tomap({ c = null }) }"),
        "{\n  \"a\" = [\n    1,\n    \"x\",\n  ]\n  \"b\" = tomap({\n    \"c\" = null\n  })\n}"
    );
    assert_eq!(ev("\"a\\nb\""), "<<EOT\na\nb\nEOT");
    assert_eq!(ev("[\"EOT\\nx\"]"), "[\n  <<-EOT_\n  EOT\n  x\n  EOT_,\n]");
    assert_eq!(ev("tolist(null)"), "tolist(null) /* of dynamic */");
    assert_eq!(ev("\"tab\\t\\u0001\""), "\"tab\\t\\x01\"");
}

#[test]
fn types_print_like_console_type() {
    let (v, _) = eval_in("", "{ a = [1, \"x\"], b = tolist([{ c = true }]), d = tomap({ e = tolist([1]) }) }");
    assert_eq!(
        console_type(&v.type_of()),
        "object({\n    a: tuple([\n        number,\n        string,\n    ]),\n    b: list(\n        object({\n            c: bool,\n        }),\n    ),\n    d: map(list(number)),\n})"
    );
}

#[test]
fn unification() {
    let t = |v: Vec<Type>| unify(v.into_iter());
    assert_eq!(t(vec![Type::Number, Type::String]), Some(Type::String));
    assert_eq!(t(vec![Type::Number, Type::Bool]), None);
    assert_eq!(t(vec![Type::Dynamic, Type::Bool]), Some(Type::Bool));
    assert_eq!(t(vec![]), Some(Type::Dynamic));
    let obj = |k: &str| Type::Object(std::sync::Arc::new([(k.to_string(), Type::Number)].into_iter().collect()));
    assert_eq!(t(vec![obj("a"), obj("b")]), Some(Type::Map(Box::new(Type::Number))));
    assert_eq!(t(vec![obj("a"), obj("a")]), Some(obj("a")));
    assert_eq!(
        t(vec![Type::Tuple(vec![Type::Number].into()), Type::Tuple(vec![Type::Number, Type::String].into())]),
        Some(Type::List(Box::new(Type::String)))
    );
}

fn constraint(text: &str) -> Constraint {
    let e = foreach_syntax::parse_expr(text).unwrap();
    let eval_default =
        |e: &foreach_syntax::ast::Expr| foreach_eval::eval_literal_expr(EXPR_FILE, e).map_err(|d| d[0].message.clone());
    parse_constraint(&e, &eval_default).unwrap()
}

#[test]
fn type_constraints_parse_and_display() {
    for text in [
        "string",
        "list(number)",
        "map(set(bool))",
        "tuple([string, any])",
        "object({a = string, b = optional(number)})",
    ] {
        assert_eq!(constraint(text).display(), text);
    }
    let bad = |text: &str| {
        let e = foreach_syntax::parse_expr(text).unwrap();
        parse_constraint(&e, &|_| Ok(Value::null())).unwrap_err().message
    };
    assert!(bad("list").contains("requires one argument"));
    assert!(bad("strin").contains("not a valid type"));
    assert!(bad("optional(string)").contains("only allowed for object attributes"));
    assert!(bad("list(string, number)").contains("requires one argument"));
    assert!(bad("\"string\"").contains("a type specification is required"));
    // OpenTofu's legacy shorthands, for a variable's whole type only.
    let var_type = |text: &str| {
        let e = foreach_syntax::parse_expr(text).unwrap();
        parse_variable_type(&e, &|_| Ok(Value::null())).map(|c| c.display()).map_err(|e| e.message)
    };
    assert_eq!(var_type("map"), Ok("map(any)".to_string()));
    assert_eq!(var_type("list"), Ok("list(any)".to_string()));
    assert_eq!(var_type("(list)"), Ok("list(any)".to_string()));
    assert!(var_type("set").unwrap_err().contains("requires one argument"));
    assert!(var_type("list(map)").unwrap_err().contains("requires one argument"));
}

#[test]
fn conversion_rules() {
    let v = |s: &str| eval_in("", s).0;
    let conv = |val: &str, ty: &str| convert(&v(val), &constraint(ty)).map(|x| compact(&x)).map_err(|e| e.to_string());
    assert_eq!(conv("[1, 2]", "list(string)").unwrap(), "tolist([\"1\", \"2\"])");
    assert_eq!(conv("{ a = 1 }", "map(string)").unwrap(), "tomap({\"a\" = \"1\"})");
    assert_eq!(conv("\"true\"", "bool").unwrap(), "true");
    assert_eq!(conv("[\"a\", 1]", "tuple([string, string])").unwrap(), "[\"a\", \"1\"]");
    assert_eq!(
        conv("{ a = {} }", "object({ a = object({ b = optional(string, \"d\") }) })").unwrap(),
        "{\"a\" = {\"b\" = \"d\"}}"
    );
    assert_eq!(conv("null", "list(string)").unwrap(), "null");
    assert_eq!(console(&v("tolist(null)")), "tolist(null) /* of dynamic */");
    assert_eq!(conv("[1]", "bool").unwrap_err(), "a bool is required");
    assert_eq!(
        conv("{ a = [\"x\"] }", "map(list(number))").unwrap_err(),
        "at `[\"a\"][0]`: cannot convert \"x\" to number; given string must be a decimal representation of a number"
    );
    assert_eq!(conv("[1, 2]", "tuple([number])").unwrap_err(), "tuple required with exactly 1 elements");
    assert_eq!(conv("{}", "object({ a = string })").unwrap_err(), "attribute \"a\" is required");
    assert_eq!(
        conv("[[1], [\"a\", true]]", "list(any)").unwrap(),
        "tolist([tolist([\"1\"]), tolist([\"a\", \"true\"])])"
    );
}
