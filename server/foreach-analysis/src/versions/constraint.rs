//! Version constraints as OpenTofu reads them: the grammar and the matching of `hashicorp/go-version` (v1.8.0, the
//! version OpenTofu 1.12 builds with), so that `required_version = "~> 1.9"` admits exactly what `tofu` admits.
//!
//! Written here rather than taken from a crate: the `semver` crate implements Cargo's
//! requirements, not go-version's: it has no `~>` (its `~` and `^` pin differently), no `!=`, compares exactly three
//! segments, and lets a pre-release match only a comparator that names the same version core, where go-version
//! lets a release satisfy `>= 1.9.0-beta1`. The checks need go-version's corners: `~> 1` admitting 2.0 (only the
//! segments before the last one written are pinned), versions of more than three segments compared with zeros
//! filled in, `1.0beta` as a pre-release, a `v` prefix, a constraint that is not one (`""`) being a syntax error.
//! The grammar is small: a comma-separated list of `OP VERSION`, every one of which must hold. The tests hold
//! go-version's own constraint cases and OpenTofu's `TestRequiredVersion`, transcribed.

use std::cmp::Ordering;
use std::fmt;

/// A version as go-version parses it: numeric segments (at least three, zeros filled in), an optional pre-release
/// and build metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// At least three: `1.9` is `[1, 9, 0]`.
    pub segments: Vec<i64>,
    /// How many segments were written (`~>` pins all but the last of them).
    pub written: usize,
    /// `beta1` in `1.9.0-beta1`; empty for a release.
    pub pre: String,
    pub metadata: String,
}

impl Version {
    /// A release version `major.minor.patch`.
    pub fn release(major: i64, minor: i64, patch: i64) -> Version {
        Version { segments: vec![major, minor, patch], written: 3, pre: String::new(), metadata: String::new() }
    }

    /// Parses a version (go-version's `NewVersion`), `None` when it is not one.
    pub fn parse(text: &str) -> Option<Version> {
        let mut p = Scanner { s: text.as_bytes(), at: 0 };
        let v = p.version()?;
        (p.at == text.len()).then_some(v)
    }

    pub fn is_prerelease(&self) -> bool {
        !self.pre.is_empty()
    }

    /// go-version's `Compare`: segments first (the shorter one filled with zeros), then a release above any of its
    /// pre-releases, then pre-releases part by part. Metadata never counts.
    pub fn compare(&self, other: &Version) -> Ordering {
        if self.segments == other.segments {
            return match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_prereleases(&self.pre, &other.pre),
            };
        }
        let len = self.segments.len().max(other.segments.len());
        for i in 0..len {
            let a = self.segments.get(i).copied().unwrap_or(0);
            let b = other.segments.get(i).copied().unwrap_or(0);
            match a.cmp(&b) {
                Ordering::Equal => continue,
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let segments: Vec<String> = self.segments[..self.written.max(1)].iter().map(i64::to_string).collect();
        f.write_str(&segments.join("."))?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        if !self.metadata.is_empty() {
            write!(f, "+{}", self.metadata)?;
        }
        Ok(())
    }
}

/// go-version's `comparePrereleases`: dot-separated parts compared in turn; a numeric part is below a textual one,
/// a missing part below a textual one and above... nothing numeric (go-version's exact rule, kept as it is).
fn compare_prereleases(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
    for i in 0..pa.len().max(pb.len()) {
        let ord = compare_part(pa.get(i).copied().unwrap_or(""), pb.get(i).copied().unwrap_or(""));
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}

fn compare_part(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let (na, nb) = (a.parse::<i64>().ok(), b.parse::<i64>().ok());
    if a.is_empty() {
        return if nb.is_some() { Ordering::Less } else { Ordering::Greater };
    }
    if b.is_empty() {
        return if na.is_some() { Ordering::Greater } else { Ordering::Less };
    }
    match (na, nb) {
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) if a > b => Ordering::Greater,
        (Some(x), Some(y)) if x > y => Ordering::Greater,
        _ => Ordering::Less,
    }
}

/// A constraint operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Eq,
    NotEq,
    Gt,
    Lt,
    GtEq,
    LtEq,
    /// `~>`
    Pessimistic,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::NotEq => "!=",
            Op::Gt => ">",
            Op::Lt => "<",
            Op::GtEq => ">=",
            Op::LtEq => "<=",
            Op::Pessimistic => "~>",
        }
    }
}

