//! Merging one set of per-alias copies (`migrate --resources`): the copies are compared argument by argument,
//! the values that differ move into a local map keyed by the old aliases, and the first copy's text, edited in
//! place, becomes the merged block with `for_each`. Everything else of the block stays as it was written.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{Attribute, Body, Expr, ExprKind};

use super::addresses::{KeyStyle, Kind, Rename, apply_in, rewrite_expr};
use super::build::{squeezed, widths};
use super::json;
use super::text::{alias_reference, line_of};
use crate::db::{Db, SourceFile};

/// One old block of a set of copies.
#[derive(Debug, Clone)]
pub(super) struct Copy<'a> {
    pub file: SourceFile,
    pub block: &'a foreach_syntax::ast::Block,
    /// The old alias it uses: its instance key.
    pub key: String,
}

/// A set of copies of one block type, to merge under one name.
#[derive(Debug, Clone)]
pub(super) struct Group<'a> {
    pub kind: Kind,
    /// The resource type (empty for module calls).
    pub ty: String,
    pub name: String,
    pub copies: Vec<Copy<'a>>,
}

impl Group<'_> {
    /// `aws_vpc.this`, `data.aws_ami.this`, `module.regional`.
    pub(super) fn address(&self) -> String {
        match self.kind {
            Kind::Resource => format!("{}.{}", self.ty, self.name),
            Kind::Data => format!("data.{}.{}", self.ty, self.name),
            Kind::Module => format!("module.{}", self.name),
        }
    }

    /// The name of the local value that holds the map of its instances' values.
    pub(super) fn local_name(&self) -> String {
        match self.kind {
            Kind::Resource => format!("{}_{}", self.ty, self.name),
            Kind::Data => format!("data_{}_{}", self.ty, self.name),
            Kind::Module => format!("module_{}", self.name),
        }
    }
}

/// What the provider migration decided, which every merged block refers to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target<'a> {
    /// The provider's local name (`aws`).
    pub provider: &'a str,
    /// The new configuration's alias (`by_region`), also the name of its map (`local.by_region`).
    pub alias: &'a str,
    /// Every old alias, in order.
    pub keys: &'a [String],
}

/// What replaces a set of copies.
#[derive(Debug, Clone)]
pub(super) enum Merged {
    /// In a native file: the text that replaces the first copy, the local map (when one is needed), the merged
    /// block and, for resources and module calls, one `moved` block per copy. `\n` line breaks.
    Native(String),
    /// In a JSON file: the member that replaces the first copy (`"logs": { … }`), and what goes to the file's root
    /// object: the local map, by name, and the `moved` blocks.
    Json { member: String, local: Option<(String, json::Out)>, moved: Vec<json::Out> },
}

