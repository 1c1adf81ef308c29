//! How a packed expression (`packed.rs`) writes the ranges of its tree: each as its start relative to the previous
//! range's start, and its length.
//!
//! Absolute offsets cost three bytes each in a file over 16 KB (postcard's varints), and a tree has a range at
//! every node and name; relative ones mostly one. They also repeat where the text repeats (one object shape after
//! another), which LZ4 then finds: on the dev corpus the packed expressions took 1.5 MB less this way. Making the
//! ranges relative in the tree itself would mean copying it before packing, which made packing twice as slow; so
//! the AST's serde derive (which only packing uses) writes its ranges through this module, and the start of the
//! previous range is kept per thread while one expression is packed or unpacked ([`reset`] starts one).

use std::cell::Cell;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};
use text_size::{TextRange, TextSize};

thread_local! {
    static PREVIOUS_START: Cell<u32> = const { Cell::new(0) };
}

/// Starts packing or unpacking an expression: its first range is written relative to 0.
pub(crate) fn reset() {
    PREVIOUS_START.set(0);
}

pub(crate) fn serialize<S: Serializer>(range: &TextRange, serializer: S) -> Result<S::Ok, S::Error> {
    let start = u32::from(range.start());
    let delta = i64::from(start) - i64::from(PREVIOUS_START.replace(start));
    (delta, u32::from(range.len())).serialize(serializer)
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TextRange, D::Error> {
    let (delta, len) = <(i64, u32)>::deserialize(deserializer)?;
    let start = i64::from(PREVIOUS_START.get())
        .checked_add(delta)
        .and_then(|s| u32::try_from(s).ok())
        .ok_or_else(|| D::Error::custom("a packed range starts outside any text"))?;
    PREVIOUS_START.set(start);
    let end = start.checked_add(len).ok_or_else(|| D::Error::custom("a packed range ends outside any text"))?;
    Ok(TextRange::new(TextSize::from(start), TextSize::from(end)))
}
