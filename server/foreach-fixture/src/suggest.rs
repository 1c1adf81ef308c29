//! The annotation line that would expect a given diagnostic: what the failure report tells you to paste and what
//! `UPDATE_FIXTURES=1` inserts. Both use this one function so the report never suggests something the rewrite
//! would not write.

use std::path::PathBuf;

use crate::actual::ActualDiagnostic;
use crate::annotation::{SEVERITIES, parse_line};
use crate::fixture::Fixture;
use crate::position::{Position, count};

/// Where to put an annotation line and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub file: PathBuf,
    /// The 0-based code line to put it under, or `None` for the end of the file (an `@eof` annotation).
    pub under_line: Option<u32>,
    /// The diagnostic's start column, to stack several annotations of one code line in column order.
    pub column: u32,
    /// The annotation line itself, without a line terminator.
    pub text: String,
}

pub(crate) fn suggest(fixture: &Fixture, d: &ActualDiagnostic, with_message: bool) -> Result<Suggestion, String> {
    let Some(file) = fixture.file(&d.file) else {
        return Err(format!("`{}` is not a file of the fixture", d.file.display()));
    };
    if !file.is_annotatable() {
        return Err("this kind of file has no `#` comments to write an annotation in".into());
    }
    // A label the grammar cannot express would be pasted and then rejected as an invalid annotation.
    if !SEVERITIES.contains(&d.severity.as_str()) {
        return Err(format!("severity `{}` is not one of `error`, `warning`, `info`, `hint`", d.severity));
    }
    if d.code.is_empty() || !d.code.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
        return Err(format!("code `{}` is not kebab-case (`[a-z0-9-]+`)", d.code));
    }
    let text = file.text();
    let mut assertion = d.label();
    if with_message && let Some(first) = d.message.lines().next().map(str::trim).filter(|m| !m.is_empty()) {
        assertion = format!("{assertion}: {first}");
    }
    let base = Suggestion { file: d.file.clone(), under_line: None, column: d.start.column, text: String::new() };
    if d.start == d.end && d.start == Position::end_of(&text) {
        return Ok(Suggestion { text: format!("# @eof {assertion}"), ..base });
    }
    let Some(code) = text.split_inclusive('\n').nth(d.start.line as usize) else {
        return Err(format!("the file has no line {}", d.start.line + 1));
    };
    let code = code.trim_end_matches(['\n', '\r']);
    if parse_line(code).is_some() {
        return Err("it points into an annotation line, which cannot itself be annotated".into());
    }
    let indent: Vec<char> = code.chars().take_while(|&c| c == ' ' || c == '\t').collect();
    let (start, end) = (d.start.column as usize, d.end.column as usize);
    let text = if start == end || start == 0 {
        // Carets cannot show an empty range, nor a range under the `#` itself.
        format!("{}# @{start}..{end} {assertion}", indent.iter().collect::<String>())
    } else {
        // Put the `#` at the code's indentation when there is room for a space after it, else right before the
        // carets; copying the code line's own whitespace keeps tab-indented files aligned in editors too.
        let hash = if indent.len() + 2 <= start { indent.len() } else { start - 1 };
        // `hash` never exceeds the indentation, so the prefix is exactly `hash` characters.
        let prefix: String = indent.iter().take(hash).collect();
        format!("{prefix}#{}{} {assertion}", " ".repeat(start - hash - 1), "^".repeat(end - start))
    };
    Ok(Suggestion { under_line: Some(count(d.start.line as usize)), text, ..base })
}
