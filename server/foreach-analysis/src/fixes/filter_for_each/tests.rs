//! The filter itself: what it keeps, where it refuses, which collections get which form. The round trips through
//! the `too-similar-for-each` diagnostic are in `similar/fix_tests.rs`.

use super::*;
use crate::eval::eval_literal_expr;
use foreach_syntax::TextRange;

#[test]
fn the_filter_keeps_enabled_and_unmarked_elements_and_drops_disabled_ones() {
    let collection = r#"{ a = {}, b = { enabled = false }, c = { enabled = true }, d = null }"#;
    let e = foreach_syntax::parse_expr(collection).unwrap();
    let fix = filter_for_each_fix(FileId(0), collection, &e, CollectionKind::ObjectMap, None).unwrap();
    let filtered = foreach_syntax::parse_expr(&fix.edits[0].new_text).unwrap();
    // Not `eval_literal_expr`: constant expressions refuse function calls, and the filter calls `try`.
    let scope = crate::eval::scope::EmptyScope;
    let ctx = crate::eval::EvalContext::default();
    let mut ev = crate::eval::Evaluator::new(&scope, FileId(0), &ctx, Default::default());
    let v = ev.eval(&filtered);
    assert!(ev.diagnostics.is_empty(), "{:?}", ev.diagnostics);
    let keys: Vec<String> = v.as_attrs().unwrap().keys().map(|k| k.to_string()).collect();
    assert_eq!(keys, ["a", "c", "d"]);
    assert!(matches!(v, Value::Object(_) | Value::Map(..)));
}

#[test]
fn a_heredoc_gets_no_fix() {
    let text = "<<EOT\nx\nEOT";
    let e = foreach_syntax::parse_expr(text).unwrap();
    assert_eq!(e.range, TextRange::up_to(e.range.end()));
    assert!(filter_for_each_fix(FileId(0), text, &e, CollectionKind::Set, None).is_none());
}

#[test]
fn collection_kinds_of_evaluated_values() {
    let kind = |src: &str| {
        CollectionKind::of(&eval_literal_expr(FileId(0), &foreach_syntax::parse_expr(src).unwrap()).unwrap())
    };
    assert_eq!(kind(r#"{ a = {}, b = { enabled = false } }"#), CollectionKind::ObjectMap);
    assert_eq!(kind(r#"{ a = { x = 1 }, b = null }"#), CollectionKind::ObjectMap);
    assert_eq!(kind(r#"{ a = "x" }"#), CollectionKind::OtherMap);
    assert_eq!(kind(r#"{ a = {}, b = "x" }"#), CollectionKind::OtherMap);
    assert_eq!(kind("{}"), CollectionKind::OtherMap);
    assert_eq!(kind(r#"["a"]"#), CollectionKind::Unknown);
}
