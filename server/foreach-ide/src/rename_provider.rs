//! Renaming a provider configuration's alias, everywhere the configuration is named:
//! - where it is declared: the `alias = "…"` of its `provider` block, or its `configuration_aliases` entry
//!   (`aws.src` in `required_providers`), which the callers give a configuration;
//! - every reference in its module (`provider = aws.by_region[…]`, `providers` map values);
//! - for a `configuration_aliases` entry, the left side of the callers' `providers` maps that pass it
//!   (`providers = { aws.src = aws.x }`);
//! - the module's test files (`.tftest.hcl`, `.tofutest.hcl`, beside it or in its `tests/` directory): the
//!   `provider`/`mock_provider` blocks with that alias (a test file's configuration of the same address replaces
//!   the module's) and both sides of `providers` maps in `run` blocks and at the top.
//!
//! The rename can start from any of these places. What it cannot follow safely is refused: an alias that is not a
//! plain string, a reference not written plainly, a JSON file that names it, a test file that names it elsewhere
//! (or in a `run` block testing another module), a module installed under `.terraform`.

use foreach_syntax::ast::{Block, Body, ExprKind};
use foreach_syntax::{TextRange, TextSize};

use foreach_analysis::base::FileRange;
use foreach_analysis::db::{Db, ModuleDir, SourceFile, Workspace, module, parse};
use foreach_analysis::paths::parent;
use foreach_analysis::providers::config::{ConfigTarget, module_references, resolve_config};
use foreach_analysis::providers::test_files::module_under_test;

use super::calls::{callers, child_dirs};
use super::provider_links::{key_name, traversal_name};
use super::references::config_at;
use super::{FilePosition, dir_of, source_file, touches};

/// An alias rename: the span under the cursor, every span to replace, and the configuration (module and
/// provider name) so that the new name can be checked against the module's other configurations.
pub(crate) struct AliasRename {
    pub at: FileRange,
    pub sites: Vec<FileRange>,
    pub dir: ModuleDir,
    pub name: String,
    pub alias: String,
}

