//! Cheap bracket-nesting checks. JSON text is checked exactly before it reaches the JSON reader, whose recursion
//! has no bound of its own. For standalone HCL expressions a naive count (brackets inside strings count too, so it
//! can only over-estimate) merely words the error of an expression hcl-edit already rejected. Native HCL bodies
//! need neither: hcl-edit bounds its own recursion and [`scan`](crate::scan) measures nesting exactly on the
//! recovery path.

/// The offset of the first opening bracket that is more than `limit` deep, counting naively.
pub(crate) fn too_deep(text: &str, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        match b {
            b'{' | b'[' | b'(' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b'}' | b']' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Like [`too_deep`] for JSON text, exactly: brackets inside JSON strings (simple to skip: `"` with `\` escapes)
/// do not count, so a valid file is never rejected for its strings.
pub(crate) fn too_deep_json(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{too_deep, too_deep_json};

    #[test]
    fn json_strings_do_not_count() {
        let text = format!("{{\"a\": \"{}\\\"[\"}}", "[".repeat(300));
        assert_eq!(too_deep_json(&text, 3), None);
        assert_eq!(too_deep_json("[[[[1]]]]", 3), Some(3));
    }

    #[test]
    fn finds_the_first_bracket_beyond_the_limit() {
        assert_eq!(too_deep("a = [[[]]]", 3), None);
        assert_eq!(too_deep("a = [[[[]]]]", 3), Some(7));
        assert_eq!(too_deep("a = [] [] [] []", 1), None);
    }
}
