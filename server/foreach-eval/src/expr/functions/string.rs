//! String functions: `chomp`, `endswith`, `format`, `formatlist`, `indent`, `join`, `lower`, `regex`, `regexall`,
//! `replace`, `split`, `startswith`, `strcontains`, `strrev`, `substr`, `title`, `trim*`, `upper`. Lengths and
//! offsets count grapheme clusters, as cty does.

use super::api::{E, FnCtx, FnResult, Func, P, arg_err, err, f, fv, p, s};
use crate::types::Type;
use crate::value::{Attrs, Value};
use unicode_segmentation::UnicodeSegmentation;

pub static FUNCS: &[Func] = &[
    f("chomp", &[p("str", P::Str)], chomp),
    f("endswith", &[p("str", P::Str), p("suffix", P::Str)], |_, a| Ok(Value::Bool(s(&a[0]).ends_with(s(&a[1]))))),
    f("startswith", &[p("str", P::Str), p("prefix", P::Str)], |_, a| Ok(Value::Bool(s(&a[0]).starts_with(s(&a[1]))))),
    f("strcontains", &[p("str", P::Str), p("substr", P::Str)], |_, a| Ok(Value::Bool(s(&a[0]).contains(s(&a[1]))))),
    fv("format", &[p("format", P::Str)], super::api::p_null("args", P::Any), super::format::format_fn),
    fv("formatlist", &[p("format", P::Str)], super::api::p_null("args", P::Any), super::format::formatlist_fn),
    f("indent", &[p("spaces", P::Num), p("str", P::Str)], indent),
    fv("join", &[p("separator", P::Str)], p("lists", P::ListOf(E::Str)), join),
    f("lower", &[p("str", P::Str)], |_, a| Ok(Value::string(s(&a[0]).to_lowercase()))),
    f("upper", &[p("str", P::Str)], |_, a| Ok(Value::string(s(&a[0]).to_uppercase()))),
    f("regex", &[p("pattern", P::Str), p("string", P::Str)], regex_fn),
    f("regexall", &[p("pattern", P::Str), p("string", P::Str)], regexall),
    f("replace", &[p("str", P::Str), p("substr", P::Str), p("replace", P::Str)], replace),
    f("split", &[p("separator", P::Str), p("str", P::Str)], split),
    f("strrev", &[p("str", P::Str)], |_, a| Ok(Value::string(s(&a[0]).graphemes(true).rev().collect::<String>()))),
    f("substr", &[p("str", P::Str), p("offset", P::Num), p("length", P::Num)], substr),
    f("title", &[p("str", P::Str)], title),
    f("trim", &[p("str", P::Str), p("cutset", P::Str)], |_, a| {
        let cut: Vec<char> = s(&a[1]).chars().collect();
        Ok(Value::string(s(&a[0]).trim_matches(|c| cut.contains(&c))))
    }),
    f("trimprefix", &[p("str", P::Str), p("prefix", P::Str)], |_, a| {
        Ok(Value::string(s(&a[0]).strip_prefix(s(&a[1])).unwrap_or(s(&a[0]))))
    }),
    f("trimsuffix", &[p("str", P::Str), p("suffix", P::Str)], |_, a| {
        Ok(Value::string(s(&a[0]).strip_suffix(s(&a[1])).unwrap_or(s(&a[0]))))
    }),
    f("trimspace", &[p("str", P::Str)], |_, a| Ok(Value::string(s(&a[0]).trim()))),
];

fn chomp(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let mut t = s(&a[0]);
    loop {
        if let Some(x) = t.strip_suffix("\r\n") {
            t = x;
        } else if let Some(x) = t.strip_suffix('\n').or_else(|| t.strip_suffix('\r')) {
            t = x;
        } else {
            break;
        }
    }
    Ok(Value::string(t))
}

fn indent(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let n = super::numeric::int_arg(&a[0], 0)?;
    if n < 0 {
        return arg_err(0, "the number of spaces must not be negative");
    }
    let n = n as usize;
    let pad = " ".repeat(n.min(cx.host.budget().max_string));
    let text = s(&a[1]);
    cx.check_str(text.len() + text.matches('\n').count() * n)?;
    Ok(Value::string(text.replace('\n', &format!("\n{pad}"))))
}

fn join(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    if a.len() < 2 {
        return err("at least one list is required");
    }
    let sep = s(&a[0]);
    let mut parts: Vec<&str> = Vec::new();
    for (i, l) in a[1..].iter().enumerate() {
        for item in l.as_seq().unwrap_or(&[]) {
            match item {
                Value::String(x) => parts.push(x),
                _ => return arg_err(i + 1, "element is null; cannot concatenate null values"),
            }
        }
    }
    let out = parts.join(sep);
    cx.check_str(out.len())?;
    Ok(Value::string(out))
}

/// How many compiled patterns each thread keeps: a module's `regex`/`replace` patterns are few and evaluated once
/// per module instance, so a repository's distinct patterns fit many times over.
const COMPILED_KEPT: usize = 64;

thread_local! {
    /// Patterns compiled on this thread. Compiling was 3% of a `check` of the dev corpus: the same handful of
    /// patterns, once per instance of the modules that use them. Emptied when full; a `Regex` clone shares the
    /// compiled program.
    static COMPILED: std::cell::RefCell<std::collections::HashMap<String, regex::Regex>> = Default::default();
}

