//! Completion of an instance key inside `aws.by_region[`, in a `provider` argument or a `providers` map value.
//!
//! The trigger is read from the text around the cursor: while the key is being typed the reference does not
//! parse, so the tree has nothing there (the recovering parser keeps the enclosing block without that attribute,
//! which is enough to see the block's own `for_each`). The keys are the evaluated instance keys of the provider
//! block in every instance of the cursor's module (a module called twice can see two key sets), deduplicated and
//! sorted as OpenTofu orders them.

use foreach_syntax::TextRange;
use foreach_syntax::TextSize;
use foreach_syntax::ast::Block;

use foreach_analysis::db::{Db, SourceFile, Workspace, module, parse};
use foreach_analysis::eval::render::compact;
use foreach_analysis::eval::{EvalContext, Value};
use foreach_analysis::module_eval::scope_for_node;
use foreach_analysis::providers::config::{ConfigTarget, resolve_config};
use foreach_analysis::tree::module_tree;

use foreach_syntax::quote;

use super::cursor::block_at;
use super::provider_info::{module_instances, union_keys};
use super::results::{CompletionItem, CompletionKind, CompletionList};
use super::{FilePosition, dir_of};

/// The reference being completed: `aws.by_region[` + what is typed of the key.
struct KeySite<'t> {
    name: &'t str,
    alias: &'t str,
    /// From the first character after `[` (or its opening quote) to the end of the key already written,
    /// including a closing quote that is already there.
    replace: TextRange,
    /// The key started with `"`.
    quoted: bool,
}

/// At most this many keys are returned; the list is then marked incomplete, so that the client asks again as more
/// of the key is typed (a configuration can have thousands of instances, and a client renders every item sent).
pub(crate) const MAX_KEY_ITEMS: usize = 100;

pub(crate) fn instance_key_completions(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    pos: FilePosition,
) -> Option<CompletionList> {
    let text = file.text(db);
    let text: &str = &text;
    let site = key_site(text, usize::from(pos.offset))?;
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let ConfigTarget::Block(block) = resolve_config(&m, site.name, Some(site.alias)) else { return None };
    m.providers[block].for_each.as_ref()?;
    let address = format!("{}.{}", site.name, site.alias);
    let mut items = Vec::new();
    let item = |label: String, kind, detail: String, filter: String| CompletionItem {
        insert_text: label.clone(),
        label,
        kind,
        detail: Some(detail),
        replace: site.replace,
        is_snippet: false,
        filter_text: Some(filter),
    };
    // `each.key` first: in a block with `for_each` it is what one writes nearly always.
    let parsed = parse(db, file);
    if let Some(owner) = block_at(&parsed.body, pos.offset).and_then(|b| block_with_for_each(b, pos.offset)) {
        items.push(item(
            "each.key".into(),
            CompletionKind::Field,
            "the key of this instance".into(),
            "each.key".into(),
        ));
        if each_value_is_a_key(db, ws, dir, pos, owner) {
            items.push(item(
                "each.value".into(),
                CompletionKind::Field,
                "the value of this instance (a string)".into(),
                "each.value".into(),
            ));
        }
    }
    let instances = module_instances(db, ws, dir);
    let all = instances.len();
    // What is typed of the key (after its opening quote), matched here so that only the best items are built.
    let typed_from = usize::from(site.replace.start()) + usize::from(site.quoted);
    let typed = text.get(typed_from..usize::from(pos.offset)).unwrap_or_default();
    let keys = union_keys(&instances, block);
    let (ranked, is_incomplete) = rank_keys(keys.iter().map(|k| k.key.as_str()), typed, MAX_KEY_ITEMS);
    for k in ranked.into_iter().map(|i| &keys[i]) {
        let args: Vec<String> = k.first.args.iter().map(|(n, v)| format!("{n} = {}", compact(v))).collect();
        let mut detail = format!("{address} instance");
        if !args.is_empty() {
            detail.push_str(": ");
            detail.push_str(&args.join(", "));
        }
        if k.modules.len() < all {
            let list: Vec<String> = k
                .modules
                .iter()
                .map(|a| if a.is_empty() { "the root module".into() } else { format!("`{a}`") })
                .collect();
            detail.push_str(&format!(" (only in {})", list.join(", ")));
        }
        let quoted = quote(&k.key);
        // The client filters on the text between the start of the replaced range and the cursor.
        let filter = if site.quoted { quoted.clone() } else { k.key.clone() };
        items.push(item(quoted, CompletionKind::Key, detail, filter));
    }
    Some(CompletionList { items, is_incomplete })
}

