//! Numbers exactly as cty models them, so that results print the way `terraform console` and OpenTofu print them.
//!
//! cty numbers are Go `big.Float`s: binary floating point with a per-value mantissa precision, rounded to nearest
//! even. HCL parses literals at 512 bits, integers produced by functions carry 64 bits and float64-based functions
//! (`pow`, `log`) 53 bits; an operation takes the larger precision of its operands. Printing is Go's shortest
//! decimal that rounds back to the same value *at that precision* (`Text('f', -1)`): `1/3` prints 155 digits.
//!
//! Why not a decimal crate: `rust_decimal` has 28 digits and `bigdecimal` is exact decimal, so `1/3` and `0.1+0.2`
//! would print differently from OpenTofu. Emulating the binary representation on `num-bigint` (~300 lines) gives
//! digit-for-digit agreement, exact integers up to 2^512 and exact comparison.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

#[path = "number_text.rs"]
mod text;

/// The precision HCL uses for number literals and conversions from strings.
pub const LITERAL_PREC: u32 = 512;
/// Literal exponents beyond this are refused rather than materialised (10^100000 already has 330k bits).
const MAX_DECIMAL_EXP: i64 = 20_000;

#[derive(Clone, Debug)]
pub struct Number {
    repr: Repr,
    prec: u32,
}

#[derive(Clone, Debug)]
enum Repr {
    /// `(-1)^neg * mant * 2^exp`, `mant` odd (or zero, then `exp == 0`) and at most `prec` bits.
    Finite {
        neg: bool,
        mant: BigUint,
        exp: i64,
    },
    Inf {
        neg: bool,
    },
}

impl Number {
    pub fn from_i64(v: i64) -> Number {
        Number::from_parts(v < 0, BigUint::from(v.unsigned_abs()), 0, 64, false)
    }

    pub fn from_u64(v: u64) -> Number {
        Number::from_parts(false, BigUint::from(v), 0, 64, false)
    }

    /// An integer at literal precision (what `cty.NumberIntVal` of a parsed literal gives).
    pub fn from_int_literal(v: i64) -> Number {
        Number::from_parts(v < 0, BigUint::from(v.unsigned_abs()), 0, LITERAL_PREC, false)
    }

    pub fn from_bigint(v: &BigInt) -> Number {
        let prec = (v.bits() as u32).max(64);
        Number::from_parts(v.sign() == Sign::Minus, v.magnitude().clone(), 0, prec, false)
    }