fn compile(pattern: &str, idx: usize) -> Result<regex::Regex, super::FnError> {
    if let Some(re) = COMPILED.with_borrow(|kept| kept.get(pattern).cloned()) {
        return Ok(re);
    }
    let re = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .or_else(|e| arg_err(idx, format!("invalid regular expression: {e}")))?;
    COMPILED.with_borrow_mut(|kept| {
        if kept.len() >= COMPILED_KEPT {
            kept.clear();
        }
        kept.insert(pattern.to_string(), re.clone());
    });
    Ok(re)
}

fn captures_value(re: &regex::Regex, caps: &regex::Captures<'_>) -> Value {
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    if names.is_empty() {
        return Value::string(caps.get(0).map_or("", |m| m.as_str()));
    }
    if names.iter().any(Option::is_some) {
        let mut attrs = Attrs::new();
        for (i, n) in names.iter().enumerate() {
            if let Some(n) = n {
                attrs.insert((*n).into(), group(caps, i + 1));
            }
        }
        return Value::object(attrs);
    }
    Value::tuple((1..=names.len()).map(|i| group(caps, i)).collect())
}

fn group(caps: &regex::Captures<'_>, i: usize) -> Value {
    match caps.get(i) {
        Some(m) => Value::string(m.as_str()),
        None => Value::Null(Type::String),
    }
}

fn regex_fn(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let re = compile(s(&a[0]), 0)?;
    match re.captures(s(&a[1])) {
        Some(c) => Ok(captures_value(&re, &c)),
        None => err("pattern did not match any part of the given string"),
    }
}

fn regexall(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let re = compile(s(&a[0]), 0)?;
    let mut out = Vec::new();
    for c in re.captures_iter(s(&a[1])) {
        cx.tick(1)?;
        out.push(captures_value(&re, &c));
    }
    let elem = crate::convert::unify(out.iter().map(Value::type_of)).unwrap_or(Type::Dynamic);
    let elem = if out.is_empty() { regex_result_type(&re) } else { elem };
    Ok(Value::list(elem, out))
}

fn regex_result_type(re: &regex::Regex) -> Type {
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    if names.is_empty() {
        Type::String
    } else if names.iter().any(Option::is_some) {
        Type::Object(std::sync::Arc::new(names.iter().flatten().map(|n| ((*n).to_string(), Type::String)).collect()))
    } else {
        Type::Tuple(std::sync::Arc::new(vec![Type::String; names.len()]))
    }
}

fn replace(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (text, sub, rep) = (s(&a[0]), s(&a[1]), s(&a[2]));
    let out = if sub.len() > 1 && sub.starts_with('/') && sub.ends_with('/') {
        let re = compile(&sub[1..sub.len() - 1], 1)?;
        re.replace_all(text, rep).into_owned()
    } else if sub.is_empty() {
        // Go's strings.Replace with an empty old string inserts at every rune boundary.
        let mut out = String::from(rep);
        for c in text.chars() {
            out.push(c);
            out.push_str(rep);
        }
        out
    } else {
        text.replace(sub, rep)
    };
    cx.check_str(out.len())?;
    Ok(Value::string(out))
}

fn split(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let (sep, text) = (s(&a[0]), s(&a[1]));
    let parts: Vec<Value> = if sep.is_empty() {
        text.chars().map(|c| Value::string(c.to_string())).collect()
    } else {
        text.split(sep).map(Value::string).collect()
    };
    Ok(Value::list(Type::String, parts))
}

fn substr(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let g: Vec<&str> = s(&a[0]).graphemes(true).collect();
    let mut offset = super::numeric::int_arg(&a[1], 1)?;
    let length = super::numeric::int_arg(&a[2], 2)?;
    let n = g.len() as i64;
    // cty clamps: a negative offset counts from the end (stopping at the start), past the end gives "".
    if offset < 0 {
        offset = (offset + n).max(0);
    }
    if offset > n {
        return Ok(Value::string(""));
    }
    let end = if length < 0 { n } else { (offset + length).min(n) };
    let (start, end) = (offset as usize, end.max(offset) as usize);
    Ok(Value::string(g[start..end].concat()))
}

fn title(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    // Go's strings.Title: upper-case the first letter of every word; words are separated by non-letters/digits.
    let mut out = String::new();
    let mut prev_sep = true;
    for c in s(&a[0]).chars() {
        if prev_sep {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        prev_sep = !(c.is_alphanumeric() || c == '_' || c == '\'');
    }
    Ok(Value::string(out))
}

#[cfg(test)]
mod tests {
    use super::{COMPILED, COMPILED_KEPT, compile};

    /// A kept pattern matches as it did when compiled; more distinct patterns than are kept empty the table and
    /// still compile; an invalid pattern is an error every time, never kept.
    #[test]
    fn compiled_patterns_are_kept_per_thread_and_bounded() {
        let digits = compile("^[0-9]+$", 0).unwrap();
        assert!(digits.is_match("123"));
        assert!(compile("^[0-9]+$", 0).unwrap().is_match("456") && !compile("^[0-9]+$", 0).unwrap().is_match("x"));
        for n in 0..COMPILED_KEPT * 2 {
            let re = compile(&format!("^a{{{n}}}$"), 0).unwrap();
            assert!(re.is_match(&"a".repeat(n)) && !re.is_match(&"a".repeat(n + 1)));
        }
        assert!(COMPILED.with_borrow(|kept| kept.len()) <= COMPILED_KEPT);
        for _ in 0..2 {
            assert!(compile("(", 1).is_err());
        }
        assert!(COMPILED.with_borrow(|kept| !kept.contains_key("(")));
    }
}
