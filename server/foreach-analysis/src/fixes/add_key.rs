//! The fix for `unknown-provider-instance` when the provider's keys are written as a literal collection (in the
//! `for_each`, a local, a variable's default or a `.tfvars` line; see `key_source.rs`): add the missing keys to it.
//!
//! Only text is inserted, after the last item and in its style: on its own line with the same indentation (and a
//! trailing comma if the list has one) for a multi-line collection, `, "key"` on one line otherwise. A map needs a
//! value for the new key: the last item's value is copied from the text as a starting point (the title says so),
//! and the fix is never automatic, because a new key is a new provider instance.

use foreach_syntax::{FileKind, TextRange, TextSize};

use crate::base::FileRange;
use crate::diagnostics::{Fix, TextEdit};

use super::key_source::{LiteralCollection, LiteralKind};
use foreach_syntax::quote;

/// How many missing keys one fix adds.
const MAX_KEYS: usize = 8;

/// The fix adding `keys` to the collection `c`, whose file holds `text` and is of kind `kind`.
pub fn add_keys(c: &LiteralCollection, text: &str, kind: FileKind, keys: &[&str], config: &str) -> Option<Fix> {
    if keys.is_empty() || kind.is_json() || text.get(usize::from(c.range.start())..usize::from(c.range.end())).is_none()
    {
        return None;
    }
    let keys = &keys[..keys.len().min(MAX_KEYS)];
    let copied = match c.kind {
        LiteralKind::Tuple => None,
        LiteralKind::Object => {
            let value = c.entries.last()?.value?;
            let value_text = &text[value];
            if value_text.contains('\n') {
                return None;
            }
            Some((value_text, c.entries.last()?.key.as_str()))
        }
    };
    let quoted_keys = c.entries.iter().any(|e| text[e.range].starts_with('"'));
    let item = |k: &str| match copied {
        None => quote(k),
        Some((v, _)) if quoted_keys || !is_identifier(k) => format!("{} = {v}", quote(k)),
        Some((v, _)) => format!("{k} = {v}"),
    };
    let mut edits: Vec<(TextSize, String)> = Vec::new();
    match c.last {
        None => {
            // `[]`: the keys go between the brackets; an empty map has no value to copy (handled above).
            let inside = c.range.start() + TextSize::from(1);
            edits.push((inside, keys.iter().map(|k| item(k)).collect::<Vec<_>>().join(", ")));
        }
        Some(last) => {
            let close = usize::from(c.range.end()) - 1;
            let end = usize::from(last.end());
            let after = &text[end..close];
            let comma = after.trim_start().starts_with(',');
            let comma_end = end + after.find(',').map_or(0, |i| i + 1);
            let line_start = text[..usize::from(last.start())].rfind('\n').map(|i| i + 1);
            let own_line = line_start.filter(|&ls| {
                ls >= usize::from(c.range.start()) && text[ls..usize::from(last.start())].trim().is_empty()
            });
            // The rest of the last item's line, after its comma: nothing, or a comment to keep on that line.
            // (Up to a CRLF's `\r`: new lines go before the line break, whichever it is.)
            let rest_end =
                text[end..close].find('\n').map(|i| end + i - usize::from(text[end..end + i].ends_with('\r')));
            let rest = rest_end.map(|e| text[if comma { comma_end } else { end }..e].trim());
            let rest_is_comment = rest.is_some_and(|r| r.is_empty() || r.starts_with('#') || r.starts_with("//"));
            match (own_line, rest_end) {
                (Some(ls), Some(line_end)) if rest_is_comment => {
                    let indent = &text[ls..usize::from(last.start())];
                    let tuple = c.kind == LiteralKind::Tuple;
                    if tuple && !comma {
                        edits.push((last.end(), ",".to_string()));
                    }
                    let sep = if comma { "," } else { "" };
                    let items: Vec<String> = keys.iter().map(|k| item(k)).collect();
                    let joiner = if tuple { "," } else { sep };
                    let body: Vec<String> = items.iter().map(|i| format!("\n{indent}{i}")).collect();
                    edits.push((TextSize::from(line_end as u32), format!("{}{sep}", body.join(joiner))));
                }
                _ if comma => edits
                    .push((TextSize::from(comma_end as u32), keys.iter().map(|k| format!(" {},", item(k))).collect())),
                _ => edits.push((last.end(), keys.iter().map(|k| format!(", {}", item(k))).collect())),
            }
        }
    }
    let list: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    let mut title = format!("Add {} to the instances of `{config}`", list.join(", "));
    if let Some((_, from)) = copied {
        title.push_str(&format!(" (with the value of `{from}`)"));
    }
    Some(Fix {
        title,
        edits: edits
            .into_iter()
            .map(|(at, new_text)| TextEdit { location: FileRange::new(c.file, TextRange::empty(at)), new_text })
            .collect(),
        automatic: false,
    })
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !matches!(s, "null" | "true" | "false")
}

