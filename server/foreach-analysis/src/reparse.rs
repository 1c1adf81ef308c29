//! Parsing a file that is being edited, reusing its unchanged top-level items (`foreach_syntax::parse_reusing`).
//!
//! salsa re-runs `parse` and `file_summary` from the new text with no access to their previous results, so the
//! items of the last parse of each edited file wait here, outside salsa. That is sound because reuse is invisible:
//! the result is exactly a fresh parse of the same text (the syntax crate's tests compare them on every fixture
//! and the dev corpus). Only files the host has changed after loading (an editor's open documents) take this
//! path, so a `check` run keeps no extra trees, and at most [`CAPACITY`] files keep their items.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use foreach_syntax::{FileKind, ItemCache, Parse, parse_reusing};

use crate::base::FileId;

/// How many edited files keep the items of their last parse.
const CAPACITY: usize = 8;

#[derive(Debug, Default)]
pub struct ReparseStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Files whose text changed after they were first loaded.
    edited: HashSet<FileId>,
    /// The last parse's items of recently parsed edited files, most recent last.
    caches: VecDeque<(FileId, ItemCache)>,
}

impl ReparseStore {
    /// Marks a file as being edited: its next parses reuse what they can.
    pub fn mark_edited(&self, file: FileId) {
        self.lock().edited.insert(file);
    }

    /// Parses `text`, the text of `file`, reusing the items of its last parse when the file is being edited (the
    /// same text again, as `parse` and `file_summary` both ask after an edit, is the same tree).
    pub fn parse(&self, file: FileId, text: &Arc<str>, kind: FileKind) -> Arc<Parse> {
        let previous = {
            let mut inner = self.lock();
            if !inner.edited.contains(&file) || kind.is_json() {
                drop(inner);
                return Arc::new(foreach_syntax::parse(text, kind));
            }
            let at = inner.caches.iter().position(|(f, _)| *f == file);
            at.and_then(|i| inner.caches.remove(i)).map(|(_, c)| c)
        };
        // Parsed without the lock: another thread parsing the same file meanwhile finds no cache and parses it all.
        let (parse, cache) = parse_reusing(text, kind, previous.as_ref());
        // A text that went the ordinary way gives no cache: keep the last one, whose items the next text may reuse
        // (a text with syntax errors keeps its items that parse, `reuse.rs`).
        if let Some(cache) = cache.or(previous) {
            let mut inner = self.lock();
            inner.caches.retain(|(f, _)| *f != file);
            Self::keep(&mut inner, file, cache);
        }
        parse
    }

    /// Readies `file` for editing (an editor opened it): marks it edited and makes sure it keeps the items of a
    /// parse of `text` with a spare tree ([`ItemCache::ensure_spare`]), so that its first keystrokes edit a tree in
    /// place as later ones do, instead of parsing the whole file or copying the edited item. A file whose items are
    /// of another (newer) text is left as it is.
    pub fn prepare(&self, file: FileId, text: &Arc<str>, kind: FileKind) {
        if kind.is_json() {
            return;
        }
        let existing = {
            let mut inner = self.lock();
            inner.edited.insert(file);
            inner.caches.iter().find(|(f, _)| *f == file).map(|(_, c)| c.clone())
        };
        if let Some(cache) = existing {
            // The clone shares its spare with the kept cache.
            if **cache.text() == **text {
                cache.ensure_spare();
            }
            return;
        }
        // Parsed without the lock, like `parse`; an edit parsed meanwhile keeps its newer items.
        let (_, cache) = parse_reusing(text, kind, None);
        let Some(cache) = cache else { return };
        cache.ensure_spare();
        let mut inner = self.lock();
        if !inner.caches.iter().any(|(f, _)| *f == file) {
            Self::keep(&mut inner, file, cache);
        }
    }

    fn keep(inner: &mut Inner, file: FileId, cache: ItemCache) {
        if inner.caches.len() >= CAPACITY {
            inner.caches.pop_front();
        }
        inner.caches.push_back((file, cache));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cached(store: &ReparseStore) -> Vec<FileId> {
        store.lock().caches.iter().map(|(f, _)| *f).collect()
    }

    #[test]
    fn only_edited_files_keep_items_and_a_broken_text_keeps_the_last_good_ones() {
        let store = ReparseStore::default();
        let text: Arc<str> = Arc::from("locals {\n  a = 1\n}\nlocals {\n  b = 2\n}\n");
        let fresh = foreach_syntax::parse(&text, FileKind::Tf);
        assert_eq!(*store.parse(FileId(1), &text, FileKind::Tf), fresh);
        assert!(cached(&store).is_empty(), "a file only loaded keeps nothing");
        store.mark_edited(FileId(1));
        let first = store.parse(FileId(1), &text, FileKind::Tf);
        assert_eq!(*first, fresh);
        assert_eq!(cached(&store), [FileId(1)]);
        let again = store.parse(FileId(1), &Arc::from(&*text), FileKind::Tf);
        assert!(Arc::ptr_eq(&first, &again), "the same text again is the same tree");
        let broken: Arc<str> = Arc::from("locals {\n  a = 1\n}\nlocals {\n  b = \n}\n");
        assert_eq!(*store.parse(FileId(1), &broken, FileKind::Tf), foreach_syntax::parse(&broken, FileKind::Tf));
        assert_eq!(cached(&store), [FileId(1)], "the last good items stay");
        for i in 2..=(CAPACITY as u32 + 2) {
            store.mark_edited(FileId(i));
            store.parse(FileId(i), &text, FileKind::Tf);
        }
        assert_eq!(cached(&store).len(), CAPACITY);
        assert!(!cached(&store).contains(&FileId(1)), "the least recently parsed file is dropped");
    }

    #[test]
    fn a_prepared_file_keeps_items_before_its_first_edit_and_parses_as_fresh() {
        let store = ReparseStore::default();
        let text: Arc<str> = Arc::from("locals {\n  a = { x = 1, y = 2 }\n}\n");
        store.prepare(FileId(3), &text, FileKind::Tf);
        assert_eq!(cached(&store), [FileId(3)], "the opened file keeps its items before any edit");
        let edited: Arc<str> = Arc::from("locals {\n  a = { x = 12, y = 2 }\n}\n");
        assert_eq!(*store.parse(FileId(3), &edited, FileKind::Tf), foreach_syntax::parse(&edited, FileKind::Tf));
        store.prepare(FileId(3), &text, FileKind::Tf);
        let again: Arc<str> = Arc::from("locals {\n  a = { x = 123, y = 2 }\n}\n");
        assert_eq!(
            *store.parse(FileId(3), &again, FileKind::Tf),
            foreach_syntax::parse(&again, FileKind::Tf),
            "preparing again keeps the newer items"
        );
        store.prepare(FileId(4), &Arc::from("{}"), FileKind::TfJson);
        assert_eq!(cached(&store), [FileId(3)], "JSON files are parsed whole");
    }
}
