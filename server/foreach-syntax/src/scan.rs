//! A small token-level scanner that splits a body's text into its items (attributes and blocks) without parsing
//! them, so that error recovery can parse each item on its own.
//!
//! It knows just enough HCL lexing to find where an item ends: bracket nesting (`{`, `[`, `(`, and the `${`/`%{`
//! of templates), quoted strings and their escapes, heredocs, and the three comment forms. An item ends at the
//! first newline outside every bracket. Since a file being typed often has an unclosed bracket, an item that is
//! still open at the end of the range is cut before the first later line that looks like the start of a sibling
//! item (same or smaller indentation, `name =` or a block header); without that, one missing `}` would swallow
//! the rest of the file. It also measures nesting depth, because hcl-edit is a recursive-descent parser.
//!
//! It must stay linear: the rescans caused by cutting unclosed items share one budget proportional to the text.

use std::ops::Range;

/// One item found by [`split_items`]. Offsets are into the text given to [`split_items`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    /// From the item's first character to the end of its last line (without the line ending).
    pub range: Range<usize>,
    /// The first `{` opened outside every other bracket, and the `}` that closed it, if any. For a block item
    /// this is its body.
    pub brace: Option<(usize, Option<usize>)>,
    /// The first bracket opened more than the nesting limit deep.
    pub too_deep: Option<usize>,
    /// A problem the scanner can see without parsing, which makes the item invalid for sure.
    pub problem: Option<Problem>,
}

/// An item-level syntax problem found while scanning, with the offset of the token that causes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Problem {
    /// A `"` whose string runs to the end of its line.
    UnterminatedString(usize),
    /// A `<<EOT` with no closing `EOT` line.
    UnterminatedHeredoc(usize),
    /// A `{`, `[`, `(`, `${` or `%{` that is never closed (or is closed by an outer bracket's closer).
    Unclosed(usize),
}

/// What a bracket on the scanner's stack is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Brace,
    Bracket,
    Paren,
    /// `${` or `%{` (closed by `}`); it returns to the enclosing string.
    Template,
    /// Inside a quoted string.
    Str,
}

/// The bytes [`Scanner::item`] acts on outside strings: everything else just moves on.
const CODE_SPECIAL: [bool; 256] = byte_set(b"\"#/{[(}])<\n");
/// The bytes it acts on inside a quoted string.
const STRING_SPECIAL: [bool; 256] = byte_set(b"\\\"\n$%");

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        set[bytes[i] as usize] = true;
        i += 1;
    }
    set
}

/// Splits `range` of `text` into items. `max_depth` is the bracket nesting beyond which an item is reported as
/// [`Item::too_deep`].
pub(crate) fn split_items(text: &str, range: Range<usize>, max_depth: usize) -> Vec<Item> {
    let mut scanner = Scanner {
        b: text.as_bytes(),
        hi: range.end.min(text.len()),
        max_depth,
        // Rescans after cutting unclosed items may cost at most a few passes over the text.
        budget: 4 * (range.end.saturating_sub(range.start)) + 4096,
    };
    let mut items = Vec::new();
    let mut i = range.start;
    loop {
        i = scanner.skip_trivia(i);
        if i >= scanner.hi {
            break;
        }
        let (item, next) = scanner.item(i);
        items.push(item);
        // Always make progress, whatever the item looked like.
        i = next.max(i + 1);
    }
    items
}

struct Scanner<'a> {
    b: &'a [u8],
    hi: usize,
    max_depth: usize,
    budget: usize,
}

