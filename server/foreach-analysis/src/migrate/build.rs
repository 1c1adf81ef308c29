//! Merging the old blocks' arguments: which stay in the new block as they are, which move into the `locals` map
//! (one entry per old alias), and rendering both blocks.

use std::sync::Arc;

use foreach_syntax::ast::{Attribute, Block, Body};

use super::json;
use super::statics::Statics;
use crate::db::{Db, SourceFile};

/// One old aliased configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: SourceFile,
    /// The file's text, read once: the merge slices many arguments out of it, and a file read from disk is kept
    /// compressed.
    pub text: Arc<str>,
    pub block: Block,
    pub alias: String,
    /// What replacing or removing the block replaces or removes: the block in a native file; in a JSON file, the
    /// member that holds it (`json::member_of`).
    pub member: foreach_syntax::TextRange,
}

/// One argument or nested block of the new configuration.
#[derive(Debug, Clone)]
enum Item {
    /// An argument written the same in every old block (or evaluating to the same value): its name, the
    /// expression text of the first block, and the column that argument starts at there.
    SameArg { name: String, text: String, column: usize },
    /// A nested block written the same in every old block: copied from the first block.
    Same(String),
    /// An argument whose value differs: per old alias, its expression text (`None`: not set there).
    Differs { name: String, texts: Vec<Option<String>> },
    /// A nested block present once in every old block, with at least one differing argument.
    Block { ident: String, items: Vec<Item> },
    /// A nested block present once in some old blocks and missing from the others: a `dynamic` block over
    /// `each.value.<ident>[*]` (null where it is missing). `present[key]` is the index into the items' texts of
    /// each old alias that has it.
    Optional { ident: String, present: Vec<Option<usize>>, items: Vec<Item> },
}

/// The merged configuration, ready to render.
pub(super) struct Merged {
    keys: Vec<String>,
    items: Vec<Item>,
}

/// Compares the old blocks' arguments; `Err` lists every argument that differs and is not known statically, and
/// every nested block that cannot be merged.
pub(super) fn evaluate(
    db: &dyn Db,
    statics: &Statics<'_>,
    configs: &[Config],
    provider: &str,
) -> Result<Merged, Vec<String>> {
    let bodies: Vec<(&Config, &Body)> = configs.iter().map(|c| (c, &c.block.body)).collect();
    let mut errors = Vec::new();
    let items = merge(db, statics, &bodies, provider, "", &mut errors);
    if errors.is_empty() {
        Ok(Merged { keys: configs.iter().map(|c| c.alias.clone()).collect(), items })
    } else {
        Err(errors)
    }
}

fn source(config: &Config, range: foreach_syntax::TextRange) -> &str {
    config.text.get(usize::from(range.start())..usize::from(range.end())).unwrap_or("")
}

