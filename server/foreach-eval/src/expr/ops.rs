//! Unary and binary operators with HCL's semantics: arithmetic and ordering convert operands to numbers, logic
//! to bools, equality compares type and value; unknown operands give unknown results, a sensitive operand makes
//! the result sensitive.

use super::Evaluator;
use crate::constraint::Constraint;
use crate::convert::convert;
use crate::number::Number;
use crate::value::Value;
use foreach_base::diagnostics::Code;
use foreach_syntax::TextRange;
use foreach_syntax::ast::{BinaryOp, UnaryOp};
use std::cmp::Ordering;

/// The operators as the evaluator's methods: an extension of the evaluator in its own file, which the evaluator calls
/// without importing this module.
impl Evaluator<'_> {
    pub(super) fn unary_op(&mut self, op: UnaryOp, v: Value, range: TextRange) -> Value {
        unary(self, op, v, range)
    }

    pub(super) fn binary_op(
        &mut self,
        op: BinaryOp,
        (l, lrange): (Value, TextRange),
        (r, rrange): (Value, TextRange),
        range: TextRange,
    ) -> Value {
        binary(self, op, l, r, lrange, rrange, range)
    }

    /// The result of `l && …` or `l || …` when the left side alone decides it; see [`short_circuit`].
    pub(super) fn short_circuit(op: BinaryOp, l: &Value) -> Option<Value> {
        short_circuit(op, l)
    }
}

fn unary(ev: &mut Evaluator<'_>, op: UnaryOp, v: Value, range: TextRange) -> Value {
    let sensitive = v.is_sensitive();
    let v = v.unmarked();
    let r = match v {
        Value::Unknown(r) => return Value::Unknown(r.clone()),
        _ => match op {
            UnaryOp::Neg => match operand(ev, v, &Constraint::Number, range, "-") {
                Ok(Value::Number(n)) => Value::number(n.neg()),
                Ok(_) => unreachable_value(),
                Err(e) => e,
            },
            UnaryOp::Not => match operand(ev, v, &Constraint::Bool, range, "!") {
                Ok(Value::Bool(b)) => Value::Bool(!b),
                Ok(_) => unreachable_value(),
                Err(e) => e,
            },
        },
    };
    if sensitive { r.mark_sensitive() } else { r }
}

/// Conversion can only return the requested primitive kind; this keeps the matches total without panicking.
fn unreachable_value() -> Value {
    Value::null()
}

fn operand(ev: &mut Evaluator<'_>, v: &Value, c: &Constraint, range: TextRange, op: &str) -> Result<Value, Value> {
    if v.is_null() {
        return Err(ev.error(Code::EvaluationError, range, format!("the operand of `{op}` must not be null")));
    }
    convert(v, c).map_err(|e| {
        let what = if *c == Constraint::Number { "a number" } else { "a bool" };
        ev.error(Code::EvaluationError, range, format!("the operand of `{op}` must be {what}: {e}"))
    })
}

fn binary(
    ev: &mut Evaluator<'_>,
    op: BinaryOp,
    l: Value,
    r: Value,
    lrange: TextRange,
    rrange: TextRange,
    range: TextRange,
) -> Value {
    let sensitive = l.is_sensitive() || r.is_sensitive();
    let (l, r) = (l.unmarked().clone(), r.unmarked().clone());
    let out = binary_unmarked(ev, op, &l, &r, lrange, rrange, range);
    if sensitive { out.mark_sensitive() } else { out }
}

/// The result of `l && …` or `l || …` when the left side alone decides it (known `false` for `&&`, `true` for
/// `||`), keeping the left side's sensitivity; `None` when the right side must be evaluated.
fn short_circuit(op: BinaryOp, l: &Value) -> Option<Value> {
    let decisive = match op {
        BinaryOp::And => false,
        BinaryOp::Or => true,
        _ => return None,
    };
    match l.unmarked() {
        Value::Bool(b) if *b == decisive => {
            let out = Value::Bool(decisive);
            Some(if l.is_sensitive() { out.mark_sensitive() } else { out })
        }
        _ => None,
    }
}

