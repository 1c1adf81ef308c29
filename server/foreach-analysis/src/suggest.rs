//! "Did you mean …?": the closest candidate within a small edit distance (Levenshtein).
//!
//! A module can declare thousands of names (generated modules do) and hints are computed while checking and
//! evaluating, so each comparison gives up as soon as the distance exceeds what could still win. `strsim`, used
//! before, computes every distance in full: 6,000 variable names of 60 characters cost 20 ms per hint.

/// The candidate closest to `name`, if it is close enough to be a plausible typo: at most a third of the longer
/// name's length in edits (at least one), so short keys such as `0` are not "corrected" to unrelated ones.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    closest_with_slack(name, candidates, 0)
}

/// [`closest`], allowing `slack` more edits.
///
/// Searches with a small cap on the distance first (1, then 2, 4, …, up to the largest limit): a typo is usually
/// one edit away, and with a cap of one nearly every candidate is rejected after a character or two. The first
/// pass that finds anything has found the closest: a candidate at a smaller distance is within every cap tried.
pub fn closest_with_slack<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    slack: usize,
) -> Option<&'a str> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let a: Vec<char> = name.chars().collect();
    // Bytes bound characters from above, so this limit is at least every candidate's.
    let longest = candidates.iter().map(|c| c.len()).max()?;
    let widest_limit = (a.len().max(longest) / 3).max(1) + slack;
    let mut search = Search { a: &a, a_counts: ascii_counts(name), b: Vec::new(), rows: (Vec::new(), Vec::new()) };
    let mut cap = 1;
    loop {
        if let Some(found) = search.closest_within(&candidates, slack, cap) {
            return Some(found);
        }
        if cap >= widest_limit {
            return None;
        }
        cap *= 2;
    }
}

/// One name compared with many, its buffers reused between candidates and passes.
struct Search<'n> {
    a: &'n [char],
    a_counts: Option<[i32; 128]>,
    b: Vec<char>,
    rows: (Vec<usize>, Vec<usize>),
}

