//! The token stream the formatter works on: the tokens of HCL's own scanner (hclsyntax), with the same boundaries
//! and kinds wherever formatting can tell them apart, and the whitespace between them counted but not kept.
//!
//! The formatter's rules are stated on these tokens (`terraform fmt` formats hclsyntax's tokens), so matching them
//! is what makes the output identical: a `"` opening a string, the literal text inside it, a `${` and the `}` that
//! ends it, a heredoc's `<<EOT` line, body lines and closing line, comments with the newline they end with.

/// What a token is. Literal text inside templates comes in one token per run (the scanner may split a run in
/// several; the formatter never puts space between literal tokens, so the split does not matter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    /// `"` opening a quoted template.
    OQuote,
    /// `"` closing it.
    CQuote,
    /// Literal text inside a quoted template.
    QuotedLit,
    /// A raw line break inside a quoted template (a syntax error; kept so the stream stays complete).
    QuotedNewline,
    /// `<<EOT` or `<<-EOT` with the line break after it.
    OHeredoc,
    /// The closing marker line, with its indentation, without its line break.
    CHeredoc,
    /// Literal text of a heredoc, up to and including a line break, or up to an interpolation.
    StringLit,
    /// `${` or `${~`
    TemplateInterp,
    /// `%{` or `%{~`
    TemplateControl,
    /// `}` or `~}` ending an interpolation or directive.
    TemplateSeqEnd,
    Newline,
    /// `#` and `//` comments include the line break that ends them; `/* */` comments do not.
    Comment,
    Equal,
    EqualOp,
    NotEqual,
    Lt,
    Lte,
    Gt,
    Gte,
    And,
    Or,
    Bang,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Question,
    Colon,
    Comma,
    Dot,
    Ellipsis,
    DoubleColon,
    FatArrow,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    /// Anything the scanner does not recognise (only in files with syntax errors).
    Invalid,
    /// The end of the text; `spaces` holds the whitespace after the last token.
    Eof,
}

/// A token: its kind, where its text is, and the spaces to write before it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub kind: Kind,
    /// Byte range of its text in the source, or in the formatter's buffer of new text when `synthetic`.
    pub start: u32,
    pub end: u32,
    pub synthetic: bool,
    pub spaces: u32,
}

impl Token {
    pub fn text<'a>(&self, src: &'a str, extra: &'a str) -> &'a str {
        let text = if self.synthetic { extra } else { src };
        &text[self.start as usize..self.end as usize]
    }
}

enum Mode<'a> {
    Main,
    Quoted,
    Heredoc { marker: &'a [u8], start_of_line: bool },
}

