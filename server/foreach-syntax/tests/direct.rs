//! The direct parser (`src/direct/`) reads the files nobody is typing in, instead of hcl-edit and the conversion of
//! its tree. It may leave any text to hcl-edit, but what it accepts must be a text hcl-edit accepts, read into the
//! very tree (ranges included) that the conversion makes of hcl-edit's: checked on every fixture, docs example and
//! dev-corpus file, and on every one-character edit of the largest fixtures (mostly invalid texts, where it must
//! leave the verdict to hcl-edit).

#[path = "support/files.rs"]
mod files;
#[path = "support/hcl_fixtures.rs"]
mod hcl_fixtures;

use foreach_syntax::parsers_for_tests::{direct, through_hcl_edit};
use hcl_fixtures::{fixture_texts, hcl};

/// What the direct parser did with a text.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Read it, into hcl-edit's tree.
    Read,
    /// Left it to hcl-edit, which accepts it.
    LeftValid,
    /// Left it to hcl-edit, which rejects it.
    LeftInvalid,
}

/// Asserts that the direct parser accepts only what hcl-edit accepts, into the same tree.
fn agree(text: &str, what: &str) -> Outcome {
    let reference = through_hcl_edit(text);
    match (direct(text), reference) {
        (Some(direct), Some(reference)) => {
            if direct != reference {
                panic!(
                    "{what}: the direct parser built another tree\n--- direct\n{direct:#?}\n--- hcl-edit\n{reference:#?}"
                );
            }
            Outcome::Read
        }
        (Some(_), None) => panic!("{what}: the direct parser accepted a text hcl-edit rejects:\n{text}"),
        (None, Some(_)) => Outcome::LeftValid,
        (None, None) => Outcome::LeftInvalid,
    }
}

#[test]
fn the_direct_parser_reads_every_fixture_as_hcl_edit_does() {
    let texts = fixture_texts();
    assert!(texts.len() > 100, "only {} fixture files found", texts.len());
    let mut left_valid = Vec::new();
    let mut read = 0;
    for (path, text) in &texts {
        match agree(text, path) {
            Outcome::Read => read += 1,
            Outcome::LeftValid => left_valid.push(path.as_str()),
            Outcome::LeftInvalid => {}
        }
    }
    eprintln!("read {read}, left to hcl-edit {} valid files: {left_valid:#?}", left_valid.len());
    // It must read nearly every valid file, or it saves nothing.
    assert!(left_valid.len() * 10 < read, "left {} valid files to hcl-edit, read {read}", left_valid.len());
}

#[test]
fn the_direct_parser_reads_every_dev_corpus_file_as_hcl_edit_does() {
    let Some(paths) = files::dev_corpus_files(&hcl) else { return };
    let (mut read, mut left_valid) = (0, 0);
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        match agree(&text, &path.display().to_string()) {
            Outcome::Read => read += 1,
            Outcome::LeftValid => {
                left_valid += 1;
                eprintln!("left to hcl-edit: {}", path.display());
            }
            Outcome::LeftInvalid => {}
        }
    }
    eprintln!("read {read}, left {left_valid} valid files to hcl-edit");
    assert!(left_valid * 20 < read, "left {left_valid} valid files to hcl-edit, read {read}");
}

#[test]
fn the_direct_parser_agrees_with_hcl_edit_on_every_one_character_edit_of_the_largest_fixtures() {
    const INSERTS: &[&str] = &["{", "]", ")", "\"", "\n", "<<EOT\n", "${", "%{", "?", " ", "#", ".", "\\", "=", ","];
    let mut texts = fixture_texts();
    // The six largest files under 2.5 KB: the constructs of realistic configurations, at a bounded cost.
    texts.retain(|(_, t)| t.len() < 2560);
    texts.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    let mut read_edits = 0;
    for (path, text) in texts.iter().take(6) {
        for (i, c) in text.char_indices() {
            let deleted = format!("{}{}", &text[..i], &text[i + c.len_utf8()..]);
            read_edits += usize::from(agree(&deleted, &format!("{path} without byte {i}")) == Outcome::Read);
            for insert in INSERTS {
                let inserted = format!("{}{insert}{}", &text[..i], &text[i..]);
                let what = format!("{path} with {insert:?} at byte {i}");
                read_edits += usize::from(agree(&inserted, &what) == Outcome::Read);
            }
        }
    }
    // Many edits leave a valid text (a deleted comment character, a space): the parser must have read some.
    assert!(read_edits > 1000, "only {read_edits} edits were read by the direct parser");
}

