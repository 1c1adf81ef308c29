//! A file's text as the analysis holds it: as given, or compressed.
//!
//! A workspace's texts are read once, parsed and summarised, and then rarely read again: for suppression comments,
//! for quoting a line in a finding, for building a fix. Kept as they are, they were a fifth of `check`'s peak memory
//! on the dev corpus (20 MB of texts in 129 MB). Files read from disk are therefore kept compressed with LZ4 (about
//! a quarter of the size on configuration) and decompressed on each read; LZ4 because it decompresses at gigabytes
//! per second, so reading every text again costs milliseconds. The files an editor has open stay as they are: they
//! are read on every keystroke.
//!
//! `check` keeps no copy at all ([`SourceText::on_disk`]): it is over in a second, parses each file once and reads
//! a text again only where a file has suppression comments or a finding to quote, so it reads those files from
//! disk again. Its compressed texts were 7.5 MB of its 20 MB workspace's peak.

use std::sync::Arc;

/// The text of a file. Cloning is cheap (a reference count); [`SourceText::text`] gives the text itself.
#[derive(Clone, PartialEq, Eq)]
pub struct SourceText(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Plain(Arc<str>),
    /// An LZ4 block of a text of `len` bytes.
    Compressed {
        block: Arc<[u8]>,
        len: usize,
    },
    /// Only where the text is: the file at `path`, `len` bytes long when it was loaded.
    OnDisk {
        path: Arc<str>,
        len: usize,
    },
}

impl SourceText {
    /// The text kept as it is (an open document, a test's input).
    pub fn plain(text: Arc<str>) -> SourceText {
        SourceText(Repr::Plain(text))
    }

    /// The text kept compressed, unless compressing does not make it smaller.
    pub fn compressed(text: &str) -> SourceText {
        let block = lz4_flex::block::compress(text.as_bytes());
        if block.len() >= text.len() {
            return SourceText(Repr::Plain(Arc::from(text)));
        }
        SourceText(Repr::Compressed { block: Arc::from(block), len: text.len() })
    }

    /// The text of the file at `path`, `len` bytes long when it was read, kept as nothing but its path: reading it
    /// again reads the file. For a run that is over before its files change (`check`); a file that changes or
    /// disappears meanwhile reads as it is then, or as empty.
    pub fn on_disk(path: &str, len: usize) -> SourceText {
        SourceText(Repr::OnDisk { path: Arc::from(path), len })
    }

    /// The path a text kept on disk is read from.
    pub fn disk_path(&self) -> Option<&Arc<str>> {
        match &self.0 {
            Repr::OnDisk { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The text. For a compressed text this decompresses it into a new string, for one on disk it reads the file:
    /// callers read it once and let it go rather than hold it (holding every text is what this type avoids).
    pub fn text(&self) -> Arc<str> {
        match &self.0 {
            Repr::Plain(text) => text.clone(),
            Repr::Compressed { block, len } => {
                // The block was made here from a `str`, so it decompresses to exactly those bytes: a failure is a
                // bug, not bad input.
                let bytes = lz4_flex::block::decompress(block, *len).expect("a block this module compressed");
                Arc::from(String::from_utf8(bytes).expect("a block compressed from UTF-8 text"))
            }
            // The loader read this file a moment ago and found it readable UTF-8; if it has since been removed or
            // garbled, the analysis sees an empty file rather than stopping.
            Repr::OnDisk { path, .. } => Arc::from(std::fs::read_to_string(&**path).unwrap_or_default()),
        }
    }

    /// The text's length in bytes, without decompressing it.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Plain(text) => text.len(),
            Repr::Compressed { len, .. } | Repr::OnDisk { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the text is kept compressed (what the loader's tests check: the memory saving is its purpose).
    pub fn is_compressed(&self) -> bool {
        matches!(self.0, Repr::Compressed { .. })
    }

    /// Whether only the file's path is kept (see [`SourceText::on_disk`]).
    pub fn is_on_disk(&self) -> bool {
        matches!(self.0, Repr::OnDisk { .. })
    }

    /// Whether the text is kept as it was given: an editor's open document or a test's input, not a file read
    /// from disk.
    pub fn is_plain(&self) -> bool {
        matches!(self.0, Repr::Plain(_))
    }

    /// Whether this is `text`: compares the bytes, whichever way each is kept.
    pub fn is(&self, text: &SourceText) -> bool {
        self == text || (self.len() == text.len() && self.text() == text.text())
    }
}

impl From<Arc<str>> for SourceText {
    fn from(text: Arc<str>) -> SourceText {
        SourceText::plain(text)
    }
}

impl From<&str> for SourceText {
    fn from(text: &str) -> SourceText {
        SourceText::plain(Arc::from(text))
    }
}

impl From<String> for SourceText {
    fn from(text: String) -> SourceText {
        SourceText::plain(Arc::from(text))
    }
}

/// Shows the length and how the text is kept, not the text: debug output of the database would otherwise print
/// every file.
impl std::fmt::Debug for SourceText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Repr::Plain(text) => write!(f, "SourceText({} bytes)", text.len()),
            Repr::Compressed { block, len } => write!(f, "SourceText({len} bytes, compressed to {})", block.len()),
            Repr::OnDisk { path, len } => write!(f, "SourceText({len} bytes, on disk at {path})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"eu-west-1\", \"us-east-1\"])\n  region   = each.key\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  for_each = toset([\"eu-west-1\", \"us-east-1\"])\n  provider = aws.by_region[each.key]\n  bucket   = \"bucket-${each.key}\"\n}\n";

    #[test]
    fn a_compressed_text_reads_back_byte_for_byte_and_is_smaller() {
        let text = CONFIG.repeat(20) + "# é ✓ \u{1F600}\r\n";
        let kept = SourceText::compressed(&text);
        assert!(matches!(kept.0, Repr::Compressed { ref block, .. } if block.len() * 3 < text.len()), "{kept:?}");
        assert_eq!(kept.len(), text.len());
        assert_eq!(&*kept.text(), text.as_str());
    }

    #[test]
    fn a_text_that_does_not_shrink_is_kept_as_it_is() {
        for text in ["", "x", "ab"] {
            let kept = SourceText::compressed(text);
            assert!(matches!(kept.0, Repr::Plain(_)), "{text:?}: {kept:?}");
            assert_eq!(&*kept.text(), text);
        }
    }

    #[test]
    fn a_text_on_disk_keeps_only_its_path_and_reads_the_file_as_it_is() {
        let dir = std::env::temp_dir().join(format!("foreach-source-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("main.tf");
        std::fs::write(&path, CONFIG).unwrap();
        let kept = SourceText::on_disk(path.to_str().unwrap(), CONFIG.len());
        assert!(kept.is_on_disk() && !kept.is_plain() && !kept.is_compressed(), "{kept:?}");
        assert_eq!(kept.len(), CONFIG.len());
        assert_eq!(&*kept.text(), CONFIG);
        assert!(kept.is(&SourceText::from(CONFIG)));
        std::fs::write(&path, "changed").unwrap();
        assert_eq!(&*kept.text(), "changed", "read again, not remembered");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(&*kept.text(), "", "a file gone since it was loaded reads as empty");
    }

    #[test]
    fn the_same_text_is_the_same_however_it_is_kept() {
        let plain = SourceText::from(CONFIG);
        let compressed = SourceText::compressed(CONFIG);
        assert!(plain.is(&compressed) && compressed.is(&plain));
        let other = SourceText::compressed(&CONFIG.replace("us-east-1", "us-east-2"));
        assert!(!other.is(&compressed) && !plain.is(&other));
    }
}
