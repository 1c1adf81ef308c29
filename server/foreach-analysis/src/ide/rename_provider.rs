//! Renaming a provider configuration's alias: the `alias = "…"` of its block and every reference to it in the
//! module (`provider = aws.by_region[…]`, `providers` map values). An alias declared by `configuration_aliases`
//! (given by callers) and one that test files name are refused for now: rename does not edit callers' `providers`
//! keys or test files yet, and a partial rename would break the configuration.

use crate::base::FileRange;
use crate::db::{Db, Workspace, module};
use crate::providers::config::{ConfigTarget, module_references, resolve_config};

use super::references::config_at;
use super::{FilePosition, dir_of, source_file};

/// `None` when the cursor is on no aliased provider configuration; else the spans of the alias, or why not.
pub(crate) fn alias_sites(
    db: &dyn Db,
    ws: Workspace,
    pos: FilePosition,
) -> Option<Result<(FileRange, Vec<FileRange>), String>> {
    let file = source_file(db, ws, pos.file)?;
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let (name, alias) = config_at(&m, pos)?;
    let alias = alias?;
    let what = format!("provider configuration `{name}.{alias}`");
    let ConfigTarget::Block(b) = resolve_config(&m, &name, Some(&alias)) else {
        return Some(Err(format!(
            "cannot rename {what}: it is not declared by a `provider` block here (a `configuration_aliases` entry is \
             named by the callers' `providers` maps, which rename does not edit yet)"
        )));
    };
    let text_of = |r: FileRange| {
        source_file(db, ws, r.file)
            .and_then(|f| f.text(db).get(std::ops::Range::<usize>::from(r.range)).map(str::to_string))
    };
    let mut sites = Vec::new();
    let block = &m.providers[b];
    let decl = block.alias.as_ref()?;
    let decl_range = FileRange::new(decl.file, decl.expr.range);
    if text_of(decl_range).as_deref() != Some(&format!("\"{alias}\"")) {
        return Some(Err(format!("cannot rename {what}: its `alias` is not a plain string")));
    }
    // The string literal without its quotes (checked above: at least two bytes).
    let inner = FileRange::new(
        decl.file,
        foreach_syntax::TextRange::new(
            decl.expr.range.start() + foreach_syntax::TextSize::from(1),
            decl.expr.range.end() - foreach_syntax::TextSize::from(1),
        ),
    );
    sites.push(inner);
    let (refs, _) = module_references(&m);
    for r in refs.iter().filter(|r| r.reference.name == name && r.reference.alias_name() == Some(alias.as_str())) {
        let Some((_, range)) = r.reference.alias.as_ref() else { continue };
        let mut at = FileRange::new(r.reference.file, *range);
        match text_of(at).as_deref() {
            Some(t) if t == alias => {}
            Some(t) if t == format!(".{alias}") => {
                at = FileRange::new(
                    at.file,
                    foreach_syntax::TextRange::new(range.start() + foreach_syntax::TextSize::from(1), range.end()),
                );
            }
            _ => return Some(Err(format!("cannot rename {what}: a reference to it is not written plainly"))),
        }
        sites.push(at);
    }
    let written = format!("{name}.{alias}");
    for f in dir.files(db).iter() {
        let n = f.file_name(db);
        let is_test = n.ends_with(".tftest.hcl") || n.ends_with(".tofutest.hcl") || n.ends_with(".json");
        if is_test && f.text(db).contains(&written) {
            return Some(Err(format!(
                "cannot rename {what}: {} names it, and rename does not edit that file",
                f.path(db)
            )));
        }
    }
    sites.sort_by_key(|l| (l.file, l.range.start()));
    sites.dedup();
    Some(Ok((inner, sites)))
}
