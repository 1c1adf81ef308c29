//! The annotation grammar of `testdata/README.md`: recognising annotation lines in `#` comments and turning them
//! into [`Expectation`]s with resolved ranges.
//!
//! This module only reads text; it knows nothing of diagnostics produced by the analysis, of files on disk, or of
//! rewriting. The grammar is strict on purpose: a comment that *starts* like an annotation (`#` then `^`, `@eof` or
//! `@<digit>`) must be a valid one, so a typo fails loudly instead of silently asserting nothing.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::position::{Position, Range, count};

pub const SEVERITIES: [&str; 4] = ["error", "warning", "info", "hint"];

/// One assertion written in a fixture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expectation {
    /// `# ^^^ error[code]` or `# ^^^ error[code]: text`: a diagnostic with exactly this range, severity and code,
    /// whose message contains `message` when given.
    Diagnostic {
        file: PathBuf,
        range: Range,
        /// 0-based line of the annotation itself (not of the code it points at).
        annotation_line: u32,
        severity: String,
        code: String,
        message: Option<String>,
    },
    /// `# ^^^ value: toset(["a"])`: static evaluation of exactly this range renders as `rendered`.
    Value { file: PathBuf, range: Range, annotation_line: u32, rendered: String },
    /// `# ^^^ def`: a goto-definition target.
    Def { file: PathBuf, range: Range, annotation_line: u32 },
}

impl Expectation {
    pub fn file(&self) -> &Path {
        match self {
            Expectation::Diagnostic { file, .. } | Expectation::Value { file, .. } | Expectation::Def { file, .. } => {
                file
            }
        }
    }

    pub fn range(&self) -> Range {
        match self {
            Expectation::Diagnostic { range, .. }
            | Expectation::Value { range, .. }
            | Expectation::Def { range, .. } => *range,
        }
    }

    pub fn annotation_line(&self) -> u32 {
        match self {
            Expectation::Diagnostic { annotation_line, .. }
            | Expectation::Value { annotation_line, .. }
            | Expectation::Def { annotation_line, .. } => *annotation_line,
        }
    }
}

/// A malformed annotation, at the 0-based line and character column where parsing gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotationError {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for AnnotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line + 1, self.column + 1, self.message)
    }
}

impl std::error::Error for AnnotationError {}

/// Parses every annotation of one file. `file` is only a label for the results (the path relative to the fixture
/// directory); `text` is the whole file. Returns the first malformed annotation as an error.
pub fn parse_annotations(file: &Path, text: &str) -> Result<Vec<Expectation>, AnnotationError> {
    let mut expectations = Vec::new();
    let mut code_line: Option<u32> = None;
    for (index, line) in text.split('\n').enumerate() {
        let line_no = count(index);
        let error = |column: usize, message: String| AnnotationError {
            file: file.to_path_buf(),
            line: line_no,
            column: count(column),
            message,
        };
        let Some(parsed) = parse_line(line) else {
            code_line = Some(line_no);
            continue;
        };
        let Annotation { target, assertion } = parsed.map_err(|(column, message)| error(column, message))?;
        let range = match target {
            Target::Columns { start, end, .. } => {
                let Some(code_line) = code_line else {
                    return Err(error(start, "annotation has no code line above it to point at".into()));
                };
                Range::on_line(code_line, count(start), count(end))
            }
            Target::Eof => Range::new(Position::end_of(text), Position::end_of(text)),
        };
        let file = file.to_path_buf();
        let annotation_line = line_no;
        expectations.push(match assertion {
            Assertion::Diagnostic { severity, code, message } => {
                Expectation::Diagnostic { file, range, annotation_line, severity, code, message }
            }
            // A value or a definition is always something written in the code, never a point.
            Assertion::Value(_) | Assertion::Def if range.is_empty() => {
                let what = if assertion == Assertion::Def { "a `def`" } else { "a `value:`" };
                return Err(error(0, format!("{what} annotation needs a non-empty range (use carets)")));
            }
            Assertion::Value(rendered) => Expectation::Value { file, range, annotation_line, rendered },
            Assertion::Def => Expectation::Def { file, range, annotation_line },
        });
    }
    Ok(expectations)
}

