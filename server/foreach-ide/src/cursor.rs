//! What is under the cursor: the reference (`var.x`, `local.y`, `each.key`) and the top-level block around it.
//!
//! It reads the file's full tree (the memoised, LRU-bounded `parse`), never the summaries, because IDE features
//! need every expression with its range.

use foreach_syntax::TextSize;
use foreach_syntax::ast::{Attribute, Block, Body};

use foreach_analysis::model::refs::{Reference, references};

use super::touches;

/// A reference under the cursor.
pub(crate) struct RefAt {
    pub reference: Reference,
}

/// The innermost top-level block containing `offset`.
pub(crate) fn block_at(body: &Body, offset: TextSize) -> Option<&Block> {
    body.blocks().find(|b| touches(b.range, offset))
}

pub(crate) fn reference_at(body: &Body, offset: TextSize) -> Option<RefAt> {
    in_body(body, offset).map(|reference| RefAt { reference })
}

fn in_body(body: &Body, offset: TextSize) -> Option<Reference> {
    if let Some(r) = body.attributes().find_map(|a| in_attribute(a, offset)) {
        return Some(r);
    }
    body.blocks().filter(|b| touches(b.range, offset)).find_map(|b| in_body(&b.body, offset))
}

fn in_attribute(a: &Attribute, offset: TextSize) -> Option<Reference> {
    if !touches(a.value.range, offset) {
        return None;
    }
    // The innermost: `module.m[each.key].out` covers the `each.key` in its key.
    references(&a.value, &[]).into_iter().filter(|r| touches(r.range, offset)).min_by_key(|r| r.range.len())
}