fn binary_unmarked(
    ev: &mut Evaluator<'_>,
    op: BinaryOp,
    l: &Value,
    r: &Value,
    lrange: TextRange,
    rrange: TextRange,
    range: TextRange,
) -> Value {
    let sym = op.as_str();
    match op {
        BinaryOp::Eq | BinaryOp::NotEq => {
            if let Some(u) = l.first_unknown().or(r.first_unknown()) {
                return Value::Unknown(u.clone());
            }
            let eq = l.raw_equals(r) || l.is_null() && r.is_null();
            Value::Bool(if op == BinaryOp::Eq { eq } else { !eq })
        }
        BinaryOp::And | BinaryOp::Or => {
            let lb = bool_side(ev, l, lrange, sym);
            let rb = bool_side(ev, r, rrange, sym);
            let decisive = op == BinaryOp::Or;
            match (lb, rb) {
                (Err(e), _) | (_, Err(e)) => e,
                // A known decisive side settles the result even if the other is unknown.
                (Ok(Some(a)), _) if a == decisive => Value::Bool(decisive),
                (_, Ok(Some(b))) if b == decisive => Value::Bool(decisive),
                (Ok(Some(_)), Ok(Some(_))) => Value::Bool(!decisive),
                _ => Value::Unknown(l.first_unknown().or(r.first_unknown()).cloned().unwrap_or_else(|| {
                    crate::value::UnknownReason::new(crate::value::UnknownCause::Invalid { location: ev.range(range) })
                })),
            }
        }
        _ => {
            if let Value::Unknown(u) = l {
                return Value::Unknown(u.clone());
            }
            if let Value::Unknown(u) = r {
                return Value::Unknown(u.clone());
            }
            let a = match operand(ev, l, &Constraint::Number, lrange, sym) {
                Ok(Value::Number(n)) => n,
                Ok(_) => return unreachable_value(),
                Err(e) => return e,
            };
            let b = match operand(ev, r, &Constraint::Number, rrange, sym) {
                Ok(Value::Number(n)) => n,
                Ok(_) => return unreachable_value(),
                Err(e) => return e,
            };
            arith(ev, op, &a, &b, range)
        }
    }
}

fn bool_side(ev: &mut Evaluator<'_>, v: &Value, range: TextRange, sym: &str) -> Result<Option<bool>, Value> {
    match v {
        Value::Unknown(_) => Ok(None),
        v => match operand(ev, v, &Constraint::Bool, range, sym)? {
            Value::Bool(b) => Ok(Some(b)),
            _ => Ok(None),
        },
    }
}

fn arith(ev: &mut Evaluator<'_>, op: BinaryOp, a: &Number, b: &Number, range: TextRange) -> Value {
    match op {
        BinaryOp::Add => Value::number(a.add(b)),
        BinaryOp::Sub => Value::number(a.sub(b)),
        BinaryOp::Mul => Value::number(a.mul(b)),
        BinaryOp::Div => match a.div(b) {
            Some(n) => Value::number(n),
            None => ev.error(Code::EvaluationError, range, "cannot divide zero by zero or infinity by infinity"),
        },
        BinaryOp::Mod => match a.rem(b) {
            Some(n) => Value::number(n),
            None => ev.error(Code::EvaluationError, range, "cannot compute the remainder of a division by zero"),
        },
        BinaryOp::Lt => Value::Bool(a.cmp_num(b) == Ordering::Less),
        BinaryOp::Gt => Value::Bool(a.cmp_num(b) == Ordering::Greater),
        BinaryOp::LtEq => Value::Bool(a.cmp_num(b) != Ordering::Greater),
        BinaryOp::GtEq => Value::Bool(a.cmp_num(b) != Ordering::Less),
        _ => unreachable_value(),
    }
}
