//! Module scopes: variables (supplied values, defaults, type constraints, `optional`, nullability, sensitivity),
//! locals (lazy evaluation, chains, cycles), undefined references, and why values are unknown.

mod eval_support;

use eval_support::*;
use foreach_base::FileRange;
use foreach_base::diagnostics::Code;
use foreach_eval::render::{compact, console};
use foreach_eval::{DynamicKind, EvalContext, ModuleScope, SuppliedValue, UnknownCause, Value, ValueSource, cli_value};
use foreach_syntax::TextRange;

fn supplied(v: Value) -> SuppliedValue {
    SuppliedValue { value: v, source: ValueSource::CommandLine, provisional: None }
}

fn tfvars(expr: &str) -> SuppliedValue {
    let e = foreach_syntax::parse_expr(expr).unwrap();
    let v = foreach_eval::eval_literal_expr(EXPR_FILE, &e).unwrap();
    SuppliedValue {
        value: v,
        source: ValueSource::Tfvars(FileRange::new(EXPR_FILE, TextRange::new(0.into(), 1.into()))),
        provisional: None,
    }
}

fn unknown_chain(v: &Value, origin: &str) -> String {
    v.first_unknown().map(|r| r.chain_text(origin)).unwrap_or_else(|| "known".into())
}

#[test]
fn locals_chain_and_memoise() {
    let m = r#"
locals {
  a = local.b + 1
  b = local.c * 2
  c = 20
}
"#;
    assert_eq!(ev_in(m, "local.a"), "41");
    let s = scope(m);
    assert_eq!(compact(&s.local_value("b").unwrap()), "40");
    assert!(s.local_value("zzz").is_none());
    assert!(s.diagnostics().is_empty());
}

#[test]
fn dynamic_reference_chain_names_every_hop() {
    let m = r#"
locals {
  regions    = local.all
  all        = data.aws_regions.all.names
  account_id = aws_organizations_account.x.id
}
"#;
    let (v, d) = eval_in(m, "local.regions");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        unknown_chain(&v, "provider \"aws\" (by_region) for_each"),
        "provider \"aws\" (by_region) for_each -> local.regions -> local.all -> data.aws_regions.all"
    );
    let r = v.first_unknown().unwrap();
    assert!(
        matches!(&r.cause, UnknownCause::DynamicReference { kind: DynamicKind::Data, reference, .. } if reference == "data.aws_regions.all")
    );
    assert_eq!(r.explanation(), "`data.aws_regions.all` is only known after apply");
    assert_eq!(r.hops.len(), 2);
    let (v, _) = eval_in(m, "local.account_id");
    assert_eq!(unknown_chain(&v, "for_each"), "for_each -> local.account_id -> aws_organizations_account.x");
    let (v, _) = eval_in(m, "module.net.ids");
    assert_eq!(unknown_chain(&v, "for_each"), "for_each -> module.net.ids");
}

#[test]
fn each_count_self_outside_their_block_are_unknown() {
    for (e, kind) in
        [("each.key", DynamicKind::Each), ("count.index", DynamicKind::Count), ("self.id", DynamicKind::SelfRef)]
    {
        let (v, d) = eval_in("", e);
        assert!(d.is_empty());
        assert!(
            matches!(&v.first_unknown().unwrap().cause, UnknownCause::DynamicReference { kind: k, .. } if *k == kind),
            "{e}"
        );
    }
}

#[test]
fn each_and_count_inside_their_block() {
    let s = scope("");
    let e = foreach_syntax::parse_expr("\"${each.key}=${each.value}/${count.index}\"").unwrap();
    let ctx = EvalContext {
        each: Some((Value::string("k"), Value::string("v"))),
        count: Some(Value::int(3)),
        origin: "x".into(),
    };
    assert_eq!(compact(&s.eval(EXPR_FILE, &e, &ctx)), "\"k=v/3\"");
}

