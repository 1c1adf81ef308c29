//! `parse_reusing` must give exactly what `parse` gives (spans included) for every text, cold or after edits: on
//! every fixture and docs example of the repository, on the dev corpus when it is unpacked (the corpus test unpacks
//! it under `target/corpus`), and on random edits of them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use foreach_syntax::{FileKind, ItemCache, parse, parse_reusing};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "tf" || e == "tfvars" || e == "hcl") {
            out.push(path);
        }
    }
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

fn check_file(path: &Path, text: &str, edits: usize, seed: u64) -> usize {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(kind) = FileKind::from_file_name(&name) else { return 0 };
    let mut rng = Lcg(seed);
    let mut text: Arc<str> = Arc::from(text);
    let mut cache: Option<ItemCache> = None;
    let mut reused = 0;
    for round in 0..=edits {
        let (got, next) = parse_reusing(&text, kind, cache.as_ref());
        let want = parse(&text, kind);
        assert!(
            got == want,
            "{} after {round} edits (seed {seed}): reusing parse differs from a fresh parse",
            path.display()
        );
        reused += usize::from(cache.is_some() && next.is_some());
        cache = next.or(cache);
        text = Arc::from(edit(&text, &mut rng));
    }
    reused
}

#[test]
fn reusing_parse_equals_a_fresh_parse_on_fixtures_and_edits() {
    let mut files = Vec::new();
    files_under(&repo().join("testdata"), &mut files);
    files_under(&repo().join("docs"), &mut files);
    assert!(files.len() > 100, "fixtures found: {}", files.len());
    let mut reused = 0;
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        reused += check_file(path, &text, 12, i as u64 + 1);
    }
    // Most edits keep a file valid enough to go the reusing way; if none did, the test would prove nothing.
    assert!(reused > files.len(), "parses that reused items: {reused}");
}

#[test]
fn reusing_parse_equals_a_fresh_parse_on_the_dev_corpus() {
    let corpus = repo().join("target/corpus/dev-corpus");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is not unpacked (the corpus test of foreach-ls unpacks it)", corpus.display());
        return;
    }
    let mut files = Vec::new();
    files_under(&corpus, &mut files);
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        // Every file cold; a tenth of them through a few edits as well (the whole corpus edited would be slow).
        let edits = if i % 10 == 0 && text.len() < 200_000 { 4 } else { 0 };
        check_file(path, &text, edits, i as u64 + 7);
    }
}
