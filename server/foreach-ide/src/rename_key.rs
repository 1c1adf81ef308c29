//! Renaming a provider instance key written literally: the map entry or set element that writes it (traced by
//! `key_origin.rs`, possibly into a local, a variable default or a `.tfvars` file) and every literal reference
//! (`aws.by_region["us"]`). Refused when the key is computed (by a function, a `for`, `-var`), when some reference
//! selects keys by expression (`[each.key]`: which instance it selects would change silently), and when the key is
//! written in a JSON file or traced through a module with several instances.

use foreach_syntax::{TextRange, TextSize};

use foreach_analysis::base::FileRange;
use foreach_analysis::db::{Db, Workspace, module};
use foreach_analysis::fixes::key_source::LiteralKind;
use foreach_analysis::providers::config::{ConfigTarget, module_references, resolve_config};
use foreach_analysis::tree::module_tree;

use super::key_origin::key_origin_sites;
use super::{FilePosition, dir_of, source_file, touches};

/// `None` when the cursor is not on a literal instance key; else the spans of the key, or why not.
pub(crate) fn key_sites(
    db: &dyn Db,
    ws: Workspace,
    pos: FilePosition,
) -> Option<Result<(FileRange, Vec<FileRange>), String>> {
    let file = source_file(db, ws, pos.file)?;
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let (refs, _) = module_references(&m);
    let here = refs.iter().find(|r| {
        r.reference.file == pos.file && r.reference.key.as_ref().is_some_and(|k| touches(k.range, pos.offset))
    })?;
    let key_expr = here.reference.key.as_ref()?;
    // A key written as an expression (`[local.k]`, `[each.key]`): what it names (a local) may be renamed instead.
    let key = key_expr.as_string_literal()?;
    let what = format!("instance key \"{key}\"");
    let ConfigTarget::Block(b) = resolve_config(&m, &here.reference.name, here.reference.alias_name()) else {
        return Some(Err(format!("cannot rename {what}: its provider configuration is not declared here")));
    };
    let text_of = |r: FileRange| {
        source_file(db, ws, r.file)
            .and_then(|f| f.text(db).get(std::ops::Range::<usize>::from(r.range)).map(str::to_string))
    };
    // Checked first: the quotes make the range at least two bytes long.
    let quoted_inner = |r: FileRange| {
        (text_of(r) == Some(format!("\"{key}\""))).then(|| {
            FileRange::new(
                r.file,
                TextRange::new(r.range.start() + TextSize::from(1), r.range.end() - TextSize::from(1)),
            )
        })
    };
    let at = quoted_inner(FileRange::new(here.reference.file, key_expr.range))?;
    let mut sites = Vec::new();
    for r in refs.iter().filter(
        |r| matches!(resolve_config(&m, &r.reference.name, r.reference.alias_name()), ConfigTarget::Block(x) if x == b),
    ) {
        let Some(k) = r.reference.key.as_ref() else { continue };
        match k.as_string_literal() {
            Some(s) if s == key => match quoted_inner(FileRange::new(r.reference.file, k.range)) {
                Some(span) => sites.push(span),
                None => return Some(Err(format!("cannot rename {what}: a reference to it is not written plainly"))),
            },
            Some(_) => {}
            None => {
                return Some(Err(format!(
                    "cannot rename {what}: `{}` selects keys by expression, and which instance it selects would change",
                    text_of(FileRange::new(r.reference.file, r.reference.range)).unwrap_or_default()
                )));
            }
        }
    }
    let origins = key_origin_sites(db, ws, dir, b, &[key.as_str()]);
    let Some(origin) = origins.first() else {
        return Some(Err(format!(
            "cannot rename {what}: it is computed (by a function, a `for` expression or a command-line value), not written in one place"
        )));
    };
    let origin_file = source_file(db, ws, origin.file)?;
    if origin_file.file_name(db).ends_with(".json") {
        return Some(Err(format!("cannot rename {what}: it is written in the JSON file {}", origin_file.path(db))));
    }
    let instances = module_tree(db, ws).nodes.iter().filter(|n| n.dir == dir).count();
    if instances > 1 && !dir.files(db).contains(&origin_file) {
        return Some(Err(format!(
            "cannot rename {what}: its module has several instances, which may write it differently"
        )));
    }
    let written = text_of(FileRange::new(origin.file, origin.range)).unwrap_or_default();
    let start = origin.range.start();
    let span = match origin.kind {
        LiteralKind::Tuple if written == format!("\"{key}\"") => {
            TextRange::new(start + TextSize::from(1), origin.range.end() - TextSize::from(1))
        }
        LiteralKind::Object if written.starts_with(&format!("\"{key}\"")) => {
            TextRange::at(start + TextSize::from(1), TextSize::from(key.len() as u32))
        }
        LiteralKind::Object if written.starts_with(&key) => TextRange::at(start, TextSize::from(key.len() as u32)),
        _ => return Some(Err(format!("cannot rename {what}: where it is written is not a plain string"))),
    };
    sites.push(FileRange::new(origin.file, span));
    sites.sort_by_key(|l| (l.file, l.range.start()));
    sites.dedup();
    Some(Ok((at, sites)))
}