#[test]
fn unknown_propagates_through_operations() {
    let m = "locals {\n  x = data.a.b.c\n}\n";
    for e in [
        "local.x + 1",
        "\"${local.x}\"",
        "upper(local.x)",
        "[for v in local.x : v]",
        "local.x ? 1 : 2",
        "local.x[0]",
        "local.x.attr",
        "{ (local.x) = 1 }",
    ] {
        let (v, d) = eval_in(m, e);
        assert!(d.is_empty(), "{e}: {d:?}");
        assert!(v.is_unknown(), "{e} should be unknown, got {}", compact(&v));
    }
    // Known parts stay known.
    let (v, _) = eval_in(m, "[1, local.x]");
    assert!(!v.is_unknown() && !v.is_wholly_known());
    let (v, _) = eval_in(m, "length([1, local.x])");
    assert_eq!(compact(&v), "2");
    let (v, _) = eval_in(m, "false && local.x");
    assert_eq!(compact(&v), "false");
    let (v, _) = eval_in(m, "try(local.x, 1)");
    assert!(v.is_unknown());
}

#[test]
fn impure_and_provider_functions_are_unknown_with_reason() {
    let (v, d) = eval_in("", "timestamp()");
    assert!(d.is_empty());
    assert_eq!(v.first_unknown().unwrap().explanation(), "`timestamp()` returns a different value on every run");
    for f in ["uuid()", "bcrypt(\"x\")", "plantimestamp()"] {
        assert!(eval_in("", f).0.is_unknown(), "{f}");
    }
    let (v, d) = eval_in("", "provider::aws::arn_parse(\"x\")");
    assert!(d.is_empty());
    assert!(
        matches!(&v.first_unknown().unwrap().cause, UnknownCause::ProviderFunction { name, .. } if name == "provider::aws::arn_parse")
    );
}

#[test]
fn unknown_function_suggests_closest_name() {
    let msg = fails("uper(\"x\")");
    assert!(msg.starts_with("unknown-function: call to unknown function `uper`; did you mean `upper`?"), "{msg}");
    assert!(fails("nothinglikeit(1)").contains("call to unknown function `nothinglikeit`"));
    assert!(fails("type(1)").contains("only available in `terraform console`"));
    assert!(fails("foo::bar(1)").contains("unknown function `foo::bar`"));
    assert_eq!(c("core::upper(\"x\")"), "\"X\"");
}

#[test]
fn cycles_are_reported_once_with_path() {
    let m = r#"
locals {
  a = local.b
  b = local.c
  c = local.a
  self_ref = local.self_ref + 1
  ok = 1
  uses_cycle = local.a
}
"#;
    let s = scope(m);
    let values = s.evaluate_all();
    let d = s.diagnostics();
    let cycles: Vec<_> = d.iter().filter(|d| d.code == Code::ReferenceCycle).collect();
    assert_eq!(cycles.len(), 2, "{d:#?}");
    assert!(cycles[0].message.contains("local.a -> local.b -> local.c -> local.a"), "{}", cycles[0].message);
    assert_eq!(cycles[0].related.len(), 2);
    assert!(cycles[1].message.contains("local.self_ref -> local.self_ref"));
    let get = |n: &str| values.locals.iter().find(|(k, _)| k == n).unwrap().1.clone();
    assert!(get("a").is_unknown() && get("b").is_unknown() && get("uses_cycle").is_unknown());
    assert_eq!(compact(&get("ok")), "1");
    // Only the cycle diagnostics: members and dependents are unknown without further errors.
    assert_eq!(d.len(), 2);
}

#[test]
fn undefined_references_suggest_names() {
    let m = "variable \"region\" {\n  default = \"x\"\n}\nlocals {\n  regions = [var.region]\n}\n";
    let (v, d) = eval_in(m, "var.regoin");
    assert!(v.is_unknown());
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::UndefinedReference);
    assert_eq!(d[0].message, "reference to undeclared input variable `var.regoin`; did you mean `var.region`?");
    let (_, d) = eval_in(m, "local.region");
    assert_eq!(d[0].message, "reference to undeclared local value `local.region`; did you mean `local.regions`?");
    let (_, d) = eval_in(m, "local.zzzzzzzz");
    assert_eq!(d[0].message, "reference to undeclared local value `local.zzzzzzzz`");
    let (_, d) = eval_in(m, "var");
    assert_eq!(d[0].code, Code::EvaluationError);
}

#[test]
fn path_and_workspace() {
    assert_eq!(c("path.module"), "\".\"");
    assert_eq!(c("path.cwd"), "\"/work/project\"");
    assert_eq!(c("terraform.workspace"), "\"default\"");
    assert_eq!(c("tofu.workspace"), "\"default\"");
    assert!(eval_in("", "terraform.applying").0.is_unknown());
    assert!(fails("path.nope").contains("`path` has only"));
}

