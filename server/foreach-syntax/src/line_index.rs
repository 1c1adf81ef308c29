//! Converts between byte offsets and (line, column) positions, with columns counted in UTF-8 bytes, UTF-16 code
//! units (what LSP clients send by default) or Unicode scalar values (what humans and `terraform` messages count).
//!
//! Lines end at `\n`; the `\r` of a `\r\n` belongs to the line ending, not to the line's columns. Every conversion
//! clamps instead of failing: an LSP client can send positions past the end of a line or of the file, or in the
//! middle of a surrogate pair, and a stale offset can point past the end of a shorter text. It stores only line
//! starts and, for the few lines that have them, where the non-ASCII characters are, so it stays small for big
//! files.

use std::collections::HashMap;

use crate::{TextRange, TextSize};

/// How a column counts the characters before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnEncoding {
    /// UTF-8 bytes: the same unit as [`TextSize`].
    Utf8,
    /// UTF-16 code units: the LSP default (astral characters such as emoji count twice).
    Utf16,
    /// Unicode scalar values (`char`s): what a person counts.
    Char,
}

/// A zero-based line and column. The unit of `col` depends on the [`ColumnEncoding`] it was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// A non-ASCII character inside a line: where it starts (UTF-8 bytes from the line start) and its UTF-8 length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WideChar {
    start: u32,
    len: u8,
}

impl WideChar {
    fn end(self) -> u32 {
        self.start + u32::from(self.len)
    }

    /// Its length in `encoding`'s units.
    fn encoded_len(self, encoding: ColumnEncoding) -> u32 {
        match encoding {
            ColumnEncoding::Utf8 => u32::from(self.len),
            ColumnEncoding::Utf16 if self.len == 4 => 2,
            ColumnEncoding::Utf16 | ColumnEncoding::Char => 1,
        }
    }
}

