//! Writing a string as an HCL quoted literal, the inverse of what the parser unescapes: what fixes, `migrate` and
//! addresses (`aws.by_region["eu"]`) insert into configuration text.

/// An HCL quoted string: escapes, and `${`/`%{` doubled so they stay literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn escapes_what_hcl_would_read_otherwise() {
        assert_eq!(quote("eu-west-1"), r#""eu-west-1""#);
        assert_eq!(quote("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(quote("${x} %{y} $z"), r#""$${x} %%{y} $z""#);
        assert_eq!(quote("\u{1}"), r#""\u0001""#);
    }

    #[test]
    fn what_it_writes_parses_back_to_the_string() {
        for s in ["plain", "quote\"inside", "back\\slash", "line\nbreak", "${interp}", "%{directive}", "tab\there"] {
            let parsed = crate::parse_expr(&quote(s)).expect("parses");
            assert_eq!(parsed.as_string_literal().as_deref(), Some(s), "{s}");
        }
    }
}
