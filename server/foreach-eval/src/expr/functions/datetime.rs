//! Pure date and time functions on RFC 3339 timestamps: `formatdate`, `timeadd`, `timecmp`. (`timestamp` and
//! `plantimestamp` are impure and give unknown values.) Calendar arithmetic is done on days since the Unix
//! epoch (Howard Hinnant's civil-date algorithms), with the timestamp's own UTC offset kept for output, as Go
//! keeps a parsed fixed zone.

use super::api::s;
use super::api::{FnCtx, FnError, FnResult, Func, P, arg_err, f, p};
use crate::value::Value;

pub static FUNCS: &[Func] = &[
    f("formatdate", &[p("format", P::Str), p("time", P::Str)], formatdate),
    f("timeadd", &[p("timestamp", P::Str), p("duration", P::Str)], timeadd),
    f("timecmp", &[p("timestamp_a", P::Str), p("timestamp_b", P::Str)], timecmp),
];

/// A parsed timestamp: seconds since the epoch (UTC), nanoseconds, and the UTC offset in seconds it was written
/// with (`None` for `Z`).
#[derive(Clone, Copy)]
struct Time {
    secs: i64,
    nanos: u32,
    offset: Option<i32>,
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn parse_rfc3339(t: &str) -> Option<Time> {
    let b = t.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = t.get(r)?;
        if part.bytes().all(|c| c.is_ascii_digit()) { part.parse().ok() } else { None }
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d, h, mi, se) = (num(0..4)?, num(5..7)?, num(8..10)?, num(11..13)?, num(14..16)?, num(17..19)?);
    let dim = [
        31,
        if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&mo) || d < 1 || d > dim[(mo - 1) as usize] || h > 23 || mi > 59 || se > 59 {
        return None;
    }
    let mut i = 19;
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let frac = t.get(start..i)?;
        if frac.is_empty() || frac.len() > 9 {
            return None;
        }
        nanos = format!("{frac:0<9}").parse().ok()?;
    }
    let offset = match t.get(i..)? {
        "Z" | "z" => None,
        z if z.len() == 6 && matches!(z.as_bytes()[0], b'+' | b'-') && z.as_bytes()[3] == b':' => {
            let hh: i32 = z.get(1..3)?.parse().ok()?;
            let mm: i32 = z.get(4..6)?.parse().ok()?;
            let o = hh * 3600 + mm * 60;
            Some(if z.starts_with('-') { -o } else { o })
        }
        _ => return None,
    };
    let local = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    Some(Time { secs: local - i64::from(offset.unwrap_or(0)), nanos, offset })
}

fn time_arg(v: &Value, idx: usize) -> Result<Time, FnError> {
    parse_rfc3339(s(v)).ok_or_else(|| FnError::Arg(idx, format!("{:?} is not a valid RFC3339 timestamp", s(v))))
}

/// Local calendar fields of a time in its own offset.
struct Fields {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    weekday: i64,
}

fn fields(t: Time) -> Fields {
    let local = t.secs + i64::from(t.offset.unwrap_or(0));
    let days = local.div_euclid(86400);
    let rem = local.rem_euclid(86400);
    let (year, month, day) = civil_from_days(days);
    Fields {
        year,
        month,
        day,
        hour: rem / 3600,
        minute: rem % 3600 / 60,
        second: rem % 60,
        weekday: (days + 4).rem_euclid(7),
    }
}

fn offset_text(o: i32, colon: bool) -> String {
    let sign = if o < 0 { '-' } else { '+' };
    let a = o.abs();
    if colon {
        format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
    } else {
        format!("{sign}{:02}{:02}", a / 3600, a % 3600 / 60)
    }
}

/// Go's `time.RFC3339` layout (no fractional seconds).
fn rfc3339(t: Time) -> String {
    let f = fields(t);
    let zone = match t.offset {
        None => "Z".to_string(),
        Some(o) => offset_text(o, true),
    };
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{zone}", f.year, f.month, f.day, f.hour, f.minute, f.second)
}

