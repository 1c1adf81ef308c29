//! `yamldecode` as go-cty-yaml v1.2 (the decoder Terraform and OpenTofu use) maps YAML to cty values: mappings
//! become objects, sequences tuples, scalars are resolved by cty-yaml's own YAML-1.1-flavoured rules (`yes`/`on`
//! are booleans, `0x1F`/`0o17` integers, `1_000` and `0b101` strings, unquoted dates become RFC 3339 strings),
//! numbers are exact, `<<` merge keys are applied, anchors/aliases are resolved and exactly one document is allowed.
//!
//! The parser is `saphyr-parser`: like libyaml (whose Go port cty-yaml drives) it is an event parser that reports
//! each scalar's style (quoted scalars are never resolved), its tag with `!!` already expanded to
//! `tag:yaml.org,2002:`, anchors and aliases. cty-yaml builds values from exactly those events, so the resolution
//! below is a line-by-line port of cty-yaml's `resolve.go`/`decode.go` on top of the same event stream. Where the
//! two parsers' grammars differ (saphyr follows YAML 1.2 syntax, libyaml 1.1: e.g. `\u2028` as a line break) the
//! input is rare; error messages differ in wording but both sides fail.

use super::api::{FnCtx, FnError, FnResult};
use crate::number::Number;
use crate::value::{Attrs, Value};
use regex::Regex;
use saphyr_parser::{Event, Parser, ScalarStyle, Span, StrInput, Tag};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Nesting bound, so that hostile input cannot exhaust the stack (the parser itself is not recursive).
const MAX_DEPTH: usize = 128;

const STR: &str = "tag:yaml.org,2002:str";
const BINARY: &str = "tag:yaml.org,2002:binary";
const BOOL: &str = "tag:yaml.org,2002:bool";
const INT: &str = "tag:yaml.org,2002:int";
const FLOAT: &str = "tag:yaml.org,2002:float";
const NULL: &str = "tag:yaml.org,2002:null";
const TIMESTAMP: &str = "tag:yaml.org,2002:timestamp";
const MERGE: &str = "tag:yaml.org,2002:merge";
const MAP: &str = "tag:yaml.org,2002:map";
const SEQ: &str = "tag:yaml.org,2002:seq";

pub fn decode(cx: &mut FnCtx<'_>, text: &str) -> FnResult {
    let mut d = Decoder { events: Parser::new_from_str(text), anchors: HashMap::new(), nodes: 0, cx };
    d.document().map_err(|e| match e {
        Fail::Msg(m) => FnError::Msg(m),
        Fail::Fn(e) => e,
    })
}

enum Fail {
    Msg(String),
    Fn(FnError),
}

fn at<T>(span: &Span, msg: impl std::fmt::Display) -> Result<T, Fail> {
    Err(Fail::Msg(format!("on line {}, column {}: {msg}", span.start.line(), span.start.col() + 1)))
}

enum Anchor {
    /// Being defined: an alias to it from inside is a cycle, which cty values cannot represent.
    Pending,
    /// The value and how many nodes it expands to (aliases count that many again).
    Done(Value, usize),
}

struct Decoder<'i, 'c, 'e> {
    events: Parser<'i, StrInput<'i>>,
    anchors: HashMap<usize, Anchor>,
    /// Nodes produced so far, counting each alias as the nodes it copies: bounded by the collection budget, which
    /// turns "billion laughs" documents into a limit diagnostic.
    nodes: usize,
    cx: &'c mut FnCtx<'e>,
}

impl<'i> Decoder<'i, '_, '_> {
    fn next(&mut self) -> Result<(Event<'i>, Span), Fail> {
        match self.events.next_event() {
            Some(Ok(e)) => Ok(e),
            Some(Err(e)) => {
                Err(Fail::Msg(format!("on line {}, column {}: {}", e.marker().line(), e.marker().col() + 1, e.info())))
            }
            None => Err(Fail::Msg("unexpected end of stream".into())),
        }
    }

    fn count(&mut self, n: usize) -> Result<(), Fail> {
        self.nodes = self.nodes.saturating_add(n);
        self.cx.check_len(self.nodes).map_err(Fail::Fn)?;
        self.cx.tick(1).map_err(Fail::Fn)
    }