/// One `OP VERSION` of a constraint list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub op: Op,
    pub version: Version,
    /// Whether the operator was written (`1.9` means `= 1.9`).
    pub op_written: bool,
}

impl Term {
    /// go-version's `Constraint.Check`.
    pub fn admits(&self, v: &Version) -> bool {
        let c = &self.version;
        match self.op {
            Op::Eq => v.compare(c) == Ordering::Equal,
            Op::NotEq => v.compare(c) != Ordering::Equal,
            Op::Gt => prerelease_check(v, c) && v.compare(c) == Ordering::Greater,
            Op::Lt => prerelease_check(v, c) && v.compare(c) == Ordering::Less,
            Op::GtEq => prerelease_check(v, c) && v.compare(c) != Ordering::Less,
            Op::LtEq => prerelease_check(v, c) && v.compare(c) != Ordering::Greater,
            Op::Pessimistic => pessimistic(v, c),
        }
    }
}

/// go-version's `prereleaseCheck`: a pre-release version only matches a constraint with a pre-release of the same
/// segments.
fn prerelease_check(v: &Version, c: &Version) -> bool {
    match (v.is_prerelease(), c.is_prerelease()) {
        (true, true) => v.segments == c.segments,
        (true, false) => false,
        _ => true,
    }
}

/// go-version's `constraintPessimistic`: at least `c`, with every written segment but the last one equal.
fn pessimistic(v: &Version, c: &Version) -> bool {
    if !prerelease_check(v, c) || (c.is_prerelease() && !v.is_prerelease()) {
        return false;
    }
    if v.compare(c) == Ordering::Less {
        return false;
    }
    let cs = c.segments.len();
    if cs > v.segments.len() {
        return false;
    }
    for i in 0..c.written.saturating_sub(1) {
        if v.segments[i] != c.segments[i] {
            return false;
        }
    }
    c.segments[cs - 1] <= v.segments[cs - 1]
}

/// A parsed constraint string: every term must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraints {
    pub terms: Vec<Term>,
}

/// Why a constraint string is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The comma-separated piece that does not parse, trimmed.
    pub piece: String,
}

impl Constraints {
    /// go-version's `NewConstraint`: the string split at every comma, each piece `OP VERSION` with optional spaces.
    pub fn parse(text: &str) -> Result<Constraints, SyntaxError> {
        let mut terms = Vec::new();
        for piece in text.split(',') {
            terms.push(parse_term(piece).ok_or_else(|| SyntaxError { piece: piece.trim().to_string() })?);
        }
        Ok(Constraints { terms })
    }

    pub fn admits(&self, v: &Version) -> bool {
        self.terms.iter().all(|t| t.admits(v))
    }

    /// The terms that name a pre-release version, which OpenTofu refuses in `required_version`.
    pub fn prereleases(&self) -> impl Iterator<Item = &Term> {
        self.terms.iter().filter(|t| t.version.is_prerelease())
    }