/// A Go duration string: `1h30m`, `-1.5h`, `300ms`, `2h45m10s`.
fn parse_duration(d: &str) -> Option<i128> {
    let (neg, mut rest) = match d.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, d.strip_prefix('+').unwrap_or(d)),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let n = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let value: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let u = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let scale = match &rest[..u] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[u..];
        total += value * scale;
    }
    let nanos = total.round() as i128;
    Some(if neg { -nanos } else { nanos })
}

fn timeadd(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let t = time_arg(&a[0], 0)?;
    let Some(d) = parse_duration(s(&a[1])) else {
        return arg_err(1, format!("{:?} is not a valid duration", s(&a[1])));
    };
    let total = i128::from(t.secs) * 1_000_000_000 + i128::from(t.nanos) + d;
    let secs =
        i64::try_from(total.div_euclid(1_000_000_000)).map_err(|_| FnError::Msg("the time is out of range".into()))?;
    let nanos = total.rem_euclid(1_000_000_000) as u32;
    Ok(Value::string(rfc3339(Time { secs, nanos, offset: t.offset })))
}

fn timecmp(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let x = time_arg(&a[0], 0)?;
    let y = time_arg(&a[1], 1)?;
    Ok(Value::int(match (x.secs, x.nanos).cmp(&(y.secs, y.nanos)) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

fn formatdate(_: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let t = time_arg(&a[1], 1)?;
    let f = fields(t);
    let spec: Vec<char> = s(&a[0]).chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < spec.len() {
        let c = spec[i];
        if c == '\'' {
            // Quoted literal; '' is a literal quote.
            if spec.get(i + 1) == Some(&'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            let Some(end) = spec[i + 1..].iter().position(|&x| x == '\'') else {
                return arg_err(0, "unterminated literal quote in format");
            };
            out.extend(&spec[i + 1..i + 1 + end]);
            i += end + 2;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        let run = spec[i..].iter().take_while(|&&x| x == c).count();
        let token: String = std::iter::repeat_n(c, run).collect();
        let h12 = if f.hour % 12 == 0 { 12 } else { f.hour % 12 };
        let text = match token.as_str() {
            "YYYY" => format!("{:04}", f.year),
            "YY" => format!("{:02}", f.year.rem_euclid(100)),
            "MMMM" => MONTHS[(f.month - 1) as usize].to_string(),
            "MMM" => MONTHS[(f.month - 1) as usize][..3].to_string(),
            "MM" => format!("{:02}", f.month),
            "M" => f.month.to_string(),
            "DD" => format!("{:02}", f.day),
            "D" => f.day.to_string(),
            "EEEE" => DAYS[f.weekday as usize].to_string(),
            "EEE" => DAYS[f.weekday as usize][..3].to_string(),
            "hh" => format!("{:02}", f.hour),
            "h" => f.hour.to_string(),
            "HH" => format!("{h12:02}"),
            "H" => h12.to_string(),
            "AA" => if f.hour < 12 { "AM" } else { "PM" }.to_string(),
            "aa" => if f.hour < 12 { "am" } else { "pm" }.to_string(),
            "mm" => format!("{:02}", f.minute),
            "m" => f.minute.to_string(),
            "ss" => format!("{:02}", f.second),
            "s" => f.second.to_string(),
            "ZZZZZ" => offset_text(t.offset.unwrap_or(0), true),
            "ZZZZ" => offset_text(t.offset.unwrap_or(0), false),
            "ZZZ" => match t.offset {
                None | Some(0) => "UTC".to_string(),
                Some(o) => offset_text(o, false),
            },
            "Z" => match t.offset {
                None | Some(0) => "Z".to_string(),
                Some(o) => offset_text(o, true),
            },
            other => return arg_err(0, format!("invalid date format verb {other:?}")),
        };
        out.push_str(&text);
        i += run;
    }
    Ok(Value::string(out))
}