    fn document(&mut self) -> Result<Value, Fail> {
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::StreamStart) {
            return at(&span, "missing stream start token");
        }
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::DocumentStart(_)) {
            return at(&span, "missing start of document");
        }
        let v = self.value(0)?;
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::DocumentEnd) {
            return at(&span, "unexpected extra content after value");
        }
        // cty-yaml's wording, with the reason: a second document is the usual way to get here.
        let (ev, span) = self.next()?;
        match ev {
            Event::StreamEnd => Ok(v),
            Event::DocumentStart(_) => {
                at(&span, "unexpected extra content after value (yamldecode accepts a single document only)")
            }
            _ => at(&span, "unexpected extra content after value"),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Fail> {
        let (ev, span) = self.next()?;
        self.node(ev, span, depth)
    }

    fn node(&mut self, ev: Event<'i>, span: Span, depth: usize) -> Result<Value, Fail> {
        if depth > MAX_DEPTH {
            return at(&span, format!("the document nests more than {MAX_DEPTH} levels deep"));
        }
        let start = self.nodes;
        self.count(1)?;
        let (anchor, v) = match ev {
            Event::Scalar(text, style, anchor, tag) => {
                self.begin(anchor);
                let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
                match resolve(&tag_name(tag.as_ref()), &text, quoted) {
                    Ok(v) => (anchor, v),
                    Err(m) => return at(&span, m),
                }
            }
            Event::Alias(id) => {
                self.nodes -= 1;
                return match self.anchors.get(&id) {
                    Some(Anchor::Done(v, n)) => {
                        let (v, n) = (v.clone(), *n);
                        self.count(n)?;
                        Ok(v)
                    }
                    Some(Anchor::Pending) => at(&span, "cannot refer to an anchor from inside its own definition"),
                    None => at(&span, "reference to undefined anchor"),
                };
            }
            Event::MappingStart(anchor, tag) => {
                let tag = tag_name(tag.as_ref());
                if !tag.is_empty() && tag != MAP {
                    return at(&span, format!("can't interpret mapping as {tag}"));
                }
                self.begin(anchor);
                (anchor, self.mapping(depth)?)
            }
            Event::SequenceStart(anchor, tag) => {
                let tag = tag_name(tag.as_ref());
                if !tag.is_empty() && tag != SEQ {
                    return at(&span, format!("can't interpret sequence as {tag}"));
                }
                self.begin(anchor);
                let mut items = Vec::new();
                loop {
                    let (ev, span) = self.next()?;
                    if matches!(ev, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node(ev, span, depth + 1)?);
                }
                (anchor, Value::tuple(items))
            }
            Event::DocumentStart(_) => return at(&span, "only a single document is allowed"),
            Event::StreamEnd => return at(&span, "expecting value but found end of stream"),
            _ => return at(&span, "unexpected parser event"),
        };
        if anchor != 0 {
            self.anchors.insert(anchor, Anchor::Done(v.clone(), self.nodes - start));
        }
        Ok(v)
    }

    fn begin(&mut self, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, Anchor::Pending);
        }
    }

    fn mapping(&mut self, depth: usize) -> Result<Value, Fail> {
        let mut attrs = Attrs::new();
        loop {
            let (ev, span) = self.next()?;
            match ev {
                Event::MappingEnd => return Ok(Value::object(attrs)),
                Event::Scalar(ref text, _, _, ref tag) if is_merge_key(text, tag.as_ref()) => {
                    // cty-yaml merges only a mapping (or an alias to one); unlike YAML 1.1's merge-key spec it
                    // rejects a sequence of mappings ("cannot merge tuple into mapping"), and so do we. Every entry,
                    // merged or not, overrides the same key earlier in the mapping.
                    let v = self.value(depth + 1)?;
                    let Some(src) = v.as_attrs() else {
                        return at(&span, format!("cannot merge {} into mapping", v.friendly_type()));
                    };
                    attrs.extend(src.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                // Keys are resolved like any scalar and then converted to strings (`1.50: x` has the key "1.5",
                // `yes: x` the key "true"); anchors on keys are not recorded, as in cty-yaml.
                Event::Scalar(text, style, _, tag) => {
                    let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
                    let key = match resolve(&tag_name(tag.as_ref()), &text, quoted) {
                        Ok(Value::String(s)) => s,
                        Ok(Value::Bool(b)) => b.to_string().into(),
                        Ok(Value::Number(n)) => n.to_text().into(),
                        Ok(_) => return at(&span, "mapping key cannot be null"),
                        Err(m) => return at(&span, m),
                    };
                    let v = self.value(depth + 1)?;
                    attrs.insert(key, v);
                }
                _ => return at(&span, "only strings are allowed as mapping keys"),
            }
        }
    }
}

fn tag_name(tag: Option<&Cow<'_, Tag>>) -> String {
    tag.map(|t| format!("{}{}", t.handle, t.suffix)).unwrap_or_default()
}

fn is_merge_key(text: &str, tag: Option<&Cow<'_, Tag>>) -> bool {
    match tag {
        None => text == "<<",
        Some(t) => tag_name(Some(t)) == MERGE,
    }
}

/// cty-yaml's `resolveScalar`: the tag (full form, "" when untagged), the scalar text, and whether it was quoted.
fn resolve(tag: &str, src: &str, quoted: bool) -> Result<Value, String> {
    if !(tag.is_empty() || [STR, BOOL, INT, FLOAT, NULL, TIMESTAMP, BINARY].contains(&tag)) {
        return Err(format!("unsupported tag {tag:?}"));
    }
    let mut tag = tag;
    let hint = src.bytes().next().map_or(b'N', |b| match b {
        b'+' | b'-' => b'S',
        b'0'..=b'9' => b'D',
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => b'M',
        b'.' => b'.',
        _ => 0,
    });
    if hint != 0 && tag != STR && tag != BINARY {
        if quoted {
            return Ok(Value::string(src));
        }
        if let Some(v) = well_known(src) {
            return Ok(v);
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".into());
        }
        match hint {
            b'.' => {
                if let Some(n) = parse_number(src) {
                    return Ok(n);
                }
            }
            b'D' | b'S' => {
                if (tag.is_empty() || tag == TIMESTAMP)
                    && let Some(t) = timestamp(src)
                {
                    return Ok(Value::string(t));
                }
                if INT_LITERAL.is_match(src) {
                    tag = INT;
                } else if FLOAT_LITERAL.is_match(src) {
                    tag = FLOAT;
                }
            }
            _ => {}
        }
    }
    match tag {
        STR => Ok(Value::string(src)),
        BINARY => {
            // Go's base64 decoder skips line breaks; the text itself is kept (cty has no bytes type).
            use base64::Engine;
            let compact: String = src.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
            match base64::engine::general_purpose::STANDARD.decode(compact) {
                Ok(_) => Ok(Value::string(src)),
                Err(_) => Err(format!("cannot parse {src:?} as {tag}: not valid base64")),
            }
        }
        BOOL => match well_known(src) {
            Some(v @ Value::Bool(_)) => Ok(v),
            _ => Err(format!("cannot parse {src:?} as {tag}")),
        },
        INT | FLOAT => {
            let plain = src.replace('_', "");
            parse_number(&plain)
                .or_else(|| go_parse_int(&plain).map(Value::number))
                .ok_or_else(|| format!("cannot parse {src:?} as {tag}"))
        }
        TIMESTAMP => timestamp(src).map(Value::string).ok_or_else(|| format!("cannot parse {src:?} as {tag}")),
        NULL => Ok(Value::null()),
        _ => Ok(Value::string(src)),
    }
}

static INT_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\A([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\z").expect("valid regex"));
static FLOAT_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z").expect("valid regex"));

/// cty-yaml's table of plain scalars with fixed meanings (YAML 1.1 booleans, nulls, infinities).
fn well_known(src: &str) -> Option<Value> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Value::Bool(true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Value::Bool(false),
        "" | "~" | "null" | "Null" | "NULL" => Value::null(),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::number(Number::infinity(false)),
        "-.inf" | "-.Inf" | "-.INF" => Value::number(Number::infinity(true)),
        _ => return None,
    })
}

/// `cty.ParseNumberVal`: Go's `big.ParseFloat` in base 10, which also accepts `inf`/`Inf` with a sign.
fn parse_number(s: &str) -> Option<Value> {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(unsigned, "inf" | "Inf") {
        return Some(Value::number(Number::infinity(s.starts_with('-'))));
    }
    Number::parse(s).map(Value::number)
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`: `0x`, `0o`, `0b` and leading-`0` octal.
fn go_parse_int(s: &str) -> Option<Number> {
    let (neg, signed, body) = match s.as_bytes().first() {
        Some(b'-') => (true, true, &s[1..]),
        Some(b'+') => (false, true, &s[1..]),
        _ => (false, false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let v = u64::from_str_radix(digits, radix).ok()?;
    match (neg, signed) {
        (true, _) if v <= 1 << 63 => Some(Number::from_i64((v as i64).wrapping_neg())),
        (false, true) if v <= i64::MAX as u64 => Some(Number::from_u64(v)),
        (false, false) => Some(Number::from_u64(v)),
        _ => None,
    }
}

/// cty-yaml's `parseTimestamp` (Go's `time.Parse` with four layouts), formatted as RFC 3339 the way Go's
/// `Time.Format(time.RFC3339)` does: fractional seconds dropped, `Z` for UTC and zero offsets.
fn timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    let year: u32 = s[..4].parse().ok()?;
    let mut r = Reader(&s[5..]);
    let month = r.num()?;
    r.lit(b'-')?;
    let day = r.num()?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
        return None;
    }
    let date = format!("{year:04}-{month:02}-{day:02}");
    if r.0.is_empty() {
        return Some(format!("{date}T00:00:00Z"));
    }
    let sep = r.byte()?;
    let (hour, min, sec) = (r.num()?, r.lit(b':').and_then(|_| r.num())?, r.lit(b':').and_then(|_| r.num())?);
    if hour > 23 || min > 59 || sec > 59 {
        return None;
    }
    // Go's optional `.999999999`: a `.` or `,` followed by up to nine digits.
    if r.0.len() >= 2 && matches!(r.0.as_bytes()[0], b'.' | b',') && r.0.as_bytes()[1].is_ascii_digit() {
        let digits = r.0[1..].bytes().take(9).take_while(u8::is_ascii_digit).count();
        r.0 = &r.0[1 + digits..];
    }
    let time = format!("{date}T{hour:02}:{min:02}:{sec:02}");
    match sep {
        b' ' if r.0.is_empty() => Some(format!("{time}Z")),
        b'T' | b't' => {
            let z = r.0;
            if z == "Z" {
                return Some(format!("{time}Z"));
            }
            let zb = z.as_bytes();
            if zb.len() != 6 || !matches!(zb[0], b'+' | b'-') || zb[3] != b':' {
                return None;
            }
            let two = |i: usize| -> Option<u32> {
                (zb[i].is_ascii_digit() && zb[i + 1].is_ascii_digit())
                    .then(|| u32::from(zb[i] - b'0') * 10 + u32::from(zb[i + 1] - b'0'))
            };
            let (zh, zm) = (two(1)?, two(4)?);
            if zh > 24 || zm > 60 {
                return None;
            }
            if zh == 0 && zm == 0 { Some(format!("{time}Z")) } else { Some(format!("{time}{z}")) }
        }
        _ => None,
    }
}

/// A cursor over the rest of a timestamp.
struct Reader<'s>(&'s str);

impl Reader<'_> {
    /// Go's `getnum(s, false)`: one or two digits.
    fn num(&mut self) -> Option<u32> {
        let b = self.0.as_bytes();
        let n = b.iter().take(2).take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        let v = self.0[..n].parse().ok();
        self.0 = &self.0[n..];
        v
    }

    fn lit(&mut self, c: u8) -> Option<()> {
        (self.byte()? == c).then_some(())
    }

    /// The next byte, only if it is ASCII: every byte a timestamp may hold is, and stopping at any other keeps the
    /// cursor on a character boundary (`2001-01-01é` is a plain string, not a panic).
    fn byte(&mut self) -> Option<u8> {
        let c = *self.0.as_bytes().first().filter(|c| c.is_ascii())?;
        self.0 = &self.0[1..];
        Some(c)
    }
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::{go_parse_int, resolve, timestamp};
    use crate::number::Number;

    #[test]
    fn timestamps_follow_go_time_parse() {
        assert_eq!(timestamp("2001-12-14").as_deref(), Some("2001-12-14T00:00:00Z"));
        assert_eq!(timestamp("2001-12-14 21:59:43.10").as_deref(), Some("2001-12-14T21:59:43Z"));
        assert_eq!(timestamp("2001-12-14t21:59:43.10-05:00").as_deref(), Some("2001-12-14T21:59:43-05:00"));
        assert_eq!(timestamp("2001-1-2T3:4:5+00:00").as_deref(), Some("2001-01-02T03:04:05Z"));
        assert_eq!(timestamp("2000-02-29").as_deref(), Some("2000-02-29T00:00:00Z"));
        for bad in ["2001-02-30", "1900-02-29", "2001-12-14T21:59:43", "2001-13-01", "2001-12-14 25:00:00", "20011-1-1"]
            .into_iter()
            .chain(["2001-01-01éH4sI", "2001-01-01T1é", "2001-01-01T01:02:03.5é", "2001-01-01T01:02:03é"])
        {
            assert_eq!(timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn go_integer_prefixes() {
        assert_eq!(go_parse_int("0x1F"), Some(Number::from_i64(31)));
        assert_eq!(go_parse_int("-0x1F"), Some(Number::from_i64(-31)));
        assert_eq!(go_parse_int("0o17"), Some(Number::from_i64(15)));
        assert_eq!(go_parse_int("0b101"), Some(Number::from_i64(5)));
        assert_eq!(go_parse_int("0xFFFFFFFFFFFFFFFF"), Some(Number::from_u64(u64::MAX)));
        assert_eq!(go_parse_int("+0xFFFFFFFFFFFFFFFF"), None);
        assert_eq!(go_parse_int("0x"), None);
    }

    #[test]
    fn quoted_scalars_and_tags() {
        assert_eq!(resolve("", "true", true).unwrap().as_str(), Some("true"));
        assert_eq!(resolve("", "yes", false).unwrap().as_bool(), Some(true));
        assert!(resolve("!foo", "x", false).unwrap_err().contains("unsupported tag"));
        assert!(resolve("", ".nan", false).is_err());
        assert_eq!(resolve("", "1_000", false).unwrap().as_str(), Some("1_000"));
    }
}
