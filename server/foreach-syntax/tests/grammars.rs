//! hcl-edit's grammar is compiled twice in our fork (patch 13): a fast one whose errors carry nothing parses first,
//! and the one whose errors say what was expected where parses only what the fast one rejects. They must accept
//! the same texts and build the same trees, or a file would mean one thing in `check` and another in its error
//! message: on every fixture, docs example and dev-corpus file (valid texts), and on every one-character edit of
//! a fixture (mostly invalid ones).

#[path = "support/files.rs"]
mod files;
#[path = "support/hcl_fixtures.rs"]
mod hcl_fixtures;

use hcl_edit::parser::{parse_body_spanned, parse_body_spanned_rich};
use hcl_fixtures::{fixture_texts, hcl};

/// Asserts that both grammars read `text` alike; whether it is valid.
fn agree(text: &str, what: &str) -> bool {
    let fast = parse_body_spanned(text);
    let rich = parse_body_spanned_rich(text);
    match (&fast, &rich) {
        (Ok(f), Ok(r)) => assert!(f == r, "{what}: the two grammars built different trees"),
        // The fast grammar's failure is answered by the rich one, so the messages are the rich one's.
        (Err(f), Err(r)) => assert_eq!(f.to_string(), r.to_string(), "{what}"),
        _ => panic!("{what}: fast grammar {:?}, rich grammar {:?}", fast.is_ok(), rich.is_ok()),
    }
    fast.is_ok()
}

#[test]
fn both_grammars_read_every_fixture_alike() {
    let texts = fixture_texts();
    assert!(texts.len() > 100, "only {} fixture files found", texts.len());
    for (path, text) in &texts {
        agree(text, path);
    }
}

#[test]
fn both_grammars_read_every_dev_corpus_file_alike() {
    let Some(paths) = files::dev_corpus_files(&hcl) else { return };
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        agree(&text, &path.display().to_string());
    }
}

#[test]
fn both_grammars_agree_on_every_one_character_edit_of_the_largest_fixtures() {
    const INSERTS: &[&str] = &["{", "]", ")", "\"", "\n", "<<EOT\n", "${", "%{", "?"];
    let mut texts = fixture_texts();
    // The four largest files under 2.5 KB: the constructs of realistic configurations, at a bounded cost (each
    // file is parsed two or three times per character and per insert).
    texts.retain(|(_, t)| t.len() < 2560);
    texts.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    let mut invalid = 0;
    for (path, text) in texts.iter().take(4) {
        for (i, c) in text.char_indices() {
            let deleted = format!("{}{}", &text[..i], &text[i + c.len_utf8()..]);
            invalid += usize::from(!agree(&deleted, &format!("{path} without byte {i}")));
            for insert in INSERTS {
                let inserted = format!("{}{insert}{}", &text[..i], &text[i..]);
                invalid += usize::from(!agree(&inserted, &format!("{path} with {insert:?} at byte {i}")));
            }
        }
    }
    // The edits must reach the rich grammar often, or this test compares nothing but valid texts.
    assert!(invalid > 1000, "only {invalid} edits were invalid");
}
