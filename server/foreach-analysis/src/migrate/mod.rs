//! `foreach-ls migrate`, step 1 (issue #17): the aliased `provider` blocks of one module become one provider
//! configuration with `for_each`, and every reference to an old alias is rewritten to an instance of it.
//!
//! The plan is a list of text edits on the files' original text, like the quick fixes (`fixes/`): everything the
//! migration does not touch stays byte-for-byte the same (hcl-edit's printer does not round-trip formatting).
//! The arguments of the old blocks must be known statically, because OpenTofu evaluates a provider's `for_each`
//! early; they are evaluated in the module's scope with the same evaluator as `eval` and `inspect`. When anything
//! cannot be migrated the plan is refused as a whole, with every reason.

mod addresses;
mod build;
mod compare;
mod copies;
mod copy_merge;
mod finish;
mod json;
mod json_root;
mod removal;
mod statics;
#[cfg(test)]
mod tests;
mod text;

use std::sync::Arc;

use foreach_syntax::ast::{Body, ExprKind, Structure};
use foreach_syntax::{TextRange, TextSize};

use crate::base::{FileId, FileRange};
use crate::db::{Db, SourceFile, Workspace, module, parse};
use crate::diagnostics::TextEdit;
use crate::fixes::line_endings::{to_crlf, uses_crlf};
use crate::model::module::is_override;
use crate::module_eval::{root_for_dir, scope_for_node};
use crate::tree::module_tree;
use text::{alias_reference, is_name, line_of, mentions};

pub use build::Config;
pub use compare::{block_values, configuration_values};

/// What to migrate.
#[derive(Debug, Clone)]
pub struct Options {
    /// The provider's local name (`aws`).
    pub provider: String,
    /// The new alias; derived when `None` (`by_region` when the configurations differ in `region`, else `by_key`).
    pub alias: Option<String>,
    /// Also merge the per-alias copies of resources, data sources and module calls (`--resources`, step 2).
    pub resources: bool,
}

/// The edits of one file.
#[derive(Debug, Clone)]
pub struct FileChange {
    pub file: FileId,
    pub path: String,
    /// The text the edits were computed on.
    pub original: Arc<str>,
    pub edits: Vec<TextEdit>,
}

/// A migration that can be applied.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The alias of the new configuration.
    pub alias: String,
    /// The old aliases, in source order: the keys of the new configuration's instances.
    pub keys: Vec<String>,
    /// Files to change, by path.
    pub files: Vec<FileChange>,
    /// What the migration leaves alone on purpose, one sentence each.
    pub left_alone: Vec<String>,
    /// Other things worth knowing about the change (comments removed with their block).
    pub notes: Vec<String>,
    /// How many old blocks became instances of merged blocks (`--resources`), and how many of them got a `moved`
    /// block (data sources need none).
    pub merged: usize,
    pub moved: usize,
}

