//! `foreach-ls migrate --resources` (issue #17 step 2): finds the per-alias copies of resources, data sources and
//! module calls (same type, a name that holds the alias, `provider = aws.<alias>`), merges each set that differs
//! only in values into one block with `for_each` (`copy_merge`), and rewrites every reference to an old address
//! (`addresses`). What cannot be merged is left as it was and listed.
//!
//! Copies are found by name: `vpc_use1` and `vpc_euw1` (or `use1_vpc`, `use1`) are copies of `vpc` (of `this`
//! when nothing is left once the alias is taken out). Comparing their contents decides whether they merge; a
//! copy's reference to another merged set's instance of its own alias (`aws_vpc.use1` from `subnet_use1`) reads
//! `[each.key]`, so that sets that depend on each other merge together.

use std::sync::Arc;

use foreach_syntax::ast::Block;
use foreach_syntax::{Parse, TextRange};

use super::addresses::{Kind, Rename, rewrite_body};
use super::copy_merge::{Copy, Group, Merged, Target, merge};
use super::text::{alias_reference, line_of, mentions};
use crate::db::{Db, SourceFile};
use crate::model::module::is_override;

/// The part of the plan `--resources` adds.
#[derive(Debug, Default)]
pub(super) struct Merges {
    /// Text that replaces a block (the first copy of a merged set), or removes one (`None`: the other copies),
    /// with the block's old address.
    pub blocks: Vec<(SourceFile, TextRange, Option<String>, String)>,
    /// Rewritten references outside the merged blocks.
    pub references: Vec<(SourceFile, TextRange, String)>,
    /// Every old block that became an instance.
    pub renames: Vec<Rename>,
    pub left_alone: Vec<String>,
    pub notes: Vec<String>,
    pub refusals: Vec<String>,
    /// What sets merged in JSON files add to their file's root object.
    pub json_roots: Vec<JsonRoot>,
}

/// What one set merged in a JSON file adds to the file's root object, next to the root member that holds the
/// merged block (`anchor`, the first copy's range).
#[derive(Debug)]
pub(super) struct JsonRoot {
    pub file: SourceFile,
    pub anchor: TextRange,
    /// The local map, by name.
    pub local: Option<(String, super::json::Out)>,
    pub moved: Vec<super::json::Out>,
}

impl Merges {
    /// Whether `range` of `file` lies in a block this plan replaces or removes (its edits are made there).
    pub(super) fn claims(&self, file: SourceFile, range: TextRange) -> bool {
        self.blocks.iter().any(|(f, r, _, _)| *f == file && r.contains_range(range))
    }
}