    /// The list with its lower bound raised to `to` (a release): every `>=`, `>` and `~>` term whose version is
    /// below `to` names `to` instead, written with as many segments as before (`>` becomes `>=`); a list with no
    /// such term gets `>= to` in front. `None` when that changes nothing or the result would admit no version of
    /// `to` or later among `candidates` (an upper bound below it: raising cannot help).
    pub fn raised_to(&self, to: &Version, candidates: &[Version]) -> Option<String> {
        let mut terms: Vec<String> = Vec::new();
        let mut raised = false;
        let mut has_lower = false;
        for t in &self.terms {
            let lower = matches!(t.op, Op::GtEq | Op::Gt | Op::Pessimistic);
            has_lower |= lower;
            if lower && t.version.compare(to) == Ordering::Less {
                let written = t.version.written.clamp(2, 3);
                let new = Version { written, ..to.clone() };
                let op = if t.op == Op::Gt { Op::GtEq } else { t.op };
                terms.push(format!("{} {new}", op.as_str()));
                raised = true;
            } else {
                terms.push(t.to_string());
            }
        }
        if !has_lower {
            let new = Version { written: if to.segments[2] == 0 { 2 } else { 3 }, ..to.clone() };
            terms.insert(0, format!(">= {new}"));
            raised = true;
        }
        let text = terms.join(", ");
        let result = Constraints::parse(&text).ok()?;
        let useful = candidates.iter().any(|v| v.compare(to) != Ordering::Less && result.admits(v));
        (raised && useful).then_some(text)
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.op_written { write!(f, "{} {}", self.op.as_str(), self.version) } else { write!(f, "{}", self.version) }
    }
}

/// `\s` of Go's regular expressions.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

fn parse_term(piece: &str) -> Option<Term> {
    let bytes = piece.as_bytes();
    let mut at = 0;
    while at < bytes.len() && is_space(bytes[at]) {
        at += 1;
    }
    // Longest operators first, as the alternation `<=|>=|!=|~>|<|>|=|` tries them.
    let ops = [
        ("<=", Op::LtEq),
        (">=", Op::GtEq),
        ("!=", Op::NotEq),
        ("~>", Op::Pessimistic),
        ("<", Op::Lt),
        (">", Op::Gt),
        ("=", Op::Eq),
    ];
    let rest = &piece[at..];
    let (op, op_written) = match ops.iter().find(|(s, _)| rest.starts_with(s)) {
        Some((s, op)) => {
            at += s.len();
            (*op, true)
        }
        None => (Op::Eq, false),
    };
    while at < bytes.len() && is_space(bytes[at]) {
        at += 1;
    }
    let mut scanner = Scanner { s: bytes, at };
    let version = scanner.version()?;
    let mut end = scanner.at;
    while end < bytes.len() && is_space(bytes[end]) {
        end += 1;
    }
    (end == bytes.len()).then_some(Term { op, version, op_written })
}

