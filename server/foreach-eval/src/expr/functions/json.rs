//! A small JSON reader for `jsondecode`: objects become objects, arrays tuples, numbers exact numbers; nesting
//! is bounded so hostile input cannot exhaust the stack.

use super::api::{FnResult, err};
use crate::number::Number;
use crate::value::{Attrs, Value};

const MAX_DEPTH: usize = 128;

pub fn decode(text: &str) -> FnResult {
    let mut p = Parser { s: text.as_bytes(), i: 0, text };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return err(format!("invalid JSON: unexpected data at offset {}", p.i));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T, super::FnError> {
        err(format!("invalid JSON: {what} at offset {}", self.i))
    }

    fn value(&mut self, depth: usize) -> FnResult {
        if depth > MAX_DEPTH {
            return self.fail("nesting too deep");
        }
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut attrs = Attrs::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Value::object(attrs));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return self.fail("expected a string key");
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.s.get(self.i) != Some(&b':') {
                        return self.fail("expected `:`");
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    attrs.insert(k.into(), v);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Value::object(attrs));
                        }
                        _ => return self.fail("expected `,` or `}`"),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Value::tuple(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Value::tuple(items));
                        }
                        _ => return self.fail("expected `,` or `]`"),
                    }
                }
            }
            Some(b'"') => Ok(Value::string(self.string()?)),
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Value::Bool(true))
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Value::Bool(false))
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Value::null())
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    self.i += 1;
                }
                match json_number(&self.text[start..self.i]) {
                    Some(v) => Ok(v),
                    None => self.fail("invalid number"),
                }
            }
            _ => self.fail("unexpected character"),
        }
    }

    fn string(&mut self) -> Result<String, super::FnError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(&b) = self.s.get(self.i) else { return self.fail("unterminated string") };
            match b {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.i += 1;
                    let Some(&e) = self.s.get(self.i) else { return self.fail("unterminated escape") };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\x08'),
                        b'f' => out.push('\x0c'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xd800..0xdc00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                let lo = self.hex4()?;
                                char::from_u32(0x10000 + ((hi - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff))
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or('\u{fffd}'));
                        }
                        _ => return self.fail("invalid escape"),
                    }
                }
                _ => {
                    // Copy a run of plain UTF-8 bytes at once (the input is a &str, so boundaries are valid).
                    let start = self.i;
                    while self.i < self.s.len() && self.s[self.i] != b'"' && self.s[self.i] != b'\\' {
                        self.i += 1;
                    }
                    out.push_str(&self.text[start..self.i]);
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, super::FnError> {
        let h = self.text.get(self.i..self.i + 4).and_then(|h| u32::from_str_radix(h, 16).ok());
        match h {
            Some(v) => {
                self.i += 4;
                Ok(v)
            }
            None => self.fail("invalid unicode escape"),
        }
    }
}

/// A number from JSON text, exact at literal precision.
pub(crate) fn json_number(text: &str) -> Option<Value> {
    Number::parse(text).map(Value::number)
}