/// Plans the migration of the aliased `provider "<name>"` blocks of the module in directory `dir` (absolute, as
/// loaded). `Err` holds every reason it cannot be done.
pub fn plan_providers(db: &dyn Db, ws: Workspace, dir: &str, opts: &Options) -> Result<Plan, Vec<String>> {
    let Some(module_dir) = ws.dirs(db).iter().copied().find(|d| d.path(db) == dir) else {
        return Err(vec![format!("{dir} holds no module")]);
    };
    let provider = opts.provider.as_str();
    let mut refusals = Vec::new();
    let mut left_alone = Vec::new();
    // The files OpenTofu loads: `x.tf` is ignored when `x.tofu` exists, so it is neither read nor edited (it may
    // be the copy Terraform reads, and declare the same blocks).
    let shadowed = module(db, module_dir).shadowed.clone();
    let mut files: Vec<SourceFile> = Vec::new();
    for &f in module_dir.files(db).iter().filter(|f| f.kind(db).is_config()) {
        match shadowed.iter().find(|(s, _)| *s == f.id(db)) {
            Some((_, winner)) => {
                let winner = module_dir.files(db).iter().find(|w| w.id(db) == *winner).map(|w| w.file_name(db));
                left_alone.push(format!(
                    "{}: OpenTofu ignores this file because {} exists; it is not read or rewritten",
                    f.path(db),
                    winner.unwrap_or("a .tofu file of the same name")
                ));
            }
            None => files.push(f),
        }
    }
    let mut parsed = Vec::new();
    for &f in &files {
        let path = f.path(db);
        if let Some(e) = f.load_error(db) {
            refusals.push(format!("{path}: cannot be read: {e}"));
            continue;
        }
        let p = parse(db, f);
        if let Some(e) = p.errors.first() {
            let text = f.text(db);
            let text: &str = &text;
            refusals.push(format!(
                "{path}:{}: syntax error: {}; fix it first (a file with errors may hide references)",
                line_of(text, e.range.start()),
                e.message
            ));
            continue;
        }
        parsed.push((f, p));
    }

    // The aliased blocks, in file and source order. JSON files are not edited: their references are strings
    // inside JSON, which are best rewritten by the tool that generates them.
    let mut configs: Vec<Config> = Vec::new();
    for (f, p) in &parsed {
        let file_text = f.text(db);
        let text: &str = &file_text;
        for block in p.body.blocks_named("provider").filter(|b| b.label(0) == Some(provider)) {
            let Some(alias_attr) = block.body.attribute("alias") else {
                left_alone.push(format!(
                    "{}:{}: the default `{provider}` configuration stays as it is",
                    f.path(db),
                    line_of(text, block.range.start())
                ));
                continue;
            };
            let Some(alias) = alias_attr.value.as_string_literal() else {
                refusals.push(format!(
                    "{}:{}: the alias of this `{provider}` configuration is not a literal string",
                    f.path(db),
                    line_of(text, alias_attr.range.start())
                ));
                continue;
            };
            if !is_name(&alias) {
                refusals.push(format!(
                    "{}:{}: the alias {alias:?} is not a valid name",
                    f.path(db),
                    line_of(text, alias_attr.range.start())
                ));
                continue;
            }
            if block.body.attribute("for_each").is_some() || block.body.attribute("count").is_some() {
                left_alone.push(format!(
                    "{}:{}: `{provider}.{alias}` already iterates and stays as it is",
                    f.path(db),
                    line_of(text, block.range.start())
                ));
                continue;
            }
            if is_override(f.file_name(db)) {
                refusals.push(format!(
                    "{}:{}: `{provider}.{alias}` is overridden in an override file, which migrate does not merge into \
                     the new configuration; move its arguments into the primary block by hand first",
                    f.path(db),
                    line_of(text, block.range.start())
                ));
                continue;
            }
            let member = if f.kind(db).is_json() { json::member_of(text, block) } else { Some(block.range) };
            let Some(member) = member else {
                refusals.push(format!(
                    "{}:{}: `{provider}.{alias}` is written in a JSON shape migrate does not edit (neither a \
                     property `\"{provider}\": {{…}}` nor an element of a list of them); convert it by hand",
                    f.path(db),
                    line_of(text, block.range.start())
                ));
                continue;
            };
            configs.push(Config { file: *f, text: file_text.clone(), block: block.clone(), alias, member });
        }
    }
    // The new configuration is written in the syntax of the blocks it replaces: values copied from JSON into a
    // native file (or back) could change meaning (a JSON object's keys are literal, a native one's are not).
    if configs.iter().any(|c| c.file.kind(db).is_json()) && configs.iter().any(|c| !c.file.kind(db).is_json()) {
        refusals.push(format!(
            "the aliased `{provider}` configurations are declared in both JSON and native files; move them into \
             files of one kind first"
        ));
    }
    if configs.len() < 2 && refusals.is_empty() {
        refusals.push(format!(
            "the module has {} aliased `{provider}` configuration{} without for_each; there is nothing to merge",
            configs.len(),
            if configs.len() == 1 { "" } else { "s" }
        ));
    }
    let old: Vec<String> = configs.iter().map(|c| c.alias.clone()).collect();
    for (i, a) in old.iter().enumerate() {
        if old[..i].contains(a) {
            refusals.push(format!("`{provider}.{a}` is declared more than once; merge the blocks by hand first"));
        }
    }

    // References in test files are left to the user (their `provider` and `run` blocks are their own): listed.
    for f in module_dir.files(db).iter().filter(|f| f.kind(db).is_test()) {
        if old.iter().any(|a| mentions(&f.text(db), provider, a)) {
            left_alone.push(format!(
                "{}: test files are not rewritten (their `provider` and `run` blocks are their own); check its \
                 `{provider}.<alias>` references by hand",
                f.path(db)
            ));
        }
    }

    // The values are those of the module as a root module (the CLI loads PATH as one); a directory that is only
    // ever called has one set of values per call, and is not planned.
    let scope = {
        let tree = module_tree(db, ws);
        root_for_dir(&tree, module_dir).map(|node| scope_for_node(db, ws, tree.node(node)).0)
    };
    let Some(scope) = scope else {
        refusals.push(format!("{dir} was not loaded as a root module"));
        return Err(refusals);
    };
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let statics = statics::Statics {
        scope: &scope,
        locals: parsed
            .iter()
            .flat_map(|(_, p)| {
                p.body
                    .blocks_named("locals")
                    .flat_map(move |l| l.body.attributes().map(move |a| (a.key.name.to_string(), &*a.value)))
            })
            .collect(),
    };
    let merged = build::evaluate(db, &statics, &configs, provider)?;
    if opts.resources && merged.differs_in("enabled") {
        return Err(vec![format!(
            "the `{provider}` configurations differ in an argument `enabled`, the name --resources needs in their \
             map for the switch the merged blocks filter on; migrate without --resources"
        )]);
    }
    // The new alias: never an old one (OpenTofu rejects `for_each` added to an alias the state already uses), nor
    // another configuration's, nor a local value's name (the map is `local.<alias>`).
    let alias = opts
        .alias
        .clone()
        .unwrap_or_else(|| if merged.differs_in("region") { "by_region".to_string() } else { "by_key".to_string() });
    let mut taken = Vec::new();
    for (f, p) in &parsed {
        for block in p.body.blocks_named("provider").filter(|b| b.label(0) == Some(provider)) {
            if let Some(a) = block.body.attribute("alias").and_then(|a| a.value.as_string_literal()) {
                taken.push(a);
            }
        }
        for block in p.body.blocks_named("locals") {
            if block.body.attribute(&alias).is_some() {
                refusals.push(format!(
                    "{}: a local value `{alias}` already exists; choose another alias with --alias",
                    f.path(db)
                ));
            }
        }
    }
    if taken.contains(&alias) {
        refusals.push(format!(
            "`{provider}.{alias}` already exists: the new configuration needs an alias no block uses (OpenTofu \
             rejects for_each added to an alias the state may already use); choose another with --alias"
        ));
    }
    if !refusals.is_empty() {
        return Err(refusals);
    }

    // The per-alias copies (`--resources`): merged blocks replace their first copy, the other copies go.
    let test_files: Vec<SourceFile> = module_dir.files(db).iter().copied().filter(|f| f.kind(db).is_test()).collect();
    let copies = if opts.resources {
        let target = copy_merge::Target { provider, alias: &alias, keys: &old };
        copies::plan(db, &parsed, &test_files, target)
    } else {
        copies::Merges::default()
    };
    if !copies.refusals.is_empty() {
        return Err(copies.refusals);
    }
    left_alone.extend(copies.left_alone.iter().cloned());

    // Edits, per file.
    let mut changes: Vec<FileChange> = Vec::new();
    let mut push = |file: SourceFile, range: TextRange, new_text: String| {
        let original = file.text(db);
        let text: &str = &original;
        let new_text = if uses_crlf(text) { to_crlf(&new_text) } else { new_text };
        let edit = TextEdit { location: FileRange::new(file.id(db), range), new_text };
        match changes.iter_mut().find(|c| c.file == file.id(db)) {
            Some(c) => c.edits.push(edit),
            None => changes.push(FileChange {
                file: file.id(db),
                path: file.path(db).to_string(),
                original: original.clone(),
                edits: vec![edit],
            }),
        }
    };
    let mut notes = Vec::new();
    let first = &configs[0];
    // The new configuration takes the place of the first block. Comments right above it stay, above the new one:
    // they often describe the whole set, and removing the user's words is worse than keeping a stale one. It is
    // written anew from the old arguments, so comments inside the first block do not make it: say so.
    let first_text: &str = &first.text;
    let enabled = !copies.renames.is_empty();
    let mut json_roots: Vec<copies::JsonRoot> = Vec::new();
    if first.file.kind(db).is_json() {
        // In JSON: the member that held the first block holds the new one, the map goes to the file's `locals`.
        let root =
            json::parse(first_text).ok_or_else(|| vec![format!("{}: cannot be read as JSON", first.file.path(db))])?;
        let layout = json::Layout::of(first_text, &root);
        let (body, map) = merged.render_json(provider, &alias, enabled, &layout).map_err(|e| vec![e])?;
        let level = json::level_at(first_text, usize::from(first.member.start()), &layout);
        let body = body.render(&layout, level);
        let new = if first.member == first.block.range {
            format!("{}{}{body}", json::quoted(provider), layout.colon)
        } else {
            body
        };
        push(first.file, first.member, new);
        json_roots.push(copies::JsonRoot {
            file: first.file,
            anchor: first.member,
            local: Some((alias.clone(), map)),
            moved: Vec::new(),
        });
    } else {
        push(first.file, first.block.range, finish::formatted_blocks(merged.render(provider, &alias, enabled)));
    }
    let inside = if first.file.kind(db).is_json() {
        let root = json::parse(first_text);
        let comments = root.map(|r| json::comments_in(&r, &std::ops::Range::<usize>::from(first.member)));
        comments.and_then(|c| c.first().map(|at| TextSize::from(*at as u32)))
    } else {
        let comments = foreach_syntax::format::comments(first_text);
        comments.into_iter().find(|c| first.block.range.contains_range(*c)).map(|c| c.start())
    };
    if let Some(at) = inside {
        notes.push(format!(
            "{}:{}: the comment inside `{provider}.{}` is removed with its block (the new configuration is written \
             anew)",
            first.file.path(db),
            line_of(first_text, at),
            first.alias
        ));
    }
    let mut removed: Vec<(SourceFile, TextRange, String)> =
        configs[1..].iter().map(|c| (c.file, c.member, format!("`{provider}.{}`", c.alias))).collect();
    for (f, range, text, address) in &copies.blocks {
        match text {
            Some(t) => push(*f, *range, t.clone()),
            None => removed.push((*f, *range, format!("`{address}`"))),
        }
    }
    for (file, p) in &parsed {
        let blocks: Vec<&(SourceFile, TextRange, String)> = removed.iter().filter(|(f, ..)| f == file).collect();
        if blocks.is_empty() {
            continue;
        }
        let text = file.text(db);
        let text: &str = &text;
        let ranges: Vec<TextRange> = blocks.iter().map(|(_, r, _)| *r).collect();
        if file.kind(db).is_json() {
            // A removed block is one member of its JSON object or list (`json::member_of`).
            let root = json::parse(text).ok_or_else(|| vec![format!("{}: cannot be read as JSON", file.path(db))])?;
            let spans: Vec<std::ops::Range<usize>> =
                ranges.iter().map(|r| std::ops::Range::<usize>::from(*r)).collect();
            let mut told = Vec::new();
            for (i, span) in spans.iter().enumerate() {
                if let Some(at) = json::comments_in(&root, span).first()
                    && !told.contains(&i)
                {
                    told.push(i);
                    notes.push(format!(
                        "{}:{}: the comment (`\"//\"`) inside {} is removed with its block",
                        file.path(db),
                        line_of(text, TextSize::from(*at as u32)),
                        blocks[i].2
                    ));
                }
            }
            for r in json::removals(text, &root, &spans) {
                push(
                    *file,
                    TextRange::new(TextSize::from(r.start as u32), TextSize::from(r.end as u32)),
                    String::new(),
                );
            }
            continue;
        }
        let items: Vec<TextRange> = p.body.structures.iter().map(structure_range).collect();
        let (deletions, comments) = removal::removals(text, &items, &foreach_syntax::format::comments(text), &ranges);
        // One note per block and place, at its first comment.
        let mut told: Vec<(usize, removal::Place)> = Vec::new();
        for c in comments {
            if told.contains(&(c.block, c.place)) {
                continue;
            }
            told.push((c.block, c.place));
            let place = match c.place {
                removal::Place::Above => "above",
                removal::Place::Inside => "inside",
                removal::Place::After => "after",
            };
            notes.push(format!(
                "{}:{}: the comment {place} {} is removed with its block",
                file.path(db),
                line_of(text, c.at),
                blocks[c.block].2
            ));
        }
        for range in deletions {
            push(*file, range, String::new());
        }
    }
    let mut unreadable = Vec::new();
    for (f, p) in &parsed {
        let mut refs = Vec::new();
        references(&p.body, provider, &old, &mut refs);
        let text = f.text(db);
        for (range, key) in refs {
            if copies.claims(*f, range) {
                continue;
            }
            let new = format!("{provider}.{alias}[\"{key}\"]");
            if !f.kind(db).is_json() {
                push(*f, range, new);
            } else if text.get(std::ops::Range::<usize>::from(range)) == Some(&format!("{provider}.{key}")) {
                // In JSON the reference is the text of a string (`"provider": "aws.use1"`): the new one is escaped.
                push(*f, range, json::escaped(&new));
            } else {
                // Written with escapes in its string, so that its text is not the reference's.
                unreadable.push(format!(
                    "{}:{}: this reference to `{provider}.{key}` is written with escapes in its JSON string; write it \
                     without them first",
                    f.path(db),
                    line_of(&text, range.start())
                ));
            }
        }
    }
    if !unreadable.is_empty() {
        return Err(unreadable);
    }
    for (f, range, text) in &copies.references {
        push(*f, *range, text.clone());
    }
    for (file, _) in parsed.iter().filter(|(f, _)| f.kind(db).is_json()) {
        let roots: Vec<&copies::JsonRoot> =
            json_roots.iter().chain(&copies.json_roots).filter(|r| r.file == *file).collect();
        if roots.is_empty() {
            continue;
        }
        let text = file.text(db);
        for (range, new) in json_root::additions(&text, &roots).map_err(|e| vec![format!("{}: {e}", file.path(db))])? {
            push(*file, range, new);
        }
        if !copies.json_roots.iter().any(|r| r.file == *file) {
            continue;
        }
        notes.push(format!(
            "{}: the blocks merged in this JSON file select their provider instance with `{provider}.{alias}[each.key]` \
             in a string, which OpenTofu reads since 1.11",
            file.path(db)
        ));
    }
    notes.extend(copies.notes.iter().cloned());
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    finish::finish(&mut changes)?;
    let moved = copies.renames.iter().filter(|r| r.kind != addresses::Kind::Data).count();
    Ok(Plan { alias, keys: old, files: changes, left_alone, notes, merged: copies.renames.len(), moved })
}

fn structure_range(s: &Structure) -> TextRange {
    match s {
        Structure::Attribute(a) => a.range,
        Structure::Block(b) => b.range,
    }
}

/// Every `provider = P.old` argument (resources, data sources, `check` blocks, `import`, at any depth) and every
/// value `P.old` of a `providers` map (module calls), with the old alias.
fn references(body: &Body, provider: &str, old: &[String], out: &mut Vec<(TextRange, String)>) {
    for attr in body.attributes() {
        match attr.key.name.as_str() {
            "provider" => {
                if let Some(a) = alias_reference(&attr.value, provider, old) {
                    out.push((attr.value.range, a));
                }
            }
            "providers" => {
                if let ExprKind::Object(items) = &attr.value.kind {
                    for item in items {
                        if let Some(a) = alias_reference(&item.value, provider, old) {
                            out.push((item.value.range, a));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for block in body.blocks() {
        if block.ident.name == "provider" {
            continue;
        }
        references(&block.body, provider, old, out);
    }
}
