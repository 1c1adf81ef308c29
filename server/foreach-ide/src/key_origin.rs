//! Where a provider instance key came from: the map entry or list element that writes it (in the `for_each`, a
//! local, a variable's default or a `.tfvars` line). Hovers show it as `file:line`; go to definition jumps to it.
//! The tracing is `fixes::key_source`'s, in the scope of one module instance (a `.tfvars` value only reaches a root
//! module).

use foreach_syntax::{ColumnEncoding, TextRange};

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, ModuleDir, Workspace, module};
use foreach_analysis::fixes::key_source::{LiteralKind, ScopeLookup, literal_collection};
use foreach_analysis::module_eval::scope_for_node;
use foreach_analysis::paths::relative_path;
use foreach_analysis::tree::module_tree;

use super::{line_index, source_file};

/// The literal element or map entry that writes one key.
pub(crate) struct KeyOrigin {
    pub key: String,
    pub file: FileId,
    /// The element, or the whole `key = value` item.
    pub range: TextRange,
    pub kind: LiteralKind,
}

/// The written origin of each key of `keys` that has one, traced from provider block `block` of `dir` in the first
/// instance of `dir` in the module tree. Keys computed by `for`, `merge(…)` or given on the command line have none.
pub(crate) fn key_origin_sites(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    block: usize,
    keys: &[&str],
) -> Vec<KeyOrigin> {
    let m = module(db, dir);
    let Some(fe) = m.providers.get(block).and_then(|p| p.for_each.as_ref()) else { return Vec::new() };
    let tree = module_tree(db, ws);
    let Some(node) = tree.nodes.iter().find(|n| n.dir == dir) else { return Vec::new() };
    let (scope, _) = scope_for_node(db, ws, node);
    let file_text = |id: FileId| source_file(db, ws, id).map(|f| (f.text(db), f.kind(db)));
    let lookup = ScopeLookup { module: &m, scope: &scope, file_text: &file_text };
    let Some(c) = literal_collection(fe.file, &fe.expr(), &lookup) else { return Vec::new() };
    keys.iter()
        .filter_map(|k| {
            let e = c.entry(k)?;
            Some(KeyOrigin { key: k.to_string(), file: c.file, range: e.range, kind: c.kind })
        })
        .collect()
}

/// `"a"` → "an element of the list at `main.tf:3`" for each key of `keys` whose origin is found.
pub(crate) fn key_origins(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    block: usize,
    keys: &[&str],
) -> Vec<(String, String)> {
    key_origin_sites(db, ws, dir, block, keys)
        .into_iter()
        .filter_map(|o| {
            let file = source_file(db, ws, o.file)?;
            let index = line_index(db, file);
            // Relative to the module: `main.tf`, `prod.tfvars`, `../env/prod.tfvars`.
            let shown = relative_path(file.path(db), dir.path(db));
            let what = match o.kind {
                LiteralKind::Object => "the map entry",
                LiteralKind::Tuple => "an element of the list",
            };
            let line = index.line_col(o.range.start(), ColumnEncoding::Utf8).line + 1;
            Some((o.key, format!("{what} at `{shown}:{line}`")))
        })
        .collect()
}