/// Plans the merge of the copies in the files of one module (parsed without errors). `test_files` are the module's
/// test files, whose references are not rewritten.
pub(super) fn plan(
    db: &dyn Db,
    parsed: &[(SourceFile, Arc<Parse>)],
    test_files: &[SourceFile],
    target: Target<'_>,
) -> Merges {
    let mut out = Merges::default();
    let mut groups: Vec<Group<'_>> = Vec::new();
    let mut declared: Vec<(Kind, String, String)> = Vec::new();
    let mut locals: Vec<String> = Vec::new();
    // Blocks of override files, with where: OpenTofu merges each into the primary block of the same address, so
    // they are never copies themselves, and a copy one overrides cannot be merged (the override would then name
    // a block that no longer exists, and its values would be lost).
    let mut overrides: Vec<(Kind, String, String, String)> = Vec::new();
    for (f, p) in parsed {
        let text = f.text(db);
        let text: &str = &text;
        for l in p.body.blocks_named("locals") {
            locals.extend(l.body.attributes().map(|a| a.key.name.to_string()));
        }
        for block in p.body.blocks() {
            let Some((kind, ty, name)) = identity(block) else { continue };
            declared.push((kind, ty.clone(), name.clone()));
            if is_override(f.file_name(db)) {
                let at = format!("{}:{}", f.path(db), line_of(text, block.range.start()));
                overrides.push((kind, ty, name, at));
                continue;
            }
            let Some(key) = alias_of(block, kind, target) else { continue };
            let at = format!("{}:{}: `{}`", f.path(db), line_of(text, block.range.start()), address(kind, &ty, &name));
            if f.kind(db).is_json() && super::json::member_of(text, block) != Some(block.range) {
                out.left_alone.push(format!(
                    "{at} is written as a list of blocks in JSON; it is not merged (its provider reference is rewritten)"
                ));
                continue;
            }
            if block.body.attribute("for_each").is_some() || block.body.attribute("count").is_some() {
                out.left_alone.push(format!("{at} already iterates; it is not merged"));
                continue;
            }
            let Some(stem) = stem(&name, &key) else {
                out.left_alone
                    .push(format!("{at} has no copy to merge with: its name does not contain its alias `{key}`"));
                continue;
            };
            let merged = if stem.is_empty() { "this".to_string() } else { stem };
            let copy = Copy { file: *f, block, key };
            match groups.iter_mut().find(|g| g.kind == kind && g.ty == ty && g.name == merged) {
                Some(g) => g.copies.push(copy),
                None => groups.push(Group { kind, ty, name: merged, copies: vec![copy] }),
            }
        }
    }

    // Sets that cannot merge whatever their contents.
    let mut active = Vec::new();
    for g in groups {
        let first = &g.copies[0];
        let at = format!("{}:{}", first.file.path(db), line_of(&first.file.text(db), first.block.range.start()));
        let keys: Vec<&str> = g.copies.iter().map(|c| c.key.as_str()).collect();
        let overridden = (0..g.copies.len()).find_map(|i| {
            let name = g.copies[i].block.label(if g.kind == Kind::Module { 0 } else { 1 }).unwrap_or_default();
            overrides.iter().find(|(k, t, n, _)| *k == g.kind && *t == g.ty && n == name).map(|o| (i, &o.3))
        });
        let reason = if let Some((i, at)) = overridden {
            Some(format!(
                "the copies of `{}` are not merged: `{}` is overridden by {at}, which would then name a block that no \
                 longer exists (and its values would be lost); move the override's arguments into the block first, \
                 or merge these copies by hand",
                g.address(),
                old_address(&g, i)
            ))
        } else if g.copies.iter().any(|c| c.file.kind(db).is_json() != first.file.kind(db).is_json()) {
            Some(format!(
                "the copies of `{}` are in both JSON and native files, and would merge into one block of one \
                 syntax; move them into files of one kind first, or merge by hand",
                g.address()
            ))
        } else if g.copies.len() < 2 {
            Some(format!("`{}` has no copy for another alias to merge with", old_address(&g, 0)))
        } else if keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k)) {
            Some(format!("the copies of `{}` use one alias more than once", g.address()))
        } else if declared.iter().any(|(k, t, n)| *k == g.kind && *t == g.ty && *n == g.name) {
            Some(format!("the copies of `{}` would merge into a block that exists already", g.address()))
        } else if locals.contains(&g.local_name()) {
            Some(format!(
                "the copies of `{}` need a local value `{}`, which exists already",
                g.address(),
                g.local_name()
            ))
        } else {
            None
        };
        match reason {
            Some(r) => out.left_alone.push(format!("{at}: {r}")),
            None => active.push(g),
        }
    }

    // Merging one set can depend on whether another merges (a subnet per region refers to the VPC of its
    // region): drop the sets that cannot merge until the rest all can.
    let (renames, texts) = loop {
        let renames: Vec<Rename> = active.iter().flat_map(renames_of).collect();
        let mut texts = Vec::new();
        let mut failed = None;
        for (i, g) in active.iter().enumerate() {
            match merge(db, g, &renames, target) {
                Ok(t) => texts.push(t),
                Err(e) => {
                    failed = Some((i, e));
                    break;
                }
            }
        }
        if failed.is_none() {
            failed = cycle(db, &active).map(|(i, j)| {
                let e = format!(
                    "merged, it and `{}` would refer to each other (their copies refer to each other's copies for \
                     other aliases), which OpenTofu rejects as a cycle",
                    active[j].address()
                );
                (i, e)
            });
        }
        match failed {
            None => break (renames, texts),
            Some((i, e)) => {
                let g = active.remove(i);
                let first = &g.copies[0];
                out.left_alone.push(format!(
                    "{}:{}: the copies of `{}` are not merged: {e}",
                    first.file.path(db),
                    line_of(&first.file.text(db), first.block.range.start()),
                    g.address()
                ));
            }
        }
    };
    for (g, merged) in active.iter().zip(texts) {
        let text = match merged {
            Merged::Native(text) => text,
            Merged::Json { member, local, moved } => {
                let c = &g.copies[0];
                out.json_roots.push(JsonRoot { file: c.file, anchor: c.block.range, local, moved });
                member
            }
        };
        for (i, c) in g.copies.iter().enumerate() {
            let text = if i == 0 { Some(text.clone()) } else { None };
            out.blocks.push((c.file, c.block.range, text, old_address(g, i)));
        }
        if g.kind == Kind::Data {
            for (i, c) in g.copies.iter().enumerate() {
                out.notes.push(format!(
                    "`{}` is now `{}[\"{}\"]` (data sources need no moved block)",
                    old_address(g, i),
                    g.address(),
                    c.key
                ));
            }
        }
    }

    // References elsewhere in the module.
    for (f, p) in parsed {
        let text = f.text(db);
        let text: &str = &text;
        let json = f.kind(db).is_json();
        let mut edits = Vec::new();
        let mut errors = Vec::new();
        rewrite_body(text, &p.body, &renames, &mut edits, &mut errors);
        let errors: Vec<TextRange> = errors.into_iter().filter(|r| !out.claims(*f, *r)).collect();
        for r in errors {
            let how = if json {
                "is written with escapes in its JSON string"
            } else {
                "has spaces or comments inside its address"
            };
            out.refusals.push(format!(
                "{}:{}: this reference to a merged block {how}; write it without them first",
                f.path(db),
                line_of(text, r.start())
            ));
        }
        for (range, new) in edits {
            if !out.claims(*f, range) {
                // In JSON a reference is text inside a string (`"${aws_vpc.vpc_use1.id}"`): the new one is escaped.
                let new = if json { super::json::escaped(&new) } else { new };
                out.references.push((*f, range, new));
            }
        }
    }
    for f in test_files {
        if renames.iter().any(|r| mentions_address(&f.text(db), r)) {
            out.left_alone.push(format!(
                "{}: test files are not rewritten; check its references to the merged blocks by hand",
                f.path(db)
            ));
        }
    }
    out.renames = renames;
    out
}

