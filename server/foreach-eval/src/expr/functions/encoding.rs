//! Encoding functions: `base64encode`, `base64decode`, `csvdecode`, `jsonencode`, `jsondecode`, `urlencode`,
//! `urldecode`, `yamlencode`, `textencodebase64`, `textdecodebase64`. JSON is written and read by hand so that
//! numbers stay exact (cty reads JSON numbers at 512 bits) and output matches Go's encoder byte for byte (HTML
//! characters escaped, keys sorted).

use super::api::s;
use super::api::{FnCtx, FnError, FnResult, Func, P, arg_err, err, f, p, p_null};
use super::text_encoding::{self, Charset, Lookup};
use crate::types::Type;
use crate::value::{Attrs, Value};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

pub static FUNCS: &[Func] = &[
    f("base64encode", &[p("str", P::Str)], |_, a| Ok(Value::string(STANDARD.encode(s(&a[0]))))),
    f("base64decode", &[p("str", P::Str)], base64decode),
    f("csvdecode", &[p("str", P::Str)], csvdecode),
    f("jsonencode", &[p_null("val", P::Any)], |_, a| Ok(Value::string(json_text(&a[0])?))),
    f("jsondecode", &[p("str", P::Str)], |cx, a| {
        cx.tick(s(&a[0]).len() as u64 / 16)?;
        super::json::decode(s(&a[0]))
    }),
    f("urlencode", &[p("str", P::Str)], |_, a| Ok(Value::string(urlencode(s(&a[0]))))),
    f("urldecode", &[p("str", P::Str)], urldecode),
    f("yamlencode", &[p_null("value", P::Any)], |_, a| Ok(Value::string(super::yaml::encode(&a[0])))),
    f("yamldecode", &[p("src", P::Str)], |cx, a| super::yaml_decode::decode(cx, s(&a[0]))),
    f("base64gzip", &[p("str", P::Str)], |cx, a| super::gzip::base64gzip(cx, s(&a[0]))),
    f("base64gunzip", &[p("str", P::Str)], |cx, a| super::gzip::base64gunzip(cx, s(&a[0]))),
    f("textencodebase64", &[p("string", P::Str), p("encoding", P::Str)], textencodebase64),
    f("textdecodebase64", &[p("source", P::Str), p("encoding", P::Str)], textdecodebase64),
];

fn base64decode(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let bytes = STANDARD.decode(s(&a[0])).or_else(|_| arg_err(0, "failed to decode base64 data"))?;
    match String::from_utf8(bytes) {
        Ok(t) => Ok(Value::string(t)),
        Err(_) => arg_err(0, "the result of decoding the provided string is not valid UTF-8"),
    }
}

/// cty's JSON encoding (Go's `encoding/json` string escaping, keys sorted, numbers in shortest form).
pub fn json_text(v: &Value) -> Result<String, FnError> {
    let mut out = String::new();
    json_into(v, &mut out)?;
    Ok(out)
}

fn json_into(v: &Value, out: &mut String) -> Result<(), FnError> {
    match v.unmarked() {
        Value::Unknown(_) => return Err(FnError::Unknown("the value is not known yet".into())),
        Value::Null(_) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_infinite() {
                return err("cannot encode an infinite number as JSON");
            }
            out.push_str(&n.to_text());
        }
        Value::String(t) => json_string(t, out),
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_into(item, out)?;
            }
            out.push(']');
        }
        Value::Map(_, attrs) | Value::Object(attrs) => {
            out.push('{');
            for (i, (k, item)) in attrs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(k, out);
                out.push(':');
                json_into(item, out)?;
            }
            out.push('}');
        }
        Value::Sensitive(_) => {}
    }
    Ok(())
}

pub(crate) fn json_string(t: &str, out: &mut String) {
    out.push('"');
    for c in t.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn urlencode(t: &str) -> String {
    let mut out = String::new();
    for b in t.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn urldecode(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let t = s(&a[0]).as_bytes();
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = t
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                let Some(b) = hex else { return arg_err(0, "invalid URL escape") };
                out.push(b);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map(Value::string).or_else(|_| arg_err(0, "the decoded text is not valid UTF-8"))
}

fn csvdecode(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let rows = parse_csv(s(&a[0])).or_else(|m| arg_err(0, m))?;
    let mut rows = rows.into_iter();
    let Some(header) = rows.next() else { return arg_err(0, "missing header line") };
    let mut out = Vec::new();
    for (line, row) in rows.enumerate() {
        if row.len() != header.len() {
            return arg_err(0, format!("line {}: wrong number of fields", line + 2));
        }
        cx.check_len(out.len() + 1)?;
        let attrs: Attrs = header.iter().cloned().zip(row.into_iter().map(Value::string)).collect();
        out.push(Value::object(attrs));
    }
    let t = Type::Object(std::sync::Arc::new(header.iter().map(|h| (h.clone(), Type::String)).collect()));
    Ok(Value::list(t, out))
}

/// RFC 4180 with Go's `encoding/csv` leniency on line endings.
fn parse_csv(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut in_quotes = false;
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    in_quotes = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => in_quotes = true,
            ',' => row.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
                any = false;
            }
            c => field.push(c),
        }
    }
    if in_quotes {
        return Err("extraneous or missing \" in quoted-field".into());
    }
    if any {
        row.push(field);
        rows.push(row);
    }
    Ok(rows)
}

/// The encoding named by argument 1, as OpenTofu's `ianaindex` lookup would find it.
fn charset(a: &[Value]) -> Result<(&'static str, Charset), FnError> {
    match text_encoding::lookup(s(&a[1])) {
        Lookup::Found(name, c) => Ok((name, c)),
        Lookup::NotEvaluated(name) => {
            Err(FnError::Unknown(format!("the {name} encoding is not evaluated by foreach-ls")))
        }
        Lookup::Unsupported => arg_err(1, format!("{:?} is not a supported IANA encoding name or alias", s(&a[1]))),
    }
}

fn textencodebase64(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (name, c) = charset(a)?;
    cx.tick(s(&a[0]).len() as u64 / 64)?;
    let Some(bytes) = text_encoding::encode(&c, s(&a[0])) else {
        return arg_err(0, format!("the given string contains characters that cannot be represented in {name}"));
    };
    Ok(Value::string(STANDARD.encode(bytes)))
}

fn textdecodebase64(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (name, c) = charset(a)?;
    let bytes = STANDARD.decode(s(&a[0])).or_else(|_| arg_err(0, "failed to decode base64 data"))?;
    cx.tick(bytes.len() as u64 / 64)?;
    let text = text_encoding::decode(&c, &bytes);
    // OpenTofu's check: its decoders turn undefined or malformed input into U+FFFD, and any U+FFFD is an error.
    if text.contains('\u{FFFD}') {
        return arg_err(0, format!("the given string contains symbols that are not defined for {name}"));
    }
    Ok(Value::string(text))
}
