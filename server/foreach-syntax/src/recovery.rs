//! Parses a native HCL body so that one syntax error does not hide the rest of the file.
//!
//! hcl-edit stops at the first error, and a file being typed is nearly always broken somewhere. Policy:
//! - A body that parses as a whole is converted directly (the hot path: valid files are parsed exactly once).
//! - Otherwise [`scan`](crate::scan) splits it into items, each item is parsed on its own, and every item that
//!   parses is kept, in source order.
//! - A block item that fails keeps its header and is recovered inside the same way, recursively, so a half-typed
//!   attribute inside a `resource` block loses only that attribute. A block whose `{` is never closed is kept
//!   with what its body holds, and the error points at the `{`.
//! - An attribute item that fails is dropped (its value cannot be trusted) and its error is reported.
//! - Every error covers the offending token (one character, or an empty range at a line end), never a whole
//!   block.
//!
//! Items nested more than [`MAX_NESTING`] deep are reported as such and skipped.

use crate::ast::{Block, Body, Structure};
use crate::convert::Converter;
use crate::scan::{Item, Problem, split_items};
use crate::{Parse, SyntaxError, TextRange, TextSize};

/// The bracket nesting beyond which an item is reported as "nested too deeply" and skipped. hcl-edit itself
/// rejects more than 64 nested levels (with a less telling message); JSON, whose reader has no bound of its own,
/// is checked against this before parsing.
pub(crate) const MAX_NESTING: usize = 256;

/// How many levels of failing blocks we recover inside; deeper failures are reported without recovery.
const MAX_RECOVERY_DEPTH: usize = 32;

/// Parses `src`, whose first byte is at `base` in the original text.
pub(crate) fn parse_body(src: &str, base: usize) -> Parse {
    // No nesting pre-scan here: hcl-edit bounds its own recursion (it rejects more than 64 nested levels), so
    // absurd nesting fails fast and the item-by-item path below reports it and keeps the rest.
    // Without the parser's message: the items say what is wrong, and only when none does is the whole text's
    // message needed (a broken file is one parse of the whole text shorter, as the editor sees at every keystroke).
    // The direct parser reads nearly every valid file; what it is not sure of, hcl-edit parses (`direct`'s docs).
    let valid = crate::direct::parse_body(src, base).or_else(|| {
        hcl_edit::parser::parse_body_spanned_if_valid(src).map(|body| Converter::new(src, base).body(body))
    });
    if let Some(body) = valid {
        let errors = heredoc_at_end_of_file(src, base).into_iter().collect();
        return Parse { body, errors };
    }
    let mut recovery = Recovery { src, base, errors: Vec::new() };
    let body = recovery.body(0..src.len(), 0);
    let mut errors = recovery.errors;
    // The text as a whole is invalid even though each item alone is fine: report the whole-text error, so that
    // we never accept what the parser rejects.
    if errors.is_empty()
        && let Err(err) = hcl_edit::parser::parse_body_spanned(src)
    {
        errors.push(crate::syntax_error(src, base, &err));
    }
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    errors.dedup();
    Parse { body, errors }
}

/// Recovers one top-level item of `src` (at `base` in the original text) that does not parse alone, exactly as
/// [`parse_body`] recovers it inside a file that does not parse as a whole: an item nested too deeply is reported
/// and dropped, a block keeps its header and what of its body can be read, anything else is reported and dropped.
/// `err` is hcl-edit's error for the item parsed alone (`None` only for an item nested too deeply, which is not
/// parsed). Returns the recovered block, if any, and the item's errors (at least one). For re-parsing a broken
/// file item by item (`reuse.rs`).
pub(crate) fn recover_item(
    src: &str,
    base: usize,
    item: &Item,
    err: Option<&hcl_edit::parser::Error>,
) -> (Option<Block>, Vec<SyntaxError>) {
    let mut recovery = Recovery { src, base, errors: Vec::new() };
    let block = match item.too_deep {
        Some(at) => {
            recovery.error_at(at, "nested too deeply: more than 256 levels of brackets".to_owned());
            None
        }
        None => err.and_then(|err| recovery.block(item, err, 0)),
    };
    (block, recovery.errors)
}

struct Recovery<'a> {
    src: &'a str,
    base: usize,
    errors: Vec<SyntaxError>,
}

