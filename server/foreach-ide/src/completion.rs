//! Completion after `each.`, `var.` and `local.`, after `provider = `, and of instance keys inside
//! `aws.by_region[` (`key_completion.rs`), and of a module's minimum OpenTofu inside a version constraint
//! (`version_info.rs`).
//!
//! The trigger is read from the text before the cursor, not from the tree: while the user types, `each.` alone is
//! a syntax error and the tree has no expression there.

use foreach_syntax::{TextRange, TextSize};

use foreach_analysis::db::{Db, Workspace, module};
use foreach_analysis::providers::config::known_addresses;

use super::key_completion::{MAX_KEY_ITEMS, instance_key_completions, rank_keys};
use super::results::{CompletionItem, CompletionKind, CompletionList};
use super::{FilePosition, dir_of, source_file};

/// The completion list at `pos`. The long lists, instance keys (see `key_completion`) and a module's variables and
/// locals (generated modules declare thousands), are filtered by what is typed, ranked and capped here; the client
/// asks again as the user types (`is_incomplete`).
pub(crate) fn completion_list(db: &dyn Db, ws: Workspace, pos: FilePosition) -> CompletionList {
    let Some(file) = source_file(db, ws, pos.file) else { return CompletionList::default() };
    if let Some(list) = instance_key_completions(db, ws, file, pos) {
        return list;
    }
    if let Some(items) = super::version_info::version_completions(db, ws, pos) {
        return CompletionList { items, is_incomplete: false };
    }
    completion_items(db, ws, pos)
}

