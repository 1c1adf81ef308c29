//! A cheap upper bound on bracket nesting, checked before text reaches a parser whose recursion has no bound of
//! its own: the JSON reader, and standalone expressions (for a clear message).
//!
//! It counts `{`, `[` and `(` against their closers without lexing (brackets in strings count too), so it can
//! only over-estimate; that is acceptable for the rare JSON file with hundreds of brackets inside strings.
//! Native HCL bodies do not need it: hcl-edit bounds its own recursion and [`scan`](crate::scan) measures nesting
//! exactly on the recovery path.

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

#[cfg(test)]
mod tests {
    use super::too_deep;

    #[test]
    fn finds_the_first_bracket_beyond_the_limit() {
        assert_eq!(too_deep("a = [[[]]]", 3), None);
        assert_eq!(too_deep("a = [[[[]]]]", 3), Some(7));
        assert_eq!(too_deep("a = [] [] [] []", 1), None);
    }
}