/// What an annotation points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// Carets or `@start..end`: character columns on the nearest preceding non-annotation line.
    Columns { start: usize, end: usize },
    /// `@eof`: the empty range at the very end of the file.
    Eof,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Assertion {
    Diagnostic { severity: String, code: String, message: Option<String> },
    Value(String),
    Def,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Annotation {
    pub(crate) target: Target,
    pub(crate) assertion: Assertion,
}

fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `None` for a line that is not an annotation; otherwise the annotation or `(column, message)` of its first error.
pub(crate) fn parse_line(line: &str) -> Option<Result<Annotation, (usize, String)>> {
    // Trailing whitespace (including the `\r` of CRLF files) is never significant: editors strip or keep it at will.
    let chars: Vec<char> = line.trim_end_matches(|c: char| c.is_whitespace()).chars().collect();
    let mut i = chars.iter().take_while(|&&c| is_ws(c)).count();
    if chars.get(i) != Some(&'#') {
        return None;
    }
    i += 1;
    i += chars[i..].iter().take_while(|&&c| is_ws(c)).count();
    let rest: String = chars[i..].iter().collect();
    let target_start = i;
    let target = if chars.get(i) == Some(&'^') {
        let n = chars[i..].iter().take_while(|&&c| c == '^').count();
        i += n;
        Target::Columns { start: target_start, end: i }
    } else if rest.starts_with("@eof") && chars.get(i + 4).is_none_or(|&c| is_ws(c)) {
        i += 4;
        Target::Eof
    } else if chars.get(i) == Some(&'@') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
        match parse_explicit(&chars, i + 1) {
            Ok((start, end, next)) => {
                i = next;
                Target::Columns { start, end }
            }
            Err(e) => return Some(Err(e)),
        }
    } else {
        // An ordinary comment, e.g. `# @param` or `# note`.
        return None;
    };
    let ws = chars[i..].iter().take_while(|&&c| is_ws(c)).count();
    if i + ws == chars.len() {
        return Some(Err((i, "annotation has no assertion after its target".into())));
    }
    if ws == 0 {
        return Some(Err((i, "expected a space between the target and the assertion".into())));
    }
    i += ws;
    Some(parse_assertion(&chars, i).map(|assertion| Annotation { target, assertion }))
}

/// `start..end` after the `@`, returning the columns and the index after them.
fn parse_explicit(chars: &[char], mut i: usize) -> Result<(usize, usize, usize), (usize, String)> {
    let number = |i: &mut usize| -> Option<usize> {
        let digits: String = chars[*i..].iter().take_while(|c| c.is_ascii_digit()).collect();
        *i += digits.len();
        digits.parse().ok()
    };
    let start = number(&mut i).ok_or((i, "expected a column number".to_string()))?;
    if chars.get(i) != Some(&'.') || chars.get(i + 1) != Some(&'.') {
        return Err((i, "expected `..` in `@start..end`".into()));
    }
    i += 2;
    let end_at = i;
    let end = number(&mut i).ok_or((i, "expected an end column after `..`".to_string()))?;
    if end < start {
        return Err((end_at, format!("end column {end} is before start column {start}")));
    }
    Ok((start, end, i))
}

