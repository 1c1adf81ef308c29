//! `parse_reusing` must give exactly what `parse` gives (spans included) for every text, cold or after edits: on
//! every fixture and docs example of the repository, on the dev corpus when it is unpacked (the corpus test unpacks
//! it under `target/corpus`), and on random edits of them.

#[path = "support/files.rs"]
mod files;

use std::path::Path;

use files::repo;
use std::sync::Arc;

use foreach_syntax::{FileKind, ItemCache, parse, parse_reusing};

/// Native configuration files, the ones `parse_reusing` serves.
fn native(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "tf" || e == "tfvars" || e == "hcl")
}

/// A small deterministic generator, so a failure reproduces.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

/// Edits that move, break, mend and duplicate items: a character typed or deleted anywhere, a new attribute, a line
/// removed.
fn edit(text: &str, rng: &mut Lcg) -> String {
    let mut at = rng.next(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let (before, after) = text.split_at(at);
    match rng.next(5) {
        0 => format!("{before} {after}"),
        1 => format!("{before}x{after}"),
        2 => format!("{before}\nextra_{at} = \"v\"\n{after}"),
        3 => {
            let mut end = (at + 1).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            format!("{before}{}", &text[end..])
        }
        _ => match after.find('\n') {
            Some(nl) => format!("{before}{}", &after[nl + 1..]),
            None => before.to_string(),
        },
    }
}

/// Parses `text` with reuse and fresh after each edit; returns how many parses reused items and how many of those
/// rebuilt an item around the edit.
fn check_file(path: &Path, text: &str, edits: usize, seed: u64) -> (usize, usize) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(kind) = FileKind::from_file_name(&name) else { return (0, 0) };
    let mut rng = Lcg(seed);
    let mut text: Arc<str> = Arc::from(text);
    let mut cache: Option<ItemCache> = None;
    let mut reused = 0;
    let mut inside = 0;
    for round in 0..=edits {
        let (got, next) = parse_reusing(&text, kind, cache.as_ref());
        let want = parse(&text, kind);
        assert!(
            *got == want,
            "{} after {round} edits (seed {seed}): reusing parse differs from a fresh parse",
            path.display()
        );
        reused += usize::from(cache.is_some() && next.is_some());
        inside += next.as_ref().map_or(0, |n| n.rebuilt_inside());
        cache = next.or(cache);
        text = Arc::from(edit(&text, &mut rng));
    }
    (reused, inside)
}

#[test]
fn reusing_parse_equals_a_fresh_parse_on_fixtures_and_edits() {
    let mut files = Vec::new();
    files::files_under(&repo().join("testdata"), &native, &mut files);
    files::files_under(&repo().join("docs"), &native, &mut files);
    assert!(files.len() > 100, "fixtures found: {}", files.len());
    let (mut reused, mut inside) = (0, 0);
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let (r, n) = check_file(path, &text, 12, i as u64 + 1);
        reused += r;
        inside += n;
    }
    // Many edits keep a file valid enough to go the reusing way, and some of those land inside a block's
    // attribute (most random edits break the file); if none did, the test would prove nothing.
    assert!(reused > files.len(), "parses that reused items: {reused}");
    assert!(inside > files.len() / 4, "items rebuilt around an edit: {inside} of {reused}");
}

/// A small file that holds each node kind re-parsing may stop at: block attributes, nested blocks, object items
/// (one per line, several on a line, a repeated key), tuple elements, call arguments, heredocs and comments.
const EVERY_NODE_KIND: &str = r#"locals {
  quotas = {
    a = { code = "L-1", desired = var.a },
    b = { code = "L-2", desired = var.b }
    c = 1, d = "x"
    a = "again"
    list = [1, "two", { three = 3 }]
    call = merge({ x = 1 }, var.y, local.z...)
    doc = <<EOT
  text ${var.a}
EOT
    # a comment
    e = 5 // another
  }
  other = [for k, v in local.quotas : k if v != null]
}

resource "aws_x" "y" {
  count = 2
  tags {
    Name = "n"
  }
  one { a = 1 }
}
"#;

