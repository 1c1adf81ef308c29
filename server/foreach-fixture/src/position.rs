//! Line/column positions as fixtures speak them: 0-based lines, 0-based columns counted in characters.
//!
//! Characters (Unicode scalar values), not bytes and not UTF-16 units, because a caret in an annotation sits under
//! one character of the code line whatever its encoded width. Lines end at `\n`; a `\r` before it is an ordinary
//! character of the line, which never matters because nothing is annotated past the end of a line's text.

use std::fmt;

/// A place in a file: 0-based line, 0-based column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl Position {
    pub fn new(line: u32, column: u32) -> Position {
        Position { line, column }
    }

    /// The position of a byte offset in `text`. An offset inside a multi-byte character or past the end of the text
    /// is clamped to the start of that character / the end of the text, so callers converting a `TextRange` never
    /// panic here.
    pub fn from_byte_offset(text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Position { line: count(before.matches('\n').count()), column: count(before[line_start..].chars().count()) }
    }

    /// The byte offset of this position in `text`, or `None` when the line does not exist or the column lies past
    /// the end of the line (the line terminator excluded).
    pub fn to_byte_offset(self, text: &str) -> Option<usize> {
        let line_start = line_starts(text).nth(self.line as usize)?;
        let line = &text[line_start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let mut chars = line.char_indices().map(|(i, _)| i).chain(std::iter::once(line.len()));
        chars.nth(self.column as usize).map(|i| line_start + i)
    }

    /// The position just past the last character of `text` (where an "end of file" diagnostic sits).
    pub fn end_of(text: &str) -> Position {
        Position::from_byte_offset(text, text.len())
    }
}

/// Editors show positions 1-based, so reports do too.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line + 1, self.column + 1)
    }
}

/// A half-open range `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

impl Range {
    pub fn new(start: Position, end: Position) -> Range {
        Range { start, end }
    }

    /// A range on one line, from column `start` (inclusive) to `end` (exclusive).
    pub fn on_line(line: u32, start: u32, end: u32) -> Range {
        Range { start: Position::new(line, start), end: Position::new(line, end) }
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn is_single_line(&self) -> bool {
        self.start.line == self.end.line
    }

    /// The byte range of this range in `text` (for evaluating a `value:` expectation, say), or `None` if either end
    /// does not exist in the text.
    pub fn to_byte_range(self, text: &str) -> Option<std::ops::Range<usize>> {
        Some(self.start.to_byte_offset(text)?..self.end.to_byte_offset(text)?)
    }

    /// The range covering the bytes `range` of `text`.
    pub fn from_byte_range(text: &str, range: std::ops::Range<usize>) -> Range {
        Range { start: Position::from_byte_offset(text, range.start), end: Position::from_byte_offset(text, range.end) }
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.start, self.end)
    }
}

/// Byte offsets at which each line of `text` starts (a text always has at least one line).
pub(crate) fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1))
}

/// Fixtures are small; a file with more than `u32::MAX` lines or columns is a bug in the test, not a case to handle.
pub(crate) fn count(n: usize) -> u32 {
    u32::try_from(n).expect("fixture files are far smaller than 4G lines or columns")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_offsets_round_trip_through_multibyte_text() {
        let text = "a = \"ключ\"\r\nb\n";
        let k = text.find('к').unwrap();
        assert_eq!(Position::from_byte_offset(text, k), Position::new(0, 5));
        assert_eq!(Position::new(0, 5).to_byte_offset(text), Some(k));
        // Past the closing quote: the `\r` is column 10, the line ends after it.
        assert_eq!(Position::new(0, 11).to_byte_offset(text), Some(text.find('\n').unwrap()));
        assert_eq!(Position::new(0, 12).to_byte_offset(text), None);
        assert_eq!(Position::from_byte_offset(text, text.find('b').unwrap()), Position::new(1, 0));
        assert_eq!(Position::end_of(text), Position::new(2, 0));
        assert_eq!(Position::new(2, 0).to_byte_offset(text), Some(text.len()));
        assert_eq!(Position::new(3, 0).to_byte_offset(text), None);
        // Inside `к` (2 bytes): clamped to its start.
        assert_eq!(Position::from_byte_offset(text, k + 1), Position::new(0, 5));
    }

    #[test]
    fn ranges_convert_and_display_one_based() {
        let text = "x = 1\ny = 22\n";
        let r = Range::from_byte_range(text, 10..12);
        assert_eq!(r, Range::on_line(1, 4, 6));
        assert_eq!(r.to_byte_range(text), Some(10..12));
        assert_eq!(r.to_string(), "2:5-2:7");
        assert!(Range::on_line(0, 3, 3).is_empty());
    }
}
