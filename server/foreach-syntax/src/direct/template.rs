//! Quoted strings, their interpolations, and heredocs (hcl-edit's `grammar/string.rs` and `template.rs`).
//! Template directives (`%{ if }`, `%{ for }`) and strip markers (`~`) are left to hcl-edit.

use std::borrow::Cow;

use smol_str::SmolStr;

use super::Parser;
use crate::ast::{Expr, ExprKind, Template, TemplateKind, TemplatePart};

/// What ended a literal run of template text.
#[derive(PartialEq, Eq)]
enum LiteralEnd {
    /// `"` of a quoted string.
    Quote,
    /// `${`.
    Interpolation,
    /// `%{`, or anything else this parser leaves to hcl-edit.
    Unsupported,
    /// The line ending before a heredoc's closing line.
    ClosingLine,
}

impl<'a> Parser<'a> {
    /// A quoted string: a plain one (hcl-edit's `String`, one literal part covering the inside of the quotes, even
    /// when empty) or one with interpolations (a template whose literal parts cover their source text).
    pub(super) fn quoted(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.pos += 1;
        let mut parts = Vec::new();
        let mut interpolated = false;
        loop {
            let literal_start = self.pos;
            let (value, end) = self.literal(None)?;
            if self.pos > literal_start || !interpolated && end == LiteralEnd::Quote {
                let value = self.strings.get(&value);
                parts.push(TemplatePart::Literal { value, range: self.range(literal_start, self.pos) });
            }
            match end {
                LiteralEnd::Quote => {
                    self.pos += 1;
                    break;
                }
                LiteralEnd::Interpolation => {
                    interpolated = true;
                    parts.push(self.interpolation()?);
                }
                LiteralEnd::Unsupported | LiteralEnd::ClosingLine => return None,
            }
        }
        parts.shrink_to_fit();
        let template = Template { parts, kind: TemplateKind::Quoted };
        Some(Expr::new(ExprKind::Template(template), self.range(start, self.pos)))
    }

    /// A quoted string without interpolation (a block label), unescaped.
    pub(super) fn plain_string(&mut self) -> Option<SmolStr> {
        self.pos += 1;
        let (value, end) = self.literal(None)?;
        if end != LiteralEnd::Quote {
            return None;
        }
        self.pos += 1;
        Some(self.strings.get(&value))
    }

    /// `${ expr }`, at its `$`.
    fn interpolation(&mut self) -> Option<TemplatePart> {
        self.pos += 2;
        if self.peek() == b'~' {
            return None;
        }
        let expr = self.spaced_expr()?;
        self.expect(b'}')?;
        Some(TemplatePart::Interpolation(Box::new(expr)))
    }

    /// A run of literal template text up to what ends it, with escapes applied: in a quoted string (`heredoc` is
    /// `None`) backslash escapes and `$${`/`%%{`, in a heredoc only the latter. `None` for an invalid escape, a line
    /// break in a quoted string, or text that ends first.
    fn literal(&mut self, heredoc: Option<&str>) -> Option<(Cow<'a, str>, LiteralEnd)> {
        let start = self.pos;
        let mut owned: Option<String> = None;
        let mut run = self.pos;
        let end = loop {
            let &b = self.bytes.get(self.pos)?;
            match b {
                b'"' if heredoc.is_none() => break LiteralEnd::Quote,
                b'$' | b'%' => match (self.peek_at(1), self.peek_at(2)) {
                    (b'{', _) if b == b'$' => break LiteralEnd::Interpolation,
                    (b'{', _) => break LiteralEnd::Unsupported,
                    (second, b'{') if second == b => {
                        // `$${` and `%%{` are the literal `${` and `%{`.
                        let text = owned.get_or_insert_with(String::new);
                        text.push_str(&self.src[run..self.pos]);
                        text.push(char::from(b));
                        text.push('{');
                        self.pos += 3;
                        run = self.pos;
                    }
                    _ => self.pos += 1,
                },
                b'\\' if heredoc.is_none() => {
                    let text = owned.get_or_insert_with(String::new);
                    text.push_str(&self.src[run..self.pos]);
                    text.push(self.escape()?);
                    run = self.pos;
                }
                b'\n' | b'\r' => match heredoc {
                    None => return None,
                    Some(delim) => {
                        let after = match (b, self.peek_at(1)) {
                            (b'\n', _) => self.pos + 1,
                            (b'\r', b'\n') => self.pos + 2,
                            _ => {
                                self.pos += 1;
                                continue;
                            }
                        };
                        if self.closing_line_at(after, delim) {
                            break LiteralEnd::ClosingLine;
                        }
                        self.pos = after;
                    }
                },
                _ => self.pos += 1,
            }
        };
        let value = match owned {
            None => Cow::Borrowed(&self.src[start..self.pos]),
            Some(mut text) => {
                text.push_str(&self.src[run..self.pos]);
                Cow::Owned(text)
            }
        };
        Some((value, end))
    }