/// Two merged sets that would refer to each other, `(i, j)`: merged, every instance of a block depends on the whole
/// other block, so references that were fine between copies of different aliases can form a cycle.
fn cycle(db: &dyn Db, groups: &[Group<'_>]) -> Option<(usize, usize)> {
    let refers = |i: usize, j: usize| {
        let targets = renames_of(&groups[j]);
        groups[i].copies.iter().any(|c| {
            let (mut edits, mut errors) = (Vec::new(), Vec::new());
            rewrite_body(&c.file.text(db), &c.block.body, &targets, &mut edits, &mut errors);
            !edits.is_empty() || !errors.is_empty()
        })
    };
    let n = groups.len();
    let edges: Vec<Vec<usize>> = (0..n).map(|i| (0..n).filter(|&j| j != i && refers(i, j)).collect()).collect();
    // Whether `to` can be reached from `from` (the sets are few: a plain search will do).
    let reaches = |from: usize, to: usize| {
        let (mut seen, mut stack) = (vec![false; n], vec![from]);
        while let Some(k) = stack.pop() {
            if k == to {
                return true;
            }
            if !std::mem::replace(&mut seen[k], true) {
                stack.extend(&edges[k]);
            }
        }
        false
    };
    (0..n).find_map(|i| edges[i].iter().find(|&&j| reaches(j, i)).map(|&j| (i, j)))
}

/// Kind, type and name of a `resource`, `data` or `module` block.
fn identity(block: &Block) -> Option<(Kind, String, String)> {
    match (block.ident.name.as_str(), block.labels.len()) {
        ("resource", 2) => Some((Kind::Resource, block.label(0)?.to_string(), block.label(1)?.to_string())),
        ("data", 2) => Some((Kind::Data, block.label(0)?.to_string(), block.label(1)?.to_string())),
        ("module", 1) => Some((Kind::Module, String::new(), block.label(0)?.to_string())),
        _ => None,
    }
}

fn address(kind: Kind, ty: &str, name: &str) -> String {
    Rename { kind, ty: ty.to_string(), old: name.to_string(), new: String::new(), key: String::new() }.old_address()
}

fn old_address(g: &Group<'_>, i: usize) -> String {
    let name = g.copies[i].block.label(if g.kind == Kind::Module { 0 } else { 1 }).unwrap_or_default();
    address(g.kind, &g.ty, name)
}

fn renames_of(g: &Group<'_>) -> Vec<Rename> {
    (0..g.copies.len())
        .map(|i| Rename {
            kind: g.kind,
            ty: g.ty.clone(),
            old: g.copies[i].block.label(if g.kind == Kind::Module { 0 } else { 1 }).unwrap_or_default().to_string(),
            new: g.name.clone(),
            key: g.copies[i].key.clone(),
        })
        .collect()
}

/// The old alias a block uses: `provider = aws.use1`, or for a module call every entry of `providers` that names
/// an old alias naming the same one.
fn alias_of(block: &Block, kind: Kind, target: Target<'_>) -> Option<String> {
    if kind != Kind::Module {
        return alias_reference(&block.body.attribute("provider")?.value, target.provider, target.keys);
    }
    let foreach_syntax::ast::ExprKind::Object(items) = &block.body.attribute("providers")?.value.kind else {
        return None;
    };
    let used: Vec<String> =
        items.iter().filter_map(|i| alias_reference(&i.value, target.provider, target.keys)).collect();
    used.first().filter(|a| used.iter().all(|u| u == *a)).cloned()
}

/// The name without the alias, when the alias is one of its `_`- or `-`-separated parts: `vpc_use1` → `vpc`,
/// `use1-vpc` → `vpc`, `a_use1_b` → `a_b`, `use1` → ``.
fn stem(name: &str, alias: &str) -> Option<String> {
    if name == alias {
        return Some(String::new());
    }
    for sep in ['_', '-'] {
        if let Some(rest) = name.strip_prefix(&format!("{alias}{sep}")) {
            return Some(rest.to_string());
        }
        if let Some(rest) = name.strip_suffix(&format!("{sep}{alias}")) {
            return Some(rest.to_string());
        }
        if let Some((a, b)) = name.split_once(&format!("{sep}{alias}{sep}")) {
            return Some(format!("{a}{sep}{b}"));
        }
    }
    None
}

/// Whether `text` names the old address of `r` (a textual look at files that are not rewritten).
fn mentions_address(text: &str, r: &Rename) -> bool {
    let old = r.old_address();
    let (head, last) = old.rsplit_once('.').unwrap_or(("", &old));
    mentions(text, head, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stem_is_the_name_without_the_alias() {
        assert_eq!(stem("vpc_use1", "use1").as_deref(), Some("vpc"));
        assert_eq!(stem("use1-vpc", "use1").as_deref(), Some("vpc"));
        assert_eq!(stem("a_use1_b", "use1").as_deref(), Some("a_b"));
        assert_eq!(stem("use1", "use1").as_deref(), Some(""));
        assert_eq!(stem("vpc_use10", "use1"), None);
        assert_eq!(stem("primary", "us"), None);
    }
}