pub(super) fn merge(db: &dyn Db, group: &Group<'_>, renames: &[Rename], target: Target<'_>) -> Result<Merged, String> {
    let texts: Vec<std::sync::Arc<str>> = group.copies.iter().map(|c| c.file.text(db)).collect();
    let first = &group.copies[0];
    let layout = if first.file.kind(db).is_json() {
        let root = json::parse(&texts[0]).ok_or("its JSON file cannot be read")?;
        Some(json::Layout::of(&texts[0], &root))
    } else {
        None
    };
    let mut walk = Walk {
        texts: texts.iter().map(|t| &**t).collect(),
        keys: group.copies.iter().map(|c| c.key.as_str()).collect(),
        kind: group.kind,
        renames,
        target,
        json: layout.is_some(),
        edits: Vec::new(),
        values: Vec::new(),
    };
    let bodies: Vec<&Body> = group.copies.iter().map(|c| &c.block.body).collect();
    walk.body(&bodies, "", false)?;

    let text = walk.texts[0];
    let label = first.block.labels.get(if group.kind == Kind::Module { 0 } else { 1 }).ok_or("it has no name")?;
    walk.edits.push((label.range, format!("\"{}\"", group.name)));
    let all_keys = target.keys.iter().all(|k| walk.keys.contains(&k.as_str()));
    let local = (!walk.values.is_empty() || !all_keys).then(|| group.local_name());
    let for_each = for_each(local.as_deref(), target.alias);
    // `for_each` goes first, on its own line, with the indentation of what was first.
    let body = &first.block.body;
    let Some(first_item) = body.structures.first() else { return Err("its body is empty".to_string()) };
    let at = match first_item {
        foreach_syntax::ast::Structure::Attribute(a) => a.range.start(),
        foreach_syntax::ast::Structure::Block(b) => b.range.start(),
    };
    let (open, at_usize) = (usize::from(first.block.body_range.start()) + 1, usize::from(at));
    let line_start = text[..at_usize].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start.max(open).min(at_usize)..at_usize];
    let moved: Vec<&Rename> = if group.kind == Kind::Data {
        Vec::new()
    } else {
        renames.iter().filter(|r| r.kind == group.kind && r.ty == group.ty && r.new == group.name).collect()
    };

    if let Some(layout) = &layout {
        // In JSON: `"for_each"` first, as the first member was written (on its own line or not).
        let sep = if line_start < open { layout.after_comma.clone() } else { format!("{}{indent}", layout.newline) };
        let key = json::quoted("for_each");
        let value = json::quoted(&format!("${{{for_each}}}"));
        walk.edits.push((TextRange::empty(at), format!("{key}{}{value},{sep}", layout.colon)));
        let local = local.map(|l| (l.clone(), walk.local_json()));
        let moved = moved
            .iter()
            .map(|r| {
                json::Out::Object(vec![
                    ("from".to_string(), json::Out::Str(r.old_address())),
                    ("to".to_string(), json::Out::Str(r.new_instance())),
                ])
            })
            .collect();
        return Ok(Merged::Json { member: apply_in(text, first.block.range, &walk.edits), local, moved });
    }

    if line_start < open {
        return Err("it is written on one line".to_string());
    }
    // A blank line after it keeps the `=` of the arguments below aligned as `tofu fmt` wants them.
    walk.edits.push((TextRange::empty(at), format!("for_each = {for_each}\n\n{indent}")));
    let mut out = String::new();
    if let Some(l) = &local {
        out.push_str(&walk.render_local(l));
        out.push_str("\n\n");
    }
    out.push_str(&apply_in(text, first.block.range, &walk.edits).replace("\r\n", "\n"));
    for r in moved {
        out.push_str("\n\n");
        out.push_str(&r.moved_block());
    }
    Ok(Merged::Native(super::finish::formatted_blocks(out)))
}

/// The merged block's `for_each`: the provider's map (or the block's own, `local`) filtered on the provider map's
/// `enabled`, the RFC's pattern, which is not "too similar" to the provider's `for_each = local.<alias>`.
fn for_each(local: Option<&str>, alias: &str) -> String {
    match local {
        Some(l) => format!("{{ for k, v in local.{l} : k => v if local.{alias}[k].enabled }}"),
        None => format!("{{ for k, v in local.{alias} : k => v if v.enabled }}"),
    }
}

/// Blocks whose contents must be the same in every copy: their expressions refer to things (`self`, a `dynamic`
/// block's iterator) that a local value cannot see, or they are meta-arguments.
const META_BLOCKS: &[&str] = &["lifecycle", "provisioner", "connection", "dynamic"];

struct Walk<'a> {
    /// Each copy's file text.
    texts: Vec<&'a str>,
    keys: Vec<&'a str>,
    kind: Kind,
    renames: &'a [Rename],
    target: Target<'a>,
    /// The copies are in a JSON file: what is written goes inside JSON strings, and values that differ must be
    /// scalars (an object may be a nested block there).
    json: bool,
    /// Edits of the first copy, in its file's offsets.
    edits: Vec<(TextRange, String)>,
    /// Values that move into the map: their name, and per copy the text and the indentation it was written at.
    values: Vec<(String, Vec<(String, usize)>)>,
}

