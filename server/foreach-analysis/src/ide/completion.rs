//! Completion after `each.`, `var.` and `local.`.
//!
//! The trigger is read from the text before the cursor, not from the tree: while the user types, `each.` alone is
//! a syntax error and the tree has no expression there.

use foreach_syntax::{TextRange, TextSize};

use crate::db::{Db, Workspace, module};

use super::{FilePosition, dir_of, source_file};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    Field,
    Variable,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    /// The text the item replaces (the part of the name already typed).
    pub replace: TextRange,
    pub insert_text: String,
}

pub(crate) fn completions(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Vec<CompletionItem> {
    let Some(file) = source_file(db, ws, pos.file) else { return Vec::new() };
    let text = file.text(db);
    let offset = usize::from(pos.offset).min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let before = &text[..offset];
    let typed_len = before.bytes().rev().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-').count();
    let prefix_end = offset - typed_len;
    let Some(head) = before[..prefix_end].strip_suffix('.') else { return Vec::new() };
    let root_len = head.bytes().rev().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-').count();
    let root = &head[head.len() - root_len..];
    // `x.each.` is an attribute named `each`, not the `each` object.
    if head[..head.len() - root_len].ends_with('.') {
        return Vec::new();
    }
    let replace = TextRange::new(TextSize::from(prefix_end as u32), TextSize::from(offset as u32));
    let item = |label: &str, kind, detail: Option<String>| CompletionItem {
        label: label.to_string(),
        kind,
        detail,
        replace,
        insert_text: label.to_string(),
    };
    match root {
        "each" => vec![
            item("key", CompletionKind::Field, Some("the key of this instance".into())),
            item("value", CompletionKind::Field, Some("the value of this instance".into())),
        ],
        "var" | "local" => {
            let Some(dir) = dir_of(db, ws, file) else { return Vec::new() };
            let m = module(db, dir);
            if root == "var" {
                m.variables.iter().map(|v| item(&v.name, CompletionKind::Variable, Some("variable".into()))).collect()
            } else {
                m.locals.iter().map(|l| item(&l.name, CompletionKind::Variable, Some("local value".into()))).collect()
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn labels(text: &str) -> Vec<String> {
        let f = Fixture::parse(text);
        f.host.analysis().completions(f.position()).unwrap().into_iter().map(|c| c.label).collect()
    }

    #[test]
    fn each() {
        assert_eq!(labels("provider \"aws\" {\n  for_each = {}\n  region = each.$0\n}\n"), ["key", "value"]);
        assert_eq!(labels("provider \"aws\" {\n  region = each.va$0\n}\n"), ["key", "value"]);
    }

    #[test]
    fn variables_and_locals() {
        let text = "variable \"a\" {}\nvariable \"b\" {}\nlocals {\n  l = 1\n  m = var.$0\n}\n";
        assert_eq!(labels(text), ["a", "b"]);
        // `m = local.` does not parse yet, so only `l` is declared while typing.
        assert_eq!(labels("locals {\n  l = 1\n  m = local.$0\n}\n"), ["l"]);
    }

    #[test]
    fn not_after_an_attribute_named_each() {
        assert!(labels("locals {\n  m = x.each.$0\n}\n").is_empty());
        assert!(labels("locals {\n  m = 1$0\n}\n").is_empty());
    }
}