/// Every kind of edit at every offset of [`EVERY_NODE_KIND`].
#[test]
fn every_edit_at_every_offset_of_a_file_with_every_node_kind() {
    let text = EVERY_NODE_KIND;
    let insertions = ["z", " ", "\n", "\"", "#", ",", "{", "}", "[", "]", "(", ")", "=", "...", "\n#", "/*", "<<EOT\n"];
    let kind = FileKind::Tf;
    let original: Arc<str> = Arc::from(text);
    let (_, cache) = parse_reusing(&original, kind, None);
    let cache = cache.expect("the file is valid");
    let (mut inside, mut unscanned) = (0, 0);
    for at in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        let mut edited: Vec<String> = insertions.iter().map(|s| format!("{}{s}{}", &text[..at], &text[at..])).collect();
        // Removals of one to a dozen characters, and a dozen replaced by one (an applied fix, a pasted word).
        for len in [1, 2, 5, 12] {
            if at + len <= text.len() && text.is_char_boundary(at + len) {
                edited.push(format!("{}{}", &text[..at], &text[at + len..]));
            }
        }
        if at + 12 <= text.len() && text.is_char_boundary(at + 12) {
            edited.push(format!("{}q{}", &text[..at], &text[at + 12..]));
        }
        for new in edited {
            let new: Arc<str> = Arc::from(new);
            let (got, next) = parse_reusing(&new, kind, Some(&cache));
            assert!(*got == parse(&new, kind), "edit at {at} differs from a fresh parse:\n{new}");
            inside += next.as_ref().map_or(0, |n| n.rebuilt_inside());
            // Rebuilding inside the edited item keeps the other items' boundaries without scanning the text.
            unscanned += next.as_ref().is_some_and(|n| n.rebuilt_inside() == 1 && !n.scanned()) as usize;
        }
    }
    assert!(inside > text.len(), "items rebuilt around an edit: {inside}");
    assert_eq!(unscanned, inside, "every item rebuilt around an edit kept the item boundaries");
}

/// Typing a word and deleting it again, a character at a time, at every offset of [`EVERY_NODE_KIND`]: from the
/// third keystroke inside one item on, each parse edits the tree before the last one in place (replaying the last
/// edit, then making its own) instead of copying the last one.
#[test]
fn typing_at_every_offset_edits_the_spare_tree_in_place_like_a_fresh_parse() {
    let kind = FileKind::Tf;
    let (mut parses, mut in_place) = (0, 0);
    for at in (0..=EVERY_NODE_KIND.len()).filter(|&i| EVERY_NODE_KIND.is_char_boundary(i)) {
        let (_, mut cache) = parse_reusing(&Arc::from(EVERY_NODE_KIND), kind, None);
        let typed = (1..=4).map(|n| format!("{}{}{}", &EVERY_NODE_KIND[..at], "z".repeat(n), &EVERY_NODE_KIND[at..]));
        let deleted =
            (0..4).rev().map(|n| format!("{}{}{}", &EVERY_NODE_KIND[..at], "z".repeat(n), &EVERY_NODE_KIND[at..]));
        for new in typed.chain(deleted) {
            let new: Arc<str> = Arc::from(new);
            let (got, next) = parse_reusing(&new, kind, cache.as_ref());
            assert!(*got == parse(&new, kind), "typing at {at} differs from a fresh parse:\n{new}");
            drop(got);
            parses += 1;
            in_place += next.as_ref().is_some_and(|n| n.edited_in_place()) as usize;
            cache = next.or(cache);
        }
    }
    // Most offsets are inside a node that can be re-parsed alone; the first two keystrokes at each cannot be in place.
    assert!(in_place > parses / 3, "parses edited in place: {in_place} of {parses}");
}

/// With a spare made right after the first parse (an editor opened the file), the first keystroke inside an item
/// already edits a tree in place, and so does each one after it; the parse it started from stays as it was.
#[test]
fn a_spare_made_up_front_edits_in_place_from_the_first_keystroke() {
    let kind = FileKind::Tf;
    let mut in_place_first = 0;
    let mut offsets = 0;
    for at in (0..=EVERY_NODE_KIND.len()).filter(|&i| EVERY_NODE_KIND.is_char_boundary(i)).step_by(5) {
        let original: Arc<str> = Arc::from(EVERY_NODE_KIND);
        let (first, cache) = parse_reusing(&original, kind, None);
        cache.as_ref().expect("the fixture keeps items").ensure_spare();
        let mut cache = cache;
        offsets += 1;
        for n in 1..=3 {
            let new: Arc<str> =
                Arc::from(format!("{}{}{}", &EVERY_NODE_KIND[..at], "z".repeat(n), &EVERY_NODE_KIND[at..]));
            let (got, next) = parse_reusing(&new, kind, cache.as_ref());
            assert!(*got == parse(&new, kind), "typing at {at} differs from a fresh parse:\n{new}");
            in_place_first += (n == 1 && next.as_ref().is_some_and(|c| c.edited_in_place())) as usize;
            cache = next.or(cache);
        }
        assert!(*first == parse(&original, kind), "the first parse was edited through the spare at {at}");
    }
    // Most offsets are inside a node that can be re-parsed alone.
    assert!(in_place_first > offsets / 3, "first keystrokes edited in place: {in_place_first} of {offsets}");
}

