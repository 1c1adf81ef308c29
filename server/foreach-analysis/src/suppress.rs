//! Suppression comments: `# foreach-ls:ignore code[, code…]` (or `//`) on the line above a block or an
//! attribute silences those codes for every diagnostic whose primary range lies inside it, nested blocks
//! included. A comment above a nested block applies to that block only.
//!
//! It is the last pass of [`crate::checks::workspace_diagnostics`], so the CLI and the language server silence
//! exactly the same diagnostics. The comment must be directly above the block's first line; further comment
//! lines may sit in between (a suppression next to an explanation), a blank line may not, so a stray comment
//! at the end of one block cannot silence the next. JSON files have no comments and never suppress anything.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::ast::{Body, Structure};
use foreach_syntax::{TextRange, TextSize};

use crate::base::FileId;
use crate::db::{Db, SourceFile};
use crate::diagnostics::{Code, Diagnostic, SUPPRESSION_MARKER as MARKER};

/// One suppression comment and the block or attribute it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub codes: Vec<Code>,
    /// The comment line, for reporting an unused or malformed suppression.
    pub comment: TextRange,
    /// The whole block or attribute the comment applies to.
    pub scope: TextRange,
}

/// The suppressions of one file (tracked, so an edit elsewhere does not re-read it).
#[salsa::tracked(returns(clone))]
pub fn file_suppressions(db: &dyn Db, file: SourceFile) -> Arc<Vec<Suppression>> {
    if file.load_error(db).is_some() || file.kind(db).is_json() {
        return Arc::new(Vec::new());
    }
    // A configuration file's summary noted whether it has a marker; other files (variable files) are read.
    let marked = match file.kind(db).is_config() {
        true => crate::db::file_summary(db, file).has_suppression_marker,
        false => file.text(db).contains(MARKER),
    };
    if !marked {
        return Arc::new(Vec::new());
    }
    let text = file.text(db);
    let text: &str = &text;
    let parse = foreach_syntax::parse(text, file.kind(db));
    Arc::new(suppressions(text, &parse.body))
}

/// Finds every suppression comment in `text` and the structure (block or attribute) on the next non-comment line.
/// Comments that precede no structure are dropped.
pub fn suppressions(text: &str, body: &Body) -> Vec<Suppression> {
    let mut starts: HashMap<usize, TextRange> = HashMap::new();
    collect_structures(body, &mut starts);
    let lines = line_spans(text);
    let mut out = Vec::new();
    for (i, &(start, end)) in lines.iter().enumerate() {
        let Some(codes) = parse_comment(&text[start..end]) else { continue };
        // The next line that is not itself a comment; a blank line ends the search.
        let target = lines[i + 1..].iter().find(|&&(s, e)| !is_comment(&text[s..e]));
        let Some(&(s, e)) = target else { continue };
        let line = &text[s..e];
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some(scope) = starts.get(&(s + indent)) {
            out.push(Suppression { codes, comment: span(start, end), scope: *scope });
        }
    }
    out
}

/// Removes the diagnostics that a suppression in their file covers.
pub fn apply(diags: &mut Vec<Diagnostic>, by_file: &HashMap<FileId, Arc<Vec<Suppression>>>) {
    diags.retain(|d| {
        let Some(sups) = by_file.get(&d.location.file) else { return true };
        !sups.iter().any(|s| s.codes.contains(&d.code) && s.scope.contains_range(d.location.range))
    });
}

/// `# foreach-ls:ignore a, b` → the known codes `a`, `b`. Anything after the list (`-- why`) is a free-form reason.
/// Unknown names are ignored (a typo silences nothing, which the user notices).
fn parse_comment(line: &str) -> Option<Vec<Code>> {
    let t = line.trim_start();
    let rest = t.strip_prefix('#').or_else(|| t.strip_prefix("//"))?;
    let rest = rest.trim_start().strip_prefix(MARKER)?;
    if !rest.is_empty() && !rest.starts_with([' ', '\t', ',']) {
        return None;
    }
    let mut codes = Vec::new();
    for token in rest.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
        if !token.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
            break;
        }
        if let Some(code) = Code::from_name(token) {
            codes.push(code);
        }
    }
    Some(codes)
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.starts_with("//")
}