#[test]
fn variable_without_value_is_unknown_with_hint() {
    let m = "variable \"regions\" {\n  type = set(string)\n}\nlocals {\n  r = var.regions\n}\n";
    let (v, d) = eval_in(m, "local.r");
    assert!(d.is_empty());
    let r = v.first_unknown().unwrap();
    assert_eq!(r.explanation(), "`var.regions` has no value: set it in a .tfvars file or with --var");
    assert_eq!(r.chain_text("for_each"), "for_each -> local.r -> var.regions");
}

#[test]
fn variable_types_convert_supplied_values_and_defaults() {
    let m = r#"
variable "n" {
  type = number
}
variable "l" {
  type = list(string)
}
variable "s" {
  type = set(string)
}
variable "o" {
  type = object({
    name  = string
    size  = optional(number, 10)
    tags  = optional(map(string))
    inner = optional(object({ x = optional(bool, true) }), {})
  })
}
variable "untyped" {
  default = [1, "a"]
}
"#;
    let inputs = inputs(
        m,
        vec![
            ("n", supplied(Value::string("42"))),
            ("l", tfvars("[1, true, \"x\"]")),
            ("s", tfvars("[\"b\", \"a\", \"b\"]")),
            ("o", tfvars("{ name = \"web\", extra = 1 }")),
        ],
    );
    let s = ModuleScope::new(inputs);
    let get = |n: &str| compact(&s.variable_value(n).unwrap());
    assert_eq!(get("n"), "42");
    assert_eq!(get("l"), "tolist([\"1\", \"true\", \"x\"])");
    assert_eq!(get("s"), "toset([\"a\", \"b\"])");
    assert_eq!(get("o"), "{\"inner\" = {\"x\" = true}, \"name\" = \"web\", \"size\" = 10, \"tags\" = null}");
    assert_eq!(get("untyped"), "[1, \"a\"]");
    assert!(s.diagnostics().is_empty(), "{:?}", s.diagnostics());
}

#[test]
fn invalid_variable_values_are_diagnosed() {
    let m = "variable \"n\" {\n  type = number\n}\nvariable \"o\" {\n  type = object({ name = string })\n}\nvariable \"d\" {\n  type = list(number)\n  default = [\"x\"]\n}\n";
    let s = ModuleScope::new(inputs(m, vec![("n", supplied(Value::string("abc"))), ("o", tfvars("{ other = 1 }"))]));
    assert!(s.variable_value("n").unwrap().is_unknown());
    assert!(s.variable_value("o").unwrap().is_unknown());
    assert!(s.variable_value("d").unwrap().is_unknown());
    let d = s.diagnostics();
    assert_eq!(d.len(), 3, "{d:#?}");
    assert!(d.iter().all(|d| d.code == Code::InvalidVariableValue));
    assert!(d[0].message.contains("(given with --var)"), "{}", d[0].message);
    assert!(d[0].message.contains("cannot convert \"abc\" to number"), "{}", d[0].message);
    assert!(d[1].message.contains("attribute \"name\" is required"), "{}", d[1].message);
    assert!(d[2].message.contains("invalid default value for variable `d`"), "{}", d[2].message);
    let s = scope("variable \"f\" {\n  default = upper(\"a\")\n}\n");
    assert!(s.variable_value("f").unwrap().is_unknown());
    assert!(s.diagnostics()[0].message.contains("functions may not be called here"));
}

#[test]
fn nullability() {
    let m = "variable \"a\" {\n  type = string\n  nullable = false\n  default = \"d\"\n}\nvariable \"b\" {\n  type = string\n  default = \"d\"\n}\nvariable \"c\" {\n  type = string\n  nullable = false\n}\n";
    let s = ModuleScope::new(inputs(
        m,
        vec![("a", supplied(Value::null())), ("b", supplied(Value::null())), ("c", supplied(Value::null()))],
    ));
    assert_eq!(compact(&s.variable_value("a").unwrap()), "\"d\"");
    assert_eq!(console(&s.variable_value("b").unwrap()), "tostring(null)");
    assert!(s.variable_value("c").unwrap().is_unknown());
    assert_eq!(s.diagnostics().len(), 1);
}