/// A cursor over go-version's `VersionRegexpRaw`:
/// `v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?`.
///
/// Greedy where the expression is lazy: a pre-release never starts with `.` or a digit, so ending the segments
/// early can never lead to a match, and the first match is the one go-version finds.
struct Scanner<'a> {
    s: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.s.get(self.at + n).copied()
    }

    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> usize {
        let start = self.at;
        while self.peek().is_some_and(&f) {
            self.at += 1;
        }
        self.at - start
    }

    fn version(&mut self) -> Option<Version> {
        if self.peek() == Some(b'v') {
            self.at += 1;
        }
        let mut segments = Vec::new();
        loop {
            let start = self.at;
            if self.take_while(|b| b.is_ascii_digit()) == 0 {
                return None;
            }
            // go-version parses each segment as an int64 and refuses one that does not fit.
            segments.push(std::str::from_utf8(&self.s[start..self.at]).ok()?.parse::<i64>().ok()?);
            if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
                self.at += 1;
            } else {
                break;
            }
        }
        let written = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        let pre = self.prerelease().unwrap_or_default();
        let mut metadata = String::new();
        if self.peek() == Some(b'+') {
            self.at += 1;
            metadata = self.dotted(is_ident)?;
        }
        Some(Version { segments, written, pre, metadata })
    }

    /// The pre-release, without the `-` that introduces it; `None` (nothing consumed) when there is none. Of the
    /// expression's two alternatives, the numeric one (`-` and a digit) is tried first; the textual one takes a
    /// leading `-` as its separator when a letter, `-` or `~` follows, and as the pre-release itself otherwise
    /// (`1.0-` has the pre-release `-`).
    fn prerelease(&mut self) -> Option<String> {
        match (self.peek(), self.peek_at(1)) {
            (Some(b'-'), Some(d)) if d.is_ascii_digit() => {
                self.at += 1;
                self.dotted_first(|b| b.is_ascii_digit())
            }
            (Some(b'-'), Some(c)) if is_alpha(c) => {
                self.at += 1;
                self.dotted_first(is_alpha)
            }
            (Some(c), _) if is_alpha(c) => self.dotted_first(is_alpha),
            _ => None,
        }
    }

    /// `FIRST+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*`, where FIRST is the class of the first character.
    fn dotted_first(&mut self, first: impl Fn(u8) -> bool) -> Option<String> {
        let start = self.at;
        if self.take_while(first) == 0 {
            return None;
        }
        self.take_while(is_ident);
        self.more_parts();
        Some(String::from_utf8_lossy(&self.s[start..self.at]).into_owned())
    }

    /// `[class]+(\.[0-9A-Za-z\-~]+)*`
    fn dotted(&mut self, class: impl Fn(u8) -> bool) -> Option<String> {
        let start = self.at;
        if self.take_while(class) == 0 {
            return None;
        }
        self.more_parts();
        Some(String::from_utf8_lossy(&self.s[start..self.at]).into_owned())
    }

    fn more_parts(&mut self) {
        while self.peek() == Some(b'.') && self.peek_at(1).is_some_and(is_ident) {
            self.at += 1;
            self.take_while(is_ident);
        }
    }
}

/// `[A-Za-z\-~]`
fn is_alpha(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'~'
}

