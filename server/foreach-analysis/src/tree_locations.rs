//! Where the module tree's findings are in the current text.
//!
//! The tree reads each directory's calls through `ModuleDir::tree_calls`, which the host leaves alone when an edit
//! only moved the `module` blocks (their text unchanged, so the tree would be the same): a keystroke above a
//! `module` block then changes nothing the tree reads, and salsa need not walk the memos of every module instance
//! below it (see `host.rs`). The ranges inside those calls are then those of an earlier text; this query moves
//! each finding by as much as its call moved since. The host sets the calls again whenever a call's `source` or
//! `version` is not a literal, since evaluating it reads the module as it is now (its findings may point at locals
//! in the current text), so only findings inside a call's own block are ever moved.

use std::sync::Arc;

use foreach_syntax::{TextRange, TextSize};

use crate::base::FileRange;
use crate::db::{Db, ModuleDir, Workspace, dir_index, file_index, module_calls};
use crate::diagnostics::Diagnostic;
use crate::paths::parent;
use crate::tree::module_tree;

/// The tree's diagnostics, at their places in the current text.
#[salsa::tracked(returns(clone))]
pub fn tree_diagnostics(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let tree = module_tree(db, ws);
    let relocate = |at: FileRange| relocated(db, ws, at);
    let out = tree
        .diagnostics
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.location = relocate(d.location);
            for r in &mut d.related {
                r.location = relocate(r.location);
            }
            for edit in d.fixes.iter_mut().flat_map(|f| f.edits.iter_mut()) {
                edit.location = relocate(edit.location);
            }
            d
        })
        .collect();
    Arc::new(out)
}

/// `at`, moved by as much as the call whose block held it when the tree last read the calls has moved since.
fn relocated(db: &dyn Db, ws: Workspace, at: FileRange) -> FileRange {
    let Some(dir) = dir_of(db, ws, at) else { return at };
    let read = dir.tree_calls(db);
    let current = module_calls(db, dir);
    if Arc::ptr_eq(read, &current) {
        return at;
    }
    let Some(then) = read.iter().find(|c| c.site.file == at.file && c.site.range.contains_range(at.range)) else {
        return at;
    };
    let Some(now) = current.iter().find(|c| c.name == then.name && c.site.file == at.file) else { return at };
    let delta = i64::from(u32::from(now.site.range.start())) - i64::from(u32::from(then.site.range.start()));
    let shift = |offset: TextSize| TextSize::from((i64::from(u32::from(offset)) + delta).max(0) as u32);
    FileRange::new(at.file, TextRange::new(shift(at.range.start()), shift(at.range.end())))
}

fn dir_of(db: &dyn Db, ws: Workspace, at: FileRange) -> Option<ModuleDir> {
    let file = file_index(db, ws).get(&at.file).copied()?;
    dir_index(db, ws).get(parent(file.path(db))).copied()
}
