//! The rewrites `terraform fmt` (and `tofu fmt`) make beyond whitespace, on the token stream of a valid file:
//!
//! - block labels are written quoted (`resource aws_s3_bucket b` → `resource "aws_s3_bucket" "b"`), comments
//!   between labels dropped;
//! - an attribute whose whole value is one interpolation loses the quotes (`"${var.x}"` → `var.x`), wrapped in
//!   parentheses when it spans lines;
//! - a top-level `variable`'s `type` written the 0.11 way becomes a type expression (`"string"` → `string`,
//!   `"list"`/`"map"` → `list(string)`/`map(string)`, bare `list`/`map`/`set` → `list(any)`…).
//!
//! The walk follows the body structure only as far as these need: items, blocks with labels, attribute values.

use super::lex::{Kind, Token};

pub(crate) struct Tidy<'a> {
    toks: &'a [Token],
    src: &'a str,
    pub extra: String,
    pub out: Vec<Token>,
    i: usize,
}

impl<'a> Tidy<'a> {
    pub fn run(toks: &'a [Token], src: &'a str) -> Tidy<'a> {
        let mut tidy = Tidy { toks, src, extra: String::new(), out: Vec::with_capacity(toks.len()), i: 0 };
        tidy.body(0, false);
        // Whatever a body does not consume (a stray `}` in a broken file, the end of the text) is copied as is.
        while tidy.i < toks.len() {
            tidy.copy();
            if tidy.i < toks.len() && toks[tidy.i - 1].kind == Kind::CBrace {
                tidy.body(0, false);
            }
        }
        tidy
    }

    fn copy(&mut self) {
        self.out.push(self.toks[self.i]);
        self.i += 1;
    }

    fn text(&self, t: &Token) -> &'a str {
        debug_assert!(!t.synthetic);
        &self.src[t.start as usize..t.end as usize]
    }

    fn new_token(&mut self, kind: Kind, text: &str) -> Token {
        let start = self.extra.len() as u32;
        self.extra.push_str(text);
        Token { kind, start, end: self.extra.len() as u32, synthetic: true, spaces: 0 }
    }

    /// Items until the `}` closing the block (left for the caller) or the end of the text. `depth` counts blocks;
    /// `in_variable` is set in the body of a top-level `variable` block.
    fn body(&mut self, depth: usize, in_variable: bool) {
        while let Some(t) = self.toks.get(self.i).copied() {
            match t.kind {
                Kind::Eof | Kind::CBrace => return,
                Kind::Ident => {
                    let mut j = self.i + 1;
                    while self.toks.get(j).is_some_and(|t| t.kind == Kind::Comment) {
                        j += 1;
                    }
                    match self.toks.get(j).map(|t| t.kind) {
                        Some(Kind::Equal) => {
                            let is_type = in_variable && self.text(&t) == "type";
                            while self.i <= j {
                                self.copy();
                            }
                            self.attribute_value(is_type);
                        }
                        _ => {
                            let is_variable = depth == 0 && self.text(&t) == "variable";
                            self.copy();
                            self.block(depth, is_variable);
                        }
                    }
                }
                _ => self.copy(),
            }
        }
    }

    /// After a block's type: its labels, `{`, body and `}`.
    fn block(&mut self, depth: usize, is_variable: bool) {
        while let Some(t) = self.toks.get(self.i).copied() {
            match t.kind {
                Kind::Ident => {
                    self.i += 1;
                    let value = self.text(&t).to_owned();
                    self.push_label(&value);
                }
                Kind::OQuote => {
                    let start = self.i;
                    let mut end = start + 1;
                    while self.toks.get(end).is_some_and(|t| t.kind != Kind::CQuote && t.kind != Kind::Eof) {
                        end += 1;
                    }
                    let raw: String = self.toks[start + 1..end].iter().map(|t| self.text(t)).collect();
                    let ok = self.toks[start + 1..end].iter().all(|t| t.kind == Kind::QuotedLit);
                    let canonical = escape(&unescape(&raw));
                    if ok && canonical == raw {
                        while self.i <= end.min(self.toks.len() - 1) {
                            self.copy();
                        }
                    } else {
                        self.i = end + 1;
                        let value = unescape(&raw);
                        self.push_label(&value);
                    }
                }
                Kind::Comment => self.i += 1,
                Kind::OBrace => {
                    self.copy();
                    self.body(depth + 1, is_variable);
                    if self.toks.get(self.i).is_some_and(|t| t.kind == Kind::CBrace) {
                        self.copy();
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    fn push_label(&mut self, value: &str) {
        let open = self.new_token(Kind::OQuote, "\"");
        self.out.push(open);
        if !value.is_empty() {
            let lit = self.new_token(Kind::QuotedLit, &escape(value));
            self.out.push(lit);
        }
        let close = self.new_token(Kind::CQuote, "\"");
        self.out.push(close);
    }

    /// From the token after `=`: the value, rewritten where `terraform fmt` rewrites it.
    fn attribute_value(&mut self, is_type: bool) {
        let start = self.i;
        let mut depth = 0i32;
        let mut end = start;
        while let Some(t) = self.toks.get(end) {
            match t.kind {
                Kind::OBrace
                | Kind::OBrack
                | Kind::OParen
                | Kind::TemplateInterp
                | Kind::TemplateControl
                | Kind::OQuote
                | Kind::OHeredoc => depth += 1,
                Kind::CBrack | Kind::CParen | Kind::TemplateSeqEnd | Kind::CQuote | Kind::CHeredoc => depth -= 1,
                Kind::CBrace if depth == 0 => break,
                Kind::CBrace => depth -= 1,
                Kind::Newline | Kind::Eof if depth <= 0 => break,
                Kind::Comment if depth <= 0 && self.text(t).ends_with('\n') => break,
                _ => {}
            }
            end += 1;
        }
        // Trailing `/* */` comments belong to the line, not the value.
        while end > start && self.toks[end - 1].kind == Kind::Comment {
            end -= 1;
        }
        let value = &self.toks[start..end];
        let rewritten = if is_type { self.type_expr(value) } else { self.unwrap_interpolation(value) };
        match rewritten {
            Some(tokens) => self.out.extend(tokens),
            None => self.out.extend_from_slice(value),
        }
        self.i = end;
    }

    /// `"${x}"` → `x` (`(x)` when `x` spans lines); `None` when the value is anything else.
    fn unwrap_interpolation(&mut self, value: &[Token]) -> Option<Vec<Token>> {
        let n = value.len();
        if n < 5
            || value[0].kind != Kind::OQuote
            || value[1].kind != Kind::TemplateInterp
            || value[n - 2].kind != Kind::TemplateSeqEnd
            || value[n - 1].kind != Kind::CQuote
        {
            return None;
        }
        let inside = &value[2..n - 2];
        let mut quotes = 0;
        for t in inside {
            match t.kind {
                Kind::OQuote => quotes += 1,
                Kind::CQuote => quotes -= 1,
                _ if quotes > 0 => {}
                // A second interpolation (`"${a}${b}"`) or literal text: a real template, kept.
                Kind::TemplateInterp | Kind::TemplateSeqEnd | Kind::QuotedLit => return None,
                _ => {}
            }
        }
        let first = inside.iter().position(|t| t.kind != Kind::Newline).unwrap_or(inside.len());
        let last = inside.iter().rposition(|t| t.kind != Kind::Newline).map_or(first, |at| at + 1);
        let trimmed = &inside[first..last.max(first)];
        let multi_line = trimmed.iter().any(|t| t.kind == Kind::Newline);
        let parenthesised = trimmed.first().is_some_and(|t| t.kind == Kind::OParen)
            && trimmed.last().is_some_and(|t| t.kind == Kind::CParen)
            && trimmed.len() > 1;
        if multi_line && !parenthesised {
            let mut out = Vec::with_capacity(trimmed.len() + 2);
            out.push(self.new_token(Kind::OParen, "("));
            out.extend_from_slice(trimmed);
            out.push(self.new_token(Kind::CParen, ")"));
            return Some(out);
        }
        Some(trimmed.to_vec())
    }

    /// A `variable`'s `type` in the pre-0.12 forms, as a type expression.
    fn type_expr(&mut self, value: &[Token]) -> Option<Vec<Token>> {
        let collection = |this: &mut Self, name: &str, element: &str| {
            vec![
                this.new_token(Kind::Ident, name),
                this.new_token(Kind::OParen, "("),
                this.new_token(Kind::Ident, element),
                this.new_token(Kind::CParen, ")"),
            ]
        };
        match value {
            [t] if t.kind == Kind::Ident => match self.text(t) {
                name @ ("list" | "map" | "set") => Some(collection(self, name, "any")),
                _ => None,
            },
            [o, lit, c] if o.kind == Kind::OQuote && lit.kind == Kind::QuotedLit && c.kind == Kind::CQuote => {
                match self.text(lit) {
                    "string" => Some(vec![self.new_token(Kind::Ident, "string")]),
                    name @ ("list" | "map") => Some(collection(self, name, "string")),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The value of a quoted label's text: escapes processed, `$${`/`%%{` as `${`/`%{`.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some(q @ ('u' | 'U')) => {
                    let digits: String = chars.by_ref().take(if q == 'u' { 4 } else { 8 }).collect();
                    match u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32) {
                        Some(ch) => out.push(ch),
                        None => {
                            out.push('\\');
                            out.push(q);
                            out.push_str(&digits);
                        }
                    }
                }
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            '$' | '%' if chars.peek() == Some(&c) => {
                let mut ahead = chars.clone();
                ahead.next();
                if ahead.peek() == Some(&'{') {
                    chars.next();
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A string value as the text of a quoted string, the way hclwrite writes it.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if c != ' ' && (c.is_control() || c.is_whitespace()) => {
                use std::fmt::Write;
                let code = u32::from(c);
                let _ = if code < 0x10000 { write!(out, "\\u{code:04x}") } else { write!(out, "\\U{code:08x}") };
            }
            c => out.push(c),
        }
    }
    out
}
