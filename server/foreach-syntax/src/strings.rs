//! The strings of one parsed file, long ones shared.

use std::collections::HashSet;

use smol_str::SmolStr;

/// The longest string a `SmolStr` stores inline (without allocating).
const INLINE_LEN: usize = 23;

/// Hands out the names, labels and literals of one file as `SmolStr`s, allocating each string too long to be stored
/// inline once per file however often it is written: a generated module names each of its 6,000 variables in a
/// declaration, a reference and an object key, and summaries keep those names for the whole session.
#[derive(Default)]
pub(crate) struct LongStrings {
    seen: HashSet<SmolStr, rustc_hash::FxBuildHasher>,
}

impl LongStrings {
    /// `text` as a `SmolStr`, sharing the allocation of an equal long string handed out before.
    pub(crate) fn get(&mut self, text: &str) -> SmolStr {
        if text.len() <= INLINE_LEN {
            return SmolStr::new(text);
        }
        if let Some(shared) = self.seen.get(text) {
            return shared.clone();
        }
        let string = SmolStr::new(text);
        self.seen.insert(string.clone());
        string
    }
}
