//! `UPDATE_FIXTURES=1`: rewriting a fixture's diagnostic annotations in place so they match the analysis.
//!
//! It removes the annotation lines nothing matched and inserts the suggested ones under their code lines, and
//! touches nothing else: every other byte, `value:`/`def` annotations and the file's line ending (CRLF stays CRLF)
//! are kept. The only byte it may add elsewhere is a line terminator on a last line that lacked one, when a new
//! line has to follow it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::annotation::{Target, parse_line};
use crate::check::Problem;
use crate::fixture::Fixture;
use crate::suggest::Suggestion;

/// Applies every fixable problem to the files on disk. Returns the files rewritten and the problems that remain
/// (multi-line diagnostics, diagnostics that cannot be annotated, anything in a file that is not UTF-8).
pub(crate) fn update(fixture: &Fixture, problems: Vec<Problem>) -> std::io::Result<(Vec<PathBuf>, Vec<Problem>)> {
    if problems.iter().any(|p| matches!(p, Problem::Annotation { .. } | Problem::Load { .. })) {
        // The annotations could not be read, so there is nothing safe to rewrite.
        return Ok((Vec::new(), problems));
    }
    let mut edits: BTreeMap<PathBuf, (BTreeSet<u32>, Vec<Suggestion>)> = BTreeMap::new();
    let mut remaining = Vec::new();
    for problem in problems {
        let utf8 = fixture.file(problem.file()).is_some_and(|f| std::str::from_utf8(&f.bytes).is_ok());
        match problem {
            Problem::Missing { expectation, .. } if utf8 => {
                let entry = edits.entry(expectation.file().to_path_buf()).or_default();
                entry.0.insert(expectation.annotation_line());
            }
            Problem::Unexpected { fix: Ok(suggestion), .. } if utf8 => {
                edits.entry(suggestion.file.clone()).or_default().1.push(suggestion);
            }
            other => remaining.push(other),
        }
    }
    let mut written = Vec::new();
    for (path, (remove, insert)) in edits {
        let Some(file) = fixture.file(&path) else { continue };
        let new = rewrite(&file.text(), &remove, &insert);
        std::fs::write(fixture.dir.join(&path), new)?;
        written.push(path);
    }
    Ok((written, remaining))
}

/// The rewritten text: lines in `remove` (0-based, annotation lines only) dropped, `insert` placed under their
/// code lines (after any annotations already there, in column order) or at the end for `@eof`.
pub(crate) fn rewrite(text: &str, remove: &BTreeSet<u32>, insert: &[Suggestion]) -> String {
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut by_line: BTreeMap<Option<u32>, Vec<&Suggestion>> = BTreeMap::new();
    for s in insert {
        by_line.entry(s.under_line).or_default().push(s);
    }
    for group in by_line.values_mut() {
        group.sort_by(|a, b| (a.column, &a.text).cmp(&(b.column, &b.text)));
    }

    let mut out = String::with_capacity(text.len() + 64 * insert.len());
    let mut push = |piece: &str, new: bool| {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        out.push_str(piece);
        if new {
            out.push_str(eol);
        }
    };
    let mut i = 0;
    while i < lines.len() {
        let line_no = i as u32;
        if !remove.contains(&line_no) {
            push(lines[i], false);
        }
        i += 1;
        let Some(new) = by_line.get(&Some(line_no)) else { continue };
        // The annotation block under this code line: existing lines keep their order, each new line goes before
        // the first existing diagnostic/value/def annotation that starts further right.
        let mut block: Vec<(usize, &str, bool)> = Vec::new();
        while i < lines.len() && parse_line(lines[i].trim_end_matches(['\n', '\r'])).is_some() {
            if !remove.contains(&(i as u32)) {
                let column = match parse_line(lines[i].trim_end_matches(['\n', '\r'])) {
                    Some(Ok(a)) => match a.target {
                        Target::Columns { start, .. } => start,
                        Target::Eof => usize::MAX,
                    },
                    _ => usize::MAX,
                };
                block.push((column, lines[i], false));
            }
            i += 1;
        }
        for s in new {
            let at = block.iter().position(|(c, _, is_new)| !*is_new && *c > s.column as usize);
            block.insert(at.unwrap_or(block.len()), (s.column as usize, &s.text, true));
        }
        for (_, piece, is_new) in block {
            push(piece, is_new);
        }
    }
    if let Some(new) = by_line.get(&None) {
        for s in new {
            push(&s.text, true);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(under_line: Option<u32>, column: u32, text: &str) -> Suggestion {
        Suggestion { file: "main.tf".into(), under_line, column, text: text.into() }
    }

    #[test]
    fn empty_file_gets_an_eof_annotation() {
        assert_eq!(rewrite("", &BTreeSet::new(), &[at(None, 0, "# @eof error[e]")]), "# @eof error[e]\n");
    }

    #[test]
    fn removing_and_inserting_around_a_last_line_without_terminator() {
        let text = "a = 1\n#   ^ error[old]";
        assert_eq!(rewrite(text, &BTreeSet::from([1]), &[]), "a = 1\n");
        assert_eq!(
            rewrite(text, &BTreeSet::new(), &[at(Some(0), 2, "# ^ error[new]")]),
            "a = 1\n# ^ error[new]\n#   ^ error[old]"
        );
        assert_eq!(
            rewrite(text, &BTreeSet::new(), &[at(Some(0), 9, "#        ^ error[new]")]),
            "a = 1\n#   ^ error[old]\n#        ^ error[new]\n"
        );
    }

    #[test]
    fn new_lines_stack_in_column_order_among_kept_ones() {
        let text = "x = f(a, b, c)\n#     ^ error[a]\n#           ^ error[c]\ny = 1\n";
        let new = [
            at(Some(0), 9, "#        ^ error[b]"),
            at(Some(0), 0, "# @0..1 error[x]"),
            at(Some(3), 4, "#   ^ error[y]"),
        ];
        assert_eq!(
            rewrite(text, &BTreeSet::new(), &new),
            "x = f(a, b, c)\n# @0..1 error[x]\n#     ^ error[a]\n#        ^ error[b]\n#           ^ error[c]\ny = 1\n#   ^ error[y]\n"
        );
    }
}