impl Scanner<'_> {
    /// Skips whitespace and comments between items.
    fn skip_trivia(&self, mut i: usize) -> usize {
        while i < self.hi {
            match self.b[i] {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'#' => i = self.line_end(i),
                b'/' if self.at(i + 1) == Some(b'/') => i = self.line_end(i),
                b'/' if self.at(i + 1) == Some(b'*') => i = self.comment_end(i),
                _ => break,
            }
        }
        i
    }

    fn at(&self, i: usize) -> Option<u8> {
        if i < self.hi { Some(self.b[i]) } else { None }
    }

    /// The offset of the `\n` ending the line containing `i` (or the end of the range).
    fn line_end(&self, i: usize) -> usize {
        memchr(b'\n', &self.b[i.min(self.hi)..self.hi]).map_or(self.hi, |j| i + j)
    }

    /// The offset just after the `*/` closing the comment starting at `i` (or the end of the range).
    fn comment_end(&self, i: usize) -> usize {
        let mut j = i + 2;
        while j + 1 < self.hi {
            if self.b[j] == b'*' && self.b[j + 1] == b'/' {
                return j + 2;
            }
            j += 1;
        }
        self.hi
    }

    /// The indentation (spaces and tabs) of the line containing `i`, up to `i`.
    fn indent_before(&self, i: usize) -> usize {
        let line_start = self.b[..i].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        self.b[line_start..i].iter().take_while(|&&c| c == b' ' || c == b'\t').count()
    }

    /// Scans one item starting at `start`; returns it and where scanning continues.
    fn item(&mut self, start: usize) -> (Item, usize) {
        let indent = self.indent_before(start);
        let mut stack: Vec<(Ctx, usize)> = Vec::new();
        let mut problem = None;
        let mut brace: Option<(usize, Option<usize>)> = None;
        let mut too_deep = None;
        let mut sibling_start = None;
        let mut i = start;

        while i < self.hi {
            // Skip the run of bytes that cannot change anything here: most of a file, so one table lookup per
            // byte instead of the whole match (the 1.3 MB generated files of the corpus are rescanned per keystroke).
            let in_string = stack.last().is_some_and(|s| s.0 == Ctx::Str);
            let special = if in_string { &STRING_SPECIAL } else { &CODE_SPECIAL };
            while i < self.hi && !special[usize::from(self.b[i])] {
                i += 1;
            }
            if i >= self.hi {
                break;
            }
            let c = self.b[i];
            if in_string {
                match c {
                    b'\\' => i += 2,
                    b'"' => {
                        stack.pop();
                        i += 1;
                    }
                    // An unterminated string ends at the line's end (quoted strings cannot span lines).
                    b'\n' => {
                        if let Some((_, open)) = stack.pop() {
                            problem.get_or_insert(Problem::UnterminatedString(open));
                        }
                    }
                    b'$' | b'%' if self.at(i + 1) == Some(c) && self.at(i + 2) == Some(b'{') => i += 3,
                    b'$' | b'%' if self.at(i + 1) == Some(b'{') => {
                        stack.push((Ctx::Template, i));
                        i += 2;
                    }
                    _ => i += 1,
                }
                continue;
            }
            match c {
                b'"' => {
                    stack.push((Ctx::Str, i));
                    i += 1;
                }
                b'#' => i = self.line_end(i),
                b'/' if self.at(i + 1) == Some(b'/') => i = self.line_end(i),
                b'/' if self.at(i + 1) == Some(b'*') => i = self.comment_end(i),
                b'{' | b'[' | b'(' => {
                    if stack.is_empty() && c == b'{' && brace.is_none() {
                        brace = Some((i, None));
                    }
                    let ctx = match c {
                        b'{' => Ctx::Brace,
                        b'[' => Ctx::Bracket,
                        _ => Ctx::Paren,
                    };
                    stack.push((ctx, i));
                    if stack.len() > self.max_depth && too_deep.is_none() {
                        too_deep = Some(i);
                    }
                    i += 1;
                }
                b'}' | b']' | b')' => {
                    let matches = |(ctx, _): &(Ctx, usize)| match c {
                        b'}' => matches!(ctx, Ctx::Brace | Ctx::Template),
                        b']' => *ctx == Ctx::Bracket,
                        _ => *ctx == Ctx::Paren,
                    };
                    // A closer that matches an outer bracket closes everything inside it too: the inner ones
                    // were left unclosed. One that matches nothing is ignored (the parser reports it).
                    if let Some(pos) = stack.iter().rposition(matches) {
                        if let Some(&(_, inner)) = stack.get(pos + 1) {
                            problem.get_or_insert(Problem::Unclosed(inner));
                        }
                        stack.truncate(pos);
                        if let (true, Some((_, close @ None))) = (stack.is_empty(), &mut brace) {
                            *close = Some(i);
                        }
                    }
                    i += 1;
                }
                b'<' if self.at(i + 1) == Some(b'<') => {
                    let (next, terminated) = self.heredoc(i, indent);
                    if !terminated {
                        problem.get_or_insert(Problem::UnterminatedHeredoc(i));
                    }
                    i = next;
                }
                b'\n' => {
                    if stack.is_empty() {
                        return (self.finish(start, i, brace, too_deep, problem), i + 1);
                    }
                    if sibling_start.is_none() && self.looks_like_item_start(i + 1, indent) {
                        sibling_start = Some(i + 1);
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }

        // Still inside a bracket at the end of the range: cut before the first sibling-looking line, if the
        // budget for rescanning allows.
        let scanned = self.hi.saturating_sub(start);
        // The innermost bracket still open at the cut (or at the end) is the one that was never closed.
        let unclosed_before = |cut: usize| stack.iter().rev().find(|(_, at)| *at < cut).map(|&(_, at)| at);
        if let (false, Some(cut), true) = (stack.is_empty(), sibling_start, self.budget >= scanned) {
            self.budget -= scanned;
            // Brackets and too-deep markers past the cut belong to the items after it.
            let brace = brace.map(|(open, close)| (open, close.filter(|&c| c < cut)));
            let brace = brace.filter(|&(open, _)| open < cut);
            let too_deep = too_deep.filter(|&at| at < cut);
            let problem = problem.filter(|p| p.at() < cut).or(unclosed_before(cut).map(Problem::Unclosed));
            return (self.finish(start, cut, brace, too_deep, problem), cut);
        }
        let problem = problem.or(unclosed_before(self.hi).map(Problem::Unclosed));
        (self.finish(start, self.hi, brace, too_deep, problem), self.hi)
    }

    fn finish(
        &self,
        start: usize,
        mut end: usize,
        brace: Option<(usize, Option<usize>)>,
        too_deep: Option<usize>,
        problem: Option<Problem>,
    ) -> Item {
        while end > start && matches!(self.b[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
            end -= 1;
        }
        Item { range: start..end, brace, too_deep, problem }
    }

    /// Skips a heredoc starting at `i` (`<<`); returns where scanning continues and whether the heredoc was
    /// terminated. Anything that is not a heredoc opener just skips the `<<`. An unterminated heredoc ends before
    /// the next sibling-looking line, so that it does not swallow the rest of the file.
    fn heredoc(&self, i: usize, indent: usize) -> (usize, bool) {
        let mut j = i + 2;
        if self.at(j) == Some(b'-') {
            j += 1;
        }
        let ident_start = j;
        while self.at(j).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-') {
            j += 1;
        }
        let delim = &self.b[ident_start..j];
        if delim.is_empty() || !delim[0].is_ascii_alphabetic() && delim[0] != b'_' {
            return (i + 2, true);
        }
        if self.at(j) == Some(b'\r') {
            j += 1;
        }
        if self.at(j) != Some(b'\n') {
            return (i + 2, true);
        }
        let mut line = j + 1;
        while line < self.hi {
            let end = self.line_end(line);
            let content = &self.b[line..end];
            let trimmed = trim_ascii(content);
            if trimmed == delim {
                return (line + (content.len() - trim_ascii_start(content).len()) + delim.len(), true);
            }
            line = end + 1;
        }
        // Unterminated: stop at the line ending before the sibling, which then ends the item.
        let mut line = j + 1;
        while line < self.hi {
            if self.looks_like_item_start(line, indent) {
                return (line - 1, false);
            }
            line = self.line_end(line) + 1;
        }
        (self.hi, false)
    }

    /// Whether the line starting at `i` looks like the start of an item at indentation `indent` or less:
    /// `name =` (not `==`) or a block header `name label "label" {`.
    fn looks_like_item_start(&self, i: usize, indent: usize) -> bool {
        let mut j = i;
        while self.at(j).is_some_and(|c| c == b' ' || c == b'\t') {
            j += 1;
        }
        if j - i > indent || !self.at(j).is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') {
            return false;
        }
        let mut first = true;
        loop {
            // An identifier or a quoted label.
            match self.at(j) {
                Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                    while self.at(j).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-') {
                        j += 1;
                    }
                }
                Some(b'"') if !first => {
                    j += 1;
                    while self.at(j).is_some_and(|c| c != b'"' && c != b'\n') {
                        j += if self.at(j) == Some(b'\\') { 2 } else { 1 };
                    }
                    if self.at(j) != Some(b'"') {
                        return false;
                    }
                    j += 1;
                }
                _ => return false,
            }
            while self.at(j).is_some_and(|c| c == b' ' || c == b'\t') {
                j += 1;
            }
            match self.at(j) {
                Some(b'{') => return true,
                Some(b'=') => return first && self.at(j + 1) != Some(b'='),
                _ => first = false,
            }
        }
    }
}