/// The indices of the keys that match what is typed, best first, at most `max`, and whether some were left out.
/// A key starting with the typed text comes first, then one starting with it ignoring case, then one containing
/// it, then one containing its characters in order; ties keep OpenTofu's order of the keys.
pub(crate) fn rank_keys<'k>(keys: impl Iterator<Item = &'k str>, typed: &str, max: usize) -> (Vec<usize>, bool) {
    let typed_lower = typed.to_lowercase();
    let mut matched: Vec<(u8, usize, usize)> = Vec::new();
    for (i, key) in keys.enumerate() {
        let rank = if key.starts_with(typed) {
            Some((0, 0))
        } else {
            let lower = key.to_lowercase();
            if lower.starts_with(&typed_lower) {
                Some((1, 0))
            } else if let Some(at) = lower.find(&typed_lower) {
                Some((2, at))
            } else {
                is_subsequence(&typed_lower, &lower).then_some((3, 0))
            }
        };
        if let Some((class, at)) = rank {
            matched.push((class, at, i));
        }
    }
    matched.sort_unstable();
    let is_incomplete = matched.len() > max;
    (matched.into_iter().take(max).map(|(_, _, i)| i).collect(), is_incomplete)
}

fn is_subsequence(needle: &str, hay: &str) -> bool {
    let mut hay = hay.chars();
    needle.chars().all(|c| hay.any(|h| h == c))
}

/// The `[…]` being typed around `offset`, after `= name.alias` (a `provider` argument or a `providers` entry).
fn key_site(text: &str, offset: usize) -> Option<KeySite<'_>> {
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let before = &text[..offset];
    let typed_start = before.rfind(['"', '[', ']', '\n']).map_or(0, |i| i + 1);
    let typed = &before[typed_start..];
    let (quoted, open) = match before[..typed_start].chars().next_back()? {
        '"' => (true, typed_start - 1),
        '[' => (false, typed_start),
        _ => return None,
    };
    if !quoted && !typed.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.') {
        return None;
    }
    // `[` (then optional spaces before a quote) right after the configuration address.
    let head = before[..open].trim_end_matches([' ', '\t']);
    let head = head.strip_suffix('[')?;
    let addr_len =
        head.bytes().rev().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b == b'.').count();
    let (address, lead) = (&head[head.len() - addr_len..], &head[..head.len() - addr_len]);
    let (name, alias) = address.split_once('.')?;
    if name.is_empty() || alias.is_empty() || alias.contains('.') {
        return None;
    }
    if !lead.trim_end_matches([' ', '\t']).ends_with('=') {
        return None;
    }
    // The rest of the key after the cursor, and a closing quote already there, are replaced too.
    let after = &text[offset..];
    let rest = if quoted {
        let n = after.find(['"', ']', '\n']).unwrap_or(after.len());
        n + usize::from(after[n..].starts_with('"'))
    } else {
        after.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b == b'.').count()
    };
    let replace = TextRange::new(TextSize::from(open as u32), TextSize::from((offset + rest) as u32));
    Some(KeySite { name, alias, replace, quoted })
}

/// The block around `offset` (the top-level block or a nested one) that holds a `for_each` argument.
fn block_with_for_each(block: &Block, offset: TextSize) -> Option<&Block> {
    fn inner<'b>(b: &'b Block, offset: TextSize, best: Option<&'b Block>) -> Option<&'b Block> {
        let best = if b.body.attribute("for_each").is_some() { Some(b) } else { best };
        match b.body.blocks().find(|c| super::touches(c.range, offset)) {
            Some(c) => inner(c, offset, best),
            None => best,
        }
    }
    inner(block, offset, None)
}

