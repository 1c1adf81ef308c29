//! Templates: quoted strings with `${...}` interpolations, heredocs, and `%{if}`/`%{for}` directives. Strip
//! markers and heredoc indentation were already applied by the parser, so this only concatenates.

use super::budget::Exceeded;
use super::convert::to_string;
use super::expr::Evaluator;
use super::value::{UnknownReason, Value};
use foreach_base::diagnostics::Code;
use foreach_syntax::TextRange;
use foreach_syntax::ast::{Template, TemplateFor, TemplateIf, TemplatePart};
use std::sync::Arc;

enum Piece {
    Done,
    Unknown(Arc<UnknownReason>),
}

impl Evaluator<'_> {
    pub(crate) fn eval_template(&mut self, t: &Template, range: TextRange) -> Value {
        // A template that is exactly one interpolation returns the value itself, unconverted (HCL's rule).
        match t.parts.as_slice() {
            [TemplatePart::Interpolation(e)] => return self.eval(e),
            // The common `"text"`: the literal is shared, not copied (short ones live inside the value).
            [TemplatePart::Literal { value, .. }] => {
                return Value::String(value.clone());
            }
            _ => {}
        }
        let mut out = String::new();
        let mut sensitive = false;
        match self.template_into(t, &mut out, &mut sensitive, range) {
            Piece::Unknown(r) => Value::Unknown(r),
            Piece::Done => {
                let v = Value::string(out);
                if sensitive { v.mark_sensitive() } else { v }
            }
        }
    }

    fn template_into(&mut self, t: &Template, out: &mut String, sensitive: &mut bool, range: TextRange) -> Piece {
        for part in &t.parts {
            if out.len() > self.budget.max_string {
                let n = out.len();
                if let Value::Unknown(r) = self.limit(range, Exceeded::String(n)) {
                    return Piece::Unknown(r);
                }
            }
            match part {
                TemplatePart::Literal { value, .. } => out.push_str(value),
                TemplatePart::Interpolation(e) => {
                    let v = self.eval(e);
                    *sensitive |= v.is_sensitive();
                    match v.unmarked() {
                        Value::Unknown(r) => return Piece::Unknown(r.clone()),
                        Value::Null(_) => {
                            let v = self.error(
                                Code::EvaluationError,
                                e.range,
                                "cannot include a null value in a string template",
                            );
                            return unknown_of(v);
                        }
                        inner => match to_string(inner) {
                            Ok(s) => out.push_str(&s),
                            Err(_) => {
                                let msg = format!(
                                    "cannot include {} in a string template; only strings, numbers and bools can be",
                                    inner.friendly_type()
                                );
                                let v = self.error(Code::EvaluationError, e.range, msg);
                                return unknown_of(v);
                            }
                        },
                    }
                }
                TemplatePart::If(directive) => {
                    let TemplateIf { cond, then_part, else_part, .. } = &**directive;
                    let c = self.eval(cond);
                    *sensitive |= c.is_sensitive();
                    let b = match c.unmarked() {
                        Value::Unknown(r) => return Piece::Unknown(r.clone()),
                        inner => match super::convert::convert(inner, &super::constraint::Constraint::Bool) {
                            Ok(Value::Bool(b)) if !inner.is_null() => b,
                            _ => {
                                let v = self.error(
                                    Code::EvaluationError,
                                    cond.range,
                                    "the `%{if}` condition must be a bool",
                                );
                                return unknown_of(v);
                            }
                        },
                    };
                    let branch = if b { Some(then_part) } else { else_part.as_ref() };
                    if let Some(branch) = branch
                        && let Piece::Unknown(r) = self.template_into(branch, out, sensitive, range)
                    {
                        return Piece::Unknown(r);
                    }
                }
                TemplatePart::For(directive) => {
                    let TemplateFor { key_var, value_var, collection, body, .. } = &**directive;
                    let c = self.eval(collection);
                    *sensitive |= c.is_sensitive();
                    let pairs: Vec<(Value, Value)> = match c.unmarked() {
                        Value::Unknown(r) => return Piece::Unknown(r.clone()),
                        Value::List(_, items) | Value::Tuple(items) => {
                            items.iter().enumerate().map(|(i, v)| (Value::int(i as i64), v.clone())).collect()
                        }
                        Value::Set(_, items) => items.iter().map(|v| (v.clone(), v.clone())).collect(),
                        Value::Map(_, a) | Value::Object(a) => {
                            a.iter().map(|(k, v)| (Value::String(k.clone()), v.clone())).collect()
                        }
                        other => {
                            let msg = format!("`%{{for}}` needs a collection, not {}", other.friendly_type());
                            let v = self.error(Code::EvaluationError, collection.range, msg);
                            return unknown_of(v);
                        }
                    };
                    let key_name = key_var.as_ref().map(|k| k.name.clone());
                    let value_name = value_var.name.clone();
                    for (k, v) in pairs {
                        if !self.tick(1) {
                            return unknown_of(self.limit(range, Exceeded::Steps));
                        }
                        let mut pushed = 1;
                        if let Some(kv) = &key_name {
                            self.bindings.push((kv.clone(), k));
                            pushed = 2;
                        }
                        self.bindings.push((value_name.clone(), v));
                        let r = self.template_into(body, out, sensitive, range);
                        self.bindings.truncate(self.bindings.len() - pushed);
                        if let Piece::Unknown(r) = r {
                            return Piece::Unknown(r);
                        }
                        if out.len() > self.budget.max_string {
                            let n = out.len();
                            return unknown_of(self.limit(range, Exceeded::String(n)));
                        }
                    }
                }
            }
        }
        Piece::Done
    }
}

fn unknown_of(v: Value) -> Piece {
    match v {
        Value::Unknown(r) => Piece::Unknown(r),
        _ => Piece::Done,
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::eval_literal_expr;
    use crate::value::Value;
    use foreach_base::base::FileId;
    use foreach_syntax::ast::{ExprKind, ObjectKey, TemplatePart};

    /// A string literal and a bare object key evaluate to the syntax tree's own strings, shared rather than copied
    /// (a generated module of 6,000 objects evaluated them on every keystroke).
    #[test]
    fn literals_and_keys_share_the_trees_strings() {
        let text = r#"{ a_key_longer_than_twenty_three_bytes = "a literal longer than twenty-three bytes" }"#;
        let expr = foreach_syntax::parse_expr(text).unwrap();
        let ExprKind::Object(items) = &expr.kind else { panic!("an object") };
        let (ObjectKey::Ident(key), ExprKind::Template(t)) = (&items[0].key, &items[0].value.kind) else {
            panic!("a bare key and a template")
        };
        let [TemplatePart::Literal { value: literal, .. }] = t.parts.as_slice() else { panic!("one literal") };

        let Ok(Value::Object(attrs)) = eval_literal_expr(FileId(0), &expr) else { panic!("an object value") };
        let (k, v) = attrs.iter().next().unwrap();
        assert!(std::ptr::eq(k.as_str(), key.name.as_str()), "the key is the tree's");
        let Value::String(s) = v else { panic!("a string") };
        assert!(std::ptr::eq(s.as_str(), literal.as_str()), "the value is the tree's literal");
    }
}
