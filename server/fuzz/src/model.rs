//! A reference model of an open document: a plain `String` edited by LSP ranges with the clamping rules the server
//! documents (`foreach-lsp/src/documents.rs`), written independently of its rope code so the two can be compared.

/// How LSP columns count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// The byte offset of an LSP position: past the last line is the end of the text; past the end of a line is the
/// end of its content (before `\n` or `\r\n`); inside a character is before it.
pub fn offset(text: &str, line: u32, character: u32, enc: Encoding) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let mut content = rest.find('\n').map_or(rest, |i| &rest[..i]);
    if rest.len() > content.len() {
        content = content.strip_suffix('\r').unwrap_or(content);
    }
    let mut units = 0usize;
    for (i, c) in content.char_indices() {
        let w = match enc {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
        if units + w > character as usize {
            return start + i;
        }
        units += w;
    }
    start + content.len()
}

/// Replaces the range (an inverted one is empty at its start) with `new`.
pub fn apply(text: &mut String, range: [u32; 4], new: &str, enc: Encoding) {
    let start = offset(text, range[0], range[1], enc);
    let end = offset(text, range[2], range[3], enc).max(start);
    text.replace_range(start..end, new);
}

/// The LSP position of a byte offset (for generating in-range positions).
pub fn position(text: &str, offset: usize, enc: Encoding) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col: usize = before[line_start..]
        .chars()
        .map(|c| match enc {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        })
        .sum();
    (before.matches('\n').count() as u32, col as u32)
}