/// Text compared without its spacing, so that `a = 1` and `a  =  1` count as the same.
pub(super) fn squeezed(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn merge(
    db: &dyn Db,
    statics: &Statics<'_>,
    bodies: &[(&Config, &Body)],
    provider: &str,
    path: &str,
    errors: &mut Vec<String>,
) -> Vec<Item> {
    let top = path.is_empty();
    let mut names: Vec<&str> = Vec::new();
    let mut idents: Vec<&str> = Vec::new();
    for (_, body) in bodies {
        for a in body.attributes() {
            let skipped = top && a.key.name == "alias";
            if !skipped && !names.contains(&a.key.name.as_str()) {
                names.push(&a.key.name);
            }
        }
        for b in body.blocks() {
            if !idents.contains(&b.ident.name.as_str()) {
                idents.push(&b.ident.name);
            }
        }
    }
    let mut items = Vec::new();
    for name in names {
        let attrs: Vec<Option<&Attribute>> = bodies.iter().map(|(_, b)| b.attribute(name)).collect();
        let texts: Vec<Option<String>> =
            bodies.iter().zip(&attrs).map(|((c, _), a)| a.map(|a| source(c, a.value.range).to_string())).collect();
        let column = attrs[0].map_or(0, |a| {
            let (text, at) = (&bodies[0].0.text, usize::from(a.range.start()));
            at - text[..at].rfind('\n').map_or(0, |i| i + 1)
        });
        let same = || Item::SameArg { name: name.to_string(), text: texts[0].clone().unwrap_or_default(), column };
        if texts.iter().all(|t| t.is_some())
            && texts.iter().all(|t| squeezed(t.as_deref().unwrap_or("")) == squeezed(texts[0].as_deref().unwrap_or("")))
        {
            items.push(same());
            continue;
        }
        // Written differently: the values decide, and they must be static to move into the map.
        let mut values = Vec::new();
        for ((c, _), a) in bodies.iter().zip(&attrs) {
            let Some(a) = a else {
                values.push(None);
                continue;
            };
            let origin = format!("`{name}` of `{provider}.{}`{}", c.alias, in_block(path));
            match statics.eval(db, c.file, &a.value, origin) {
                Ok(v) => values.push(Some(v)),
                Err(e) => errors.push(e),
            }
        }
        // Equal values are the same argument only when wholly known: two unknowns (variables with no value here)
        // compare equal whatever they hold.
        let known = |v: &Option<crate::eval::Value>| v.as_ref().is_some_and(|v| v.first_unknown().is_none());
        if values.len() == bodies.len() && values.iter().all(|v| known(v) && *v == values[0]) {
            items.push(same());
        } else {
            items.push(Item::Differs { name: name.to_string(), texts });
        }
    }
    for ident in idents {
        let blocks: Vec<Vec<&Block>> = bodies.iter().map(|(_, b)| b.blocks_named(ident).collect()).collect();
        let texts: Vec<String> = bodies
            .iter()
            .zip(&blocks)
            .map(|((c, _), bs)| bs.iter().map(|b| squeezed(source(c, b.range))).collect::<Vec<_>>().join("\n"))
            .collect();
        if texts.iter().all(|t| *t == texts[0]) {
            for b in &blocks[0] {
                items.push(Item::Same(source(bodies[0].0, b.range).to_string()));
            }
            continue;
        }
        let where_ = format!("{}{ident}", if top { String::new() } else { format!("{path}.") });
        let plain = |bs: &Vec<&Block>| {
            bs.len() <= 1 && bs.iter().all(|b| b.labels.is_empty() && b.body.blocks().next().is_none())
        };
        if top && ident != "dynamic" && blocks.iter().all(plain) && blocks.iter().any(|bs| bs.is_empty()) {
            // Set in some configurations only: a `dynamic` block that the map switches on and off.
            let mut present = Vec::new();
            let mut inner: Vec<(&Config, &Body)> = Vec::new();
            for ((c, _), bs) in bodies.iter().zip(&blocks) {
                match bs.first() {
                    Some(b) => {
                        present.push(Some(inner.len()));
                        inner.push((*c, &b.body));
                    }
                    None => present.push(None),
                }
            }
            let nested = merge(db, statics, &inner, provider, &where_, errors);
            items.push(Item::Optional { ident: ident.to_string(), present, items: nested });
            continue;
        }
        if blocks.iter().any(|bs| bs.len() != 1 || !bs[0].labels.is_empty()) {
            errors.push(format!(
                "the `{where_}` blocks of the `{provider}` configurations differ and are not one plain block in each \
                 ({}); make them alike or migrate by hand",
                bodies
                    .iter()
                    .zip(&blocks)
                    .map(|((c, _), bs)| format!("{}: {}", c.alias, bs.len()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            continue;
        }
        let inner: Vec<(&Config, &Body)> = bodies.iter().zip(&blocks).map(|((c, _), bs)| (*c, &bs[0].body)).collect();
        let nested = merge(db, statics, &inner, provider, &where_, errors);
        items.push(Item::Block { ident: ident.to_string(), items: nested });
    }
    items
}

fn in_block(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!(" (in its `{path}` block)") }
}

impl Merged {
    /// Whether a top-level argument moves into the map.
    pub(super) fn differs_in(&self, name: &str) -> bool {
        self.items.iter().any(|i| matches!(i, Item::Differs { name: n, .. } if n == name))
    }

    /// The `locals` block holding the map and the new `provider` block, with `\n` line breaks. With `enabled`
    /// (resources were merged), each entry gets `enabled = true`, the switch the merged blocks' `for_each` filters
    /// on (the RFC's pattern against removing a provider instance together with its resources).
    pub(super) fn render(&self, provider: &str, alias: &str, enabled: bool) -> String {
        let mut s = String::new();
        s.push_str("locals {\n");
        let mut items = self.items.clone();
        if enabled {
            s.push_str(
                "  # `enabled = false` on an entry destroys the resources merged for it while its provider instance\n  \
                 # remains; remove the entry only once that has been applied.\n",
            );
            items.push(Item::Differs {
                name: "enabled".to_string(),
                texts: vec![Some("true".to_string()); self.keys.len()],
            });
        }
        s.push_str(&format!("  {alias} = {{\n"));
        for (i, key) in self.keys.iter().enumerate() {
            // An alias may hold `-`; quoted, such a key cannot be read as a subtraction by anyone.
            let key = if key.contains('-') { format!("\"{key}\"") } else { key.clone() };
            s.push_str(&format!("    {key} = {{\n"));
            map_entries(&items, i, 6, &mut s);
            s.push_str("    }\n");
        }
        s.push_str("  }\n}\n\n");
        s.push_str(&format!("provider \"{provider}\" {{\n"));
        s.push_str(&format!("  alias    = \"{alias}\"\n"));
        s.push_str(&format!("  for_each = local.{alias}\n"));
        if !self.items.is_empty() {
            s.push('\n');
        }
        block_items(&self.items, "each.value", 2, &mut s);
        s.push('}');
        s
    }
}

impl Merged {
    /// The same in a JSON file laid out as `layout`: the new provider configuration's body and the map for the
    /// file's `locals` (each old value as written: JSON strings are templates in both places). An argument that
    /// differs and holds an object or a list cannot move into the map there: JSON does not tell a nested block
    /// (`assume_role`) from an argument, and a block cannot be read from `each.value`.
    pub(super) fn render_json(
        &self,
        provider: &str,
        alias: &str,
        enabled: bool,
        layout: &json::Layout,
    ) -> Result<(json::Out, json::Out), String> {
        use json::Out;
        let level = |column: usize| column / layout.unit.len().max(1);
        let mut body = vec![
            ("alias".to_string(), Out::Str(alias.to_string())),
            ("for_each".to_string(), Out::Str(format!("${{local.{alias}}}"))),
        ];
        let mut entries: Vec<(String, Vec<(String, Out)>)> =
            self.keys.iter().map(|k| (k.clone(), Vec::new())).collect();
        for item in &self.items {
            match item {
                Item::SameArg { name, text, column } => {
                    body.push((name.clone(), Out::Raw { text: text.replace("\r\n", "\n"), level: level(*column) }))
                }
                Item::Differs { name, texts } => {
                    if texts.iter().flatten().any(|t| t.starts_with('{') || t.starts_with('[')) {
                        let names: Vec<String> = self.keys.iter().map(|k| format!("`{provider}.{k}`")).collect();
                        return Err(format!(
                            "`{name}` differs between the JSON configurations {} and holds an object or a list, \
                             which in JSON may be a nested block (JSON cannot tell them apart) and cannot be read \
                             from the map; make it the same in every configuration, or migrate by hand",
                            names.join(", ")
                        ));
                    }
                    body.push((name.clone(), Out::Str(format!("${{each.value.{name}}}"))));
                    for ((_, e), t) in entries.iter_mut().zip(texts) {
                        e.push((name.clone(), Out::Raw { text: t.clone().unwrap_or_else(|| "null".into()), level: 0 }));
                    }
                }
                // JSON configurations hold only arguments (`provider` bodies are read as such).
                Item::Same(_) | Item::Block { .. } | Item::Optional { .. } => {
                    return Err("a configuration of a JSON file has a nested block, which migrate does not \
                                convert in JSON; migrate by hand"
                        .to_string());
                }
            }
        }
        if enabled {
            entries
                .iter_mut()
                .for_each(|(_, e)| e.push(("enabled".into(), Out::Raw { text: "true".into(), level: 0 })));
        }
        let map = Out::Object(entries.into_iter().map(|(k, e)| (k, Out::Object(e))).collect());
        Ok((Out::Object(body), map))
    }
}

/// The width of the longest name in each run of consecutive arguments, so that their `=` line up as `tofu fmt`
/// aligns them.
pub(super) fn widths(names: &[Option<&str>]) -> Vec<usize> {
    let mut out = vec![0; names.len()];
    let mut i = 0;
    while i < names.len() {
        let Some(_) = names[i] else {
            i += 1;
            continue;
        };
        let start = i;
        while i < names.len() && names[i].is_some() {
            i += 1;
        }
        let w = names[start..i].iter().map(|n| n.map_or(0, str::len)).max().unwrap_or(0);
        out[start..i].iter_mut().for_each(|x| *x = w);
    }
    out
}

fn map_entries(items: &[Item], key: usize, indent: usize, s: &mut String) {
    let pad = " ".repeat(indent);
    let shown: Vec<&Item> = items.iter().filter(|i| !matches!(i, Item::Same(_) | Item::SameArg { .. })).collect();
    let names: Vec<Option<&str>> = shown
        .iter()
        .map(|i| match i {
            Item::Differs { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let widths = widths(&names);
    for (item, width) in shown.into_iter().zip(widths) {
        match item {
            Item::Differs { name, texts } => {
                let text = texts[key].as_deref().unwrap_or("null");
                s.push_str(&format!("{pad}{name:width$} = {}\n", text.replace("\r\n", "\n")));
            }
            Item::Block { ident, items } => nested_entry(ident, items, key, indent, s),
            Item::Optional { ident, present, items } => match present[key] {
                None => s.push_str(&format!("{pad}{ident} = null\n")),
                Some(j) => nested_entry(ident, items, j, indent, s),
            },
            _ => {}
        }
    }
}

/// `ident = { … }` of a nested block's differing arguments; `{}` when none differ (the block is still there).
fn nested_entry(ident: &str, items: &[Item], key: usize, indent: usize, s: &mut String) {
    let pad = " ".repeat(indent);
    if items.iter().all(|i| matches!(i, Item::Same(_) | Item::SameArg { .. })) {
        s.push_str(&format!("{pad}{ident} = {{}}\n"));
        return;
    }
    s.push_str(&format!("{pad}{ident} = {{\n"));
    map_entries(items, key, indent + 2, s);
    s.push_str(&format!("{pad}}}\n"));
}

fn block_items(items: &[Item], path: &str, indent: usize, s: &mut String) {
    let pad = " ".repeat(indent);
    let names: Vec<Option<&str>> = items
        .iter()
        .map(|i| match i {
            Item::Differs { name, .. } | Item::SameArg { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let widths = widths(&names);
    for (n, (item, width)) in items.iter().zip(widths).enumerate() {
        // A blank line before each nested block, as configurations are usually written.
        if n > 0 && names[n].is_none() {
            s.push('\n');
        }
        match item {
            Item::SameArg { name, text, .. } => {
                s.push_str(&format!("{pad}{name:width$} = {}\n", text.replace("\r\n", "\n")))
            }
            Item::Same(text) => s.push_str(&format!("{pad}{}\n", text.replace("\r\n", "\n"))),
            Item::Differs { name, .. } => s.push_str(&format!("{pad}{name:width$} = {path}.{name}\n")),
            Item::Block { ident, items } => {
                s.push_str(&format!("{pad}{ident} {{\n"));
                block_items(items, &format!("{path}.{ident}"), indent + 2, s);
                s.push_str(&format!("{pad}}}\n"));
            }
            Item::Optional { ident, items, .. } => {
                // `[*]` on null is an empty list and on an object a list of it: one block or none.
                s.push_str(&format!("{pad}dynamic \"{ident}\" {{\n"));
                s.push_str(&format!("{pad}  for_each = {path}.{ident}[*]\n"));
                s.push_str(&format!("{pad}  content {{\n"));
                block_items(items, &format!("{ident}.value"), indent + 4, s);
                s.push_str(&format!("{pad}  }}\n"));
                s.push_str(&format!("{pad}}}\n"));
            }
        }
    }
}