impl Walk<'_> {
    fn body(&mut self, bodies: &[&Body], path: &str, meta: bool) -> Result<(), String> {
        let top = path.is_empty();
        let first = shape(bodies[0]);
        if let Some(i) = bodies.iter().position(|b| shape(b) != first) {
            return Err(format!(
                "the copies for `{}` and `{}` differ in their arguments or nested blocks{}, not only in values",
                self.keys[0],
                self.keys[i],
                in_block(path)
            ));
        }
        for attr in bodies[0].attributes() {
            let name = attr.key.name.as_str();
            let attrs: Vec<&Attribute> = bodies.iter().map(|b| b.attribute(name).expect("same shape")).collect();
            match name {
                "provider" if top && self.kind != Kind::Module => {
                    let p = self.target;
                    self.expression_text(0, attr.value.range)?;
                    self.edits.push((attr.value.range, format!("{}.{}[each.key]", p.provider, p.alias)));
                }
                "providers" if top && self.kind == Kind::Module => self.providers(&attrs)?,
                "depends_on" => self.same(&attrs, KeyStyle::Whole, name, path)?,
                "source" | "version" if top && self.kind == Kind::Module => {
                    self.same(&attrs, KeyStyle::Own(self.keys[0]), name, path)?
                }
                _ if meta => self.same(&attrs, KeyStyle::Own(self.keys[0]), name, path)?,
                _ => self.value(&attrs, name, path)?,
            }
        }
        let firsts: Vec<&foreach_syntax::ast::Block> = bodies[0].blocks().collect();
        for (i, b) in firsts.iter().enumerate() {
            let inner: Vec<&Body> = bodies.iter().map(|body| &body.blocks().nth(i).expect("same shape").body).collect();
            let ident = b.ident.name.as_str();
            let repeated = firsts.iter().filter(|o| o.ident.name == ident).count() > 1;
            let step = if repeated {
                format!("{ident}_{}", firsts[..i].iter().filter(|o| o.ident.name == ident).count())
            } else {
                ident.to_string()
            };
            let inner_path = if top { step } else { format!("{path}_{step}") };
            self.body(&inner, &inner_path, meta || META_BLOCKS.contains(&ident))?;
        }
        Ok(())
    }

    /// The text of `expr` in copy `i` with its references to renamed blocks rewritten, and the edits that do it.
    fn rewritten(
        &self,
        i: usize,
        expr: &Expr,
        style: KeyStyle<'_>,
    ) -> Result<(String, Vec<(TextRange, String)>), String> {
        let mut edits = Vec::new();
        rewrite_expr(self.texts[i], expr, self.renames, style, &mut edits).map_err(|r| {
            format!(
                "the reference at line {} of the copy for `{}` {}",
                line_of(self.texts[i], r.start()),
                self.keys[i],
                if self.json {
                    "is written with escapes in its JSON string"
                } else {
                    "has spaces or comments inside its address"
                }
            )
        })?;
        if self.json {
            edits.iter_mut().for_each(|(_, t)| *t = json::escaped(t));
        }
        Ok((apply_in(self.texts[i], expr.range, &edits), edits))
    }

    /// In JSON, that `range` of copy `i` is the text of an expression inside its string (not the whole string, as
    /// for one written with escapes), so that an edit there is an edit of the expression.
    fn expression_text(&self, i: usize, range: TextRange) -> Result<(), String> {
        match self.texts[i].get(std::ops::Range::<usize>::from(range)) {
            Some(t) if self.json && t.starts_with('"') => Err(format!(
                "the copy for `{}` writes a provider reference with escapes in its JSON string",
                self.keys[i]
            )),
            _ => Ok(()),
        }
    }

    /// An argument that must be written the same in every copy (once the references are rewritten).
    fn same(&mut self, attrs: &[&Attribute], style: KeyStyle<'_>, name: &str, path: &str) -> Result<(), String> {
        let mut first = None;
        for (i, a) in attrs.iter().enumerate() {
            let style = match style {
                KeyStyle::Own(_) => KeyStyle::Own(self.keys[i]),
                s => s,
            };
            let (t, edits) = self.rewritten(i, &a.value, style)?;
            match &first {
                None => first = Some((squeezed(&t), edits)),
                Some((f, _)) if *f == squeezed(&t) => {}
                Some(_) => {
                    return Err(format!(
                        "`{name}`{} differs between the copies for `{}` and `{}`, and cannot move into a map",
                        in_block(path),
                        self.keys[0],
                        self.keys[i]
                    ));
                }
            }
        }
        self.edits.extend(first.map(|(_, e)| e).unwrap_or_default());
        Ok(())
    }

    /// An argument that may differ: the same in every copy stays, one that differs moves into the map.
    fn value(&mut self, attrs: &[&Attribute], name: &str, path: &str) -> Result<(), String> {
        let mut own = Vec::new();
        for (i, a) in attrs.iter().enumerate() {
            own.push(self.rewritten(i, &a.value, KeyStyle::Own(self.keys[i]))?);
        }
        if own.iter().all(|(t, _)| squeezed(t) == squeezed(&own[0].0)) {
            self.edits.extend(own.swap_remove(0).1);
            return Ok(());
        }
        if self.json && attrs.iter().any(|a| matches!(a.value.kind, ExprKind::Object(_) | ExprKind::Tuple(_))) {
            return Err(format!(
                "`{name}`{} differs between the copies and is an object or a list, which in JSON may be a nested \
                 block (JSON cannot tell them apart), so it cannot move into a map; make it the same in every copy, \
                 or merge by hand",
                in_block(path)
            ));
        }
        let mut texts = Vec::new();
        for (i, a) in attrs.iter().enumerate() {
            let (t, _) = self.rewritten(i, &a.value, KeyStyle::Literal)?;
            texts.push((t, column(self.texts[i], a.range.start())));
        }
        let base = if path.is_empty() { name.to_string() } else { format!("{path}_{name}") };
        let mut key = base.clone();
        let mut n = 1;
        while key == "enabled" || self.values.iter().any(|(k, _)| *k == key) {
            n += 1;
            key = format!("{base}_{n}");
        }
        let reads =
            if self.json { json::quoted(&format!("${{each.value.{key}}}")) } else { format!("each.value.{key}") };
        self.edits.push((attrs[0].value.range, reads));
        self.values.push((key, texts));
        Ok(())
    }

    /// A module call's `providers`: the entries for the provider become instances of the new configuration; the
    /// others must be the same in every copy.
    fn providers(&mut self, attrs: &[&Attribute]) -> Result<(), String> {
        let p = self.target;
        let mut first: Option<Vec<String>> = None;
        for (i, a) in attrs.iter().enumerate() {
            let ExprKind::Object(items) = &a.value.kind else {
                return Err("its `providers` is not a map written out".to_string());
            };
            let mut shape = Vec::new();
            for item in items {
                let key = squeezed(&self.texts[i][std::ops::Range::<usize>::from(item.key.range())]);
                if alias_reference(&item.value, p.provider, p.keys).is_some() {
                    shape.push(format!("{key} = <alias>"));
                    if i == 0 {
                        self.expression_text(0, item.value.range)?;
                        self.edits.push((item.value.range, format!("{}.{}[each.key]", p.provider, p.alias)));
                    }
                } else {
                    shape.push(format!(
                        "{key} = {}",
                        squeezed(&self.texts[i][std::ops::Range::<usize>::from(item.value.range)])
                    ));
                }
            }
            match &first {
                None => first = Some(shape),
                Some(f) if *f == shape => {}
                Some(_) => {
                    return Err(format!(
                        "`providers` differs between the copies for `{}` and `{}` in more than the alias",
                        self.keys[0], self.keys[i]
                    ));
                }
            }
        }
        Ok(())
    }

    /// The local map in JSON: `{ "<key>": { "<value>": … } }`, each value as written in its copy (a scalar, on
    /// one line: `value` refuses the rest).
    fn local_json(&self) -> json::Out {
        let entry = |i: usize| {
            let values =
                self.values.iter().map(|(n, texts)| (n.clone(), json::Out::Raw { text: texts[i].0.clone(), level: 0 }));
            json::Out::Object(values.collect())
        };
        json::Out::Object(self.keys.iter().enumerate().map(|(i, key)| (key.to_string(), entry(i))).collect())
    }

    /// `locals { <name> = { <key> = { <value> = … } } }`.
    fn render_local(&self, name: &str) -> String {
        let mut s = format!("locals {{\n  {name} = {{\n");
        let names: Vec<Option<&str>> = self.values.iter().map(|(n, _)| Some(n.as_str())).collect();
        let widths = widths(&names);
        for (i, key) in self.keys.iter().enumerate() {
            let key = if key.contains('-') { format!("\"{key}\"") } else { key.to_string() };
            if self.values.is_empty() {
                s.push_str(&format!("    {key} = {{}}\n"));
                continue;
            }
            s.push_str(&format!("    {key} = {{\n"));
            for ((n, texts), w) in self.values.iter().zip(&widths) {
                let (text, column) = &texts[i];
                s.push_str(&format!("      {n:w$} = {}\n", reindent(&text.replace("\r\n", "\n"), *column, 6)));
            }
            s.push_str("    }\n");
        }
        s.push_str("  }\n}");
        s
    }
}

