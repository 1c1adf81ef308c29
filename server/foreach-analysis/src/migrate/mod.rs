//! `foreach-ls migrate`, step 1 (issue #17): the aliased `provider` blocks of one module become one provider
//! configuration with `for_each`, and every reference to an old alias is rewritten to an instance of it.
//!
//! The plan is a list of text edits on the files' original text, like the quick fixes (`fixes/`): everything the
//! migration does not touch stays byte-for-byte the same (hcl-edit's printer does not round-trip formatting).
//! The arguments of the old blocks must be known statically, because OpenTofu evaluates a provider's `for_each`
//! early; they are evaluated in the module's scope with the same evaluator as `eval` and `inspect`. When anything
//! cannot be migrated the plan is refused as a whole, with every reason.

mod build;
mod compare;

use std::sync::Arc;

use foreach_syntax::ast::{Body, ExprKind, TraversalOp};
use foreach_syntax::{TextRange, TextSize};

use crate::base::{FileId, FileRange};
use crate::db::{Db, SourceFile, Workspace, parse};
use crate::diagnostics::TextEdit;
use crate::eval::{EvalContext, ModuleScope, Value};
use crate::fixes::line_endings::{to_crlf, uses_crlf};
use crate::module_eval::{root_for_dir, scope_for_node};
use crate::tree::module_tree;

pub use build::Config;
pub use compare::configuration_values;

/// What to migrate.
#[derive(Debug, Clone)]
pub struct Options {
    /// The provider's local name (`aws`).
    pub provider: String,
    /// The new alias; derived when `None` (`by_region` when the configurations differ in `region`, else `by_key`).
    pub alias: Option<String>,
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
}

/// Plans the migration of the aliased `provider "<name>"` blocks of the module in directory `dir` (absolute, as
/// loaded). `Err` holds every reason it cannot be done.
pub fn plan_providers(db: &dyn Db, ws: Workspace, dir: &str, opts: &Options) -> Result<Plan, Vec<String>> {
    let Some(module_dir) = ws.dirs(db).iter().copied().find(|d| d.path(db) == dir) else {
        return Err(vec![format!("{dir} holds no module")]);
    };
    let files: Vec<SourceFile> = module_dir.files(db).iter().copied().filter(|f| f.kind(db).is_config()).collect();
    let provider = opts.provider.as_str();
    let mut refusals = Vec::new();
    let mut left_alone = Vec::new();
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
        let text = f.text(db);
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
            if f.kind(db).is_json() {
                refusals.push(format!(
                    "{}: `{provider}.{alias}` is declared in a JSON file, which migrate does not edit; convert it \
                     by hand or regenerate it",
                    f.path(db)
                ));
                continue;
            }
            configs.push(Config { file: *f, block: block.clone(), alias });
        }
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
            refusals.push(format!(
                "`{provider}.{a}` is declared more than once (twice, or in an override file, which migrate does not \
                 merge); merge the blocks by hand first"
            ));
        }
    }

    // References in JSON and test files are left to the user: refuse when a JSON file of the module names an old
    // alias (the configuration would no longer be valid), list test files.
    for (f, _) in &parsed {
        if f.kind(db).is_json() && old.iter().any(|a| mentions(f.text(db), provider, a)) {
            refusals.push(format!(
                "{}: refers to an aliased `{provider}` configuration in JSON, which migrate does not edit",
                f.path(db)
            ));
        }
    }
    for f in module_dir.files(db).iter().filter(|f| f.kind(db).is_test()) {
        if old.iter().any(|a| mentions(f.text(db), provider, a)) {
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
    let merged = build::evaluate(db, &scope, &configs, provider)?;
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

    // Edits, per file.
    let mut changes: Vec<FileChange> = Vec::new();
    let mut push = |file: SourceFile, range: TextRange, new_text: String| {
        let text = file.text(db);
        let new_text = if uses_crlf(text) { to_crlf(&new_text) } else { new_text };
        let edit = TextEdit { location: FileRange::new(file.id(db), range), new_text };
        match changes.iter_mut().find(|c| c.file == file.id(db)) {
            Some(c) => c.edits.push(edit),
            None => changes.push(FileChange {
                file: file.id(db),
                path: file.path(db).clone(),
                original: text.clone(),
                edits: vec![edit],
            }),
        }
    };
    let mut notes = Vec::new();
    let first = &configs[0];
    push(first.file, first.block.range, merged.render(provider, &alias));
    for c in &configs[1..] {
        let (range, comment) = removal_range(c.file.text(db), c.block.range);
        if comment {
            notes.push(format!(
                "{}:{}: the comment above `{provider}.{}` is removed with its block",
                c.file.path(db),
                line_of(c.file.text(db), range.start()),
                c.alias
            ));
        }
        push(c.file, range, String::new());
    }
    for (f, p) in &parsed {
        if f.kind(db).is_json() {
            continue;
        }
        let mut refs = Vec::new();
        references(&p.body, provider, &old, &mut refs);
        for (range, key) in refs {
            push(*f, range, format!("{provider}.{alias}[\"{key}\"]"));
        }
    }
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Plan { alias, keys: old, files: changes, left_alone, notes })
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

/// The old alias `expr` refers to, when it is exactly `P.alias`.
fn alias_reference(expr: &foreach_syntax::ast::Expr, provider: &str, old: &[String]) -> Option<String> {
    let ExprKind::Traversal { base, steps } = &expr.kind else { return None };
    let ExprKind::Variable(root) = &base.kind else { return None };
    if root.name != provider || steps.len() != 1 {
        return None;
    }
    let TraversalOp::GetAttr(name) = &steps[0].op else { return None };
    old.iter().find(|a| **a == name.name).cloned()
}

/// The range to delete for a removed block: from the start of its line (with the comment lines right above it,
/// which describe it) through its line break, and one blank line after it, so that no gap of blank lines is left
/// behind. The flag says whether a comment is removed.
fn removal_range(text: &str, range: TextRange) -> (TextRange, bool) {
    let start = usize::from(range.start());
    let mut line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let own_line = text[line_start..start].trim().is_empty();
    let mut comment = false;
    while own_line && line_start > 0 {
        let prev_start = text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        let prev = text[prev_start..line_start].trim();
        if prev.starts_with('#') || prev.starts_with("//") {
            line_start = prev_start;
            comment = true;
        } else {
            break;
        }
    }
    let start = if own_line { line_start } else { start };
    let mut end = usize::from(range.end());
    let rest = &text[end..];
    let eol = rest.find('\n').map(|i| i + 1);
    if let Some(n) = eol
        && rest[..n].trim().is_empty()
    {
        end += n;
        let rest = &text[end..];
        if let Some(m) = rest.find('\n')
            && rest[..m].trim().is_empty()
            && start == line_start
        {
            end += m + 1;
        }
    }
    (TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)), comment)
}