impl Problem {
    pub(crate) fn at(self) -> usize {
        match self {
            Problem::UnterminatedString(at) | Problem::UnterminatedHeredoc(at) | Problem::Unclosed(at) => at,
        }
    }
}

fn trim_ascii_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &s[n..]
}

fn trim_ascii(s: &[u8]) -> &[u8] {
    let s = trim_ascii_start(s);
    let n = s.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
    &s[..s.len() - n]
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&c| c == needle)
}

#[cfg(test)]
mod tests {
    use super::{Problem, split_items};

    fn items(text: &str) -> Vec<&str> {
        split_items(text, 0..text.len(), 256).into_iter().map(|item| &text[item.range]).collect()
    }

    #[test]
    fn splits_at_top_level_newlines_only() {
        let text = "# c\na = [\n  1,\n]\n\nb \"x\" {\n  c = \"}\" # }\n  d = <<EOT\n}\nEOT\n}\n/* { */ e = 1\n";
        assert_eq!(items(text), ["a = [\n  1,\n]", "b \"x\" {\n  c = \"}\" # }\n  d = <<EOT\n}\nEOT\n}", "e = 1"]);
    }

    #[test]
    fn templates_nest_inside_strings() {
        let text = "a = \"${ { x = \"}\" } }\"\nb = 1";
        assert_eq!(items(text), ["a = \"${ { x = \"}\" } }\"", "b = 1"]);
    }

