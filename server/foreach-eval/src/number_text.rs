//! Printing numbers: Go's `big.Float.Text` in its `'f', -1` (shortest), `'f', prec` and `'e', prec` forms, on
//! the exact binary value, so every digit matches what OpenTofu prints.

use super::{Number, Repr};
use num_bigint::BigUint;
use num_traits::Zero;

impl Number {
    /// Go's `big.Float.Text('f', -1)`: the shortest decimal that rounds back to this value at its precision.
    pub fn to_text(&self) -> String {
        let (neg, mant, exp) = match &self.repr {
            Repr::Inf { neg } => return if *neg { "-Inf".into() } else { "+Inf".into() },
            Repr::Finite { neg, mant, exp } => (*neg, mant, *exp),
        };
        let sign = if neg { "-" } else { "" };
        if mant.is_zero() {
            return format!("{sign}0");
        }
        if exp >= 0 && mant.bits() as i64 + exp <= i64::from(self.prec) {
            // An integer whose ulp is at most 1: any shorter decimal is at least 1 away, so the exact digits are
            // the shortest. (Large values such as 1e600 have ulps far above 1 and take the general path.)
            return format!("{sign}{}", mant << exp as u64);
        }
        let (digits, point) = shortest_decimal(mant, exp, self.prec);
        format!("{sign}{}", format_fixed(&digits, point))
    }
    /// Go's `Text('f', prec)`: fixed notation with `prec` digits after the point, rounded half to even on the
    /// exact binary value.
    pub fn to_fixed(&self, prec: usize) -> String {
        let (neg, mant, exp) = match &self.repr {
            Repr::Inf { neg } => return if *neg { "-Inf".into() } else { "+Inf".into() },
            Repr::Finite { neg, mant, exp } => (*neg, mant, *exp),
        };
        let sign = if neg { "-" } else { "" };
        let (mut d, mut dp) = if mant.is_zero() { (Vec::new(), 0) } else { exact_decimal(mant, exp) };
        let keep = dp + prec as i64;
        if keep < 0 {
            d.clear();
        } else if (keep as usize) < d.len() {
            round_nearest(&mut d, &mut dp, keep as usize);
        }
        let mut int_part = String::new();
        let mut frac = String::new();
        for i in 0..(dp.max(1) as usize) {
            let idx = i as i64;
            int_part.push(if dp > 0 && idx < dp { d.get(i).map_or('0', |&c| c as char) } else { '0' });
        }
        for j in 0..prec {
            let idx = dp + j as i64;
            frac.push(if idx >= 0 { d.get(idx as usize).map_or('0', |&c| c as char) } else { '0' });
        }
        if prec == 0 { format!("{sign}{int_part}") } else { format!("{sign}{int_part}.{frac}") }
    }

    /// Go's `%e` with `prec` digits after the point: `1.500000e+00`.
    pub fn to_exponent(&self, prec: usize, upper: bool) -> String {
        let (neg, mant, exp) = match &self.repr {
            Repr::Inf { neg } => return if *neg { "-Inf".into() } else { "+Inf".into() },
            Repr::Finite { neg, mant, exp } => (*neg, mant, *exp),
        };
        let sign = if neg { "-" } else { "" };
        let (mut d, mut dp) = if mant.is_zero() { (vec![b'0'], 1) } else { exact_decimal(mant, exp) };
        if d.len() > prec + 1 {
            round_nearest(&mut d, &mut dp, prec + 1);
        }
        let digits: String = (0..=prec).map(|i| d.get(i).map_or('0', |&c| c as char)).collect();
        let e10 = if mant.is_zero() { 0 } else { dp - 1 };
        let e = if upper { 'E' } else { 'e' };
        let (es, ev) = if e10 < 0 { ('-', -e10) } else { ('+', e10) };
        if prec == 0 {
            format!("{sign}{digits}{e}{es}{ev:02}")
        } else {
            format!("{sign}{}.{}{e}{es}{ev:02}", &digits[..1], &digits[1..])
        }
    }

    /// The decimal exponent of the leading digit (0 for 1..9.99, -1 for 0.1..0.99), for `%g`.
    pub fn decimal_exponent(&self) -> i64 {
        match &self.repr {
            Repr::Finite { mant, exp, .. } if !mant.is_zero() => exact_decimal(mant, *exp).1 - 1,
            _ => 0,
        }
    }

    pub fn precision(&self) -> u32 {
        self.prec
    }
}