/// Whether `text` holds `provider.alias` as a whole name (not `aws.use10` for `aws.use1`): a textual look at files
/// migrate does not parse as references.
fn mentions(text: &str, provider: &str, alias: &str) -> bool {
    let needle = format!("{provider}.{alias}");
    let name_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(&needle).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + needle.len()..].chars().next();
        !before.is_some_and(|c| name_char(c) || c == '.') && !after.is_some_and(name_char)
    })
}

/// Whether `s` is an HCL name (what an alias must be; it becomes a key of the map and of references).
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// The 1-based line of `offset`.
fn line_of(text: &str, offset: TextSize) -> usize {
    let at = usize::from(offset).min(text.len());
    text.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1
}

/// Evaluates one argument of an old block; an unknown value is returned as the reason it is not static.
fn eval_static(
    db: &dyn Db,
    scope: &ModuleScope,
    file: SourceFile,
    expr: &foreach_syntax::ast::Expr,
    origin: String,
) -> Result<Value, String> {
    let ctx = EvalContext { origin: origin.clone(), ..EvalContext::default() };
    let v = scope.eval(file.id(db), expr, &ctx);
    match v.first_unknown() {
        None => Ok(v),
        Some(r) => Err(format!(
            "{}:{}: {origin} is not known statically ({}; {}): a provider's for_each is evaluated before \
             anything is planned, so every value it holds must come from variables, locals and literals",
            file.path(db),
            line_of(file.text(db), expr.range.start()),
            r.explanation(),
            r.chain_text(&origin)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn removed(text: &str, block: &str) -> (String, bool) {
        let start = text.find(block).unwrap();
        let range = TextRange::at(TextSize::from(start as u32), TextSize::from(block.len() as u32));
        let (r, comment) = removal_range(text, range);
        let mut out = text.to_string();
        out.replace_range(std::ops::Range::<usize>::from(r), "");
        (out, comment)
    }

    #[test]
    fn removing_a_block_takes_its_line_one_blank_line_and_the_comment_above() {
        let text = "a = 1\n\n# the eu copy\nprovider \"aws\" {\n}\n\nb = 2\n";
        assert_eq!(removed(text, "provider \"aws\" {\n}"), ("a = 1\n\nb = 2\n".to_string(), true));
        let crlf = "a = 1\r\n\r\nprovider \"aws\" {\r\n}\r\n\r\nb = 2\r\n";
        assert_eq!(removed(crlf, "provider \"aws\" {\r\n}"), ("a = 1\r\n\r\nb = 2\r\n".to_string(), false));
        // At the end of a file without a final line break.
        let last = "a = 1\n\nprovider \"aws\" {}";
        assert_eq!(removed(last, "provider \"aws\" {}"), ("a = 1\n\n".to_string(), false));
    }

    #[test]
    fn mentions_whole_names_only() {
        assert!(mentions("{\"provider\": \"aws.use1\"}", "aws", "use1"));
        assert!(!mentions("{\"provider\": \"aws.use10\"}", "aws", "use1"));
        assert!(!mentions("{\"provider\": \"myaws.use1\"}", "aws", "use1"));
    }

    #[test]
    fn line_of_counts_from_one() {
        assert_eq!(line_of("a\nb\n", TextSize::from(2)), 2);
        assert_eq!(line_of("a", TextSize::from(99)), 1);
    }
}