fn parse_assertion(chars: &[char], start: usize) -> Result<Assertion, (usize, String)> {
    let rest: String = chars[start..].iter().collect();
    if rest == "def" {
        return Ok(Assertion::Def);
    }
    if let Some(value) = rest.strip_prefix("value:") {
        let value = value.trim_start_matches(is_ws);
        if value.is_empty() {
            return Err((chars.len(), "`value:` needs the rendered value after it".into()));
        }
        return Ok(Assertion::Value(value.to_string()));
    }
    let word: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
    let expected = "expected `error[code]`, `warning[code]`, `info[code]`, `hint[code]`, `value: <value>` or `def`";
    if !SEVERITIES.contains(&word.as_str()) || !rest[word.len()..].starts_with('[') {
        return Err((start, expected.into()));
    }
    let code_start = start + word.len() + 1;
    let Some(close) = chars[code_start..].iter().position(|&c| c == ']') else {
        return Err((chars.len(), "missing `]` after the code".into()));
    };
    let code: String = chars[code_start..code_start + close].iter().collect();
    if code.is_empty() || !code.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
        return Err((code_start, format!("code `{code}` is not kebab-case (`[a-z0-9-]+`)")));
    }
    let mut i = code_start + close + 1;
    let message = match chars.get(i) {
        None => None,
        Some(':') => {
            i += 1;
            i += chars[i..].iter().take_while(|&&c| is_ws(c)).count();
            if i == chars.len() {
                return Err((i, "`:` must be followed by text the message contains".into()));
            }
            Some(chars[i..].iter().collect())
        }
        Some(_) => return Err((i, "expected `: text` or the end of the line after `]`".into())),
    };
    Ok(Assertion::Diagnostic { severity: word, code, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<Expectation> {
        parse_annotations(Path::new("main.tf"), text).unwrap()
    }

    fn err(text: &str) -> String {
        parse_annotations(Path::new("main.tf"), text).unwrap_err().to_string()
    }

    fn diag(range: Range, annotation_line: u32, severity: &str, code: &str, message: Option<&str>) -> Expectation {
        Expectation::Diagnostic {
            file: "main.tf".into(),
            range,
            annotation_line,
            severity: severity.into(),
            code: code.into(),
            message: message.map(Into::into),
        }
    }

    #[test]
    fn carets_point_at_the_line_above() {
        let text = "locals {\n  a = var.x\n  #   ^^^^^ error[unknown-variable]\n}\n";
        assert_eq!(parse(text), vec![diag(Range::on_line(1, 6, 11), 2, "error", "unknown-variable", None)]);
    }

    #[test]
    fn columns_are_characters_not_bytes() {
        // `ключ` is 4 characters but 8 bytes; the carets sit under it character for character.
        let text = "x = \"ключ\" // é\n#    ^^^^ warning[w]\n#             ^ hint[h]\n";
        assert_eq!(
            parse(text),
            vec![
                diag(Range::on_line(0, 5, 9), 1, "warning", "w", None),
                diag(Range::on_line(0, 14, 15), 2, "hint", "h", None)
            ]
        );
    }

    #[test]
    fn tabs_count_as_one_column() {
        let text = "\tfoo = 1\n\t#^^^ info[i]\n";
        assert_eq!(parse(text), vec![diag(Range::on_line(0, 2, 5), 1, "info", "i", None)]);
    }

    #[test]
    fn stacked_annotations_share_the_code_line_and_comments_are_code_lines() {
        let text = "a = b.c\n#   ^^^ error[one]\n  #   ^ warning[two]: x\n# plain comment\n# ^ info[three]\n";
        assert_eq!(
            parse(text),
            vec![
                diag(Range::on_line(0, 4, 7), 1, "error", "one", None),
                diag(Range::on_line(0, 6, 7), 2, "warning", "two", Some("x")),
                diag(Range::on_line(3, 2, 3), 4, "info", "three", None),
            ]
        );
    }

    #[test]
    fn message_text_keeps_colons_and_inner_spaces_but_not_trailing_whitespace() {
        let text = "a = 1\r\n#   ^ error[c]:   no `x`: see  `y` \r\n";
        assert_eq!(parse(text), vec![diag(Range::on_line(0, 4, 5), 1, "error", "c", Some("no `x`: see  `y`"))]);
    }

    #[test]
    fn values_and_defs() {
        let text = "a = toset([\"a\"])\n#   ^^^^^^^^^^^^ value: toset([\"a\"])\n#^ def\n";
        assert_eq!(
            parse(text),
            vec![
                Expectation::Value {
                    file: "main.tf".into(),
                    range: Range::on_line(0, 4, 16),
                    annotation_line: 1,
                    rendered: "toset([\"a\"])".into()
                },
                Expectation::Def { file: "main.tf".into(), range: Range::on_line(0, 1, 2), annotation_line: 2 },
            ]
        );
    }

    #[test]
    fn explicit_columns_reach_column_zero_and_empty_ranges() {
        let text = "regions = []\n#@0..7 warning[undeclared-variable-value]\n# @3..3 error[syntax-error]\n";
        assert_eq!(
            parse(text),
            vec![
                diag(Range::on_line(0, 0, 7), 1, "warning", "undeclared-variable-value", None),
                diag(Range::on_line(0, 3, 3), 2, "error", "syntax-error", None),
            ]
        );
    }

    #[test]
    fn eof_is_the_end_of_the_whole_text() {
        let text = "resource \"a\" \"b\" {\n# @eof error[syntax-error]: unclosed";
        assert_eq!(parse(text), vec![diag(Range::on_line(1, 36, 36), 1, "error", "syntax-error", Some("unclosed"))],);
        // With a final newline the end is the start of the (empty) next line, and no code line is needed above.
        assert_eq!(parse("# @eof error[e]\n"), vec![diag(Range::on_line(1, 0, 0), 0, "error", "e", None)]);
    }

    #[test]
    fn ordinary_comments_are_not_annotations() {
        for line in ["# note", "// ^^ error[x]", "a = 1 # ^ error[x]", "## ^ error[x]", "# @param x", "# @eofx", "#"] {
            assert_eq!(parse(&format!("a = 1\n{line}\n")), vec![], "{line}");
        }
    }

    #[test]
    fn malformed_annotations_are_errors_with_positions() {
        let cases = [
            ("a\n# ^^^\n", "main.tf:2:6: annotation has no assertion after its target"),
            ("a\n# ^^^error[x]\n", "main.tf:2:6: expected a space between the target and the assertion"),
            (
                "a\n# ^ eror[x]\n",
                "main.tf:2:5: expected `error[code]`, `warning[code]`, `info[code]`, `hint[code]`, `value: <value>` or `def`",
            ),
            ("a\n# ^ error[Bad_Code]\n", "main.tf:2:11: code `Bad_Code` is not kebab-case (`[a-z0-9-]+`)"),
            ("a\n# ^ error[x\n", "main.tf:2:12: missing `]` after the code"),
            ("a\n# ^ error[x]:  \n", "main.tf:2:14: `:` must be followed by text the message contains"),
            ("a\n# ^ error[x] y\n", "main.tf:2:13: expected `: text` or the end of the line after `]`"),
            ("a\n# ^ value:\n", "main.tf:2:11: `value:` needs the rendered value after it"),
            (
                "a\n# ^ def x\n",
                "main.tf:2:5: expected `error[code]`, `warning[code]`, `info[code]`, `hint[code]`, `value: <value>` or `def`",
            ),
            ("a\n# @5 error[x]\n", "main.tf:2:5: expected `..` in `@start..end`"),
            ("a\n# @5..2 error[x]\n", "main.tf:2:7: end column 2 is before start column 5"),
            ("a\n# @1..1 def\n", "main.tf:2:1: a `def` annotation needs a non-empty range (use carets)"),
            ("# ^ error[x]\n", "main.tf:1:3: annotation has no code line above it to point at"),
        ];
        for (text, expected) in cases {
            assert_eq!(err(text), expected, "{text:?}");
        }
    }
}
