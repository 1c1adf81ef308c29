//! Property tests: conversions between offsets and positions round-trip, and garbage positions never panic.

use foreach_syntax::{ColumnEncoding, LineCol, LineIndex, TextSize};
use proptest::prelude::*;

const ENCODINGS: [ColumnEncoding; 3] = [ColumnEncoding::Utf8, ColumnEncoding::Utf16, ColumnEncoding::Char];

/// Text made of the characters that matter: ASCII, line endings, 2/3/4-byte characters.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just("a"), Just("\n"), Just("\r\n"), Just("\r"), Just("é"), Just("€"), Just("😀"), Just(" ")],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

/// Offsets that name a position exactly: char boundaries, not between a `\r` and its `\n`.
fn exact_offsets(text: &str) -> Vec<TextSize> {
    (0..=text.len())
        .filter(|&i| text.is_char_boundary(i) && !(text[..i].ends_with('\r') && text[i..].starts_with('\n')))
        .map(|i| TextSize::try_from(i).unwrap())
        .collect()
}

/// The reference: line and column computed naively from the text.
fn naive(text: &str, offset: usize, encoding: ColumnEncoding) -> LineCol {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut content = &text[line_start..offset];
    if content.ends_with('\r') && text[offset..].starts_with('\n') {
        content = &content[..content.len() - 1];
    }
    let col = match encoding {
        ColumnEncoding::Utf8 => content.len(),
        ColumnEncoding::Utf16 => content.encode_utf16().count(),
        ColumnEncoding::Char => content.chars().count(),
    };
    LineCol { line: line as u32, col: col as u32 }
}

proptest! {
    #[test]
    fn offset_to_position_and_back(text in text()) {
        let index = LineIndex::new(&text);
        for offset in exact_offsets(&text) {
            for enc in ENCODINGS {
                let pos = index.line_col(offset, enc);
                prop_assert_eq!(pos, naive(&text, usize::from(offset), enc));
                prop_assert_eq!(index.offset(pos, enc), offset);
            }
        }
    }

    #[test]
    fn any_position_is_clamped_consistently(text in text(), line in 0u32..50, col in 0u32..200) {
        let index = LineIndex::new(&text);
        for enc in ENCODINGS {
            let offset = index.offset(LineCol { line, col }, enc);
            prop_assert!(offset <= index.len());
            prop_assert!(text.is_char_boundary(usize::from(offset)));
            let pos = index.line_col(offset, enc);
            prop_assert_eq!(index.offset(pos, enc), offset);
            if line < index.line_count() {
                prop_assert_eq!(pos.line, line);
                prop_assert!(pos.col <= col);
            }
        }
    }

    #[test]
    fn any_offset_never_panics(text in text(), offset in 0u32..300) {
        let index = LineIndex::new(&text);
        for enc in ENCODINGS {
            let pos = index.line_col(TextSize::from(offset), enc);
            prop_assert!(pos.line < index.line_count());
        }
    }
}
