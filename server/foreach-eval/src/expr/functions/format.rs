//! `format` and `formatlist`: cty's printf dialect (`%v %#v %t %d %b %o %x %X %e %E %f %g %G %s %q`, flags
//! `+ - # 0` and space, width, precision, `%[n]` argument indexes).

use super::api::s;
use super::api::{FnCtx, FnError, FnResult, arg_err, err};
use crate::constraint::Constraint;
use crate::convert::{convert, to_string};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

pub fn format_fn(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let out = format_str(cx, s(&a[0]), &a[1..])?;
    Ok(Value::string(out))
}

pub fn formatlist_fn(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let spec = s(&a[0]);
    let args = &a[1..];
    let mut n: Option<usize> = None;
    for (i, v) in args.iter().enumerate() {
        if let Some(items) = v.as_seq() {
            match n {
                None => n = Some(items.len()),
                Some(m) if m != items.len() => {
                    return arg_err(
                        i + 1,
                        format!(
                            "argument {} has length {}, which is inconsistent with argument 1 of length {m}",
                            i + 1,
                            items.len()
                        ),
                    );
                }
                _ => {}
            }
        }
    }
    let n = n.unwrap_or(1);
    cx.check_len(n)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let row: Vec<Value> = args
            .iter()
            .map(|v| match v.as_seq() {
                Some(items) => items[i].clone(),
                None => v.clone(),
            })
            .collect();
        out.push(Value::string(format_str(cx, spec, &row)?));
    }
    Ok(Value::list(Type::String, out))
}

#[derive(Default)]
struct Spec {
    plus: bool,
    minus: bool,
    sharp: bool,
    zero: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

fn format_str(cx: &mut FnCtx<'_>, spec: &str, args: &[Value]) -> Result<String, FnError> {
    let mut out = String::new();
    let chars: Vec<char> = spec.chars().collect();
    let mut i = 0;
    let mut next_arg = 0usize;
    let mut used = vec![false; args.len()];
    while i < chars.len() {
        cx.tick(1)?;
        let c = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            out.push('%');
            i += 1;
            continue;
        }
        let mut sp = Spec::default();
        while let Some(&fc) = chars.get(i) {
            match fc {
                '+' => sp.plus = true,
                '-' => sp.minus = true,
                '#' => sp.sharp = true,
                '0' => sp.zero = true,
                ' ' => sp.space = true,
                _ => break,
            }
            i += 1;
        }
        if chars.get(i) == Some(&'[') {
            let close = chars[i..].iter().position(|&c| c == ']').map(|p| p + i);
            let Some(close) = close else { return err("unterminated argument index in format string") };
            let idx: String = chars[i + 1..close].iter().collect();
            let Ok(k) = idx.parse::<usize>() else { return err(format!("invalid argument index `{idx}`")) };
            if k == 0 || k > args.len() {
                return err(format!("format string refers to argument {k}, but there are only {}", args.len()));
            }
            next_arg = k - 1;
            i = close + 1;
        }
        let mut width = String::new();
        while let Some(&d) = chars.get(i).filter(|c| c.is_ascii_digit()) {
            width.push(d);
            i += 1;
        }
        sp.width = if width.is_empty() { None } else { Some(width.parse().unwrap_or(usize::MAX)) };
        if chars.get(i) == Some(&'.') {
            i += 1;
            let mut p = String::new();
            while let Some(&d) = chars.get(i).filter(|c| c.is_ascii_digit()) {
                p.push(d);
                i += 1;
            }
            sp.prec = Some(if p.is_empty() { 0 } else { p.parse().unwrap_or(usize::MAX) });
        }
        cx.check_str(sp.width.unwrap_or(0).max(sp.prec.unwrap_or(0)))?;
        let Some(&verb) = chars.get(i) else { return err("format string ends in the middle of a verb") };
        i += 1;
        let Some(arg) = args.get(next_arg) else {
            return err(format!(
                "not enough arguments for the format string: verb %{verb} needs argument {}",
                next_arg + 1
            ));
        };
        used[next_arg] = true;
        next_arg += 1;
        let text = format_one(verb, &sp, arg)?;
        pad(&mut out, &text, &sp, verb);
        cx.check_str(out.len())?;
    }
    if let Some(unused) = used.iter().position(|u| !u) {
        let _ = unused;
        return err(format!(
            "too many arguments; the format string uses {} of {}",
            used.iter().filter(|u| **u).count(),
            args.len()
        ));
    }
    Ok(out)
}