/// Splits `src` into tokens, ending with an [`Kind::Eof`] token. Never fails: what it cannot read becomes
/// [`Kind::Invalid`] (only callers that checked the syntax first format the result).
pub(crate) fn lex(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::with_capacity(src.len() / 4);
    let mut modes = vec![Mode::Main];
    let mut braces = 0usize;
    let mut ret_braces: Vec<usize> = Vec::new();
    let mut p = 0usize;
    let mut last_end = 0usize;
    let mut push = |out: &mut Vec<Token>, kind: Kind, start: usize, end: usize| {
        out.push(Token {
            kind,
            start: start as u32,
            end: end as u32,
            synthetic: false,
            spaces: (start - last_end) as u32,
        });
        last_end = end;
    };
    while p < b.len() {
        match modes.last_mut() {
            Some(Mode::Main) | None => {
                let c = b[p];
                let next = b.get(p + 1).copied();
                let (kind, len) = match c {
                    b' ' | b'\t' => {
                        p += 1;
                        continue;
                    }
                    b'\n' => (Kind::Newline, 1),
                    b'\r' if next == Some(b'\n') => (Kind::Newline, 2),
                    b'#' => (Kind::Comment, line_comment_len(&b[p..])),
                    b'/' if next == Some(b'/') => (Kind::Comment, line_comment_len(&b[p..])),
                    b'/' if next == Some(b'*') => match find(&b[p + 2..], b"*/") {
                        Some(at) => (Kind::Comment, at + 4),
                        None => (Kind::Invalid, b.len() - p),
                    },
                    b'0'..=b'9' => (Kind::Number, number_len(&b[p..])),
                    b'"' => {
                        push(&mut out, Kind::OQuote, p, p + 1);
                        p += 1;
                        modes.push(Mode::Quoted);
                        continue;
                    }
                    b'<' if next == Some(b'<') => match heredoc_intro(src, p) {
                        Some((len, marker)) => {
                            push(&mut out, Kind::OHeredoc, p, p + len);
                            p += len;
                            modes.push(Mode::Heredoc { marker: marker.as_bytes(), start_of_line: true });
                            continue;
                        }
                        None => (Kind::Lt, 1),
                    },
                    b'{' => {
                        braces += 1;
                        (Kind::OBrace, 1)
                    }
                    b'}' | b'~' if c == b'}' || next == Some(b'}') => {
                        let len = if c == b'~' { 2 } else { 1 };
                        if ret_braces.last() == Some(&braces) {
                            ret_braces.pop();
                            braces = braces.saturating_sub(1);
                            push(&mut out, Kind::TemplateSeqEnd, p, p + len);
                            p += len;
                            modes.pop();
                            continue;
                        }
                        braces = braces.saturating_sub(1);
                        (if c == b'~' { Kind::TemplateSeqEnd } else { Kind::CBrace }, len)
                    }
                    b'=' if next == Some(b'=') => (Kind::EqualOp, 2),
                    b'=' if next == Some(b'>') => (Kind::FatArrow, 2),
                    b'!' if next == Some(b'=') => (Kind::NotEqual, 2),
                    b'>' if next == Some(b'=') => (Kind::Gte, 2),
                    b'<' if next == Some(b'=') => (Kind::Lte, 2),
                    b'&' if next == Some(b'&') => (Kind::And, 2),
                    b'|' if next == Some(b'|') => (Kind::Or, 2),
                    b':' if next == Some(b':') => (Kind::DoubleColon, 2),
                    b'.' if next == Some(b'.') && b.get(p + 2) == Some(&b'.') => (Kind::Ellipsis, 3),
                    b'=' => (Kind::Equal, 1),
                    b'<' => (Kind::Lt, 1),
                    b'>' => (Kind::Gt, 1),
                    b'!' => (Kind::Bang, 1),
                    b'+' => (Kind::Plus, 1),
                    b'-' => (Kind::Minus, 1),
                    b'*' => (Kind::Star, 1),
                    b'/' => (Kind::Slash, 1),
                    b'%' => (Kind::Percent, 1),
                    b'?' => (Kind::Question, 1),
                    b':' => (Kind::Colon, 1),
                    b',' => (Kind::Comma, 1),
                    b'.' => (Kind::Dot, 1),
                    b'[' => (Kind::OBrack, 1),
                    b']' => (Kind::CBrack, 1),
                    b'(' => (Kind::OParen, 1),
                    b')' => (Kind::CParen, 1),
                    _ => match ident_len(&src[p..]) {
                        0 => (Kind::Invalid, char_len(src, p)),
                        n => (Kind::Ident, n),
                    },
                };
                push(&mut out, kind, p, p + len);
                p += len;
            }
            Some(Mode::Quoted) => {
                let c = b[p];
                if let Some(len) = template_open(b, p) {
                    let kind = if c == b'$' { Kind::TemplateInterp } else { Kind::TemplateControl };
                    push(&mut out, kind, p, p + len);
                    p += len;
                    braces += 1;
                    ret_braces.push(braces);
                    modes.push(Mode::Main);
                    continue;
                }
                match c {
                    b'"' => {
                        push(&mut out, Kind::CQuote, p, p + 1);
                        p += 1;
                        modes.pop();
                    }
                    b'\r' | b'\n' => {
                        let len = b[p..].iter().take_while(|&&c| c == b'\r' || c == b'\n').count();
                        push(&mut out, Kind::QuotedNewline, p, p + len);
                        p += len;
                    }
                    _ => {
                        let start = p;
                        while p < b.len() {
                            match b[p] {
                                b'"' | b'\r' | b'\n' => break,
                                b'$' | b'%' if template_open(b, p).is_some() => break,
                                b'$' | b'%' if b.get(p + 1) == Some(&b[p]) && b.get(p + 2) == Some(&b'{') => p += 3,
                                b'\\' if p + 1 < b.len() && !matches!(b[p + 1], b'\r' | b'\n') => {
                                    p += 1 + char_len(src, p + 1);
                                }
                                _ => p += char_len(src, p),
                            }
                        }
                        push(&mut out, Kind::QuotedLit, start, p);
                    }
                }
            }
            Some(Mode::Heredoc { marker, start_of_line }) => {
                let c = b[p];
                if let Some(len) = template_open(b, p) {
                    *start_of_line = false;
                    let kind = if c == b'$' { Kind::TemplateInterp } else { Kind::TemplateControl };
                    push(&mut out, kind, p, p + len);
                    p += len;
                    braces += 1;
                    ret_braces.push(braces);
                    modes.push(Mode::Main);
                    continue;
                }
                let start = p;
                while p < b.len() && b[p] != b'\n' {
                    match b[p] {
                        b'$' | b'%' if template_open(b, p).is_some() => break,
                        b'$' | b'%' if b.get(p + 1) == Some(&b[p]) && b.get(p + 2) == Some(&b'{') => p += 3,
                        _ => p += 1,
                    }
                }
                if p < b.len() && b[p] == b'\n' {
                    let line = &src[start..p];
                    if *start_of_line && line.trim().as_bytes() == *marker {
                        let text_end = if line.ends_with('\r') { p - 1 } else { p };
                        push(&mut out, Kind::CHeredoc, start, text_end);
                        push(&mut out, Kind::Newline, text_end, p + 1);
                        p += 1;
                        modes.pop();
                        continue;
                    }
                    p += 1;
                    *start_of_line = true;
                } else {
                    *start_of_line = false;
                    if p == b.len() && src[start..p].trim().as_bytes() == *marker {
                        // A closing marker at the very end of the text, with no line break after it.
                        push(&mut out, Kind::CHeredoc, start, p);
                        modes.pop();
                        continue;
                    }
                }
                push(&mut out, Kind::StringLit, start, p);
            }
        }
    }
    push(&mut out, Kind::Eof, b.len(), b.len());
    out
}