/// `None` when the cursor is on no aliased provider configuration; else the rename, or why not.
pub(crate) fn alias_sites(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<Result<AliasRename, String>> {
    let file = source_file(db, ws, pos.file)?;
    let here = dir_of(db, ws, file)?;
    let (dir, name, alias) = target_at(db, ws, here, file, pos)?;
    let what = format!("provider configuration `{name}.{alias}`");
    Some(collect(db, ws, dir, &name, &alias, &what, pos).map(|(at, sites)| AliasRename { at, sites, dir, name, alias }))
}

/// Whether `name.alias` already names a configuration of `dir` (a block or a `configuration_aliases` entry).
pub(crate) fn alias_declared(db: &dyn Db, dir: ModuleDir, name: &str, alias: &str) -> bool {
    matches!(resolve_config(&module(db, dir), name, Some(alias)), ConfigTarget::Block(_) | ConfigTarget::PassedIn)
}

/// The configuration under the cursor, `(module, provider name, alias)`: in this module (a block, a reference, a
/// `configuration_aliases` entry), the key of a `providers` map (a configuration of the child), or a test file's
/// `provider` block or `providers` map (a configuration of the module under test).
fn target_at(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    file: SourceFile,
    pos: FilePosition,
) -> Option<(ModuleDir, String, String)> {
    let m = module(db, dir);
    if is_test_file(file.file_name(db)) {
        let tested = tested_module(db, ws, dir)?;
        let (name, alias) = test_file_target(&parse(db, file).body, pos)?;
        return Some((tested, name, alias));
    }
    for c in &m.module_calls {
        let Some(p) = c.providers.as_ref().filter(|p| p.file == pos.file) else { continue };
        let ExprKind::Object(items) = &p.expr().kind else { continue };
        let Some(item) = items.iter().find(|i| touches(i.key.range(), pos.offset)) else { continue };
        let (name, alias) = key_name(item)?;
        let child = child_dirs(db, ws, dir, &c.name).into_iter().next()?;
        return Some((child, name, alias?));
    }
    for rp in &m.required_providers {
        if let Some(ca) = rp
            .configuration_aliases
            .iter()
            .find(|ca| ca.location.file == pos.file && touches(ca.location.range, pos.offset))
        {
            return Some((dir, ca.provider.clone(), ca.alias.clone()));
        }
    }
    let (name, alias) = config_at(&m, pos)?;
    Some((dir, name, alias?))
}

fn collect(
    db: &dyn Db,
    ws: Workspace,
    dir: ModuleDir,
    name: &str,
    alias: &str,
    what: &str,
    pos: FilePosition,
) -> Result<(FileRange, Vec<FileRange>), String> {
    let m = module(db, dir);
    let text_of = |r: FileRange| {
        source_file(db, ws, r.file)
            .and_then(|f| f.text(db).get(std::ops::Range::<usize>::from(r.range)).map(str::to_string))
    };
    let written = format!("{name}.{alias}");
    // The alias part of a span that holds `name.alias` (or `.alias`, or `alias`) written plainly.
    let alias_part = |r: FileRange| -> Result<FileRange, String> {
        match text_of(r) {
            Some(t) if t == alias || t == format!(".{alias}") || t == written => {
                Ok(FileRange::new(r.file, TextRange::new(r.range.end() - len(alias), r.range.end())))
            }
            _ => Err(format!("cannot rename {what}: a reference to it is not written plainly")),
        }
    };
    guard(db, dir, &written, what)?;
    let mut sites = Vec::new();
    let mut passed_in = false;
    match resolve_config(&m, name, Some(alias)) {
        ConfigTarget::Block(b) => {
            let Some(decl) = m.providers[b].alias.as_ref() else {
                return Err(format!("cannot rename {what}: its block has no `alias`"));
            };
            let decl_range = FileRange::new(decl.file, decl.expr_range());
            if text_of(decl_range).as_deref() != Some(&format!("\"{alias}\"")) {
                return Err(format!("cannot rename {what}: its `alias` is not a plain string"));
            }
            sites.push(unquoted(decl_range));
        }
        ConfigTarget::PassedIn => {
            passed_in = true;
            for ca in m.required_providers.iter().flat_map(|rp| &rp.configuration_aliases) {
                if ca.provider == name && ca.alias == alias {
                    sites.push(alias_part(ca.location)?);
                }
            }
        }
        _ => return Err(format!("cannot rename {what}: no `provider` block or `configuration_aliases` declares it")),
    }
    let (refs, _) = module_references(&m);
    for r in refs.iter().filter(|r| r.reference.name == name && r.reference.alias_name() == Some(alias)) {
        let Some((_, range)) = r.reference.alias.as_ref() else { continue };
        sites.push(alias_part(FileRange::new(r.reference.file, *range))?);
    }
    if passed_in {
        // The callers pass it by name: `providers = { aws.src = … }`.
        for (caller, call) in callers(db, ws, dir) {
            guard(db, caller, &written, what)?;
            let cm = module(db, caller);
            for c in cm.module_calls.iter().filter(|c| c.name == call) {
                let Some(p) = c.providers.as_ref() else { continue };
                let ExprKind::Object(items) = &p.expr().kind else { continue };
                for item in items {
                    if key_name(item).is_some_and(|(n, a)| n == name && a.as_deref() == Some(alias)) {
                        sites.push(alias_part(FileRange::new(p.file, item.key.range()))?);
                    }
                }
            }
        }
    }
    for test_dir in test_dirs(db, ws, dir) {
        for f in test_dir.files(db).iter().filter(|f| is_test_file(f.file_name(db))) {
            test_file_sites(db, *f, name, alias, what, &mut sites)?;
        }
    }
    sites.sort_by_key(|l| (l.file, l.range.start()));
    sites.dedup();
    // The span under the cursor, else (on a block's label) the first in the cursor's file.
    let at = sites
        .iter()
        .copied()
        .find(|s| s.file == pos.file && touches(s.range, pos.offset))
        .or_else(|| sites.iter().copied().find(|s| s.file == pos.file))
        .or_else(|| sites.first().copied())
        .ok_or_else(|| format!("cannot rename {what}: nothing names it"))?;
    Ok((at, sites))
}

/// Refuses a module that is not ours to edit, or one where the configuration appears in a JSON file.
fn guard(db: &dyn Db, dir: ModuleDir, written: &str, what: &str) -> Result<(), String> {
    let path = dir.path(db);
    if path.contains("/.terraform/") {
        return Err(format!("cannot rename {what}: it is used in {path}, a module installed by `tofu init`"));
    }
    for f in dir.files(db).iter().filter(|f| f.file_name(db).ends_with(".json")) {
        if f.text(db).contains(written) {
            return Err(format!(
                "cannot rename {what}: the JSON file {} names it, which rename does not edit",
                f.path(db)
            ));
        }
    }
    Ok(())
}

/// The directories whose test files test `dir`: itself and its `tests/` directory.
fn test_dirs(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Vec<ModuleDir> {
    let dirs: std::collections::HashMap<&str, ModuleDir> =
        ws.dirs(db).iter().map(|d| (d.path(db).as_str(), *d)).collect();
    let tests = format!("{}/tests", dir.path(db).trim_end_matches('/'));
    let mut out = vec![dir];
    if let Some(t) = dirs.get(tests.as_str()).copied()
        && module_under_test(db, t, &dirs) == Some(dir)
    {
        out.push(t);
    }
    out
}

/// The module a test file in `dir` tests.
fn tested_module(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Option<ModuleDir> {
    let dirs: std::collections::HashMap<&str, ModuleDir> =
        ws.dirs(db).iter().map(|d| (d.path(db).as_str(), *d)).collect();
    let tested = module_under_test(db, dir, &dirs)?;
    // A `tests/` directory tests its parent; anything else tests itself.
    (tested == dir || parent(dir.path(db)) == tested.path(db)).then_some(tested)
}

fn is_test_file(name: &str) -> bool {
    name.ends_with(".tftest.hcl") || name.ends_with(".tofutest.hcl") || name.ends_with(".tftest.json")
}

/// The configuration under the cursor in a test file: a `provider`/`mock_provider` block's alias or label, or a
/// traversal in a `providers` map.
fn test_file_target(body: &Body, pos: FilePosition) -> Option<(String, String)> {
    for b in body.blocks().filter(|b| is_provider_block(b)) {
        let alias = b.body.attribute("alias");
        let on_label = b.labels.first().is_some_and(|l| touches(l.range, pos.offset));
        if on_label || alias.is_some_and(|a| touches(a.value.range, pos.offset)) {
            return Some((b.label(0)?.to_string(), alias?.value.as_string_literal()?));
        }
    }
    let mut found = None;
    each_providers_map(body, &mut |_, items| {
        for item in items {
            if touches(item.key.range(), pos.offset) {
                found = key_name(item).and_then(|(n, a)| Some((n, a?)));
            } else if touches(item.value.range, pos.offset) {
                found = value_name(&item.value);
            }
        }
    });
    found
}

fn is_provider_block(b: &Block) -> bool {
    b.ident.name == "provider" || b.ident.name == "mock_provider"
}

/// Calls `f` with every `providers` map of a test file (at the top and in `run` blocks), and whether its `run`
/// block loads another module (`module { source = … }`).
fn each_providers_map(body: &Body, f: &mut impl FnMut(bool, &[foreach_syntax::ast::ObjectItem])) {
    let mut visit = |b: &Body, other_module: bool| {
        if let Some(a) = b.attribute("providers")
            && let ExprKind::Object(items) = &a.value.kind
        {
            f(other_module, items);
        }
    };
    visit(body, false);
    for run in body.blocks_named("run") {
        visit(&run.body, run.body.blocks_named("module").next().is_some());
    }
}

/// `aws.x` written as a `providers` map value.
fn value_name(e: &foreach_syntax::ast::Expr) -> Option<(String, String)> {
    traversal_name(e).and_then(|(n, a)| Some((n, a?)))
}

/// The spans in one test file: provider blocks with the alias and both sides of `providers` maps. Every textual
/// `name.alias` in the file must be one of them, else the file names it somewhere rename does not follow.
fn test_file_sites(
    db: &dyn Db,
    f: SourceFile,
    name: &str,
    alias: &str,
    what: &str,
    sites: &mut Vec<FileRange>,
) -> Result<(), String> {
    let text = f.text(db);
    let text: &str = &text;
    let written = format!("{name}.{alias}");
    let count = text
        .match_indices(&written)
        .filter(|(i, _)| !ident_char_at(text, i + written.len()) && !text[..*i].ends_with(is_ident_char))
        .count();
    if f.file_name(db).ends_with(".json") {
        return if count == 0 && !text.contains(&format!("\"{alias}\"")) {
            Ok(())
        } else {
            Err(format!("cannot rename {what}: the JSON test file {} names it, which rename does not edit", f.path(db)))
        };
    }
    let id = f.id(db);
    let body = &parse(db, f).body;
    for b in body.blocks().filter(|b| is_provider_block(b) && b.label(0) == Some(name)) {
        let Some(a) = b.body.attribute("alias") else { continue };
        if a.value.as_string_literal().as_deref() != Some(alias) {
            continue;
        }
        let r = FileRange::new(id, a.value.range);
        if text.get(std::ops::Range::<usize>::from(a.value.range)) != Some(format!("\"{alias}\"").as_str()) {
            return Err(format!("cannot rename {what}: its `alias` in {} is not a plain string", f.path(db)));
        }
        sites.push(unquoted(r));
    }
    let mut found = 0;
    let mut other = false;
    each_providers_map(body, &mut |other_module, items| {
        for item in items {
            let key = key_name(item).is_some_and(|(n, a)| n == name && a.as_deref() == Some(alias));
            let value = value_name(&item.value).is_some_and(|(n, a)| n == name && a == alias);
            for (hit, range) in [(key, item.key.range()), (value, item.value.range)] {
                if !hit {
                    continue;
                }
                if other_module {
                    other = true;
                }
                if text.get(std::ops::Range::<usize>::from(range)) == Some(written.as_str()) {
                    found += 1;
                    sites.push(FileRange::new(id, TextRange::new(range.end() - len(alias), range.end())));
                }
            }
        }
    });
    if other {
        return Err(format!(
            "cannot rename {what}: a `run` block in {} that tests another module names it",
            f.path(db)
        ));
    }
    if found != count {
        return Err(format!(
            "cannot rename {what}: {} names it outside `provider` blocks and `providers` maps, which rename does \
             not follow",
            f.path(db)
        ));
    }
    Ok(())
}

fn ident_char_at(text: &str, i: usize) -> bool {
    text[i..].chars().next().is_some_and(is_ident_char)
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn len(s: &str) -> TextSize {
    TextSize::from(s.len() as u32)
}

/// A string literal's span without its quotes (the caller checked it holds at least the two quotes).
fn unquoted(r: FileRange) -> FileRange {
    FileRange::new(r.file, TextRange::new(r.range.start() + TextSize::from(1), r.range.end() - TextSize::from(1)))
}
