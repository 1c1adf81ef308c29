//! Reads valid native HCL straight into our [`ast`](crate::ast): the parser of the files nobody is typing in.
//!
//! Why a parser of our own beside hcl-edit: hcl-edit builds a lossless tree (decor, spans, its own node types) that
//! `convert` then turns into ours. On the dev corpus its grammar and the conversion were over 40% of a `check`'s CPU
//! time, spread over the many small functions of a combinator grammar, and issue #35's floor (20 MB in 0.5 s on two
//! cores) cannot be reached through that tree. This parser reads the text once and builds our nodes directly.
//!
//! It is partial on purpose. It answers `None` ("not sure") for anything outside the grammar real configurations
//! use (template directives, strip markers, white space inside a traversal, repeated object keys, deep nesting,
//! non-ASCII identifiers, ...) and for every syntax error; the caller then parses with hcl-edit, which decides
//! validity, error messages and recovery exactly as before. So it never has to be right about an invalid text, only
//! about what it accepts: a text hcl-edit accepts, read into the tree `convert` makes of hcl-edit's. Every rule here
//! follows the grammar of our hcl-edit fork (`server/vendor/hcl-edit/src/parser/grammar/`), and
//! `tests/direct.rs` checks the claim on every fixture, every dev-corpus file and every one-character edit of the
//! largest fixtures.

mod body;
mod expr;
mod template;

use crate::ast::{Body, Ident};
use crate::strings::LongStrings;
use crate::{TextRange, TextSize};

/// The body of the native HCL text `src` (whose first byte is at `base` in the original text), or `None` when the
/// text is invalid or uses something this parser leaves to hcl-edit.
pub(crate) fn parse_body(src: &str, base: usize) -> Option<Body> {
    let mut parser = Parser::new(src, base)?;
    parser.top_body()
}

/// How deep brackets and blocks may nest before the text is left to hcl-edit, which rejects more than 64 levels.
/// Ours are counted where hcl-edit counts its own (a block's body, a nested expression, a unary operand), so the
/// margin is for safety only: `tests/direct.rs` nests every kind of bracket up to hcl-edit's limit and beyond.
const MAX_DEPTH: usize = 48;

/// How many binary operators may stack on one path of an expression before the text is left to hcl-edit, which
/// rejects more than 128 (its scopes reset on more occasions than ours, so our count is never the lower one).
const MAX_OPERATOR_DEPTH: usize = 100;

