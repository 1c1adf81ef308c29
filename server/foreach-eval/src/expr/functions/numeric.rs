//! Numeric functions: `abs`, `ceil`, `floor`, `log`, `max`, `min`, `parseint`, `pow`, `signum`. `log` and `pow`
//! compute in float64 as cty does (their results print with float64's shortest digits).

use super::api::{FnCtx, FnError, FnResult, Func, P, arg_err, err, f, fv, p};
use crate::number::Number;
use crate::value::Value;
use num_bigint::BigInt;
use std::cmp::Ordering;

pub static FUNCS: &[Func] = &[
    f("abs", &[p("num", P::Num)], |_, a| Ok(Value::number(num(&a[0]).abs()))),
    f("ceil", &[p("num", P::Num)], |_, a| Ok(Value::number(num(&a[0]).ceil()))),
    f("floor", &[p("num", P::Num)], |_, a| Ok(Value::number(num(&a[0]).floor()))),
    f("log", &[p("num", P::Num), p("base", P::Num)], |_, a| {
        float_result(num(&a[0]).to_f64().ln() / num(&a[1]).to_f64().ln())
    }),
    f("pow", &[p("num", P::Num), p("power", P::Num)], |_, a| {
        float_result(num(&a[0]).to_f64().powf(num(&a[1]).to_f64()))
    }),
    f("signum", &[p("num", P::Num)], |_, a| {
        let n = num(&a[0]);
        if !n.is_integer() && !n.is_zero() || n.to_i64().is_none() {
            return super::api::err(
                "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
            );
        }
        Ok(Value::int(match n.cmp_num(&Number::zero()) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }))
    }),
    fv("max", &[], p("numbers", P::Num), |_, a| extreme(a, Ordering::Greater)),
    fv("min", &[], p("numbers", P::Num), |_, a| extreme(a, Ordering::Less)),
    f("parseint", &[p("number", P::Any), p("base", P::Num)], parseint),
];

/// The number of an argument already converted to `number`.
pub(crate) fn num(v: &Value) -> Number {
    v.as_number().cloned().unwrap_or_else(Number::zero)
}

/// A whole-number argument as `i64`.
pub(crate) fn int_arg(v: &Value, idx: usize) -> Result<i64, FnError> {
    let n = num(v);
    if !n.is_integer() && !n.is_zero() {
        return arg_err(idx, format!("{n} is not a whole number"));
    }
    n.to_i64().map_or_else(|| arg_err(idx, format!("{n} is out of range")), Ok)
}

fn float_result(x: f64) -> FnResult {
    match Number::from_f64(x) {
        Some(n) => Ok(Value::number(n)),
        None => err("the result is not a number"),
    }
}

fn extreme(a: &[Value], want: Ordering) -> FnResult {
    let Some(first) = a.first() else { return err("at least one number is required") };
    let mut best = num(first);
    for v in &a[1..] {
        let n = num(v);
        if n.cmp_num(&best) == want {
            best = n;
        }
    }
    Ok(Value::number(best))
}

fn parseint(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(text) = a[0].as_str() else {
        return arg_err(0, format!("a string is required, but the argument is {}", a[0].friendly_type()));
    };
    let base = int_arg(&a[1], 1)?;
    if !(2..=62).contains(&base) {
        return arg_err(1, "base must be a whole number between 2 and 62 inclusive");
    }
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let mut acc = BigInt::from(0);
    if digits.is_empty() {
        return arg_err(0, format!("cannot parse {text:?} as a base {base} integer"));
    }
    for c in digits.chars() {
        // Go's big.Int: 0-9, then a-z, then A-Z for bases above 36 (case-insensitive up to 36).
        let d = match c {
            '0'..='9' => c as i64 - '0' as i64,
            'a'..='z' => c as i64 - 'a' as i64 + 10,
            'A'..='Z' if base <= 36 => c as i64 - 'A' as i64 + 10,
            'A'..='Z' => c as i64 - 'A' as i64 + 36,
            _ => 99,
        };
        if d >= base {
            return arg_err(0, format!("cannot parse {text:?} as a base {base} integer"));
        }
        acc = acc * base + d;
    }
    if neg {
        acc = -acc;
    }
    Ok(Value::number(Number::from_bigint(&acc)))
}
