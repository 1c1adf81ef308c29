//! Gathering many per-item results (one per directory, root or module instance) in chunks, each chunk a query of
//! its own.
//!
//! A query that reads thousands of memos is visited edge by edge whenever salsa verifies or re-runs it: after a
//! keystroke in a repository of many root modules, that was thousands of lookups per gathering on every keystroke
//! (15% of an edit on the dev corpus). Through chunks, the gathering reads a few dozen chunk memos; the chunk that
//! holds the edited item re-runs, and the others are confirmed in one step each, because nothing they read has
//! changed since their durability was recorded.

use std::ops::Range;

/// Items per chunk: small enough that re-running a chunk is cheap, large enough that a workspace of 5,000 roots
/// has under a hundred chunks.
pub const CHUNK: usize = 64;

/// The chunks covering `len` items: `0..ceil(len / CHUNK)`.
pub fn chunks(len: usize) -> impl Iterator<Item = u32> {
    (0..len.div_ceil(CHUNK)).map(|c| c as u32)
}

/// The items of `chunk`, clipped to `len` (empty past the end, where the items shrank since the chunk was asked).
pub fn items(chunk: u32, len: usize) -> Range<usize> {
    let start = (chunk as usize * CHUNK).min(len);
    start..(start + CHUNK).min(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item is in exactly one chunk, in order, whatever the length.
    #[test]
    fn chunks_cover_every_item_once() {
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK + 7] {
            let covered: Vec<usize> = chunks(len).flat_map(|c| items(c, len)).collect();
            assert_eq!(covered, (0..len).collect::<Vec<_>>(), "len {len}");
        }
        assert!(items(3, 10).is_empty(), "a chunk past the end is empty");
    }
}