/// Constructs one at a time, so that a difference names its construct.
#[test]
fn the_direct_parser_reads_each_construct_as_hcl_edit_does() {
    let snippets = [
        "a = 1\n",
        "a = -1\nb = - 2.5e3\nc = -x\nd = !true\n",
        "a = 1 + 2 * 3 - 4 / 5 % 6\n",
        "a = x == y && z != w || !v\nb = a < b ? c : d >= e ? f : g\n",
        "a = var.x[0].y.*.z[*].w\nb = a.0.1\n",
        "a = f()\nb = f(1, 2,)\nc = f(x...)\nd = provider::aws::arn_parse(x)\ne = core::toset([])\n",
        "a = \"\"\nb = \"x\\n\\t\\\"\\\\ \\u00e9 \\U0001F600\"\nc = \"$${x} %%{y} $ %\"\n",
        "a = \"pre ${var.x} mid ${f(1)} post\"\nb = \"${a}${b}\"\n",
        "a = <<EOT\nline ${x}\n  two\nEOT\nb = <<-EOT\n    indented\n      more\n    EOT\nc = <<EOT\nEOT\n",
        "a = [for x in y : x if x != \"\"]\nb = {for k, v in m : k => v...}\nc = {for v in l : v => v if v}\n",
        "a = {\n  k = 1\n  \"s\" = 2, l: 3 # c\n  (var.x) = 4\n}\nb = {}\nc = { a = 1, b = [1, 2] }\n",
        "a = (1 +\n 2)\nb = [\n  1,\n  2\n]\nc = f(\n  a,\n  b\n)\n",
        "block \"label\" name {\n  a = 1\n\n  nested {\n  }\n}\none \"line\" { a = 1 }\nempty {}\n",
        "# comment\n// comment\n/* block\ncomment */\na = 1 /* inline */ # trailing\n",
        "a = 1\r\nb {\r\n  c = 2\r\n}\r\n",
        "a = null\nb = true\nc = false\nd = nullable\n",
        "a = x ? [for v in y : v] : {}\n",
        "a = \"é ${\"nested ${x}\"} ü\"\n",
        "resource \"aws_instance\" \"web\" {\n  for_each = toset(var.names)\n  provider = aws.by_region[each.key]\n}",
    ];
    for (i, snippet) in snippets.iter().enumerate() {
        assert_eq!(
            agree(snippet, &format!("snippet {i}")),
            Outcome::Read,
            "snippet {i} was left to hcl-edit:\n{snippet}"
        );
    }
}

/// What the direct parser leaves to hcl-edit, valid or not, it leaves: it must not read these.
#[test]
fn the_direct_parser_leaves_the_rare_and_the_invalid_to_hcl_edit() {
    let snippets = [
        "a = \"%{ if x }y%{ endif }\"\n",
        "a = \"${~ x ~}\"\n",
        "a = { k = 1, k = 2 }\n",
        "a = 1\na = 2\n",
        "a = x. y\n",
        "a = \"unterminated\n",
        "a = 1 +\n",
        "a = \"\\q\"\n",
        "é = 1\n",
        "a = [,]\n",
        "b {\n  a = 1 }\n",
    ];
    for snippet in snippets {
        assert_ne!(agree(snippet, snippet), Outcome::Read, "read:\n{snippet}");
    }
}

/// hcl-edit rejects more than 64 nested levels and more than 128 stacked binary operators; the direct parser must
/// never read a text hcl-edit rejects for its depth, however the nesting is built.
#[test]
fn the_direct_parser_never_reads_what_hcl_edit_rejects_as_too_deep() {
    for n in [20, 40, 47, 48, 49, 50, 62, 63, 64, 65, 66, 80] {
        let wrap = |open: &str, inner: &str, close: &str| format!("{}{inner}{}", open.repeat(n), close.repeat(n));
        let texts = [
            format!("a = {}\n", wrap("[", "1", "]")),
            format!("a = {}\n", wrap("(", "1", ")")),
            format!("a = {}\n", wrap("f(", "1", ")")),
            format!("a = {}\n", wrap("{ k = ", "1", " }")),
            format!("a = {}\n", wrap("[for x in y : ", "x", "]")),
            format!("a = {}\n", wrap("x[", "0", "]")),
            format!("a = {}\n", wrap("\"${", "1", "}\"")),
            format!("a = {}x\n", "-".repeat(n)),
            format!("a = {}x\n", "!".repeat(n)),
            format!("{}a = 1\n{}", "b {\n".repeat(n), "}\n".repeat(n)),
            format!("a = {}1\n", "1 + ".repeat(n * 2)),
            format!("a = {}\n", wrap("(1 + ", "1", ")")),
            format!("a = {}\n", wrap("1 + (1 + 1 + ", "1", ")")),
        ];
        for text in &texts {
            agree(text, &format!("{n} levels: {}", &text[..text.len().min(40)]));
        }
    }
}

/// Texts spliced together from the fixtures at positions a fixed-seed generator picks: a piece of one file in the
/// middle of another cuts through every construct at once (strings, heredocs, brackets, comments), in
/// combinations no single edit makes. `FOREACH_SPLICES=n` runs n splices instead of 30,000 (a longer search).
#[test]
fn the_direct_parser_agrees_with_hcl_edit_on_spliced_fixtures() {
    let texts: Vec<String> = fixture_texts().into_iter().map(|(_, t)| t).filter(|t| t.len() < 8192).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |bound: usize| {
        // xorshift64*: deterministic, so a failure is reproduced by running the test again.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bound.max(1)
    };
    let boundary = |text: &str, mut at: usize| {
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let (mut read, mut rejected) = (0, 0);
    let rounds = std::env::var("FOREACH_SPLICES").ok().and_then(|n| n.parse().ok()).unwrap_or(30_000);
    for round in 0..rounds {
        let a = &texts[next(texts.len())];
        let b = &texts[next(texts.len())];
        let cut = boundary(a, next(a.len() + 1));
        let resume = boundary(a, cut + next(a.len() - cut + 1));
        let from = boundary(b, next(b.len() + 1));
        let to = boundary(b, from + next((b.len() - from).min(400) + 1));
        let text = format!("{}{}{}", &a[..cut], &b[from..to], &a[resume..]);
        match agree(&text, &format!("splice {round}")) {
            Outcome::Read => read += 1,
            Outcome::LeftInvalid => rejected += 1,
            Outcome::LeftValid => {}
        }
    }
    eprintln!("splices read {read}, rejected by hcl-edit {rejected}");
    // Both kinds must occur often, or the splices test one side only.
    assert!(read > 1000 && rejected > 1000, "read {read}, rejected {rejected}");
}
