//! `yamlencode` in the block style cty's YAML encoder (go-yaml) writes: double-quoted strings, literal blocks
//! (`|-`) for multi-line strings, `[]`/`{}` for empty collections, list items at their key's indentation.

use crate::value::Value;

pub fn encode(v: &Value) -> String {
    let mut out = String::new();
    node(v.unmarked(), 0, &mut out);
    out
}

fn scalar(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null(_) | Value::Unknown(_) => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_text(),
        Value::String(s) if !s.contains('\n') => quote(s),
        v if v.is_empty() && v.as_attrs().is_some() => "{}".into(),
        v if v.is_empty() && v.as_seq().is_some() => "[]".into(),
        _ => return None,
    })
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes `v` as a block starting at column `indent` (the caller has already written any `key:` or `- `).
fn node(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    if let Some(s) = scalar(v) {
        out.push_str(&s);
        out.push('\n');
        return;
    }
    match v {
        Value::String(s) => literal(s, indent, out),
        Value::Map(_, attrs) | Value::Object(attrs) => {
            for (i, (k, item)) in attrs.iter().enumerate() {
                if i > 0 {
                    out.push_str(&pad);
                }
                out.push_str(&quote(k));
                out.push(':');
                let item = item.unmarked();
                match (scalar(item), item) {
                    (Some(s), _) => {
                        out.push(' ');
                        out.push_str(&s);
                        out.push('\n');
                    }
                    (None, Value::String(s)) => {
                        out.push(' ');
                        literal(s, indent, out);
                    }
                    (None, x) if x.as_seq().is_some() => {
                        out.push('\n');
                        out.push_str(&pad);
                        node(x, indent, out);
                    }
                    (None, x) => {
                        out.push('\n');
                        out.push_str(&" ".repeat(indent + 2));
                        node(x, indent + 2, out);
                    }
                }
            }
        }
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(&pad);
                }
                out.push_str("- ");
                node(item.unmarked(), indent + 2, out);
            }
        }
        _ => out.push_str("null\n"),
    }
}

/// A literal block scalar whose lines sit two columns right of `indent`.
fn literal(s: &str, indent: usize, out: &mut String) {
    let (body, chomp) = match s.strip_suffix('\n') {
        Some(b) if !b.ends_with('\n') => (b, "|"),
        Some(_) => (s.trim_end_matches('\n'), "|+"),
        None => (s, "|-"),
    };
    out.push_str(chomp);
    out.push('\n');
    let pad = " ".repeat(indent + 2);
    for line in body.split('\n') {
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
        out.push('\n');
    }
    if chomp == "|+" {
        for _ in 0..(s.len() - s.trim_end_matches('\n').len() - 1) {
            out.push('\n');
        }
    }
}
