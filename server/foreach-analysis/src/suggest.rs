//! "Did you mean …?": the closest candidate within a small edit distance (strsim's Levenshtein distance).

/// The candidate closest to `name`, if it is close enough to be a plausible typo: at most a third of the longer
/// name's length in edits (at least one), so short keys such as `0` are not "corrected" to unrelated ones.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = strsim::levenshtein(name, c);
        let limit = (name.chars().count().max(c.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos_not_strangers() {
        assert_eq!(closest("regoins", ["regions", "accounts"]), Some("regions"));
        assert_eq!(closest("postgres", ["postgresql", "aws"]), Some("postgresql"));
        assert_eq!(closest("x", ["completely_different"]), None);
        assert_eq!(closest("a", []), None);
        assert_eq!(closest("0", ["eu", "us"]), None);
        assert_eq!(closest("uss", ["eu", "us"]), Some("us"));
    }
}