fn pad(out: &mut String, text: &str, sp: &Spec, verb: char) {
    let len = text.chars().count();
    let w = sp.width.unwrap_or(0);
    if len >= w {
        out.push_str(text);
    } else if sp.minus {
        out.push_str(text);
        out.push_str(&" ".repeat(w - len));
    } else if sp.zero && "dbo xXeEfgG".contains(verb) {
        let (sign, rest) = if text.starts_with(['-', '+', ' ']) { text.split_at(1) } else { ("", text) };
        out.push_str(sign);
        out.push_str(&"0".repeat(w - len));
        out.push_str(rest);
    } else {
        out.push_str(&" ".repeat(w - len));
        out.push_str(text);
    }
}

fn number_arg(arg: &Value) -> Result<Number, FnError> {
    match convert(arg, &Constraint::Number) {
        Ok(Value::Number(n)) => Ok((*n).clone()),
        _ => err(format!("a number is required, but the argument is {}", arg.friendly_type())),
    }
}

fn sign(n: &Number, body: String, sp: &Spec) -> String {
    if n.is_negative() || body.starts_with('-') {
        body
    } else if sp.plus {
        format!("+{body}")
    } else if sp.space {
        format!(" {body}")
    } else {
        body
    }
}

fn format_one(verb: char, sp: &Spec, arg: &Value) -> Result<String, FnError> {
    if arg.is_null() && verb != 'v' {
        return err("a null value cannot be formatted");
    }
    Ok(match verb {
        'v' => {
            if sp.sharp {
                super::encoding::json_text(arg)?
            } else {
                match arg {
                    Value::Null(_) => "null".into(),
                    Value::String(_) | Value::Number(_) | Value::Bool(_) => {
                        to_string(arg).map(|s| s.to_string()).unwrap_or_default()
                    }
                    _ => super::encoding::json_text(arg)?,
                }
            }
        }
        's' => match to_string(arg) {
            Ok(t) => match sp.prec {
                Some(p) => t.chars().take(p).collect(),
                None => t.to_string(),
            },
            Err(_) => return err(format!("a string is required for %s, but the argument is {}", arg.friendly_type())),
        },
        'q' => match to_string(arg) {
            Ok(t) => super::encoding::json_text(&Value::String(t))?,
            Err(_) => return err(format!("a string is required for %q, but the argument is {}", arg.friendly_type())),
        },
        't' => match convert(arg, &Constraint::Bool) {
            Ok(Value::Bool(b)) => b.to_string(),
            _ => return err(format!("a bool is required for %t, but the argument is {}", arg.friendly_type())),
        },
        'd' | 'b' | 'o' | 'x' | 'X' => {
            let n = number_arg(arg)?;
            let Some(i) = n.to_bigint() else {
                return err(format!("the number {n} has no integer representation for %{verb}"));
            };
            let mag = i.magnitude();
            let body = match verb {
                'd' => mag.to_str_radix(10),
                'b' => mag.to_str_radix(2),
                'o' => format!("{}{}", if sp.sharp { "0" } else { "" }, mag.to_str_radix(8)),
                'x' => format!("{}{}", if sp.sharp { "0x" } else { "" }, mag.to_str_radix(16)),
                _ => format!("{}{}", if sp.sharp { "0X" } else { "" }, mag.to_str_radix(16).to_uppercase()),
            };
            let body = if n.is_negative() { format!("-{body}") } else { body };
            sign(&n, body, sp)
        }
        'f' | 'F' => {
            let n = number_arg(arg)?;
            sign(&n, n.to_fixed(sp.prec.unwrap_or(6)), sp)
        }
        'e' | 'E' => {
            let n = number_arg(arg)?;
            sign(&n, n.to_exponent(sp.prec.unwrap_or(6), verb == 'E'), sp)
        }
        'g' | 'G' => {
            let n = number_arg(arg)?;
            let e = n.decimal_exponent();
            let body = if !(-4..21).contains(&e) {
                let digits = n.to_text().trim_start_matches('-').replace('.', "").trim_matches('0').len().max(1);
                n.to_exponent(sp.prec.unwrap_or(digits.saturating_sub(1)), verb == 'G')
            } else {
                n.to_text()
            };
            sign(&n, body, sp)
        }
        other => return err(format!("unsupported format verb %{other}")),
    })
}
