//! The open-document store: a `dashmap` of ropes with their LSP versions, edited incrementally.
//!
//! tower-lsp may run several notifications at once, so `didChange` events for one document can reach us out of
//! order. Each document therefore keeps the changes that arrive early (by version) and applies them only when the
//! version before them has been applied. A client may skip version numbers; [`Documents::flush_pending`] applies
//! what is still waiting, in version order, once the burst is over.

use std::collections::BTreeMap;
use std::sync::Arc;

use dashmap::DashMap;
use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

use crate::convert::PositionEncoding;

pub struct Document {
    pub rope: Rope,
    pub version: i32,
    /// Changes that arrived before the ones they follow.
    pending: BTreeMap<i32, Vec<TextDocumentContentChangeEvent>>,
}

/// What an edit did: the document's version after it, or why nothing was applied. Not the text: the analysis
/// copies the newest text when it syncs (`text_unless_version`), once for however many edits arrived meanwhile;
/// copying it here too cost a 1.3 MB copy per keystroke for nothing.
#[derive(Debug)]
pub enum EditOutcome {
    Applied {
        version: i32,
    },
    /// Stored until the versions before it arrive.
    Waiting,
    /// An old or repeated version, or an unknown document: ignored.
    Ignored,
}

#[derive(Default)]
pub struct Documents {
    docs: DashMap<Uri, Document>,
}

impl Documents {
    pub fn open(&self, uri: Uri, text: &str, version: i32) {
        self.docs.insert(uri, Document { rope: Rope::from_str(text), version, pending: BTreeMap::new() });
    }

    pub fn close(&self, uri: &Uri) -> bool {
        self.docs.remove(uri).is_some()
    }

    pub fn is_open(&self, uri: &Uri) -> bool {
        self.docs.contains_key(uri)
    }

    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.docs.get(uri).map(|d| d.version)
    }

    pub fn text(&self, uri: &Uri) -> Option<Arc<str>> {
        self.docs.get(uri).map(|d| text_of(&d.rope))
    }

    /// The document's text and version, read together, unless its version is `known` (the text is not built
    /// then: every request asks, and a generated document can be megabytes long).
    pub fn text_unless_version(&self, uri: &Uri, known: Option<i32>) -> Option<(Arc<str>, i32)> {
        let d = self.docs.get(uri)?;
        (Some(d.version) != known).then(|| (text_of(&d.rope), d.version))
    }

    /// Every open document's text (to lay over the disk contents after re-indexing).
    /// The open documents' URIs.
    pub fn uris(&self) -> Vec<Uri> {
        self.docs.iter().map(|d| d.key().clone()).collect()
    }

    pub fn all(&self) -> Vec<(Uri, Arc<str>, i32)> {
        self.docs.iter().map(|d| (d.key().clone(), text_of(&d.rope), d.version)).collect()
    }

    /// Applies the changes of `version` (and any waiting ones that follow it) in order.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: PositionEncoding,
    ) -> EditOutcome {
        let Some(mut doc) = self.docs.get_mut(uri) else { return EditOutcome::Ignored };
        if version <= doc.version || doc.pending.contains_key(&version) {
            return EditOutcome::Ignored;
        }
        doc.pending.insert(version, changes);
        let mut applied = false;
        let doc = &mut *doc;
        while let Some(entry) = doc.pending.first_entry() {
            if *entry.key() != doc.version + 1 {
                break;
            }
            let (v, changes) = entry.remove_entry();
            apply_all(&mut doc.rope, &changes, encoding);
            doc.version = v;
            applied = true;
        }
        if applied { EditOutcome::Applied { version: doc.version } } else { EditOutcome::Waiting }
    }

    /// Applies every waiting change in version order, for clients that skip version numbers.
    pub fn flush_pending(&self, uri: &Uri, encoding: PositionEncoding) -> EditOutcome {
        let Some(mut doc) = self.docs.get_mut(uri) else { return EditOutcome::Ignored };
        if doc.pending.is_empty() {
            return EditOutcome::Ignored;
        }
        let pending = std::mem::take(&mut doc.pending);
        for (v, changes) in pending {
            apply_all(&mut doc.rope, &changes, encoding);
            doc.version = v;
        }
        EditOutcome::Applied { version: doc.version }
    }
}

fn apply_all(rope: &mut Rope, changes: &[TextDocumentContentChangeEvent], encoding: PositionEncoding) {
    for change in changes {
        match change.range {
            Some(range) => apply_range(rope, range, &change.text, encoding),
            None => *rope = Rope::from_str(&change.text),
        }
    }
}

/// Replaces `range` with `text`. Out-of-range positions are clamped to the line or the document; an inverted
/// range is treated as empty at its start. It never panics and never splits a character.
pub fn apply_range(rope: &mut Rope, range: Range, text: &str, encoding: PositionEncoding) {
    let start = char_index(rope, range.start, encoding);
    let end = char_index(rope, range.end, encoding).max(start);
    rope.remove(start..end);
    rope.insert(start, text);
}