impl Search<'_> {
    /// The first candidate at the smallest distance, among those within both their limit and `cap`.
    fn closest_within<'a>(&mut self, candidates: &[&'a str], slack: usize, cap: usize) -> Option<&'a str> {
        let mut best: Option<(usize, &str)> = None;
        for &c in candidates {
            self.b.clear();
            self.b.extend(c.chars());
            let limit = ((self.a.len().max(self.b.len()) / 3).max(1) + slack).min(cap);
            // Only a strictly smaller distance replaces the best so far.
            let bound = match best {
                Some((0, _)) => break,
                Some((d, _)) => limit.min(d - 1),
                None => limit,
            };
            // The distance is at least the difference in length.
            if self.a.len().abs_diff(self.b.len()) > bound {
                continue;
            }
            // So is a bound that costs one pass over the name; worth it only where the band of the distance is
            // wide (a module of 6,000 variables is searched on every keystroke that leaves a misspelt `var.`).
            if bound > 2
                && let Some(a_counts) = &self.a_counts
                && letters_apart(a_counts, c).is_some_and(|apart| apart > bound)
            {
                continue;
            }
            if let Some(d) = bounded_levenshtein(self.a, &self.b, bound, &mut self.rows) {
                best = Some((d, c));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// How often each ASCII character occurs in `s`; `None` if it has other characters.
fn ascii_counts(s: &str) -> Option<[i32; 128]> {
    let mut counts = [0i32; 128];
    for b in s.bytes() {
        *counts.get_mut(usize::from(b))? += 1;
    }
    Some(counts)
}

/// A lower bound of the edit distance between the name counted in `a_counts` and `b`: each edit adds, removes or
/// replaces one character, so it mends at most one missing and one surplus occurrence. `None` if `b` is not ASCII.
fn letters_apart(a_counts: &[i32; 128], b: &str) -> Option<usize> {
    let mut counts = *a_counts;
    for c in b.bytes() {
        *counts.get_mut(usize::from(c))? -= 1;
    }
    let (missing, surplus) = counts.iter().fold((0, 0), |(m, s), &n| if n > 0 { (m + n, s) } else { (m, s - n) });
    Some(missing.max(surplus) as usize)
}

/// The edit distance between `a` and `b` if it is at most `bound`, else `None`.
///
/// Only the band of cells within `bound` of the diagonal is computed (Ukkonen): a cell further off needs more
/// than `bound` insertions or deletions. Cells outside the band, and any value above `bound`, are held as
/// `bound + 1`; a value at most `bound` comes only from neighbours at most `bound`, so it is exact. A row's
/// minimum never decreases in the rows below it, so once it exceeds `bound` the distance does too.
fn bounded_levenshtein(a: &[char], b: &[char], bound: usize, rows: &mut (Vec<usize>, Vec<usize>)) -> Option<usize> {
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let over = bound + 1;
    let (prev, cur) = rows;
    prev.clear();
    prev.extend((0..=b.len()).map(|j| j.min(over)));
    for (i, ca) in a.iter().enumerate() {
        let row = i + 1;
        cur.clear();
        cur.resize(b.len() + 1, over);
        cur[0] = row.min(over);
        let mut row_min = cur[0];
        let (lo, hi) = (row.saturating_sub(bound).max(1), (row + bound).min(b.len()));
        for j in lo..=hi {
            let replace = prev[j - 1] + usize::from(*ca != b[j - 1]);
            let d = replace.min(prev[j] + 1).min(cur[j - 1] + 1).min(over);
            cur[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > bound {
            return None;
        }
        std::mem::swap(prev, cur);
    }
    Some(prev[b.len()]).filter(|d| *d <= bound)
}

#[cfg(test)]
mod tests {
    use super::{closest, closest_with_slack};

    #[test]
    fn finds_typos_not_strangers() {
        assert_eq!(closest("regoins", ["regions", "accounts"]), Some("regions"));
        assert_eq!(closest("postgres", ["postgresql", "aws"]), Some("postgresql"));
        assert_eq!(closest("x", ["completely_different"]), None);
        assert_eq!(closest("a", []), None);
        assert_eq!(closest("0", ["eu", "us"]), None);
        assert_eq!(closest("uss", ["eu", "us"]), Some("us"));
    }

    /// The plain, unbounded computation: the first of the closest candidates within the limit.
    fn unbounded<'a>(name: &str, candidates: impl Iterator<Item = &'a str>, slack: usize) -> Option<&'a str> {
        let limit = |c: &str| (name.chars().count().max(c.chars().count()) / 3).max(1) + slack;
        candidates
            .map(|c| (strsim::levenshtein(name, c), c))
            .filter(|(d, c)| *d <= limit(c))
            .fold(
                None::<(usize, &str)>,
                |best, (d, c)| if best.is_some_and(|(bd, _)| bd <= d) { best } else { Some((d, c)) },
            )
            .map(|(_, c)| c)
    }

    /// The bounded distance must agree with the plain one, ties and limits included.
    #[test]
    fn agrees_with_the_full_distance() {
        let names = [
            "kitten",
            "sitting",
            "mitten",
            "kitchen",
            "k",
            "",
            "kittens",
            "bitten",
            "smitten",
            "regions",
            "listen",
            "silent",
            "enlist",
            "ünïcode",
            "unicode",
            "unicodé",
        ];
        for name in names {
            for slack in 0..2 {
                let others = || names.iter().copied().filter(|c| *c != name);
                assert_eq!(closest_with_slack(name, names, slack), unbounded(name, names.into_iter(), slack));
                assert_eq!(closest_with_slack(name, others(), slack), unbounded(name, others(), slack), "{name}");
            }
        }
    }

    proptest::proptest! {
        /// Random names over a small alphabet (so that many are close): the banded, deepening search agrees with
        /// the plain one.
        #[test]
        fn agrees_with_the_full_distance_on_random_names(
            name in "[abc_]{0,12}",
            candidates in proptest::collection::vec("[abc_]{0,14}", 0..12),
            slack in 0usize..3,
        ) {
            let found = closest_with_slack(&name, candidates.iter().map(String::as_str), slack);
            proptest::prop_assert_eq!(found, unbounded(&name, candidates.iter().map(String::as_str), slack));
        }
    }
}