    #[test]
    fn unclosed_brace_is_cut_before_a_sibling() {
        let text = "a {\n  x = 1\n\nb {\n  y = 1\n}\nc = 2\n";
        assert_eq!(items(text), ["a {\n  x = 1", "b {\n  y = 1\n}", "c = 2"]);
    }

    #[test]
    fn mismatched_closer_closes_the_outer_bracket() {
        let text = "a {\n  x = [\n}\nb = 1";
        assert_eq!(items(text), ["a {\n  x = [\n}", "b = 1"]);
    }

    #[test]
    fn unterminated_string_ends_at_line_end() {
        let text = "a = \"abc\nb = 1";
        assert_eq!(items(text), ["a = \"abc", "b = 1"]);
    }

    #[test]
    fn unterminated_heredoc_ends_before_a_sibling() {
        let text = "a = <<EOT\n  text\nb = 1\n";
        assert_eq!(items(text), ["a = <<EOT\n  text", "b = 1"]);
    }

    #[test]
    fn indented_siblings_cut_inner_items() {
        let text = "  provider = aws.by_region[\n  bucket = \"x\"\n";
        assert_eq!(items(text), ["provider = aws.by_region[", "bucket = \"x\""]);
    }

    #[test]
    fn diagnoses_problems() {
        let problem = |text: &str| split_items(text, 0..text.len(), 256)[0].problem;
        assert_eq!(problem("a = \"x\nb = 1"), Some(Problem::UnterminatedString(4)));
        assert_eq!(problem("a = <<EOT\nx\n"), Some(Problem::UnterminatedHeredoc(4)));
        assert_eq!(problem("a = [(1]"), Some(Problem::Unclosed(5)));
        assert_eq!(problem("a = f(\n"), Some(Problem::Unclosed(5)));
        assert_eq!(problem("a {\n  x = (\nb = 1\n"), Some(Problem::Unclosed(10)));
        assert_eq!(problem("a = [1]"), None);
    }

    #[test]
    fn reports_too_deep_nesting() {
        let text = format!("a = {}\nb = 1", "[".repeat(300));
        let items = split_items(&text, 0..text.len(), 256);
        assert_eq!(items[0].too_deep, Some(4 + 256));
    }

    #[test]
    fn many_unclosed_items_stay_linear() {
        let text = "a {\n".repeat(20_000);
        let items = split_items(&text, 0..text.len(), 256);
        assert!(!items.is_empty());
    }
}