/// `each.value` can select a provider instance when the block's `for_each` is a map of strings in every instance
/// of the module (for a set it is the same as `each.key`, so it is not offered twice).
fn each_value_is_a_key(
    db: &dyn Db,
    ws: Workspace,
    dir: foreach_analysis::db::ModuleDir,
    pos: FilePosition,
    b: &Block,
) -> bool {
    let Some(fe) = b.body.attribute("for_each") else { return false };
    let tree = module_tree(db, ws);
    let mut seen = false;
    for node in tree.nodes.iter() {
        if node.dir != dir {
            continue;
        }
        let (scope, _) = scope_for_node(db, ws, node);
        let v = scope.eval(pos.file, &fe.value, &EvalContext { origin: "for_each".into(), ..EvalContext::default() });
        let strings = match v.unmarked() {
            Value::Map(_, attrs) | Value::Object(attrs) => {
                !attrs.is_empty() && attrs.values().all(|v| matches!(v.unmarked(), Value::String(_)))
            }
            _ => false,
        };
        if !strings {
            return false;
        }
        seen = true;
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;
    use foreach_syntax::quote;

    const PROVIDER: &str = r#"provider "aws" {
  alias    = "by_region"
  for_each = toset(["us-east-1", "eu-west-1", "ap-south-1"])
  region   = each.key
}
"#;

    /// (label, text after applying the item) for every item at the cursor.
    fn complete(text: &str) -> Vec<(String, String)> {
        let f = Fixture::parse(text);
        let pos = f.position();
        let (path, _) = f.cursor.clone().unwrap();
        let source = f.text(&path).to_string();
        let items = crate::Analysis::of(&f.host).completions(pos).unwrap();
        items
            .into_iter()
            .map(|i| {
                let mut out = source.clone();
                out.replace_range(std::ops::Range::<usize>::from(i.replace), &i.insert_text);
                let line = out[..usize::from(i.replace.start())].rfind('\n').map_or(0, |n| n + 1);
                let end = out[line..].find('\n').map_or(out.len(), |n| line + n);
                (i.label, out[line..end].trim().to_string())
            })
            .collect()
    }

    fn labels(text: &str) -> Vec<String> {
        complete(text).into_iter().map(|(l, _)| l).collect()
    }

    #[test]
    fn keys_sorted_and_each_key_in_a_block_with_for_each() {
        let text = format!(
            "{PROVIDER}resource \"aws_s3_bucket\" \"b\" {{\n  for_each = toset([\"us-east-1\"])\n  provider = aws.by_region[$0\n}}\n"
        );
        assert_eq!(
            complete(&text),
            [
                ("each.key".to_string(), "provider = aws.by_region[each.key".to_string()),
                ("\"ap-south-1\"".to_string(), "provider = aws.by_region[\"ap-south-1\"".to_string()),
                ("\"eu-west-1\"".to_string(), "provider = aws.by_region[\"eu-west-1\"".to_string()),
                ("\"us-east-1\"".to_string(), "provider = aws.by_region[\"us-east-1\"".to_string()),
            ]
        );
    }

    #[test]
    fn replaces_a_partly_typed_key_and_the_closing_quote() {
        let body = |k: &str| format!("{PROVIDER}resource \"aws_s3_bucket\" \"b\" {{\n  provider = {k}\n}}\n");
        let applied = |k: &str| -> Vec<String> {
            complete(&body(k)).into_iter().filter(|(l, _)| l == "\"us-east-1\"").map(|(_, t)| t).collect()
        };
        let want = ["provider = aws.by_region[\"us-east-1\"]".to_string()];
        assert_eq!(applied("aws.by_region[\"us$0\"]"), want);
        assert_eq!(applied("aws.by_region[\"us$0]"), want);
        assert_eq!(applied("aws.by_region[\"$0\"]"), want);
        assert_eq!(applied("aws.by_region[$0]"), want);
        assert_eq!(applied("aws.by_region[us$0]"), want);
        assert_eq!(applied("aws.by_region[\"us-ea$0st-1\"]"), want);
        assert_eq!(applied("aws.by_region[ \"us$0\" ]"), ["provider = aws.by_region[ \"us-east-1\" ]".to_string()]);
        // No `for_each` on the resource: no `each.key`; the keys that match what is typed, best first.
        assert_eq!(labels(&body("aws.by_region[\"us$0\"]")), ["\"us-east-1\"", "\"eu-west-1\""]);
    }

    #[test]
    fn filter_text_matches_what_is_typed() {
        let text = format!("{PROVIDER}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.by_region[\"us$0\n}}\n");
        let f = Fixture::parse(&text);
        let items = crate::Analysis::of(&f.host).completions(f.position()).unwrap();
        assert_eq!(items[0].filter_text.as_deref(), Some("\"us-east-1\""));
        assert_eq!(items[0].detail.as_deref(), Some("aws.by_region instance: region = \"us-east-1\""));
        let text = text.replace("[\"us$0", "[us$0");
        let f = Fixture::parse(&text);
        let items = crate::Analysis::of(&f.host).completions(f.position()).unwrap();
        assert_eq!(items[0].filter_text.as_deref(), Some("us-east-1"));
    }

    #[test]
    fn keys_are_filtered_and_ranked_by_what_is_typed() {
        let text = format!("{PROVIDER}resource \"aws_s3_bucket\" \"b\" {{\n  provider = aws.by_region[\"us$0\n}}\n");
        // `us-east-1` starts with it; `eu-west-1` has `u` then `s`; `ap-south-1` has no `s` after a `u`.
        assert_eq!(labels(&text), ["\"us-east-1\"", "\"eu-west-1\""]);
        let text = text.replace("[\"us$0", "[\"WEST$0");
        assert_eq!(labels(&text), ["\"eu-west-1\""], "ignoring case, anywhere in the key");
        let text = text.replace("[\"WEST$0", "[\"$0");
        assert_eq!(labels(&text), ["\"ap-south-1\"", "\"eu-west-1\"", "\"us-east-1\""], "nothing typed: all");
    }

    #[test]
    fn long_key_lists_are_cut_and_marked_incomplete() {
        let text = "provider \"aws\" {\n  alias    = \"many\"\n  for_each = toset([for i in range(2500) : \"k${i}\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.many[\"$0\n}\n";
        let f = Fixture::parse(text);
        let list = crate::Analysis::of(&f.host).completion_list(f.position()).unwrap();
        assert!(list.is_incomplete);
        assert_eq!(list.items.len(), super::MAX_KEY_ITEMS);
        let f = Fixture::parse(&text.replace("[\"$0", "[\"k1234$0"));
        let list = crate::Analysis::of(&f.host).completion_list(f.position()).unwrap();
        assert!(!list.is_incomplete);
        let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(labels, ["\"k1234\""]);
    }

    #[test]
    fn in_a_module_calls_providers_map() {
        let text = format!(
            "{PROVIDER}module \"net\" {{\n  source   = \"./net\"\n  for_each = toset([\"eu-west-1\"])\n  providers = {{\n    aws = aws.by_region[\"eu$0\"]\n  }}\n}}\n#- /net/main.tf\nresource \"aws_vpc\" \"v\" {{}}\n"
        );
        assert_eq!(
            complete(&text),
            [
                ("each.key".to_string(), "aws = aws.by_region[each.key]".to_string()),
                ("\"eu-west-1\"".to_string(), "aws = aws.by_region[\"eu-west-1\"]".to_string()),
            ]
        );
        // On one line, after `{`.
        let one_line = text
            .replace("providers = {\n    aws = aws.by_region[\"eu$0\"]\n  }", "providers = { aws = aws.by_region[$0 }");
        assert_eq!(labels(&one_line).len(), 4);
    }

    #[test]
    fn union_of_the_keys_of_every_instance_of_the_module() {
        let text = r#"module "a" {
  source  = "./child"
  regions = ["x", "y"]
}
module "b" {
  source  = "./child"
  regions = ["a", "y"]
}
#- /child/main.tf
variable "regions" {
  type = set(string)
}
provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}
resource "aws_s3_bucket" "b" {
  provider = aws.by_region[$0]
}
"#;
        let f = Fixture::parse(text);
        let items = crate::Analysis::of(&f.host).completions(f.position()).unwrap();
        let got: Vec<(String, String)> = items.into_iter().map(|i| (i.label, i.detail.unwrap_or_default())).collect();
        assert_eq!(
            got,
            [
                ("\"a\"".to_string(), "aws.by_region instance: region = \"a\" (only in `module.b`)".to_string()),
                ("\"x\"".to_string(), "aws.by_region instance: region = \"x\" (only in `module.a`)".to_string()),
                ("\"y\"".to_string(), "aws.by_region instance: region = \"y\"".to_string()),
            ]
        );
    }

    #[test]
    fn each_value_when_the_block_iterates_over_a_map_of_strings() {
        let text = format!(
            "{PROVIDER}resource \"aws_s3_bucket\" \"b\" {{\n  for_each = {{ logs = \"us-east-1\" }}\n  provider = aws.by_region[$0]\n}}\n"
        );
        assert_eq!(labels(&text)[..2], ["each.key", "each.value"]);
        let objects = text.replace("{ logs = \"us-east-1\" }", "{ logs = { r = 1 } }");
        assert_eq!(labels(&objects)[..2], ["each.key", "\"ap-south-1\""]);
    }

    #[test]
    fn only_for_a_provider_configuration_with_for_each() {
        let text = format!("{PROVIDER}locals {{\n  m = {{}}\n  x = local.m[$0]\n}}\n");
        assert!(labels(&text).is_empty());
        let single =
            "provider \"aws\" {\n  alias = \"one\"\n}\nresource \"a_b\" \"c\" {\n  provider = aws.one[$0]\n}\n";
        assert!(labels(single).is_empty());
        // Not after `=`: an index, not a provider reference.
        let text = format!("{PROVIDER}locals {{\n  x = [aws.by_region[$0]]\n}}\n");
        assert!(labels(&text).is_empty());
    }

    #[test]
    fn keys_are_quoted_as_hcl() {
        assert_eq!(quote("a\"b\\c${x}%{y}\n"), r#""a\"b\\c$${x}%%{y}\n""#);
    }
}