pub(crate) fn completions(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Vec<CompletionItem> {
    completion_list(db, ws, pos).items
}

fn completion_items(db: &dyn Db, ws: Workspace, pos: FilePosition) -> CompletionList {
    let complete = |items| CompletionList { items, is_incomplete: false };
    let Some(file) = source_file(db, ws, pos.file) else { return CompletionList::default() };
    let text = file.text(db);
    let text: &str = &text;
    let offset = usize::from(pos.offset).min(text.len());
    if !text.is_char_boundary(offset) {
        return CompletionList::default();
    }
    let before = &text[..offset];
    let typed_len = before.bytes().rev().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-').count();
    let prefix_end = offset - typed_len;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    if let Some(items) = provider_configurations(db, ws, file, line, pos.offset) {
        return complete(items);
    }
    let Some(head) = before[..prefix_end].strip_suffix('.') else { return CompletionList::default() };
    let root_len = head.bytes().rev().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-').count();
    let root = &head[head.len() - root_len..];
    // `x.each.` is an attribute named `each`, not the `each` object.
    if head[..head.len() - root_len].ends_with('.') {
        return CompletionList::default();
    }
    let replace = TextRange::new(TextSize::from(prefix_end as u32), TextSize::from(offset as u32));
    let item = |label: &str, kind, detail: Option<String>| CompletionItem {
        label: label.to_string(),
        kind,
        detail,
        replace,
        insert_text: label.to_string(),
        is_snippet: false,
        filter_text: None,
    };
    match root {
        "each" => complete(vec![
            item("key", CompletionKind::Field, Some("the key of this instance".into())),
            item("value", CompletionKind::Field, Some("the value of this instance".into())),
        ]),
        "var" | "local" => {
            let Some(dir) = dir_of(db, ws, file) else { return CompletionList::default() };
            let m = module(db, dir);
            let (names, detail): (Vec<&str>, &str) = if root == "var" {
                (m.variables.iter().map(|v| v.name.as_str()).collect(), "variable")
            } else {
                (m.locals.iter().map(|l| l.name.as_str()).collect(), "local value")
            };
            let (ranked, is_incomplete) = rank_keys(names.iter().copied(), &before[prefix_end..], MAX_KEY_ITEMS);
            let items =
                ranked.into_iter().map(|i| item(names[i], CompletionKind::Variable, Some(detail.into()))).collect();
            CompletionList { items, is_incomplete }
        }
        _ => CompletionList::default(),
    }
}

/// After `provider = `: the provider configurations of the module, with a `[…]` snippet for those with
/// `for_each`.
fn provider_configurations(
    db: &dyn Db,
    ws: Workspace,
    file: foreach_analysis::db::SourceFile,
    line: &str,
    offset: TextSize,
) -> Option<Vec<CompletionItem>> {
    let rest = line.trim_start().strip_prefix("provider")?.trim_start().strip_prefix('=')?.trim_start();
    if !rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.') {
        return None;
    }
    let replace = TextRange::new(offset - TextSize::from(rest.len() as u32), offset);
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let mut items: Vec<CompletionItem> = known_addresses(&m)
        .into_iter()
        .map(|address| {
            let (name, alias) = address.split_once('.').map_or((address.as_str(), None), |(n, a)| (n, Some(a)));
            let for_each = m
                .providers
                .iter()
                .any(|p| p.name == name && p.alias_name().as_deref() == alias && p.for_each.is_some());
            CompletionItem {
                label: address.clone(),
                kind: CompletionKind::Provider,
                detail: Some(
                    if for_each { "provider configuration with for_each" } else { "provider configuration" }.into(),
                ),
                replace,
                insert_text: if for_each { format!("{address}[${{1:each.key}}]") } else { address.clone() },
                is_snippet: for_each,
                filter_text: None,
            }
        })
        .collect();
    items.sort_by(|a, b| a.label.cmp(&b.label));
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn labels(text: &str) -> Vec<String> {
        let f = Fixture::parse(text);
        crate::Analysis::of(&f.host).completions(f.position()).unwrap().into_iter().map(|c| c.label).collect()
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

    /// A generated module declares thousands of variables: the list is ranked by what is typed and capped.
    #[test]
    fn long_lists_of_variables_are_ranked_and_capped() {
        let declared: String = (0..150).map(|i| format!("variable \"v{i}\" {{}}\n")).collect();
        let list = |typed: &str| {
            let f = Fixture::parse(&format!("{declared}locals {{\n  m = var.{typed}$0\n}}\n"));
            crate::Analysis::of(&f.host).completion_list(f.position()).unwrap()
        };
        let all = list("");
        assert_eq!(all.items.len(), super::MAX_KEY_ITEMS);
        assert!(all.is_incomplete);
        assert_eq!(all.items[0].label, "v0");
        let some = list("v14");
        let got: Vec<&str> = some.items.iter().map(|i| i.label.as_str()).collect();
        // Prefix matches first, then the names that hold the typed characters in order.
        let prefixed = ["v14", "v140", "v141", "v142", "v143", "v144", "v145", "v146", "v147", "v148", "v149"];
        assert_eq!(got, [&prefixed[..], &["v104", "v114", "v124", "v134"]].concat());
        assert!(!some.is_incomplete);
    }

    #[test]
    fn provider_configurations_after_provider_equals() {
        let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"a\"])\n  region   = each.key\n}\nprovider \"aws\" {\n  region = \"x\"\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.b$0\n}\n";
        let f = Fixture::parse(text);
        let items = crate::Analysis::of(&f.host).completions(f.position()).unwrap();
        let got: Vec<(String, String)> = items.into_iter().map(|i| (i.label, i.insert_text)).collect();
        assert_eq!(
            got,
            [
                ("aws".to_string(), "aws".to_string()),
                ("aws.by_region".to_string(), "aws.by_region[${1:each.key}]".to_string())
            ]
        );
    }

    #[test]
    fn keyword_provider_names() {
        let text = "provider \"null\" {\n  alias    = \"many\"\n  for_each = toset([\"a\"])\n}\nresource \"null_resource\" \"b\" {\n  provider = null.m$0\n}\n";
        assert_eq!(labels(text), ["null.many"]);
        assert_eq!(labels(&text.replace("null.m$0", "null.many[$0")), ["\"a\""]);
    }

    #[test]
    fn not_after_an_attribute_named_each() {
        assert!(labels("locals {\n  m = x.each.$0\n}\n").is_empty());
        assert!(labels("locals {\n  m = 1$0\n}\n").is_empty());
    }
}