impl Recovery<'_> {
    fn body(&mut self, range: std::ops::Range<usize>, level: usize) -> Body {
        let mut structures: Vec<Structure> = Vec::new();
        let errors_before = self.errors.len();
        for item in split_items(self.src, range, MAX_NESTING) {
            if let Some(at) = item.too_deep {
                self.error_at(at, "nested too deeply: more than 256 levels of brackets".to_owned());
                continue;
            }
            let text = &self.src[item.range.clone()];
            match hcl_edit::parser::parse_body_spanned(text) {
                Ok(body) => structures.extend(Converter::new(text, self.base + item.range.start).body(body).structures),
                Err(err) => {
                    if let Some(block) = self.block(&item, &err, level) {
                        structures.push(Structure::Block(block));
                    }
                }
            }
        }
        // After another error in this body, a repeated name is more likely a symptom (a lost `{` that merged a
        // nested block's attributes into this body) than a second mistake.
        if self.errors.len() == errors_before {
            self.report_redefined(&structures);
        }
        Body { structures }
    }

    /// hcl-edit rejects a body that sets an attribute twice, as Terraform does ("Attribute redefined"); items
    /// parsed one by one cannot see each other, so the check is repeated here. Both attributes stay in the tree.
    fn report_redefined(&mut self, structures: &[Structure]) {
        let mut seen = std::collections::HashSet::new();
        for attr in structures.iter().filter_map(|s| match s {
            Structure::Attribute(a) => Some(a),
            Structure::Block(_) => None,
        }) {
            if !seen.insert(attr.key.name.as_str()) {
                self.errors.push(SyntaxError {
                    range: attr.key.range,
                    message: format!("attribute `{}` redefined: it is already set in this body", attr.key.name),
                });
            }
        }
    }

    /// Recovers a failing item as a block (header plus recovered body), or reports it and returns `None`.
    fn block(&mut self, item: &Item, err: &hcl_edit::parser::Error, level: usize) -> Option<Block> {
        let start = item.range.start;
        // What the scanner saw is certain and points at the cause; hcl-edit's position can be far from it (a
        // failed alternative backtracks to the item's start).
        let item_error = |this: &mut Self| match (item.problem, missing_value(&this.src[item.range.clone()])) {
            (Some(problem), _) => this.problem(problem),
            (None, Some(eq)) => this.error_at(start + eq, "missing value: expected an expression after `=`".to_owned()),
            (None, None) => this.hcl_error(start, &this.src[item.range.clone()], err),
        };
        let Some((open, close)) = item.brace else {
            item_error(self);
            return None;
        };
        if level >= MAX_RECOVERY_DEPTH {
            item_error(self);
            return None;
        }
        // The header alone, closed with an empty body, parses as a block iff the header is well-formed; its
        // ranges are right because the header is a prefix of the item.
        let header = &self.src[start..open];
        let mut probe = String::with_capacity(header.len() + 2);
        probe.push_str(header);
        probe.push_str("{}");
        let mut block = match hcl_edit::parser::parse_body_spanned(&probe) {
            Ok(body) => match Converter::new(&probe, self.base + start).body(body).structures.pop() {
                Some(Structure::Block(block)) => block,
                // `name = {`: an attribute whose value is broken.
                _ => {
                    item_error(self);
                    return None;
                }
            },
            Err(header_err) => {
                self.hcl_error(start, header, &header_err);
                return None;
            }
        };

        let errors_before = self.errors.len();
        let body_end = close.unwrap_or(item.range.end);
        block.body = self.body(open + 1..body_end, level + 1);
        let end = close.map_or(item.range.end, |c| c + 1);
        block.range = TextRange::new(block.range.start(), self.offset(end));
        block.body_range = TextRange::new(self.offset(open), self.offset(end));
        match close {
            None => self.error_at(open, "unclosed block: this `{` has no matching `}`".to_owned()),
            // The body recovered cleanly, so the error is outside it (for example text after the `}`).
            Some(_) if self.errors.len() == errors_before => item_error(self),
            Some(_) => {}
        }
        Some(block)
    }

    fn problem(&mut self, problem: Problem) {
        let message = match problem {
            Problem::UnterminatedString(_) => "unterminated string: no closing `\"` before the end of the line",
            Problem::UnterminatedHeredoc(_) => "unterminated heredoc: no line closes it with its delimiter",
            Problem::Unclosed(at) => match self.src.as_bytes()[at] {
                b'[' => "unclosed `[`: no matching `]`",
                b'(' => "unclosed `(`: no matching `)`",
                b'{' => "unclosed `{`: no matching `}`",
                _ => "unclosed template sequence: no matching `}`",
            },
        };
        self.error_at(problem.at(), message.to_owned());
    }

    fn offset(&self, at: usize) -> TextSize {
        TextSize::try_from(self.base + at).unwrap_or(TextSize::from(u32::MAX))
    }

    /// Reports hcl-edit's error for `text`, which starts at `start` in `src`.
    fn hcl_error(&mut self, start: usize, text: &str, err: &hcl_edit::parser::Error) {
        let error = crate::syntax_error(text, self.base + start, err);
        self.errors.push(error);
    }

    /// Reports an error on the character at `at` in `src`.
    fn error_at(&mut self, at: usize, message: String) {
        let len = crate::token_len(self.src, at);
        let range = TextRange::at(self.offset(at), TextSize::try_from(len).unwrap_or_default());
        self.errors.push(SyntaxError { range, message });
    }
}

/// For `name =` with nothing (or only a comment) after the `=`: the offset of the `=`.
fn missing_value(item: &str) -> Option<usize> {
    let name_len = item.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))?;
    let rest = &item[name_len..];
    let eq = name_len + (rest.len() - rest.trim_start().len());
    let after = item.get(eq..)?.strip_prefix('=')?;
    let after = after.trim_start();
    (name_len > 0 && (after.is_empty() || after.starts_with('#') || after.starts_with("//"))).then_some(eq)
}

/// Terraform rejects a file that ends right after a heredoc's closing delimiter, without a line break; the
/// (patched) parser accepts it, because a standalone expression may end that way. In a file that parsed, a last
/// line that holds nothing but a name can only be such a delimiter (an attribute needs `=`, a block `}`).
pub(crate) fn heredoc_at_end_of_file(src: &str, base: usize) -> Option<SyntaxError> {
    if src.ends_with('\n') {
        return None;
    }
    let line_start = src.rfind('\n').map_or(0, |i| i + 1);
    let name = src[line_start..].trim();
    let is_name = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if !is_name {
        return None;
    }
    let at = line_start + (src[line_start..].len() - src[line_start..].trim_start().len());
    let start = TextSize::try_from(base + at).unwrap_or_default();
    let len = TextSize::try_from(name.len()).unwrap_or_default();
    let message = format!("missing line break after the heredoc's closing `{name}` at the end of the file");
    Some(SyntaxError { range: TextRange::at(start, len), message })
}