fn collect_structures(body: &Body, out: &mut HashMap<usize, TextRange>) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => {
                out.entry(usize::from(a.range.start())).or_insert(a.range);
            }
            Structure::Block(b) => {
                out.entry(usize::from(b.range.start())).or_insert(b.range);
                collect_structures(&b.body, out);
            }
        }
    }
}

/// Byte spans of the lines, without their line terminators.
fn line_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            let end = if text[..i].ends_with('\r') { i - 1 } else { i };
            out.push((start, end));
            start = i + 1;
        }
    }
    out.push((start, text.len()));
    out
}

fn span(start: usize, end: usize) -> TextRange {
    let to = |n: usize| TextSize::try_from(n).unwrap_or(TextSize::from(u32::MAX));
    TextRange::new(to(start), to(end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::FileRange;
    use foreach_syntax::FileKind;

    fn sups(text: &str) -> Vec<Suppression> {
        suppressions(text, &foreach_syntax::parse(text, FileKind::Tf).body)
    }

    fn diag_at(text: &str, needle: &str, code: Code) -> Diagnostic {
        let at = text.find(needle).unwrap();
        Diagnostic::new(code, FileRange::new(FileId(1), span(at, at + needle.len())), "x")
    }

    fn kept(text: &str, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut diags = diags;
        let by_file = HashMap::from([(FileId(1), Arc::new(sups(text)))]);
        apply(&mut diags, &by_file);
        diags
    }

    const TEXT: &str = "\
# foreach-ls:ignore too-similar-for-each
resource \"aws_vpc\" \"a\" {
  for_each = var.regions
}

resource \"aws_vpc\" \"b\" {
  for_each = var.regions
  # why: kept for the demo
  // foreach-ls:ignore undefined-reference, too-similar-for-each -- reason
  lifecycle {
    x = var.nope
  }
  y = var.nope2
}
";

    #[test]
    fn finds_comments_and_their_structures() {
        let s = sups(TEXT);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].codes, vec![Code::TooSimilarForEach]);
        assert_eq!(&TEXT[s[0].scope], &TEXT[TEXT.find("resource").unwrap()..TEXT.find("}\n").unwrap() + 1]);
        assert_eq!(s[1].codes, vec![Code::UndefinedReference, Code::TooSimilarForEach]);
        assert!(TEXT[s[1].scope].starts_with("lifecycle {"));
    }

    #[test]
    fn silences_only_the_named_codes_inside_the_block() {
        let first = TEXT.find("var.regions").unwrap();
        let d1 = Diagnostic::new(Code::TooSimilarForEach, FileRange::new(FileId(1), span(first, first + 11)), "x");
        let d2 = Diagnostic::new(Code::UndefinedReference, FileRange::new(FileId(1), span(first, first + 11)), "x");
        let second = diag_at(TEXT, "var.regions\n  #", Code::TooSimilarForEach);
        let nested = diag_at(TEXT, "var.nope\n", Code::UndefinedReference);
        let outside_nested = diag_at(TEXT, "var.nope2", Code::UndefinedReference);
        let other_file = Diagnostic { location: FileRange::new(FileId(2), d1.location.range), ..d1.clone() };
        let left = kept(TEXT, vec![d1, d2.clone(), second.clone(), nested, outside_nested.clone(), other_file.clone()]);
        assert_eq!(left, vec![d2, second, outside_nested, other_file]);
    }

    #[test]
    fn a_blank_line_or_a_malformed_marker_breaks_the_link() {
        let text = "# foreach-ls:ignore too-similar-for-each\n\nresource \"a\" \"b\" {}\n";
        assert!(sups(text).is_empty());
        let text = "# foreach-ls:ignored too-similar-for-each\nresource \"a\" \"b\" {}\n";
        assert!(sups(text).is_empty());
        let text = "#foreach-ls:ignore\tunknown-code,too-similar-for-each\r\nresource \"a\" \"b\" {}\r\n";
        assert_eq!(sups(text)[0].codes, vec![Code::TooSimilarForEach]);
    }

    #[test]
    fn a_comment_inside_a_heredoc_is_not_a_suppression_of_a_following_line() {
        let text = "x = <<EOT\n# foreach-ls:ignore syntax-error\nEOT\ny = 1\n";
        assert!(sups(text).is_empty());
    }
}
