//! The last steps of a plan: no two edits of a file overlap, every file still parses (JSON ones are still JSON),
//! and the text it writes is formatted as `tofu fmt` formats it.
//!
//! What to format, and why not simply the whole file: the user's text that the migration does not change must stay
//! byte for byte (docs/migrate.md promises it, and a migration's diff must show the migration, not a reformatting of
//! the module). So each block the migration writes (the `locals` map and the new `provider` block, each merged block
//! with its map and `moved` blocks) is formatted on its own before it is placed: a top-level block formats the same
//! alone as in its file, because `tofu fmt` aligns `=` only within a run of lines that no block boundary breaks.
//! Edits within the user's lines (a reference that gets longer, a block that goes) can still upset a run of aligned
//! trailing comments, or leave blank lines `tofu fmt` would not; so a file that was formatted before is formatted
//! again after, which only changes lines the migration disturbed, since the rest already was in `tofu fmt`'s
//! form. A file that was not formatted is left as the user wrote it, with only the written blocks formatted.

use foreach_syntax::format::format;
use foreach_syntax::{FileKind, TextRange, TextSize};

use super::FileChange;
use super::text::line_of;
use crate::diagnostics::TextEdit;
use crate::fixes::apply_edits;

/// A text of whole top-level blocks (with `\n` line breaks), formatted; as it is when it does not parse, which only a
/// bug of the migration could cause (the formatter refuses what it cannot read, and the result is checked after).
/// Without a final line break in, none out (the text replaces a block's range, which ends at its `}`).
pub(super) fn formatted_blocks(text: String) -> String {
    let added = !text.ends_with('\n');
    let whole = if added { format!("{text}\n") } else { text.clone() };
    match format(&whole, FileKind::Tf) {
        Ok(mut f) => {
            if added && f.ends_with('\n') {
                f.pop();
            }
            f
        }
        Err(_) => text,
    }
}

/// Checks that no two edits of a file overlap (whoever applies them would drop one, leaving a half-migrated file)
/// and that every file parses after them, then formats again every native file that was formatted before.
pub(super) fn finish(changes: &mut [FileChange]) -> Result<(), Vec<String>> {
    for c in changes.iter_mut() {
        c.edits.sort_by_key(|e| (e.location.range.start(), e.location.range.end()));
        if let Some(w) = c.edits.windows(2).find(|w| w[1].location.range.start() < w[0].location.range.end()) {
            return Err(vec![format!(
                "{}:{}: internal error: two changes of the migration overlap here; nothing was planned (please \
                 report this)",
                c.path,
                line_of(&c.original, w[1].location.range.start())
            )]);
        }
        let kind = FileKind::from_file_name(c.path.rsplit('/').next().unwrap_or_default()).unwrap_or(FileKind::Tf);
        let edits: Vec<&TextEdit> = c.edits.iter().collect();
        let new = apply_edits(&c.original, &edits).text;
        // What is written must read as it did: a file that parsed (they all did, or nothing was planned) parses, and
        // a JSON file is still JSON.
        let broken = !foreach_syntax::parse(&new, kind).errors.is_empty()
            || (kind.is_json() && serde_json::from_str::<serde_json::Value>(&new).is_err());
        if broken {
            return Err(vec![format!(
                "{}: internal error: the migrated file would not parse; nothing was planned (please report this)",
                c.path
            )]);
        }
        if kind.is_json() || format(&c.original, FileKind::Tf).ok().as_deref() != Some(&*c.original) {
            continue;
        }
        if let Ok(formatted) = format(&new, FileKind::Tf)
            && formatted != new
        {
            c.edits = vec![one_edit(&c.original, &formatted, c.edits[0].location.file)];
        }
    }
    Ok(())
}

/// The edit that turns `old` into `new`: the span between their common start and common end. It replaces some
/// unchanged text by itself, which is harmless; the spans that differ are what the migration and formatting
/// changed.
fn one_edit(old: &str, new: &str, file: crate::base::FileId) -> TextEdit {
    let mut prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let mut suffix = old_rest.bytes().rev().zip(new_rest.bytes().rev()).take_while(|(a, b)| a == b).count();
    while !old_rest.is_char_boundary(old_rest.len() - suffix) || !new_rest.is_char_boundary(new_rest.len() - suffix) {
        suffix -= 1;
    }
    let range = TextRange::new(TextSize::from(prefix as u32), TextSize::from((old.len() - suffix) as u32));
    TextEdit {
        location: crate::base::FileRange::new(file, range),
        new_text: new_rest[..new_rest.len() - suffix].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_spans_what_differs() {
        let (old, new) = ("a = 1\nb  = 2\nc = 3\n", "a = 1\nb = 22\nc = 3\n");
        let e = one_edit(old, new, crate::base::FileId(0));
        assert_eq!(usize::from(e.location.range.start()), 8);
        assert_eq!(apply_edits(old, &[&e]).text, new);
        let e = one_edit("é = 1\n", "è = 1\n", crate::base::FileId(0));
        assert_eq!((usize::from(e.location.range.start()), e.new_text.as_str()), (0, "è"));
    }

    #[test]
    fn written_blocks_are_formatted_and_unreadable_text_is_left_alone() {
        assert_eq!(
            formatted_blocks("locals {\n  a = {\n    b = 1\n  }\n  ccc = 2\n}\n".to_string()),
            "locals {\n  a = {\n    b = 1\n  }\n  ccc = 2\n}\n"
        );
        assert_eq!(
            formatted_blocks("locals {\n  a = 1\n  ccc = 2\n}\n".to_string()),
            "locals {\n  a   = 1\n  ccc = 2\n}\n"
        );
        assert_eq!(formatted_blocks("locals {\n".to_string()), "locals {\n");
        assert_eq!(
            formatted_blocks("locals {\n  a = 1\n  ccc = 2\n}".to_string()),
            "locals {\n  a   = 1\n  ccc = 2\n}"
        );
    }
}
