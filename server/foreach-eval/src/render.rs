//! Printing values: exactly as `terraform console` prints them (the form fixtures and the differential test
//! compare), and a compact one-line form for messages.

pub use super::quote::go_quote;
use super::types::Type;
use super::value::Value;
pub use super::value::compact;

/// `terraform console`'s rendering (Terraform's `repl.FormatValue`): multi-line, two-space indents, heredocs for
/// multi-line strings, `tolist(...)`/`toset(...)`/`tomap(...)` around collections, typed nulls as `tostring(null)`.
pub fn console(v: &Value) -> String {
    let mut out = String::new();
    format_value(v, 0, &mut out);
    out
}

fn format_value(v: &Value, indent: usize, out: &mut String) {
    match v {
        Value::Unknown(_) => out.push_str("(known after apply)"),
        Value::Sensitive(_) => out.push_str("(sensitive value)"),
        Value::Null(t) => out.push_str(&null_text(t)),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_text()),
        Value::String(s) => {
            if !multiline(s, indent, out) {
                out.push_str(&go_quote(s));
            }
        }
        Value::Tuple(items) => sequence(items, indent, out),
        Value::List(_, items) => {
            out.push_str("tolist(");
            sequence(items, indent, out);
            out.push(')');
        }
        Value::Set(_, items) => {
            out.push_str("toset(");
            sequence(items, indent, out);
            out.push(')');
        }
        Value::Object(attrs) => mapping(attrs, indent, out),
        Value::Map(_, attrs) => {
            out.push_str("tomap(");
            mapping(attrs, indent, out);
            out.push(')');
        }
    }
}

fn null_text(t: &Type) -> String {
    match t {
        Type::Dynamic => "null".into(),
        Type::String => "tostring(null)".into(),
        Type::Number => "tonumber(null)".into(),
        Type::Bool => "tobool(null)".into(),
        Type::List(e) => format!("tolist(null) /* of {} */", e.friendly_name()),
        Type::Set(e) => format!("toset(null) /* of {} */", e.friendly_name()),
        Type::Map(e) => format!("tomap(null) /* of {} */", e.friendly_name()),
        t => format!("null /* {} */", t.friendly_name()),
    }
}

fn multiline(s: &str, indent: usize, out: &mut String) -> bool {
    let lines: Vec<&str> = s.split('\n').collect();
    if lines.len() < 2 {
        return false;
    }
    let op = if indent > 0 { "<<-" } else { "<<" };
    let mut delim = String::from("EOT");
    while lines.iter().any(|l| l.trim() == delim) {
        delim.push('_');
    }
    out.push_str(op);
    out.push_str(&delim);
    for l in &lines {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
        out.push_str(l);
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push_str(&delim);
    true
}

fn sequence(items: &[Value], indent: usize, out: &mut String) {
    out.push('[');
    let inner = indent + 2;
    for item in items {
        out.push('\n');
        out.push_str(&" ".repeat(inner));
        format_value(item, inner, out);
        out.push(',');
    }
    if !items.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push(']');
}

fn mapping(attrs: &super::value::Attrs, indent: usize, out: &mut String) {
    out.push('{');
    let inner = indent + 2;
    for (k, v) in attrs.iter() {
        out.push('\n');
        out.push_str(&" ".repeat(inner));
        if !multiline(k, inner, out) {
            out.push_str(&go_quote(k));
        }
        out.push_str(" = ");
        format_value(v, inner, out);
    }
    if !attrs.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push('}');
}

/// A type as `terraform console`'s `type()` prints it: four-space indents, structural types one attribute or
/// element per line, collections inline unless their element is structural.
pub fn console_type(t: &Type) -> String {
    let mut out = String::new();
    type_into(t, 0, &mut out);
    out
}

fn type_into(t: &Type, indent: usize, out: &mut String) {
    let pad = |n: usize| "    ".repeat(n);
    match t {
        Type::Dynamic => out.push_str("dynamic"),
        Type::Bool => out.push_str("bool"),
        Type::Number => out.push_str("number"),
        Type::String => out.push_str("string"),
        Type::List(e) | Type::Set(e) | Type::Map(e) => {
            out.push_str(match t {
                Type::List(_) => "list(",
                Type::Set(_) => "set(",
                _ => "map(",
            });
            if matches!(**e, Type::Tuple(_) | Type::Object(_)) {
                out.push('\n');
                out.push_str(&pad(indent + 1));
                type_into(e, indent + 1, out);
                out.push_str(",\n");
                out.push_str(&pad(indent));
            } else {
                type_into(e, indent, out);
            }
            out.push(')');
        }
        Type::Tuple(items) => {
            out.push_str("tuple([");
            for item in items.iter() {
                out.push('\n');
                out.push_str(&pad(indent + 1));
                type_into(item, indent + 1, out);
                out.push(',');
            }
            if !items.is_empty() {
                out.push('\n');
                out.push_str(&pad(indent));
            }
            out.push_str("])");
        }
        Type::Object(attrs) => {
            out.push_str("object({");
            for (k, item) in attrs.iter() {
                out.push('\n');
                out.push_str(&pad(indent + 1));
                out.push_str(k);
                out.push_str(": ");
                type_into(item, indent + 1, out);
                out.push(',');
            }
            if !attrs.is_empty() {
                out.push('\n');
                out.push_str(&pad(indent));
            }
            out.push_str("})");
        }
    }
}