    /// The character of the backslash escape at `pos`, which it consumes.
    fn escape(&mut self) -> Option<char> {
        let c = match self.peek_at(1) {
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'\\' => '\\',
            b'"' => '"',
            b'u' => return self.hex_escape(4),
            b'U' => return self.hex_escape(8),
            _ => return None,
        };
        self.pos += 2;
        Some(c)
    }

    /// `\uXXXX` or `\UXXXXXXXX`: exactly `digits` hex digits naming a Unicode scalar value.
    fn hex_escape(&mut self, digits: usize) -> Option<char> {
        let hex = self.src.get(self.pos + 2..self.pos + 2 + digits)?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
        self.pos += 2 + digits;
        Some(c)
    }

    /// `<<EOT` or `<<-EOT`, its lines, and the closing line's delimiter (which must end its line).
    pub(super) fn heredoc(&mut self) -> Option<Expr> {
        let start = self.pos;
        if !self.starts_with("<<") {
            return None;
        }
        self.pos += 2;
        let indented = self.eat(b'-');
        let delim_start = self.pos;
        self.pos = self.ident_end()?;
        let delim = &self.src[delim_start..self.pos];
        if !self.eat_line_ending() {
            return None;
        }
        let mut parts = Vec::new();
        // A heredoc whose first line closes it is empty.
        if !self.closing_line_at(self.pos, delim) {
            loop {
                let literal_start = self.pos;
                let (value, end) = self.literal(Some(delim))?;
                let literal = (self.pos > literal_start).then_some((value, literal_start));
                match end {
                    LiteralEnd::Interpolation => {
                        if let Some((value, at)) = literal {
                            let value = self.strings.get(&value);
                            parts.push(TemplatePart::Literal { value, range: self.range(at, self.pos) });
                        }
                        parts.push(self.interpolation()?);
                    }
                    LiteralEnd::ClosingLine => {
                        // The line ending before the closing line belongs to the last literal (or is one).
                        let line_ending = self.pos;
                        self.eat_line_ending();
                        let (mut text, at) = literal.unwrap_or((Cow::Borrowed(""), line_ending));
                        text.to_mut().push_str(&self.src[line_ending..self.pos]);
                        let value = self.strings.get(&text);
                        parts.push(TemplatePart::Literal { value, range: self.range(at, self.pos) });
                        break;
                    }
                    LiteralEnd::Quote | LiteralEnd::Unsupported => return None,
                }
            }
        }
        // The line at `pos` closes the heredoc (`closing_line_at` found it so, with nothing after the delimiter but
        // spaces and the line's end): the heredoc ends with its delimiter.
        while matches!(self.peek(), b' ' | b'\t') {
            self.pos += 1;
        }
        self.pos += delim.len();
        let end = self.pos;
        parts.shrink_to_fit();
        let mut template = Template { parts, kind: TemplateKind::Heredoc };
        if indented {
            crate::heredoc::remove_indentation(&mut template);
        }
        Some(Expr::new(ExprKind::Template(template), self.range(start, end)))
    }

    /// Whether the line starting at `at` closes a heredoc: the delimiter with optional spaces and tabs around it,
    /// then a line ending or the end of the text.
    fn closing_line_at(&self, at: usize, delim: &str) -> bool {
        let bytes = self.bytes;
        let mut i = at;
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if !bytes[i.min(bytes.len())..].starts_with(delim.as_bytes()) {
            return false;
        }
        i += delim.len();
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match bytes.get(i) {
            None | Some(b'\n') => true,
            Some(b'\r') => bytes.get(i + 1) == Some(&b'\n'),
            Some(_) => false,
        }
    }
}
