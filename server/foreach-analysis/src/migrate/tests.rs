//! Properties of a migration over generated layouts: aliased blocks among other blocks in any order, in one or two
//! files, with comments above, inside and after them, blank lines between them and any text at the end. Every
//! migrated file keeps no old alias block and no reference to one, parses, stays formatted when it was, and loses
//! no comment without a note saying so.

use proptest::prelude::*;

use crate::host::{AnalysisHost, Change};
use crate::migrate::Options;
use crate::source_text::SourceText;

/// One top-level item of a generated file.
#[derive(Debug, Clone)]
struct Item {
    /// Which of the two files it goes into.
    file: usize,
    kind: Kind,
    /// A comment on the line above it (`#`, `//`, `/* */` or a `/* */` over two lines), or none.
    above: Option<u8>,
    /// A comment inside it, after its first argument.
    inside: bool,
    /// A comment after its closing brace, on the same line.
    after: bool,
    /// Blank lines before it.
    blank_lines: usize,
}

#[derive(Debug, Clone)]
enum Kind {
    Terraform,
    DefaultProvider,
    /// The aliased `aws` configuration `a<n>`.
    Aliased(usize),
    /// A resource that uses `aws.a<n>`.
    Resource(usize),
    Variable,
}

/// The comment text of item `id`, `place` being `above`, `inside` or `after`: unique, so that it can be found.
fn comment(style: u8, id: usize, place: &str) -> String {
    match style {
        0 => format!("# c{id}{place}\n"),
        1 => format!("// c{id}{place}\n"),
        2 => format!("/* c{id}{place} */\n"),
        _ => format!("/* c{id}{place}\n   more */\n"),
    }
}

fn render(id: usize, item: &Item) -> String {
    let mut s = "\n".repeat(item.blank_lines);
    if let Some(style) = item.above {
        s.push_str(&comment(style, id, "above"));
    }
    let inside = if item.inside { format!("  # c{id}inside\n") } else { String::new() };
    let body = match &item.kind {
        Kind::Terraform => {
            format!(
                "terraform {{\n{inside}  required_providers {{\n    aws = {{\n      source = \"hashicorp/aws\"\n    }}\n  }}\n}}"
            )
        }
        Kind::DefaultProvider => format!("provider \"aws\" {{\n  region = \"us-east-1\"\n{inside}}}"),
        // Formatted as `tofu fmt` would: a comment line ends a run of aligned `=`.
        Kind::Aliased(n) if item.inside => format!(
            "provider \"aws\" {{\n  alias = \"a{n}\"\n{inside}  region  = \"r-{n}\"\n  profile = \"p\"\n  retries = {n}\n}}"
        ),
        Kind::Aliased(n) => {
            format!(
                "provider \"aws\" {{\n  alias   = \"a{n}\"\n  region  = \"r-{n}\"\n  profile = \"p\"\n  retries = {n}\n}}"
            )
        }
        Kind::Resource(n) => format!("resource \"aws_s3_bucket\" \"b{id}\" {{\n{inside}  provider = aws.a{n}\n}}"),
        Kind::Variable => format!("variable \"v{id}\" {{\n{inside}  default = \"x\"\n}}"),
    };
    s.push_str(&body);
    if item.after {
        s.push_str(&format!(" # c{id}after"));
    }
    s.push('\n');
    s
}

fn item(kind: Kind) -> impl Strategy<Value = Item> {
    (0usize..2, proptest::option::of(0u8..4), any::<bool>(), any::<bool>(), 0usize..3).prop_map(
        move |(file, above, inside, after, blank_lines)| Item {
            file,
            kind: kind.clone(),
            above,
            inside,
            after,
            blank_lines,
        },
    )
}