#[test]
fn reusing_parse_equals_a_fresh_parse_on_the_dev_corpus() {
    let Some(files) = files::dev_corpus_files(&native) else { return };
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        // Every file cold; a tenth of them through a few edits as well (the whole corpus edited would be slow).
        let edits = if i % 10 == 0 && text.len() < 200_000 { 4 } else { 0 };
        check_file(path, &text, edits, i as u64 + 7);
    }
}

/// The every-offset test on every fixture, sampled: each seventh offset of each small fixture gets the edits most
/// likely to land inside a node and to keep or break its syntax at the node's edges.
#[test]
fn sampled_edits_at_offsets_of_every_fixture_match_a_fresh_parse() {
    let mut files = Vec::new();
    files::files_under(&repo().join("testdata"), &native, &mut files);
    let kind = FileKind::Tf;
    let (mut edits, mut inside) = (0, 0);
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "tf")) {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        if text.len() > 4_000 {
            continue;
        }
        let original: Arc<str> = Arc::from(text.as_str());
        let (_, Some(cache)) = parse_reusing(&original, kind, None) else { continue };
        for at in (0..=text.len()).step_by(7).filter(|&i| text.is_char_boundary(i)) {
            let mut edited: Vec<String> =
                ["z", "\n", "\"", "}", "#", ","].iter().map(|s| format!("{}{s}{}", &text[..at], &text[at..])).collect();
            if let Some(c) = text[at..].chars().next() {
                edited.push(format!("{}{}", &text[..at], &text[at + c.len_utf8()..]));
            }
            if at + 5 <= text.len() && text.is_char_boundary(at + 5) {
                edited.push(format!("{}{}", &text[..at], &text[at + 5..]));
            }
            for new in edited {
                let new: Arc<str> = Arc::from(new);
                let (got, next) = parse_reusing(&new, kind, Some(&cache));
                assert!(*got == parse(&new, kind), "{} edited at {at} differs from a fresh parse", path.display());
                edits += 1;
                inside += next.map_or(0, |n| n.rebuilt_inside());
            }
        }
    }
    assert!(inside * 10 > edits, "items rebuilt around an edit: {inside} of {edits} edits");
}

/// Edits that deepen a nested object around hcl-edit's nesting limit (64 levels, counted from the item down):
/// a node re-parsed alone sits shallower than in its file, so reuse must not accept what the whole file rejects.
#[test]
fn deepening_an_edit_near_the_nesting_limit_matches_a_fresh_parse() {
    let kind = FileKind::Tf;
    for outer in [8, 16, 24, 30, 31, 32, 40, 60, 63] {
        let open: String = (0..outer).map(|i| format!("{{\n k{i} = ")).collect();
        let close: String = "\n}".repeat(outer);
        let text: Arc<str> = Arc::from(format!("locals {{\n  a = {open}1{close}\n}}\n"));
        let (_, cache) = parse_reusing(&text, kind, None);
        let at = text.find(" 1\n").expect("the innermost value") + 1;
        for inner in [1, 2, 8, 16, 30, 40, 64] {
            let deeper = format!("{}1{}", "[".repeat(inner), "]".repeat(inner));
            let new: Arc<str> = Arc::from(format!("{}{deeper}{}", &text[..at], &text[at + 1..]));
            let (got, _) = parse_reusing(&new, kind, cache.as_ref());
            assert!(*got == parse(&new, kind), "{outer} objects deep, {inner} brackets inserted: differs");
        }
    }
}