/// `[0-9A-Za-z\-~]`
fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'~'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admits(constraint: &str, version: &str) -> bool {
        let c = Constraints::parse(constraint).unwrap_or_else(|e| panic!("{constraint}: {e:?}"));
        c.admits(&Version::parse(version).unwrap_or_else(|| panic!("{version}")))
    }

    #[test]
    fn operators_as_opentofu_reads_them() {
        // (constraint, version, admitted): ours, each checked against go-version v1.8.0's code.
        let cases = [
            (">= 1.9", "1.8.11", false),
            (">= 1.9", "1.9.0", true),
            (">=1.9", "1.9.0", true),
            ("  >=  1.9  ", "1.10.2", true),
            ("> 1.8", "1.8.0", false),
            ("> 1.8", "1.8.1", true),
            ("< 1.10", "1.9.4", true),
            ("< 1.10", "1.10.0", false),
            ("<= 1.10", "1.10.0", true),
            ("= 1.9", "1.9.0", true),
            ("= 1.9", "1.9.1", false),
            ("1.9", "1.9.0", true),
            ("v1.9", "1.9.0", true),
            ("!= 1.9.1", "1.9.1", false),
            ("!= 1.9.1", "1.9.2", true),
            ("~> 1.9", "1.12.6", true),
            ("~> 1.9", "1.8.11", false),
            ("~> 1.9", "2.0.0", false),
            ("~> 1.9.0", "1.9.4", true),
            ("~> 1.9.0", "1.10.0", false),
            // Only the segments before the last one written are pinned: `~> 1` is `>= 1`.
            ("~> 1", "2.5.0", true),
            ("~> 1.0.7", "1.0.7.5", true),
            ("~> 1.0.7", "1.0.6.99", false),
            (">= 1.2.0.1", "1.2.0", false),
            (">= 1.9, < 1.11", "1.10.3", true),
            (">= 1.9, < 1.11", "1.11.0", false),
            // A release satisfies a pre-release lower bound of its own or a lower version core...
            (">= 1.9.0-beta1", "1.9.0", true),
            (">= 1.9.0-beta1", "1.8.11", false),
            // ...but a pre-release matches only a pre-release bound of the same segments.
            ("> 1.9.0", "1.10.0-rc1", false),
            (">= 1.10.0-alpha1", "1.10.0-rc1", true),
            ("~> 1.10.0-alpha1", "1.10.0", false),
        ];
        for (c, v, want) in cases {
            assert_eq!(admits(c, v), want, "{c} against {v}");
        }
    }

    #[test]
    fn what_is_not_a_constraint() {
        for bad in ["", " ", ">= 1.x", "=> 1.9", ">= 1.9,", ", >= 1.9", ">= 1.9 || < 2", "~ 1.9", "latest", "1.9.*"] {
            assert!(Constraints::parse(bad).is_err(), "{bad:?} parsed");
        }
        // go-version refuses a segment that does not fit in an int64.
        assert!(Constraints::parse("11387778780781445675529500000000000000000").is_err());
        for good in ["1", "1.0beta", "= 1.0-", ">= 1.2.0-x.Y.0+metadata", "~> 1.2.3.4-rc1-with-hyphen", "v1.7rc2"] {
            assert!(Constraints::parse(good).is_ok(), "{good:?} refused");
        }
    }

    #[test]
    fn versions_compare_by_segments_then_prerelease() {
        let cmp = |a: &str, b: &str| Version::parse(a).unwrap().compare(&Version::parse(b).unwrap());
        assert_eq!(cmp("1.2.0.0", "1.2"), Ordering::Equal);
        assert_eq!(cmp("1.2.0.0.1", "1.2"), Ordering::Greater);
        assert_eq!(cmp("1.2", "1.2-beta"), Ordering::Greater);
        assert_eq!(cmp("1.2+foo", "1.2+bar"), Ordering::Equal);
        assert_eq!(cmp("1.2-beta.2", "1.2-beta.11"), Ordering::Less);
        assert_eq!(cmp("1.2-alpha.1", "1.2-alpha"), Ordering::Greater);
        assert_eq!(cmp("1.2-alpha", "1.2-alpha.beta"), Ordering::Greater);
        assert_eq!(Version::parse("1.0-").map(|v| v.pre), Some("-".to_string()));
        assert_eq!(Version::parse("1.0beta").map(|v| v.pre), Some("beta".to_string()));
        assert!(Version::parse("1.2.beta").is_none());
        assert!(Version::parse("\n1.2").is_none());
    }

    #[test]
    fn raising_the_lower_bound_keeps_the_rest() {
        let all: Vec<Version> = (6..=12).flat_map(|m| (0..=3).map(move |p| Version::release(1, m, p))).collect();
        let raise = |c: &str| Constraints::parse(c).unwrap().raised_to(&Version::release(1, 9, 0), &all);
        assert_eq!(raise(">= 1.6").as_deref(), Some(">= 1.9"));
        assert_eq!(raise(">= 1.6.0").as_deref(), Some(">= 1.9.0"));
        assert_eq!(raise("> 1.6").as_deref(), Some(">= 1.9"));
        assert_eq!(raise("~> 1.6").as_deref(), Some("~> 1.9"));
        assert_eq!(raise("~> 1.6.0").as_deref(), Some("~> 1.9.0"));
        assert_eq!(raise(">=1.6, <2.0").as_deref(), Some(">= 1.9, < 2.0"));
        assert_eq!(raise("< 2.0").as_deref(), Some(">= 1.9, < 2.0"));
        assert_eq!(raise(">= 1").as_deref(), Some(">= 1.9"));
        // Nothing to raise, or raising cannot admit 1.9 and later.
        assert_eq!(raise(">= 1.10"), None);
        assert_eq!(raise(">= 1.6, < 1.9"), None);
        assert_eq!(raise("= 1.6.0"), None);
    }

    /// go-version's own cases (`constraint_test.go`, `TestConstraintCheck`, `hashicorp/go-version` at `053a13e`),
    /// transcribed: (constraint, version, admitted).
    const GO_VERSION_CHECK: &[(&str, &str, bool)] = &[
        (">= 1.0, < 1.2", "1.1.5", true),
        ("< 1.0, < 1.2", "1.1.5", false),
        ("= 1.0", "1.1.5", false),
        ("= 1.0", "1.0.0", true),
        ("1.0", "1.0.0", true),
        ("~> 1.0", "2.0", false),
        ("~> 1.0", "1.1", true),
        ("~> 1.0", "1.2.3", true),
        ("~> 1.0.0", "1.2.3", false),
        ("~> 1.0.0", "1.0.7", true),
        ("~> 1.0.0", "1.1.0", false),
        ("~> 1.0.7", "1.0.4", false),
        ("~> 1.0.7", "1.0.7", true),
        ("~> 1.0.7", "1.0.8", true),
        ("~> 1.0.7", "1.0.7.5", true),
        ("~> 1.0.7", "1.0.6.99", false),
        ("~> 1.0.7", "1.0.8.0", true),
        ("~> 1.0.9.5", "1.0.9.5", true),
        ("~> 1.0.9.5", "1.0.9.4", false),
        ("~> 1.0.9.5", "1.0.9.6", true),
        ("~> 1.0.9.5", "1.0.9.5.0", true),
        ("~> 1.0.9.5", "1.0.9.5.1", true),
        ("~> 2.0", "2.1.0-beta", false),
        ("~> 2.1.0-a", "2.2.0", false),
        ("~> 2.1.0-a", "2.1.0", false),
        ("~> 2.1.0-a", "2.1.0-beta", true),
        ("~> 2.1.0-a", "2.2.0-alpha", false),
        ("> 2.0", "2.1.0-beta", false),
        (">= 2.1.0-a", "2.1.0-beta", true),
        (">= 2.1.0-a", "2.1.1-beta", false),
        (">= 2.0.0", "2.1.0-beta", false),
        (">= 2.1.0-a", "2.1.1", true),
        (">= 2.1.0-a", "2.1.1-beta", false),
        (">= 2.1.0-a", "2.1.0", true),
        ("<= 2.1.0-a", "2.0.0", true),
    ];

    #[test]
    fn go_version_constraint_check_cases() {
        for (c, v, want) in GO_VERSION_CHECK {
            assert_eq!(admits(c, v), *want, "{c} against {v}");
        }
    }

    /// go-version's `TestNewConstraint`: (input, terms, error).
    #[test]
    fn go_version_new_constraint_cases() {
        let cases: &[(&str, usize, bool)] = &[
            (">= 1.2", 1, false),
            ("1.0", 1, false),
            (">= 1.x", 0, true),
            (">= 1.2, < 1.0", 2, false),
            ("11387778780781445675529500000000000000000", 0, true),
        ];
        for (input, count, err) in cases {
            match Constraints::parse(input) {
                Ok(p) => assert!(!err && p.terms.len() == *count, "{input}: parsed into {} terms", p.terms.len()),
                Err(_) => assert!(err, "{input}: refused"),
            }
        }
    }

    /// OpenTofu's `TestRequiredVersion` (`internal/configs/diagnostics_test.go`): (current version, constraint,
    /// refused). OpenTofu refuses a constraint that names a pre-release whatever the version, which is how the
    /// checks read it too (`Constraint::parsed` is `None` for one, and `invalid-version-constraint` reports it).
    #[test]
    fn opentofu_required_version_cases() {
        let cases: &[(&str, &str, bool)] = &[
            ("0.1.0", "> 0.6.0", true),
            ("0.7.0", "> 0.6.0", false),
            ("0.8.0", "> 0.7.0-beta", true),
            ("0.7.0", "0.7.0-beta", true),
        ];
        for (current, constraint, refused) in cases {
            let parsed = Constraints::parse(constraint).unwrap();
            let got = parsed.prereleases().next().is_some() || !admits(constraint, current);
            assert_eq!(got, *refused, "{constraint} against {current}");
        }
    }
}
