//! Quick-fix builders: functions that turn a finding into a [`crate::diagnostics::Fix`], computed as text edits on
//! the original file text so that everything outside the edited range stays byte-for-byte the same. The CLI
//! (`check --fix`, automatic fixes only) and the language server (code actions) apply them with [`apply_edits`].
//!
//! Imports run one way: the checks (`providers`, `similar`, `checks`, `ide`) call these builders and pass in what
//! they know (keys, aliases, file texts through [`crate::base::FileText`]); a builder never imports a check.

pub mod add_alias;
pub mod add_key;
pub mod filter_for_each;
pub mod insert;
pub mod key_source;
pub mod line_endings;
pub mod pass_alias;
pub mod use_instance;
pub mod use_name;
pub mod wrap_call;

use crate::diagnostics::TextEdit;

/// The result of applying edits to one file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    /// How many edits were applied.
    pub applied: usize,
    /// Edits left out because they overlap an earlier one (by start offset) or do not fit the text.
    pub skipped: usize,
}

/// Applies `edits` (all for the file whose text is `text`) in order of position. An edit that overlaps one already
/// taken, or whose range is not on character boundaries of `text`, is skipped rather than guessed at: the next
/// run reports what is still there.
pub fn apply_edits(text: &str, edits: &[&TextEdit]) -> Applied {
    let mut sorted: Vec<&TextEdit> = edits.to_vec();
    sorted.sort_by_key(|e| (e.location.range.start(), e.location.range.end()));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    let (mut applied, mut skipped) = (0, 0);
    for e in sorted {
        let (start, end) = (usize::from(e.location.range.start()), usize::from(e.location.range.end()));
        if start < at || text.get(start..end).is_none() {
            skipped += 1;
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&e.new_text);
        at = end;
        applied += 1;
    }
    out.push_str(&text[at..]);
    Applied { text: out, applied, skipped }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{FileId, FileRange};
    use foreach_syntax::{TextRange, TextSize};

    fn edit(start: u32, end: u32, new_text: &str) -> TextEdit {
        TextEdit {
            location: FileRange::new(FileId(0), TextRange::new(TextSize::from(start), TextSize::from(end))),
            new_text: new_text.to_string(),
        }
    }

    #[test]
    fn applies_in_position_order_and_skips_overlaps() {
        let (a, b, c) = (edit(6, 7, "X"), edit(0, 1, "Y"), edit(0, 3, "Z"));
        let r = apply_edits("abcdefgh", &[&a, &b, &c]);
        assert_eq!(r, Applied { text: "YbcdefXh".to_string(), applied: 2, skipped: 1 });
    }

    /// The one-way rule of the module docs, checked on the source.
    #[test]
    fn builders_import_no_check() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/fixes");
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for check in ["providers", "similar", "checks", "ide", "module_eval"] {
                    let path_prefix = format!("crate::{check}");
                    assert!(!text.contains(&path_prefix), "{} imports {path_prefix}", path.display());
                }
            }
        }
    }

    #[test]
    fn skips_edits_outside_the_text() {
        let a = edit(2, 40, "X");
        assert_eq!(apply_edits("abc", &[&a]), Applied { text: "abc".to_string(), applied: 0, skipped: 1 });
    }
}