/// The sorted argument names and the nested blocks (type and labels, in order) of a body.
#[allow(clippy::type_complexity)]
fn shape(b: &Body) -> (Vec<&str>, Vec<(&str, Vec<&str>)>) {
    let mut names: Vec<&str> = b.attributes().map(|a| a.key.name.as_str()).collect();
    names.sort_unstable();
    let blocks =
        b.blocks().map(|b| (b.ident.name.as_str(), b.labels.iter().map(|l| l.value.as_str()).collect())).collect();
    (names, blocks)
}

fn in_block(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!(" (in `{path}`)") }
}

/// The column `offset` is at in its line.
fn column(text: &str, offset: foreach_syntax::TextSize) -> usize {
    let at = usize::from(offset);
    at - text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// A multi-line value moved from indentation `from` to `to`: its continuation lines shift by the difference. A
/// heredoc is left as written (its lines are part of the value).
fn reindent(text: &str, from: usize, to: usize) -> String {
    if !text.contains('\n') || text.contains("<<") {
        return text.to_string();
    }
    let mut lines = text.split('\n');
    let mut out = lines.next().unwrap_or_default().to_string();
    for line in lines {
        out.push('\n');
        if to >= from {
            if !line.is_empty() {
                out.push_str(&" ".repeat(to - from));
            }
            out.push_str(line);
        } else {
            let strip = line.len() - line.trim_start_matches(' ').len();
            out.push_str(&line[strip.min(from - to)..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_for_each_is_not_too_similar_to_the_provider_s() {
        let e = |s: &str| foreach_syntax::parse_expr(s).expect("an expression");
        let provider = e("local.by_region");
        assert!(crate::similar::too_similar(&e("local.by_region"), &provider), "the trap this avoids");
        for written in [for_each(None, "by_region"), for_each(Some("aws_vpc_this"), "by_region")] {
            assert!(!crate::similar::too_similar(&e(&written), &provider), "{written}");
        }
    }

    #[test]
    fn reindents_continuation_lines_but_not_heredocs() {
        assert_eq!(reindent("{\n    a = 1\n  }", 2, 6), "{\n        a = 1\n      }");
        assert_eq!(reindent("{\n        a = 1\n      }", 6, 2), "{\n    a = 1\n  }");
        assert_eq!(reindent("<<EOT\nx\nEOT", 2, 6), "<<EOT\nx\nEOT");
    }
}
