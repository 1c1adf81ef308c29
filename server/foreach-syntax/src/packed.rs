//! Expressions kept packed: an expression that a summary keeps for a whole session, as a few compact bytes instead
//! of a tree of nodes, unpacked exactly (ranges included) when it is read.
//!
//! A tree spends 40–80 bytes a node plus an allocation per list and long string; the packed form (postcard's
//! varint encoding of the same tree, LZ4 on top when it is long) about a fifth of that. On the dev corpus the
//! locals, module arguments and variable types of 64 bytes or more (generated quota tables, per-environment
//! configuration objects) were 20 MB of trees held only to be evaluated about once per module instance, and pack
//! into 4 MB (packing the smaller ones too took 1.5 MB more). The tree's ranges are written relative to each
//! other (`packed_range.rs`). Which expressions to pack is the analysis's choice (`Items::pack_expressions`):
//! unpacking allocates the whole tree every time it is read.

use text_size::TextRange;

use crate::ast::{Expr, ExprKind};

/// The first byte of a packed expression: how the rest is stored.
const PLAIN: u8 = 0;
const LZ4: u8 = 1;

/// The encoded length from which the encoding is compressed.
const COMPRESS_FROM: usize = 128;

/// An expression packed into bytes. Equal packed expressions are equal trees: the encoding is deterministic.
///
/// Only the bytes: whoever keeps one keeps the expression's range beside it if it needs it without unpacking (an
/// argument does), and hands it back to [`PackedExpr::unpack`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedExpr {
    bytes: Box<[u8]>,
}

impl PackedExpr {
    /// Packs `expr`. `None` if it cannot be encoded, which only a bug in the encoding could cause: the caller then
    /// keeps the tree.
    pub fn pack(expr: &Expr) -> Option<PackedExpr> {
        // Ranges are written relative to each other (`packed_range.rs`).
        crate::packed_range::reset();
        let bytes = postcard::to_extend(expr, vec![PLAIN]).ok()?;
        // The encoding repeats itself (names written as a key and in a reference, one object shape after another),
        // so LZ4 takes a large expression to about half; a small one it would only grow.
        let bytes = if bytes.len() >= COMPRESS_FROM {
            let mut compressed = vec![LZ4];
            compressed.extend(lz4_flex::compress_prepend_size(&bytes[1..]));
            compressed
        } else {
            bytes
        };
        Some(PackedExpr { bytes: bytes.into_boxed_slice() })
    }

    /// The expression, as it was packed; `range` is the packed expression's own (where an invalid expression stands
    /// if the bytes do not unpack, which only a bug could cause).
    pub fn unpack(&self, range: TextRange) -> Expr {
        let decompressed;
        let bytes = match self.bytes.split_first() {
            Some((&LZ4, rest)) => {
                decompressed = lz4_flex::decompress_size_prepended(rest).unwrap_or_default();
                &decompressed[..]
            }
            Some((_, rest)) => rest,
            None => &[],
        };
        crate::packed_range::reset();
        match postcard::from_bytes::<Expr>(bytes) {
            Ok(expr) => expr,
            // The bytes come from `pack`, so this is unreachable short of a bug; an invalid expression at the right
            // place evaluates as unknown and reports nothing, where a panic would end the whole run. Unpacking
            // recurses once per level like every walk of the tree, within the parser's nesting bound.
            Err(_) => {
                debug_assert!(false, "a packed expression did not unpack");
                Expr { kind: ExprKind::Invalid, range }
            }
        }
    }
}
