//! Where the module tree's findings are in the current text.
//!
//! The tree reads each directory's calls through `ModuleDir::tree_calls`, which the host leaves alone when an edit
//! changed nothing the tree reads of them (names, literal `source` and `version`: `call_shape` in `host.rs`): a
//! keystroke above a `module` block or in a call's arguments then changes nothing the tree reads, and salsa need
//! not walk the memos of every module instance below it. The ranges inside those calls are then those of an
//! earlier text; this query moves each finding by as much as the part of its call that held it moved since. The
//! host sets the calls again whenever a `source` or `version` is not a literal, since evaluating it reads the
//! module as it is now (its findings may point at locals in the current text), so only findings inside a call's
//! own block are ever moved.

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

/// `at`, moved by as much as the part of its call that held it (the `source`, the `version`, the name, else the
/// block) has moved since the tree last read the calls.
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
    let arg_range = |a: &crate::model::items::OptArg| a.as_ref().map(|a| a.range());
    let pieces = [
        (arg_range(&then.source), arg_range(&now.source)),
        (arg_range(&then.version), arg_range(&now.version)),
        (Some(then.site.name_range), Some(now.site.name_range)),
    ];
    let (from, to) = pieces
        .into_iter()
        .find_map(|(then, now)| then.filter(|r| r.contains_range(at.range)).zip(now))
        .unwrap_or((then.site.range, now.site.range));
    let delta = i64::from(u32::from(to.start())) - i64::from(u32::from(from.start()));
    let shift = |offset: TextSize| TextSize::from((i64::from(u32::from(offset)) + delta).max(0) as u32);
    FileRange::new(at.file, TextRange::new(shift(at.range.start()), shift(at.range.end())))
}

fn dir_of(db: &dyn Db, ws: Workspace, at: FileRange) -> Option<ModuleDir> {
    let file = file_index(db, ws).get(&at.file).copied()?;
    dir_index(db, ws).get(parent(file.path(db))).copied()
}