#[test]
fn sensitive_variables_mark_their_values_and_results() {
    let m = "variable \"secret\" {\n  default = [\"a\", \"b\"]\n  sensitive = true\n}\n";
    let (v, _) = eval_in(m, "var.secret");
    assert!(v.is_sensitive());
    assert!(eval_in(m, "toset(var.secret)").0.is_sensitive());
    assert!(eval_in(m, "var.secret[0]").0.is_sensitive());
    assert!(eval_in(m, "\"${var.secret[0]}\"").0.is_sensitive());
    assert!(eval_in(m, "length(var.secret) + 1").0.is_sensitive());
    assert!(!eval_in(m, "nonsensitive(var.secret)").0.is_sensitive());
    assert_eq!(console(&eval_in(m, "var.secret").0), "(sensitive value)");
    // A map with a sensitive value is not itself sensitive.
    assert!(!eval_in(m, "{ a = var.secret }").0.is_sensitive());
}

#[test]
fn cli_values_follow_opentofu_parsing_modes() {
    use foreach_eval::Constraint;
    assert_eq!(compact(&cli_value("[1,2]", None, EXPR_FILE).unwrap()), "\"[1,2]\"");
    assert_eq!(compact(&cli_value("a b", Some(&Constraint::String), EXPR_FILE).unwrap()), "\"a b\"");
    let list = Constraint::List(Box::new(Constraint::String));
    assert_eq!(compact(&cli_value("[\"a\", \"b\"]", Some(&list), EXPR_FILE).unwrap()), "[\"a\", \"b\"]");
    assert_eq!(compact(&cli_value("{a = 1}", Some(&Constraint::Any), EXPR_FILE).unwrap()), "{\"a\" = 1}");
    assert!(cli_value("[1,", Some(&list), EXPR_FILE).is_err());
    assert!(cli_value("var.x", Some(&list), EXPR_FILE).is_err());
    let err = cli_value("[upper(\"a\")]", Some(&list), EXPR_FILE).unwrap_err();
    assert!(err.contains("functions may not be called here"), "{err}");
    assert_eq!(compact(&cli_value("[for x in [1, 2] : x * 2]", Some(&Constraint::Any), EXPR_FILE).unwrap()), "[2, 4]");
}

#[test]
fn conditional_only_reports_the_chosen_branch_errors() {
    assert_eq!(c("true ? 1 : tonumber(\"x\")"), "1");
    assert!(fails("false ? 1 : tonumber(\"x\")").contains("tonumber"));
}

#[test]
fn try_and_can_swallow_errors() {
    assert_eq!(c("try(tonumber(\"x\"), var.nope, 3)"), "3");
    assert_eq!(c("can(local.nope)"), "false");
    assert!(fails("try(tonumber(\"x\"))").contains("no expression given to `try`"));
}

#[test]
fn child_module_hops_carry_the_module_label() {
    let m = "variable \"ids\" {}\nlocals {\n  ids = var.ids\n}\n";
    let mut child = inputs(
        m,
        vec![(
            "ids",
            SuppliedValue {
                value: eval_in("locals {\n  x = data.org.accounts.ids\n}\n", "local.x").0,
                source: ValueSource::CommandLine,
                provisional: None,
            },
        )],
    );
    child.module_label = "module.common".into();
    let s = ModuleScope::new(child);
    let v = s.local_value("ids").unwrap();
    assert_eq!(unknown_chain(&v, "for_each"), "for_each -> module.common:var.ids -> local.x -> data.org.accounts");
    let mut unset = inputs(m, Vec::new());
    unset.module_label = "module.common".into();
    let s = ModuleScope::new(unset);
    let e = foreach_syntax::parse_expr("local.ids").unwrap();
    let v = s.eval(EXPR_FILE, &e, &EvalContext::default());
    assert_eq!(unknown_chain(&v, "for_each"), "for_each -> module.common:local.ids -> module.common:var.ids");
}

#[test]
fn values_stay_small() {
    // Attribute maps copy whole nodes of values on insert: keep `Value` at 32 bytes.
    assert!(std::mem::size_of::<Value>() <= 32, "{}", std::mem::size_of::<Value>());
}