/// Exact decimal digits of `m * 2^e` as (digits without trailing zeros, point) where value = 0.digits * 10^point.
fn exact_decimal(m: &BigUint, e: i64) -> (Vec<u8>, i64) {
    let (int, shift10) = if e >= 0 { (m << e as u64, 0i64) } else { (m * BigUint::from(5u32).pow((-e) as u32), -e) };
    let s = int.to_string();
    let mut digits = s.into_bytes();
    let point = digits.len() as i64 - shift10;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, point)
}

/// Go's `roundShortest` (math/big/ftoa.go), reimplemented.
fn shortest_decimal(mant: &BigUint, exp: i64, prec: u32) -> (Vec<u8>, i64) {
    let (mut d, mut dp) = exact_decimal(mant, exp);
    // Normalise the mantissa to prec+1 bits so its last bit is half an ulp at `prec`.
    let s = mant.bits() as i64 - (i64::from(prec) + 1);
    let (m, e) = if s < 0 { (mant << (-s) as u64, exp + s) } else { (mant >> s as u64, exp + s) };
    let (lower, _) = exact_decimal_aligned(&(&m - 1u32), e, dp);
    let (upper, _) = exact_decimal_aligned(&(&m + 1u32), e, dp);
    let inclusive = !m.bit(1);
    let at = |v: &Vec<u8>, i: usize| -> u8 { v.get(i).copied().unwrap_or(b'0') };
    for i in 0..d.len() {
        let c = d[i];
        let l = at(&lower.0, i);
        let u = at(&upper.0, i);
        let okdown = l != c || inclusive && i + 1 == lower.0.len();
        let okup = c != u && (inclusive || c + 1 < u || i + 1 < upper.0.len());
        if okdown && okup {
            round_nearest(&mut d, &mut dp, i + 1);
            return (d, dp);
        } else if okdown {
            d.truncate(i + 1);
            trim(&mut d);
            return (d, dp);
        } else if okup {
            round_up(&mut d, &mut dp, i + 1);
            return (d, dp);
        }
    }
    (d, dp)
}

/// The digits of `m * 2^e` expressed against the decimal point `dp` of the value being printed, as Go compares
/// `lower.at(i)` against `d.mant[i]` (both decimals must share the same exponent for that walk to make sense; Go
/// relies on lower/upper having the same exponent as d, which holds except when crossing a power of ten, where
/// it pads with the exponent difference).
fn exact_decimal_aligned(m: &BigUint, e: i64, dp: i64) -> ((Vec<u8>, i64), ()) {
    let (mut digits, point) = exact_decimal(m, e);
    if point < dp {
        let mut padded = vec![b'0'; (dp - point) as usize];
        padded.append(&mut digits);
        return ((padded, dp), ());
    }
    ((digits, point), ())
}

fn trim(d: &mut Vec<u8>) {
    while d.last() == Some(&b'0') {
        d.pop();
    }
}

/// Go's `decimal.round`: rounds to `n` digits, half to even; nothing to do when `d` has no more than `n`.
fn round_nearest(d: &mut Vec<u8>, dp: &mut i64, n: usize) {
    if n >= d.len() {
        return;
    }
    let up = if d[n] == b'5' && n + 1 == d.len() { n > 0 && (d[n - 1] - b'0') % 2 == 1 } else { d[n] >= b'5' };
    if up {
        round_up(d, dp, n);
    } else {
        d.truncate(n);
        trim(d);
    }
}

/// Go's `decimal.roundUp`: nothing to do when `d` has no more than `n` digits.
fn round_up(d: &mut Vec<u8>, dp: &mut i64, n: usize) {
    if n >= d.len() {
        return;
    }
    d.truncate(n);
    let mut i = n;
    while i > 0 && d[i - 1] == b'9' {
        i -= 1;
    }
    if i == 0 {
        d.clear();
        d.push(b'1');
        *dp += 1;
        return;
    }
    d[i - 1] += 1;
    d.truncate(i);
}

/// `0.digits * 10^point` in `%f` form.
fn format_fixed(digits: &[u8], point: i64) -> String {
    let ds = std::str::from_utf8(digits).unwrap_or("0");
    if point <= 0 {
        format!("0.{}{}", "0".repeat((-point) as usize), ds)
    } else if point as usize >= digits.len() {
        format!("{}{}", ds, "0".repeat(point as usize - digits.len()))
    } else {
        format!("{}.{}", &ds[..point as usize], &ds[point as usize..])
    }
}