/// The char index of an LSP position, clamped: past the last line means the end of the document, past the end
/// of a line means the end of its content (before `\r\n` or `\n`), inside a UTF-16 surrogate pair means before it.
pub fn char_index(rope: &Rope, pos: Position, encoding: PositionEncoding) -> usize {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let line_start = rope.line_to_char(line);
    let slice = rope.line(line);
    let mut content_chars = slice.len_chars();
    if content_chars > 0 && slice.char(content_chars - 1) == '\n' {
        content_chars -= 1;
        if content_chars > 0 && slice.char(content_chars - 1) == '\r' {
            content_chars -= 1;
        }
    }
    let col = pos.character as usize;
    let mut units = 0usize;
    for (i, c) in slice.chars().take(content_chars).enumerate() {
        let w = match encoding {
            PositionEncoding::Utf8 => c.len_utf8(),
            PositionEncoding::Utf16 => c.len_utf16(),
        };
        if units + w > col {
            return line_start + i;
        }
        units += w;
    }
    line_start + content_chars
}

/// A rope's text, built in one allocation (`to_string` grows a string chunk by chunk through the formatter).
fn text_of(rope: &Rope) -> Arc<str> {
    let mut text = String::with_capacity(rope.len_bytes());
    rope.chunks().for_each(|chunk| text.push_str(chunk));
    Arc::from(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    fn edit(text: &str, range: Range, new: &str, enc: PositionEncoding) -> String {
        let mut rope = Rope::from_str(text);
        apply_range(&mut rope, range, new, enc);
        text_of(&rope).to_string()
    }

    #[test]
    fn astral_characters_and_crlf() {
        let text = "a = \"😀x\"\r\nb = 1\r\n";
        // UTF-16: 😀 is two units, so `x` starts at column 7.
        assert_eq!(
            edit(text, Range::new(pos(0, 7), pos(0, 8)), "y", PositionEncoding::Utf16),
            "a = \"😀y\"\r\nb = 1\r\n"
        );
        // UTF-8: 😀 is four bytes, so `x` starts at column 9.
        assert_eq!(
            edit(text, Range::new(pos(0, 9), pos(0, 10)), "y", PositionEncoding::Utf8),
            "a = \"😀y\"\r\nb = 1\r\n"
        );
        // Past the end of a CRLF line: before the `\r`.
        assert_eq!(
            edit(text, Range::new(pos(1, 99), pos(1, 99)), "0", PositionEncoding::Utf16),
            "a = \"😀x\"\r\nb = 10\r\n"
        );
    }

    #[test]
    fn hostile_positions_are_clamped() {
        let text = "ab\n😀\n";
        // Inside the surrogate pair: before the emoji.
        assert_eq!(edit(text, Range::new(pos(1, 1), pos(1, 1)), "z", PositionEncoding::Utf16), "ab\nz😀\n");
        // Past the end of the document.
        assert_eq!(edit(text, Range::new(pos(9, 0), pos(99, 9)), "z", PositionEncoding::Utf16), "ab\n😀\nz");
        // Inverted range: an insertion at the start.
        assert_eq!(edit(text, Range::new(pos(0, 2), pos(0, 0)), "z", PositionEncoding::Utf16), "abz\n😀\n");
        // u32::MAX everywhere.
        let max = pos(u32::MAX, u32::MAX);
        assert_eq!(edit(text, Range::new(max, max), "!", PositionEncoding::Utf8), "ab\n😀\n!");
    }

    #[test]
    fn out_of_order_versions_are_applied_in_order() {
        let docs = Documents::default();
        let uri: Uri = "file:///ws/main.tf".parse().unwrap();
        docs.open(uri.clone(), "", 0);
        let change = |text: &str| {
            vec![TextDocumentContentChangeEvent {
                range: Some(Range::new(pos(0, 99), pos(0, 99))),
                range_length: None,
                text: text.into(),
            }]
        };
        assert!(matches!(docs.change(&uri, 2, change("b"), PositionEncoding::Utf16), EditOutcome::Waiting));
        assert!(matches!(docs.change(&uri, 1, change("a"), PositionEncoding::Utf16), EditOutcome::Applied { .. }));
        assert!(matches!(docs.change(&uri, 1, change("x"), PositionEncoding::Utf16), EditOutcome::Ignored));
        assert_eq!(docs.text(&uri).unwrap().as_ref(), "ab");
        assert!(matches!(docs.change(&uri, 5, change("c"), PositionEncoding::Utf16), EditOutcome::Waiting));
        assert!(matches!(docs.flush_pending(&uri, PositionEncoding::Utf16), EditOutcome::Applied { version: 5, .. }));
        assert_eq!(docs.text(&uri).unwrap().as_ref(), "abc");
    }

    #[test]
    fn the_text_is_built_only_for_a_version_the_caller_does_not_have() {
        let docs = Documents::default();
        let uri: Uri = "file:///ws/main.tf".parse().unwrap();
        // Longer than one rope chunk, with a multi-byte character on a chunk boundary somewhere.
        let text = "a = \"é\"\n".repeat(2_000);
        docs.open(uri.clone(), &text, 3);
        let (got, version) = docs.text_unless_version(&uri, None).unwrap();
        assert_eq!((got.as_ref(), version), (text.as_str(), 3));
        assert_eq!(docs.text_unless_version(&uri, Some(2)).map(|(_, v)| v), Some(3));
        assert!(docs.text_unless_version(&uri, Some(3)).is_none(), "the caller has version 3");
    }
}