/// `${`, `${~`, `%{` or `%{~` at `p`: its length.
fn template_open(b: &[u8], p: usize) -> Option<usize> {
    if matches!(b[p], b'$' | b'%') && b.get(p + 1) == Some(&b'{') {
        Some(if b.get(p + 2) == Some(&b'~') { 3 } else { 2 })
    } else {
        None
    }
}

fn line_comment_len(b: &[u8]) -> usize {
    match b.iter().position(|&c| c == b'\n') {
        Some(at) => at + 1,
        None => b.len(),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A number: digits, `.` and exponents, never ending with a `.` (`a.0.b` is `a`, `.`, `0`, `.`, `b`).
fn number_len(b: &[u8]) -> usize {
    let mut p = 1;
    let mut end = 1;
    while p < b.len() {
        match b[p] {
            b'0'..=b'9' => {
                p += 1;
                end = p;
            }
            b'.' => p += 1,
            b'e' | b'E' => {
                let sign = usize::from(matches!(b.get(p + 1), Some(b'+' | b'-')));
                if b.get(p + 1 + sign).is_some_and(u8::is_ascii_digit) {
                    p += 2 + sign;
                    end = p;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    end
}

/// An identifier: a letter or `_`, then letters, digits, `_` and `-`.
fn ident_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if c == '_' || c.is_alphabetic() => {}
        _ => return 0,
    }
    for (at, c) in chars {
        if !(c == '_' || c == '-' || c.is_alphanumeric()) {
            return at;
        }
    }
    s.len()
}

fn char_len(src: &str, p: usize) -> usize {
    src[p..].chars().next().map_or(1, char::len_utf8)
}

/// `<<EOT` or `<<-EOT` followed by a line break: the length through the line break, and the marker.
fn heredoc_intro(src: &str, p: usize) -> Option<(usize, &str)> {
    let rest = &src[p + 2..];
    let dash = usize::from(rest.starts_with('-'));
    let n = ident_len(&rest[dash..]);
    if n == 0 {
        return None;
    }
    let marker = &rest[dash..dash + n];
    let after = &rest[dash + n..];
    let nl = if after.starts_with('\n') {
        1
    } else if after.starts_with("\r\n") {
        2
    } else {
        return None;
    };
    Some((2 + dash + n + nl, marker))
}