/// The edit the language-server benchmark makes in the largest file of the dev corpus (a 6,000-item object in
/// one `locals` block), and a few more around it, rebuild the item around the edit.
#[test]
fn edits_inside_the_largest_generated_object_of_the_corpus_rebuild_around_the_edit() {
    let path = repo()
        .join("target/corpus/dev-corpus/gruntwork-io+terraform-aws-utilities/modules/request-quota-increase/main.tf");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is not unpacked (the corpus test of foreach-ls unpacks it)", path.display());
        return;
    };
    let kind = FileKind::Tf;
    let text: Arc<str> = Arc::from(text);
    let (_, cache) = parse_reusing(&text, kind, None);
    let middle = text[text.len() / 2..].find("var.").expect("a reference") + text.len() / 2 + 4;
    let end_of_name = middle + text[middle..].find('\n').expect("a line end");
    for new in [
        format!("{}z{}", &text[..end_of_name], &text[end_of_name..]),
        format!("{}{}", &text[..end_of_name - 1], &text[end_of_name..]),
        format!("{}\"{}", &text[..middle], &text[middle..]),
    ] {
        let new: Arc<str> = Arc::from(new);
        let (got, next) = parse_reusing(&new, kind, cache.as_ref());
        assert!(*got == parse(&new, kind), "an edit at {middle} differs from a fresh parse");
        if !got.errors.is_empty() {
            continue;
        }
        assert_eq!(next.as_ref().map(|n| n.rebuilt_inside()), Some(1), "the edit at {middle} was re-parsed around");
        assert_eq!(next.map(|n| n.scanned()), Some(false), "the edit at {middle} did not rescan the file");
    }
}

/// A body may not set an attribute twice (hcl-edit rejects it; items parsed one by one, or one attribute parsed
/// alone, cannot see it): an edit that repeats a name, at the top level of a `.tfvars` file or inside a block,
/// must give the fresh parse's error (found by the `syntax` fuzz target).
#[test]
fn an_edit_that_sets_an_attribute_twice_gives_the_fresh_parse_error() {
    for (kind, before, after) in [
        (FileKind::Tfvars, "region = \"a\"\nzone = \"b\"\n", "region = \"a\"\nregion = \"b\"\n"),
        (FileKind::Tf, "locals {\n  a = 1\n  b = 2\n}\n", "locals {\n  a = 1\n  a = 2\n}\n"),
        (FileKind::Tf, "x {\n  a = 1\n  b {\n  }\n}\n", "x {\n  a = 1\n  a = {\n  }\n}\n"),
    ] {
        let (_, cache) = parse_reusing(&Arc::from(before), kind, None);
        let after: Arc<str> = Arc::from(after);
        let (got, _) = parse_reusing(&after, kind, cache.as_ref());
        let want = parse(&after, kind);
        assert!(!want.errors.is_empty(), "{after:?} sets an attribute twice");
        assert!(*got == want, "{after:?}: reusing parse differs from a fresh parse");
    }
}

/// Typing a new attribute at the end of a long file leaves its last item broken (`broken_1 =` before the value):
/// only that item is parsed (recovered), the others are reused, and so they are when the line is mended or
/// removed; each parse still equals a fresh one.
#[test]
fn a_broken_last_item_is_parsed_alone_and_the_others_are_reused() {
    let kind = FileKind::Tf;
    let items = 200;
    let valid: String = (0..items)
        .map(|i| format!("module \"m{i}\" {{\n  source = \"./modules/m{i}\"\n  n      = {i}\n}}\n\n"))
        .collect();
    let mut cache = parse_reusing(&Arc::from(valid.as_str()), kind, None).1;
    assert_eq!(cache.as_ref().map(ItemCache::parsed_whole), Some(items), "the first parse parses every item");
    // Each text, and how many items its parse must parse whole: the broken or new line, nothing else.
    for (step, (text, parsed)) in [
        (format!("{valid}broken_1 =\n"), 1),
        (valid.clone(), 0),
        (format!("{valid}broken_2 =\n"), 1),
        (format!("{valid}broken_2 = 1\n"), 1),
        (format!("{valid}broken_2 = 1\nbroken_3 = [\n"), 1),
        (valid.clone(), 0),
    ]
    .into_iter()
    .enumerate()
    {
        let text: Arc<str> = Arc::from(text);
        let (got, next) = parse_reusing(&text, kind, cache.as_ref());
        let want = parse(&text, kind);
        assert!(*got == want, "step {step}: reusing parse differs from a fresh parse");
        let next = next.unwrap_or_else(|| panic!("step {step} ({} errors) went the ordinary way", want.errors.len()));
        assert_eq!(next.parsed_whole(), parsed, "step {step}: items parsed whole");
        cache = Some(next);
    }
}
