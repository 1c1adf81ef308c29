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
pub fn closest_with_slack<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    slack: usize,
) -> Option<&'a str> {
    let a: Vec<char> = name.chars().collect();
    let a_counts = ascii_counts(name);
    let mut b: Vec<char> = Vec::new();
    let mut rows = (Vec::new(), Vec::new());
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        b.clear();
        b.extend(c.chars());
        let limit = (a.len().max(b.len()) / 3).max(1) + slack;
        // Only a strictly smaller distance replaces the best so far.
        let bound = match best {
            Some((0, _)) => break,
            Some((d, _)) => limit.min(d - 1),
            None => limit,
        };
        // The distance is at least the difference in length.
        if a.len().abs_diff(b.len()) > bound {
            continue;
        }
        // So is a bound that costs one pass over the name: a module of 6,000 variables is searched on every
        // keystroke that leaves a misspelt `var.`, and the distance itself is quadratic in the names' length.
        if let Some(a_counts) = &a_counts
            && letters_apart(a_counts, c).is_some_and(|apart| apart > bound)
        {
            continue;
        }
        if let Some(d) = bounded_levenshtein(&a, &b, bound, &mut rows) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
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

/// The edit distance between `a` and `b` if it is at most `bound`, else `None`. A row's minimum never decreases
/// in the rows below it, so once it exceeds `bound` the distance does too.
fn bounded_levenshtein(a: &[char], b: &[char], bound: usize, rows: &mut (Vec<usize>, Vec<usize>)) -> Option<usize> {
    let (prev, cur) = rows;
    prev.clear();
    prev.extend(0..=b.len());
    for (i, ca) in a.iter().enumerate() {
        cur.clear();
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let d = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
            cur.push(d);
        }
        if cur.iter().min().is_some_and(|m| *m > bound) {
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
}