/// The parser's position in the text and what it has handed out. Every function answers `None` to give up, and a
/// `None` ends the whole parse: nothing backtracks past one, so no state is restored on that path.
struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    base: u32,
    /// Brackets and blocks open around `pos`.
    depth: usize,
    /// Binary operators stacked in the current operator scope (hcl-edit's count, see [`MAX_OPERATOR_DEPTH`]).
    operator_depth: usize,
    strings: LongStrings,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, base: usize) -> Option<Self> {
        // Ranges are `u32`; a longer text is rejected before parsing anyway.
        let base = u32::try_from(base).ok()?;
        u32::try_from(src.len()).ok()?.checked_add(base)?;
        Some(Parser {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            base,
            depth: 0,
            operator_depth: 0,
            strings: LongStrings::default(),
        })
    }

    /// The byte at `pos`, or 0 at the end of the text (a NUL byte in the text is never valid where it is looked at).
    fn peek(&self) -> u8 {
        self.bytes.get(self.pos).copied().unwrap_or(0)
    }

    /// The byte `n` bytes after `pos`, or 0 past the end.
    fn peek_at(&self, n: usize) -> u8 {
        self.bytes.get(self.pos + n).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn starts_with(&self, s: &str) -> bool {
        self.bytes[self.pos.min(self.bytes.len())..].starts_with(s.as_bytes())
    }

    /// Consumes `byte` if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        let found = self.bytes.get(self.pos) == Some(&byte);
        self.pos += usize::from(found);
        found
    }

    /// Consumes `byte`, which must be next.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    fn offset(&self, at: usize) -> TextSize {
        // `new` checked that every offset of the text fits.
        TextSize::from(self.base + at as u32)
    }

    fn range(&self, start: usize, end: usize) -> TextRange {
        TextRange::new(self.offset(start), self.offset(end))
    }

    /// One level deeper, or `None` when that is too deep to be sure of hcl-edit's verdict.
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Spaces, tabs and `/* */` comments (hcl-edit's `sp`: a `/* */` comment may span lines even here).
    fn skip_sp(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                b' ' | b'\t' => self.pos += 1,
                b'/' if self.peek_at(1) == b'*' => self.skip_block_comment()?,
                _ => return Some(()),
            }
        }
    }

    /// White space, line breaks and comments of every kind (hcl-edit's `ws`).
    fn skip_ws(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'#' => self.skip_line_comment()?,
                b'/' if self.peek_at(1) == b'/' => self.skip_line_comment()?,
                b'/' if self.peek_at(1) == b'*' => self.skip_block_comment()?,
                _ => return Some(()),
            }
        }
    }

    /// [`skip_ws`](Self::skip_ws) where line breaks are allowed (inside brackets), else
    /// [`skip_sp`](Self::skip_sp).
    fn skip_trivia(&mut self, newlines: bool) -> Option<()> {
        if newlines { self.skip_ws() } else { self.skip_sp() }
    }

    fn skip_block_comment(&mut self) -> Option<()> {
        let close = memchr::memmem::find(&self.bytes[self.pos + 2..], b"*/")?;
        self.pos += 2 + close + 2;
        Some(())
    }

    /// A `#` or `//` comment up to its line ending, which stays. A lone carriage return in it is left to hcl-edit.
    fn skip_line_comment(&mut self) -> Option<()> {
        let rest = &self.bytes[self.pos..];
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        if rest.get(end) == Some(&b'\r') && rest.get(end + 1) != Some(&b'\n') {
            return None;
        }
        self.pos += end;
        Some(())
    }

    /// A `#` or `//` comment, if one is next (hcl-edit's `opt(line_comment)`).
    fn skip_optional_line_comment(&mut self) -> Option<()> {
        match (self.peek(), self.peek_at(1)) {
            (b'#', _) | (b'/', b'/') => self.skip_line_comment(),
            _ => Some(()),
        }
    }

    /// Consumes a line ending (`\n` or `\r\n`) if one is next.
    fn eat_line_ending(&mut self) -> bool {
        match (self.peek(), self.peek_at(1)) {
            (b'\n', _) => {
                self.pos += 1;
                true
            }
            (b'\r', b'\n') if self.pos + 1 < self.bytes.len() => {
                self.pos += 2;
                true
            }
            _ => false,
        }
    }

    /// The end of the identifier starting at `pos`, or `None` where hcl-edit could read more of it than ASCII
    /// letters, digits, `_` and `-` (a non-ASCII letter) or where no identifier starts.
    fn ident_end(&self) -> Option<usize> {
        if !is_ident_start(self.peek()) {
            return None;
        }
        let mut end = self.pos + 1;
        while let Some(&b) = self.bytes.get(end) {
            if is_ident_continue(b) {
                end += 1;
            } else if b >= 0x80 {
                return None;
            } else {
                break;
            }
        }
        Some(end)
    }

    /// The identifier at `pos`.
    fn ident(&mut self) -> Option<Ident> {
        let end = self.ident_end()?;
        let start = std::mem::replace(&mut self.pos, end);
        let name = self.strings.get(&self.src[start..end]);
        Some(Ident { name, range: self.range(start, end) })
    }

    /// Whether the identifier at `pos` is `word` and ends there (is not the start of a longer identifier).
    fn at_keyword(&self, word: &str) -> bool {
        self.starts_with(word) && !is_ident_continue(self.peek_at(word.len())) && self.peek_at(word.len()) < 0x80
    }
}

/// hcl-edit's identifier start (XID_Start or `_`), restricted to ASCII: a non-ASCII byte is left to hcl-edit.
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// hcl-edit's identifier continuation (XID_Continue or `-`), restricted to ASCII.
fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The parsers of the test suite: this one, and hcl-edit's followed by the conversion, for comparing them.
#[doc(hidden)]
pub mod testing {
    use crate::ast::Body;

    /// This parser's body of `text`, or `None` when it leaves the text to hcl-edit.
    pub fn direct(text: &str) -> Option<Body> {
        super::parse_body(text, 0)
    }

    /// hcl-edit's body of `text` converted to ours, or `None` when hcl-edit rejects the text.
    pub fn through_hcl_edit(text: &str) -> Option<Body> {
        let body = hcl_edit::parser::parse_body_spanned_if_valid(text)?;
        Some(crate::convert::Converter::new(text, 0).body(body))
    }
}