    /// An `f64` exactly, at 53 bits (what `cty.NumberFloatVal` gives).
    pub fn from_f64(f: f64) -> Option<Number> {
        if f.is_nan() {
            return None;
        }
        if f.is_infinite() {
            return Some(Number { repr: Repr::Inf { neg: f < 0.0 }, prec: 53 });
        }
        let bits = f.to_bits();
        let neg = bits >> 63 == 1;
        let exp_bits = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (mant, exp) = if exp_bits == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp_bits - 1075) };
        Some(Number::from_parts(neg, BigUint::from(mant), exp, 53, false))
    }

    pub fn infinity(neg: bool) -> Number {
        Number { repr: Repr::Inf { neg }, prec: LITERAL_PREC }
    }

    /// Parses an HCL number literal or a string being converted to a number (`1`, `-1.5`, `1e3`, `.5`).
    pub fn parse(text: &str) -> Option<Number> {
        let s = text;
        let (neg, s) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let (mantissa, exp_part) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let (int_part, frac_part) = match mantissa.find('.') {
            Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
            None => (mantissa, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part.bytes().chain(frac_part.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Plain integers (nearly every literal) skip the decimal big-number path: same value, same precision.
        if exp_part.is_none()
            && frac_part.is_empty()
            && int_part.len() <= 19
            && let Ok(v) = int_part.parse::<u64>()
        {
            return Some(Number::from_parts(neg, BigUint::from(v), 0, LITERAL_PREC, false));
        }
        let mut e10: i64 = match exp_part {
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 12 {
                    return None;
                }
                e.parse().ok()?
            }
            None => 0,
        };
        let digits: String = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        e10 -= frac_part.len() as i64;
        if digits.is_empty() {
            return Some(Number::from_parts(neg, BigUint::zero(), 0, LITERAL_PREC, false));
        }
        let m10: BigUint = digits.parse().ok()?;
        if !(-MAX_DECIMAL_EXP..=MAX_DECIMAL_EXP).contains(&e10) {
            return None;
        }
        if e10 >= 0 {
            let v = m10 * BigUint::from(10u32).pow(e10 as u32);
            Some(Number::from_parts(neg, v, 0, LITERAL_PREC, false))
        } else {
            let den = BigUint::from(10u32).pow((-e10) as u32);
            Some(Number::quotient(neg, &m10, 0, &den, 0, LITERAL_PREC))
        }
    }

    /// A string converted to a number: the same grammar, no surrounding space allowed.
    pub fn parse_strict(text: &str) -> Option<Number> {
        Number::parse(text)
    }

    /// Rounds `mant * 2^exp` (plus a sticky "something below" bit) to `prec` bits, nearest even.
    fn from_parts(neg: bool, mant: BigUint, exp: i64, prec: u32, sticky: bool) -> Number {
        let mut mant = mant;
        let mut exp = exp;
        let bits = mant.bits();
        if bits > u64::from(prec) {
            let shift = bits - u64::from(prec);
            let half = mant.bit(shift - 1);
            let rest = sticky || mant.trailing_zeros().is_some_and(|tz| tz < shift - 1);
            mant >>= shift;
            exp += shift as i64;
            if half && (rest || mant.bit(0)) {
                mant += 1u32;
            }
        }
        if mant.is_zero() {
            return Number { repr: Repr::Finite { neg, mant, exp: 0 }, prec };
        }
        let tz = mant.trailing_zeros().unwrap_or(0);
        mant >>= tz;
        exp += tz as i64;
        Number { repr: Repr::Finite { neg, mant, exp }, prec }
    }

    /// `(num * 2^ne) / (den * 2^de)` rounded to `prec` bits.
    fn quotient(neg: bool, num: &BigUint, ne: i64, den: &BigUint, de: i64, prec: u32) -> Number {
        let want = u64::from(prec) + 2 + den.bits();
        let shift = want.saturating_sub(num.bits());
        let (q, r) = (num << shift).div_rem(den);
        Number::from_parts(neg, q, ne - de - shift as i64, prec, !r.is_zero())
    }

    pub fn zero() -> Number {
        Number::from_int_literal(0)
    }

    pub fn is_zero(&self) -> bool {
        matches!(&self.repr, Repr::Finite { mant, .. } if mant.is_zero())
    }

    pub fn is_infinite(&self) -> bool {
        matches!(self.repr, Repr::Inf { .. })
    }

    pub fn is_negative(&self) -> bool {
        match &self.repr {
            Repr::Finite { neg, mant, .. } => *neg && !mant.is_zero(),
            Repr::Inf { neg } => *neg,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(&self.repr, Repr::Finite { exp, .. } if *exp >= 0)
    }

    /// The value as an `i64` if it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_bigint()?.to_i64()
    }

    /// The integer value, only for integers (no truncation).
    pub fn to_bigint(&self) -> Option<BigInt> {
        match &self.repr {
            Repr::Finite { neg, mant, exp } if *exp >= 0 => {
                if *exp > 100_000 {
                    return None;
                }
                let m = BigInt::from_biguint(if *neg { Sign::Minus } else { Sign::Plus }, mant << (*exp as u64));
                Some(m)
            }
            _ => None,
        }
    }

    /// Truncation toward zero (Go's `Float.Int`).
    pub fn trunc(&self) -> Number {
        match &self.repr {
            Repr::Finite { neg, mant, exp } if *exp < 0 => {
                let shift = (-*exp) as u64;
                let m = if shift >= mant.bits() { BigUint::zero() } else { mant >> shift };
                Number::from_parts(*neg, m, 0, self.prec, false)
            }
            _ => self.clone(),
        }
    }

    pub fn floor(&self) -> Number {
        let t = self.trunc();
        if self.is_negative() && t.cmp_num(self) != Ordering::Equal { t.sub(&Number::from_i64(1)) } else { t }
    }

    pub fn ceil(&self) -> Number {
        let t = self.trunc();
        if !self.is_negative() && t.cmp_num(self) != Ordering::Equal { t.add(&Number::from_i64(1)) } else { t }
    }

    pub fn neg(&self) -> Number {
        let repr = match &self.repr {
            Repr::Finite { neg, mant, exp } => Repr::Finite { neg: !neg, mant: mant.clone(), exp: *exp },
            Repr::Inf { neg } => Repr::Inf { neg: !neg },
        };
        Number { repr, prec: self.prec }
    }

    pub fn abs(&self) -> Number {
        if self.is_negative() { self.neg() } else { self.clone() }
    }

    pub fn add(&self, other: &Number) -> Number {
        let prec = self.prec.max(other.prec);
        match (&self.repr, &other.repr) {
            (Repr::Inf { neg }, _) | (_, Repr::Inf { neg }) => Number { repr: Repr::Inf { neg: *neg }, prec },
            (Repr::Finite { neg: an, mant: am, exp: ae }, Repr::Finite { neg: bn, mant: bm, exp: be }) => {
                if am.is_zero() {
                    return Number { repr: other.repr.clone(), prec }.with_zero_sign(*an && *bn);
                }
                if bm.is_zero() {
                    return Number { repr: self.repr.clone(), prec };
                }
                // Align to the smaller exponent. If one operand is far below the other's last bit it only
                // matters as a sticky bit; cap the shift so huge exponent gaps cost nothing.
                let (hi, lo) = if ae >= be { ((an, am, ae), (bn, bm, be)) } else { ((bn, bm, be), (an, am, ae)) };
                let gap = (hi.2 - lo.2) as u64;
                let cap = u64::from(prec) + 4 + lo.1.bits();
                let (hi_m, lo_m, exp) = if gap > cap + hi.1.bits() {
                    // lo is far below hi's last bit: a single unit five bits below it rounds the same way.
                    let shift = u64::from(prec) + 4;
                    (hi.1 << shift, BigUint::one(), *hi.2 - shift as i64)
                } else {
                    (hi.1 << gap, lo.1.clone(), *lo.2)
                };
                let a = signed(*hi.0, hi_m);
                let b = signed(*lo.0, lo_m);
                let s = a + b;
                let neg = s.sign() == Sign::Minus;
                Number::from_parts(neg, s.magnitude().clone(), exp, prec, false)
            }
        }
    }

    fn with_zero_sign(self, neg_zero: bool) -> Number {
        match self.repr {
            Repr::Finite { mant, exp, .. } if mant.is_zero() => {
                Number { repr: Repr::Finite { neg: neg_zero, mant, exp }, prec: self.prec }
            }
            _ => self,
        }
    }

    pub fn sub(&self, other: &Number) -> Number {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Number) -> Number {
        let prec = self.prec.max(other.prec);
        match (&self.repr, &other.repr) {
            (Repr::Finite { neg: an, mant: am, exp: ae }, Repr::Finite { neg: bn, mant: bm, exp: be }) => {
                Number::from_parts(an != bn, am * bm, ae + be, prec, false)
            }
            _ => Number { repr: Repr::Inf { neg: self.is_negative() != other.is_negative() }, prec },
        }
    }

    /// `None` for 0/0 and inf/inf (Go panics with ErrNaN there; cty reports an error).
    pub fn div(&self, other: &Number) -> Option<Number> {
        let prec = self.prec.max(other.prec);
        let neg = self.is_negative() != other.is_negative();
        match (&self.repr, &other.repr) {
            (Repr::Inf { .. }, Repr::Inf { .. }) => None,
            (Repr::Inf { .. }, _) => Some(Number { repr: Repr::Inf { neg }, prec }),
            (Repr::Finite { .. }, Repr::Inf { .. }) => Some(Number::from_parts(neg, BigUint::zero(), 0, prec, false)),
            (Repr::Finite { mant: am, exp: ae, .. }, Repr::Finite { mant: bm, exp: be, .. }) => {
                if bm.is_zero() {
                    if am.is_zero() {
                        return None;
                    }
                    return Some(Number { repr: Repr::Inf { neg }, prec });
                }
                Some(Number::quotient(neg, am, *ae, bm, *be, prec))
            }
        }
    }

    /// cty's `Modulo`: `a - b * trunc(a / b)`, with infinities handled as cty does.
    pub fn rem(&self, other: &Number) -> Option<Number> {
        if other.is_zero() {
            // cty returns the dividend unchanged (`5 % 0` is 5 in OpenTofu).
            return Some(self.clone());
        }
        if self.is_infinite() {
            return Some(self.clone());
        }
        if other.is_infinite() {
            return Some(self.clone());
        }
        let q = self.div(other)?.trunc();
        let q = Number { prec: q.prec.max(64), ..q };
        Some(self.sub(&other.mul(&q)))
    }

    /// Numerical comparison; -0 == 0.
    pub fn cmp_num(&self, other: &Number) -> Ordering {
        let sa = self.sign_class();
        let sb = other.sign_class();
        if sa != sb {
            return sa.cmp(&sb);
        }
        match (&self.repr, &other.repr) {
            (Repr::Inf { .. }, Repr::Inf { .. }) => Ordering::Equal,
            (Repr::Inf { neg }, _) => {
                if *neg {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (_, Repr::Inf { neg }) => {
                if *neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Repr::Finite { mant: am, exp: ae, neg }, Repr::Finite { mant: bm, exp: be, .. }) => {
                if am.is_zero() && bm.is_zero() {
                    return Ordering::Equal;
                }
                // Compare magnitudes by bit length first so huge exponent gaps are cheap.
                let la = am.bits() as i64 + ae;
                let lb = bm.bits() as i64 + be;
                let mag = if la != lb {
                    la.cmp(&lb)
                } else {
                    let e = (*ae).min(*be);
                    (am << (ae - e) as u64).cmp(&(bm << (be - e) as u64))
                };
                if *neg { mag.reverse() } else { mag }
            }
        }
    }

    fn sign_class(&self) -> i8 {
        if self.is_zero() {
            0
        } else if self.is_negative() {
            -1
        } else {
            1
        }
    }

    /// Nearest `f64` (for the functions that cty computes in float64).
    pub fn to_f64(&self) -> f64 {
        match &self.repr {
            Repr::Inf { neg } => {
                if *neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Repr::Finite { neg, mant, exp } => {
                let bits = mant.bits();
                let (top, e) = if bits > 64 {
                    ((mant >> (bits - 64)).to_u64().unwrap_or(0), exp + (bits - 64) as i64)
                } else {
                    (mant.to_u64().unwrap_or(0), *exp)
                };
                let mut f = top as f64;
                let mut e = e;
                while e > 0 {
                    let step = e.min(1000);
                    f *= 2f64.powi(step as i32);
                    e -= step;
                }
                while e < 0 {
                    let step = (-e).min(1000);
                    f /= 2f64.powi(step as i32);
                    e += step;
                }
                if *neg { -f } else { f }
            }
        }
    }
}

fn signed(neg: bool, m: BigUint) -> BigInt {
    BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, m)
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cmp_num(other) == Ordering::Equal
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}
