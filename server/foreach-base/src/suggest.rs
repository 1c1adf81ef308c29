//! "Did you mean …?": the closest candidate within a small edit distance, counting a swap of two neighbouring
//! characters as one edit (optimal string alignment: `mian` is one edit from `main`, two for Levenshtein).
//!
//! A module can declare thousands of names (generated modules do) and hints are computed while checking and
//! evaluating, so each comparison gives up as soon as the distance exceeds what could still win. `strsim`, used
//! before, computes every distance in full: 6,000 variable names of 60 characters cost 20 ms per hint. Its
//! `osa_distance` is the reference the tests compare this bounded search with.
//!
//! A candidate that keeps nothing of what differs is not offered, however short the rest makes the distance:
//! `acme-labs` and `acme-oss` share `acme-` and an `s`, but `lab` and `os` have nothing in common, so the second
//! is another name, not the first misspelt (see [`is_weak`]).

/// The candidate closest to `name`, if it is close enough to be a plausible typo: at most a third of the longer
/// name's length in edits (at least one), so short keys such as `0` are not "corrected" to unrelated ones, and not
/// a [weak](is_weak) match.
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
    let mut search = Search { a: &a, a_counts: ascii_counts(name), b: Vec::new(), rows: Rows::default() };
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
    rows: Rows,
}

/// The rows of the distance table kept while filling it: two rows back (for swaps), the last one, the current one.
type Rows = (Vec<usize>, Vec<usize>, Vec<usize>);

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
            if let Some(d) = bounded_osa(self.a, &self.b, bound, &mut self.rows)
                && !is_weak(self.a, &self.b, d)
            {
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

/// Whether `b`, at distance `d` from `a`, keeps nothing of what differs: with the common beginning and end set
/// aside, both middles are non-empty and every character of them is edited (the distance is the longer middle's
/// length). One edit is always a plausible typo (`use2` for `use1`), and so is a name cut short or run on
/// (`postgres` for `postgresql`, whose middle on one side is empty); `us-west-2` for `us-east-2` is not.
fn is_weak(a: &[char], b: &[char], d: usize) -> bool {
    if d < 2 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (a.len() - suffix, b.len() - suffix);
    a > 0 && b > 0 && d >= a.max(b)
}

/// The optimal string alignment distance between `a` and `b` (insertions, deletions, replacements and swaps of
/// two neighbouring characters, each substring edited once) if it is at most `bound`, else `None`.
///
/// Only the band of cells within `bound` of the diagonal is computed (Ukkonen): a cell further off needs more
/// than `bound` insertions or deletions. Cells outside the band, and any value above `bound`, are held as
/// `bound + 1`; a value at most `bound` comes only from neighbours at most `bound`, so it is exact. A cell comes
/// from the row above, its left neighbour, or (a swap) two rows above plus one edit, so once two rows in a row
/// have minimums above `bound` every row below does too, and so does the distance.
fn bounded_osa(a: &[char], b: &[char], bound: usize, rows: &mut Rows) -> Option<usize> {
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let over = bound + 1;
    let (before, prev, cur) = rows;
    before.clear();
    before.resize(b.len() + 1, over);
    prev.clear();
    prev.extend((0..=b.len()).map(|j| j.min(over)));
    let mut prev_min = 0;
    for (i, ca) in a.iter().enumerate() {
        let row = i + 1;
        cur.clear();
        cur.resize(b.len() + 1, over);
        cur[0] = row.min(over);
        let mut row_min = cur[0];
        let (lo, hi) = (row.saturating_sub(bound).max(1), (row + bound).min(b.len()));
        for j in lo..=hi {
            let replace = prev[j - 1] + usize::from(*ca != b[j - 1]);
            let mut d = replace.min(prev[j] + 1).min(cur[j - 1] + 1);
            if i > 0 && j > 1 && *ca == b[j - 2] && a[i - 1] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            let d = d.min(over);
            cur[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > bound && prev_min > bound {
            return None;
        }
        prev_min = row_min;
        // The current row becomes the last, the last two rows back; the oldest is overwritten next.
        std::mem::swap(before, prev);
        std::mem::swap(prev, cur);
    }
    Some(prev[b.len()]).filter(|d| *d <= bound)
}

#[cfg(test)]
mod tests {
    use super::{closest, closest_with_slack, is_weak};

    #[test]
    fn finds_typos_not_strangers() {
        assert_eq!(closest("regoins", ["regions", "accounts"]), Some("regions"));
        assert_eq!(closest("postgres", ["postgresql", "aws"]), Some("postgresql"));
        assert_eq!(closest("x", ["completely_different"]), None);
        assert_eq!(closest("a", []), None);
        assert_eq!(closest("0", ["eu", "us"]), None);
        assert_eq!(closest("uss", ["eu", "us"]), Some("us"));
        assert_eq!(closest("use2", ["use1", "euw1"]), Some("use1"));
    }

    /// Two neighbouring characters swapped are one edit: `mian` is within a third of four characters of `main`.
    #[test]
    fn a_swap_is_one_edit() {
        assert_eq!(closest("mian", ["main", "other"]), Some("main"));
        assert_eq!(closest("ab", ["ba"]), Some("ba"));
        assert_eq!(closest("eu-wset-1", ["eu-west-1", "us-east-1"]), Some("eu-west-1"));
    }

    /// A candidate that shares only a beginning or an end with the name is another name.
    #[test]
    fn weak_matches_are_not_offered() {
        assert_eq!(closest("acme-labs", ["acme-oss"]), None);
        assert_eq!(closest("us-west-2", ["us-east-2"]), None);
        // Still offered: a name cut short, and two typos that keep most of what differs.
        assert_eq!(closest("acme-lab", ["acme-labs"]), Some("acme-labs"));
        assert_eq!(closest("regiosn_lsit", ["regions_list"]), Some("regions_list"));
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(is_weak(&chars("acme-labs"), &chars("acme-oss"), 3));
        assert!(!is_weak(&chars("postgres"), &chars("postgresql"), 2));
    }

    /// The plain, unbounded computation (`strsim`'s): the first of the closest candidates within the limit that
    /// is not weak.
    fn unbounded<'a>(name: &str, candidates: impl Iterator<Item = &'a str>, slack: usize) -> Option<&'a str> {
        let limit = |c: &str| (name.chars().count().max(c.chars().count()) / 3).max(1) + slack;
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        candidates
            .map(|c| (strsim::osa_distance(name, c), c))
            .filter(|(d, c)| *d <= limit(c) && !is_weak(&chars(name), &chars(c), *d))
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
            "kitetn",
            "iktten",
            "ab",
            "ba",
            "abab",
            "baba",
            "ca",
            "abc",
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