#[cfg(test)]
mod tests {
    use foreach_syntax::FileKind;
    use foreach_syntax::ast::Expr;

    use super::super::apply_edits;
    use super::super::key_source::{Lookup, literal_collection};
    use super::add_keys;
    use crate::base::FileId;

    struct NoLookup;
    impl Lookup for NoLookup {
        fn variable(&self, _: &str) -> Option<(FileId, Expr)> {
            None
        }
        fn local(&self, _: &str) -> Option<(FileId, Expr)> {
            None
        }
    }

    /// `x = <collection>` with `keys` added.
    fn added(collection: &str, keys: &[&str]) -> Option<String> {
        let text = format!("x = {collection}\n");
        let parsed = foreach_syntax::parse(&text, FileKind::Tfvars);
        let a = parsed.body.attribute("x").unwrap();
        let c = literal_collection(FileId(0), &a.value, &NoLookup)?;
        let fix = add_keys(&c, &text, FileKind::Tfvars, keys, "aws.x")?;
        let edits: Vec<&crate::diagnostics::TextEdit> = fix.edits.iter().collect();
        Some(apply_edits(&text, &edits).text.trim_end().strip_prefix("x = ").unwrap().to_string())
    }

    #[test]
    fn lists_in_their_own_style() {
        assert_eq!(added("[]", &["a"]).unwrap(), "[\"a\"]");
        assert_eq!(added("[\"a\"]", &["b", "c"]).unwrap(), "[\"a\", \"b\", \"c\"]");
        assert_eq!(added("[\"a\",]", &["b"]).unwrap(), "[\"a\", \"b\",]");
        assert_eq!(
            added("toset([\n  \"a\" # one\n])", &["b", "c"]).unwrap(),
            "toset([\n  \"a\", # one\n  \"b\",\n  \"c\"\n])"
        );
        assert_eq!(added("[\n  \"a\",\n]", &["b"]).unwrap(), "[\n  \"a\",\n  \"b\",\n]");
        // CRLF: the new line goes before the `\r` (the analysis turns its `\n` into the file's `\r\n`).
        assert_eq!(added("[\r\n  \"a\",\r\n]", &["b"]).unwrap(), "[\r\n  \"a\",\n  \"b\",\r\n]");
        // Items after the last one on its line: stay on one line.
        assert_eq!(added("[\n  \"a\", \"b\"]", &["c"]).unwrap(), "[\n  \"a\", \"b\", \"c\"]");
    }

    #[test]
    fn maps_copy_the_last_value() {
        assert_eq!(added("{ a = 1 }", &["b"]).unwrap(), "{ a = 1, b = 1 }");
        assert_eq!(added("{ \"a\" = 1 }", &["b"]).unwrap(), "{ \"a\" = 1, \"b\" = 1 }");
        assert_eq!(added("{\n  a = 1\n}", &["b c"]).unwrap(), "{\n  a = 1\n  \"b c\" = 1\n}");
        // Nothing to copy, or a value over several lines: no fix.
        assert_eq!(added("{}", &["b"]), None);
        assert_eq!(added("{\n  a = {\n    r = 1\n  }\n}", &["b"]), None);
    }

    #[test]
    fn computed_collections_have_no_place_to_add_a_key() {
        assert_eq!(added("{ for k in [\"a\"] : k => k }", &["b"]), None);
        assert_eq!(added("merge({ a = 1 })", &["b"]), None);
        assert_eq!(added("var.x", &["b"]), None);
    }
}