/// Two to four aliased blocks, a resource per alias, and some of the other items, shuffled.
fn layout() -> impl Strategy<Value = (Vec<Item>, Vec<String>, bool)> {
    (2usize..5, any::<bool>(), any::<bool>(), any::<bool>())
        .prop_flat_map(|(n, terraform, default, variable)| {
            let mut kinds: Vec<Kind> = (0..n).map(Kind::Aliased).chain((0..n).map(Kind::Resource)).collect();
            if terraform {
                kinds.push(Kind::Terraform);
            }
            if default {
                kinds.push(Kind::DefaultProvider);
            }
            if variable {
                kinds.push(Kind::Variable);
            }
            let items: Vec<_> = kinds.into_iter().map(item).collect();
            (
                items.prop_shuffle(),
                proptest::collection::vec(
                    proptest::sample::select(&["", "\n", "\n\n", "# end\n", "\n/* end */"][..]),
                    2,
                ),
                any::<bool>(),
            )
        })
        .prop_map(|(items, ends, crlf)| (items, ends.into_iter().map(String::from).collect(), crlf))
}

fn file_texts(items: &[Item], ends: &[String], crlf: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (f, end) in ends.iter().enumerate() {
        let mut text: String =
            items.iter().enumerate().filter(|(_, i)| i.file == f).map(|(id, i)| render(id, i)).collect();
        text.push_str(end);
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        out.push((format!("/ws/f{f}.tf"), text));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn migrated_files_keep_no_old_alias_block_and_lose_no_comment_silently((items, ends, crlf) in layout()) {
        let files = file_texts(&items, &ends, crlf);
        let mut host = AnalysisHost::new();
        host.apply_change(Change {
            files: files.iter().map(|(p, t)| (p.clone(), Ok(SourceText::from(t.as_str())))).collect(),
            read_roots: Some(vec!["/ws".to_string()]),
            ..Change::default()
        });
        let opts = Options { provider: "aws".to_string(), alias: None, resources: false };
        let plan = host.migrate_providers("/ws", &opts).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let old = plan.keys.clone();
        let notes = plan.notes.join("\n");
        for (path, original) in &files {
            let mut text = original.clone();
            if let Some(change) = plan.files.iter().find(|c| c.path == *path) {
                let edits: Vec<&crate::TextEdit> = change.edits.iter().collect();
                let applied = crate::fixes::apply_edits(original, &edits);
                prop_assert_eq!(applied.skipped, 0, "overlapping edits in {}", path);
                text = applied.text;
            }
            let parse = foreach_syntax::parse(&text, foreach_syntax::FileKind::Tf);
            prop_assert!(parse.errors.is_empty(), "{path} does not parse:\n{text}");
            for b in parse.body.blocks_named("provider") {
                let alias = b.body.attribute("alias").and_then(|a| a.value.as_string_literal());
                prop_assert!(
                    !alias.as_ref().is_some_and(|a| old.contains(a)),
                    "{path} keeps `aws.{alias:?}`:\n{text}"
                );
            }
            for a in &old {
                prop_assert!(!super::text::mentions(&text, "aws", a), "{path} still refers to aws.{a}:\n{text}");
            }
            if crlf {
                prop_assert!(!text.replace("\r\n", "").contains('\n'), "{path} mixes line endings:\n{text:?}");
            }
            let formatted = |t: &str| foreach_syntax::format::format(t, foreach_syntax::FileKind::Tf).ok();
            if formatted(original).as_deref() == Some(original.as_str()) {
                let now = formatted(&text);
                prop_assert_eq!(now.as_deref(), Some(text.as_str()), "{} is no longer formatted", path);
            }
            // Every comment is still there, or was in an old block and a note says so.
            for (id, it) in items.iter().enumerate().filter(|(_, i)| format!("/ws/f{}.tf", i.file) == *path) {
                for (place, present) in [("above", it.above.is_some()), ("inside", it.inside), ("after", it.after)] {
                    if !present || text.contains(&format!("c{id}{place}")) {
                        continue;
                    }
                    // The new configuration takes the first block's place, below the comments above it.
                    let Kind::Aliased(n) = it.kind else {
                        return Err(TestCaseError::fail(format!("c{id}{place} was removed from {path}:\n{text}")));
                    };
                    let first = plan.keys.first().is_some_and(|k| *k == format!("a{n}"));
                    prop_assert!(!(first && place == "above"), "c{id}above, above the first block, was removed:\n{text}");
                    let named = notes.lines().any(|l| l.contains(&format!("`aws.a{n}`")) && l.contains(place));
                    prop_assert!(named, "c{id}{place} of aws.a{n} was removed without a note:\n{notes}");
                }
            }
        }
    }
}
