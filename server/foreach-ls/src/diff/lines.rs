//! Where a line of a file at the base revision is in the checked-out file: `--format github` annotates a block the
//! change deletes on the line where it used to be, since the base's own line numbers mean nothing in the checkout.
//!
//! The two texts are compared line by line (`similar`, Myers). A line kept is where it went; a line deleted goes
//! to the first current line after the deletion (a replaced one to the first line of what replaced it), clamped to
//! the file's last line.

use similar::{DiffOp, TextDiff};

/// The base lines of a file, matched with its current lines.
pub struct LineMap {
    /// The edit script, with each deletion slid as far down as it goes (below).
    ops: Vec<DiffOp>,
    /// How many lines the current text has.
    current_lines: usize,
}

impl LineMap {
    pub fn new(base: &str, current: &str) -> LineMap {
        let diff = TextDiff::from_lines(base, current);
        let old = diff.old_slices();
        let ops = slide_deletions(diff.ops().to_vec(), old);
        LineMap { ops, current_lines: diff.new_slices().len() }
    }

    /// The current line (1-based) for base line `line` (1-based).
    pub fn current_line(&self, line: u32) -> u32 {
        let b = (line as usize).saturating_sub(1);
        let mut at = self.current_lines;
        for op in &self.ops {
            let (tag, old, new) = op.as_tag_tuple();
            if !old.contains(&b) {
                continue;
            }
            at = match tag {
                similar::DiffTag::Equal => new.start + (b - old.start),
                _ => new.start,
            };
            break;
        }
        // The last line when the deletion ends the file (or the file is empty now: line 1).
        (at.min(self.current_lines.saturating_sub(1)) + 1) as u32
    }
}

/// A deletion between equal lines can often sit at several places: deleting `}`, ``, `resource "b" {` after a block
/// `a` is the same change as deleting `resource "b" {`, `}`, `` (block `b` and the blank line after it). The diff may
/// pick the first; the second names the block's own lines, so the line after it is the next block's, not `a`'s
/// closing brace. Like git, slide each deletion down while its first line equals the line after it.
fn slide_deletions(mut ops: Vec<DiffOp>, old: &[&str]) -> Vec<DiffOp> {
    let mut out: Vec<DiffOp> = Vec::with_capacity(ops.len() + 1);
    for i in 0..ops.len() {
        let op = ops[i];
        if let (DiffOp::Delete { old_index, old_len, new_index }, Some(DiffOp::Equal { len, .. })) =
            (op, ops.get(i + 1).copied())
        {
            let mut s = 0;
            while s < len && old[old_index + s] == old[old_index + old_len + s] {
                s += 1;
            }
            if s > 0 {
                // The lines slid over are equal lines before the deletion now, and as many of the equal lines after
                // it are deleted ones.
                match out.last_mut() {
                    Some(DiffOp::Equal { len: before, .. }) => *before += s,
                    _ => out.push(DiffOp::Equal { old_index, new_index, len: s }),
                }
                out.push(DiffOp::Delete { old_index: old_index + s, old_len, new_index: new_index + s });
                if let DiffOp::Equal { old_index, new_index, len } = &mut ops[i + 1] {
                    *old_index += s;
                    *new_index += s;
                    *len -= s;
                }
                continue;
            }
        }
        if !matches!(op, DiffOp::Equal { len: 0, .. }) {
            out.push(op);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::LineMap;

    const BASE: &str = "resource \"a\" \"x\" {\n}\n\nresource \"b\" \"x\" {\n}\n\nresource \"c\" \"x\" {\n}\n";

    #[test]
    fn a_block_deleted_from_the_middle_maps_to_the_next_block() {
        let current = "resource \"a\" \"x\" {\n}\n\nresource \"c\" \"x\" {\n}\n";
        let map = LineMap::new(BASE, current);
        assert_eq!(map.current_line(4), 4);
        assert_eq!(map.current_line(1), 1);
        assert_eq!(map.current_line(7), 4);
    }

    /// The diff deletes `}`, ``, `resource "b"`, `name` here (the closing brace of `a` first); slid down, the
    /// deletion is block `b`'s lines and the line after it is `c`'s, not `a`'s closing brace.
    #[test]
    fn a_deletion_that_could_start_at_the_block_above_is_slid_onto_the_deleted_block() {
        let base = "resource \"a\" \"x\" {\n  name = 1\n}\n\nresource \"b\" \"x\" {\n  name = 2\n}\n\nresource \"c\" \"x\" {\n}\n";
        let current = "# Storage.\n\nresource \"a\" \"x\" {\n  name = 1\n}\n\nresource \"c\" \"x\" {\n}\n";
        assert_eq!(LineMap::new(base, current).current_line(5), 7);
    }

    #[test]
    fn a_block_deleted_at_the_end_maps_to_the_last_line() {
        let current = "resource \"a\" \"x\" {\n}\n\nresource \"b\" \"x\" {\n}\n";
        let map = LineMap::new(BASE, current);
        assert_eq!(map.current_line(7), 5);
        assert_eq!(LineMap::new(BASE, "").current_line(4), 1);
    }

    #[test]
    fn lines_moved_by_an_insertion_above_follow_it() {
        let current = format!("locals {{\n}}\n\n{BASE}");
        assert_eq!(LineMap::new(BASE, &current).current_line(4), 7);
    }
}
