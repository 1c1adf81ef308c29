//! Where a provider instance key came from, for hovers: the map entry or list element that writes it (in the
//! `for_each`, a local, a variable's default or a `.tfvars` line), as `file:line`. The tracing is `fixes::key_source`'s,
//! in the scope of one module instance (a `.tfvars` value only reaches a root module).

use foreach_syntax::ColumnEncoding;

use crate::base::FileId;
use crate::db::{Db, ModuleDir, Workspace, module};
use crate::fixes::key_source::{LiteralKind, ScopeLookup, literal_collection};
use crate::module_eval::scope_for_node;
use crate::paths::relative_path;
use crate::tree::{NodeId, module_tree};

use super::{line_index, source_file};

/// `"a"` → "`main.tf:3` (an element of the set)" for each key of `keys` whose origin is found, in the first
/// instance of `dir` that has one.
pub(crate) fn key_origins(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    block: usize,
    keys: &[&str],
) -> Vec<(String, String)> {
    let m = module(db, dir);
    let Some(fe) = m.providers.get(block).and_then(|p| p.for_each.as_ref()) else { return Vec::new() };
    let tree = module_tree(db, ws);
    let Some(index) = tree.nodes.iter().position(|n| n.dir == dir) else { return Vec::new() };
    let (scope, _) = scope_for_node(db, ws, NodeId(index as u32));
    let file_text = |id: FileId| source_file(db, ws, id).map(|f| (f.text(db).clone(), f.kind(db)));
    let lookup = ScopeLookup { module: &m, scope: &scope, file_text: &file_text };
    let Some(c) = literal_collection(fe.file, &fe.expr, &lookup) else { return Vec::new() };
    let Some(file) = source_file(db, ws, c.file) else { return Vec::new() };
    let index = line_index(db, file);
    // Relative to the module: `main.tf`, `prod.tfvars`, `../env/prod.tfvars`.
    let shown = relative_path(file.path(db), dir.path(db));
    let what = match c.kind {
        LiteralKind::Object => "the map entry",
        LiteralKind::Tuple => "an element of the list",
    };
    keys.iter()
        .filter_map(|k| {
            let e = c.entry(k)?;
            let line = index.line_col(e.range.start(), ColumnEncoding::Utf8).line + 1;
            Some((k.to_string(), format!("{what} at `{shown}:{line}`")))
        })
        .collect()
}