/// The line structure of one text, built once per text version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Offset of the first byte of every line; the first is always 0.
    line_starts: Vec<TextSize>,
    /// Length of every line's content, without its `\n` or `\r\n`.
    line_lens: Vec<u32>,
    /// Non-ASCII characters of the lines that have any.
    wide_chars: HashMap<u32, Box<[WideChar]>>,
    len: TextSize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![TextSize::from(0)];
        let mut line_lens = Vec::new();
        let mut wide_chars = HashMap::new();
        let mut line_wide: Vec<WideChar> = Vec::new();
        let mut line_start = 0usize;
        let bytes = text.as_bytes();

        // `end` is the offset of the line's `\n`, or the text's length for the last line.
        let mut finish_line = |line: usize, start: usize, end: usize, wide: &mut Vec<WideChar>| {
            // Excludes the `\r` of a `\r\n` from the line's columns (a lone `\r` is an ordinary character).
            let crlf = end < bytes.len() && end > start && bytes[end - 1] == b'\r';
            let content_end = if crlf { end - 1 } else { end };
            line_lens.push(to_u32(content_end - start));
            if !wide.is_empty() {
                wide_chars.insert(to_u32(line), std::mem::take(wide).into_boxed_slice());
            }
        };

        if text.is_ascii() {
            // The common case: a byte scan for newlines only.
            for i in memchr::memchr_iter(b'\n', bytes) {
                finish_line(line_starts.len() - 1, line_start, i, &mut line_wide);
                line_start = i + 1;
                line_starts.push(to_size(line_start));
            }
        } else {
            for (i, c) in text.char_indices() {
                if c == '\n' {
                    finish_line(line_starts.len() - 1, line_start, i, &mut line_wide);
                    line_start = i + 1;
                    line_starts.push(to_size(line_start));
                } else if !c.is_ascii() {
                    let len = u8::try_from(c.len_utf8()).unwrap_or(4);
                    line_wide.push(WideChar { start: to_u32(i - line_start), len });
                }
            }
        }
        finish_line(line_starts.len() - 1, line_start, text.len(), &mut line_wide);

        LineIndex { line_starts, line_lens, wide_chars, len: to_size(text.len()) }
    }

    /// The length of the indexed text.
    pub fn len(&self) -> TextSize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == TextSize::from(0)
    }

    /// The number of lines: one more than the number of `\n`s (an empty text has one empty line).
    pub fn line_count(&self) -> u32 {
        to_u32(self.line_starts.len())
    }

    /// The range of a line's content, without its line ending; `None` past the last line.
    pub fn line_range(&self, line: u32) -> Option<TextRange> {
        let i = line as usize;
        let start = *self.line_starts.get(i)?;
        Some(TextRange::at(start, TextSize::from(self.line_lens[i])))
    }

    /// The position of `offset` with a column in `encoding`. An offset past the end is clamped to the end, one
    /// inside a character to the character's start, and one inside a `\r\n` to the end of the line's content.
    pub fn line_col(&self, offset: TextSize, encoding: ColumnEncoding) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let mut col = u32::from(offset - self.line_starts[line]).min(self.line_lens[line]);
        let line = to_u32(line);
        if let Some(chars) = self.wide_chars.get(&line) {
            let mut encoded = col;
            for c in chars.iter().take_while(|c| c.start < col) {
                if c.end() > col {
                    // Inside a character: snap to its start.
                    encoded -= col - c.start;
                    break;
                }
                encoded = encoded - u32::from(c.len) + c.encoded_len(encoding);
            }
            col = encoded;
        }
        LineCol { line, col }
    }

    /// The byte offset of a position whose column is in `encoding`. A line past the last is clamped to the end of
    /// the text, a column past the line's content to the end of that content, and a column inside a character
    /// (e.g. between the two halves of a UTF-16 surrogate pair) to the character's start.
    pub fn offset(&self, pos: LineCol, encoding: ColumnEncoding) -> TextSize {
        let Some(&start) = self.line_starts.get(pos.line as usize) else {
            return self.len;
        };
        let line_len = self.line_lens[pos.line as usize];
        let mut col = pos.col;
        if let Some(chars) = self.wide_chars.get(&pos.line) {
            // Walk the wide characters before the target, converting `col` from `encoding` units to bytes.
            for c in chars.iter() {
                if c.start >= col {
                    break;
                }
                let encoded_len = c.encoded_len(encoding);
                if col < c.start + encoded_len {
                    col = c.start;
                    break;
                }
                col = col - encoded_len + u32::from(c.len);
            }
        }
        start + TextSize::from(col.min(line_len))
    }

    /// Converts a range to a pair of positions with columns in `encoding`.
    pub fn range_to_line_cols(&self, range: TextRange, encoding: ColumnEncoding) -> (LineCol, LineCol) {
        (self.line_col(range.start(), encoding), self.line_col(range.end(), encoding))
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn to_size(n: usize) -> TextSize {
    TextSize::from(to_u32(n))
}

#[cfg(test)]
mod tests {
    use super::{ColumnEncoding as Enc, LineCol, LineIndex};
    use crate::TextSize;

    fn lc(line: u32, col: u32) -> LineCol {
        LineCol { line, col }
    }

    fn at(text: &str, needle: &str) -> TextSize {
        TextSize::try_from(text.find(needle).expect("needle")).unwrap()
    }

    #[test]
    fn empty_text_has_one_empty_line() {
        let index = LineIndex::new("");
        assert_eq!(index.line_count(), 1);
        assert_eq!(index.line_col(TextSize::from(0), Enc::Utf16), lc(0, 0));
        assert_eq!(index.line_col(TextSize::from(10), Enc::Utf16), lc(0, 0));
        assert_eq!(index.offset(lc(5, 5), Enc::Utf16), TextSize::from(0));
    }

    #[test]
    fn columns_in_each_encoding() {
        let text = "a\né😀x\n";
        let index = LineIndex::new(text);
        let x = at(text, "x");
        assert_eq!(index.line_col(x, Enc::Utf8), lc(1, 6));
        assert_eq!(index.line_col(x, Enc::Utf16), lc(1, 3));
        assert_eq!(index.line_col(x, Enc::Char), lc(1, 2));
        for enc in [Enc::Utf8, Enc::Utf16, Enc::Char] {
            assert_eq!(index.offset(index.line_col(x, enc), enc), x);
        }
    }

    #[test]
    fn positions_inside_a_character_snap_to_its_start() {
        let text = "😀x";
        let index = LineIndex::new(text);
        // Between the surrogates.
        assert_eq!(index.offset(lc(0, 1), Enc::Utf16), TextSize::from(0));
        // Inside the UTF-8 encoding.
        assert_eq!(index.line_col(TextSize::from(2), Enc::Utf16), lc(0, 0));
        assert_eq!(index.offset(lc(0, 2), Enc::Utf8), TextSize::from(0));
    }

    #[test]
    fn crlf_is_not_part_of_the_columns() {
        let text = "ab\r\ncd";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(at(text, "\r"), Enc::Utf16), lc(0, 2));
        assert_eq!(index.line_col(at(text, "\n"), Enc::Utf16), lc(0, 2));
        assert_eq!(index.offset(lc(0, 99), Enc::Utf16), at(text, "\r"));
        assert_eq!(index.line_col(at(text, "d"), Enc::Utf16), lc(1, 1));
        assert_eq!(&text[index.line_range(0).map(std::ops::Range::<usize>::from).unwrap()], "ab");
    }

    #[test]
    fn final_line_without_newline_and_garbage_positions() {
        let text = "x = 1\ny";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 2);
        assert_eq!(index.offset(lc(1, 1), Enc::Utf16), TextSize::of(text));
        assert_eq!(index.offset(lc(1, u32::MAX), Enc::Utf16), TextSize::of(text));
        assert_eq!(index.offset(lc(u32::MAX, 0), Enc::Char), TextSize::of(text));
        assert_eq!(index.line_col(TextSize::from(u32::MAX), Enc::Char), lc(1, 1));
    }
}
