//! Signature help and hover for built-in functions (`function_docs.rs` holds what is said about each).
//!
//! Signature help is asked while a call is being typed (`format("x", `), when the file usually does not parse, so
//! the call around the cursor is found by scanning the text, not the tree: brackets, strings (with their `${…}`
//! interpolations) and comments are tracked from the start of the file to the cursor.

use foreach_syntax::{TextRange, TextSize};

use super::function_docs::function_doc;
use super::results::HoverResult;

/// The signature of the function call around the cursor, and which parameter the cursor is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    pub label: String,
    /// The parameters as written in `label`.
    pub params: Vec<String>,
    pub active_param: usize,
    pub documentation: String,
}

enum Frame {
    /// `name(` with the commas seen so far at this depth.
    Call {
        name: String,
        commas: usize,
    },
    Other,
    Str,
    /// `${` or `%{` in a string.
    Interp,
}

/// The signature help at `offset` in `text`: `None` outside the arguments of a known built-in function.
pub(crate) fn signature_help(text: &str, offset: TextSize) -> Option<SignatureHelp> {
    let end = usize::from(offset).min(text.len());
    if !text.is_char_boundary(end) {
        return None;
    }
    let bytes = &text.as_bytes()[..end];
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let in_str = matches!(stack.last(), Some(Frame::Str));
        if in_str {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    stack.pop();
                }
                b'$' | b'%' if bytes.get(i + 1) == Some(&b'{') => {
                    stack.push(Frame::Interp);
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => stack.push(Frame::Str),
            b'#' => i = skip_line(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..end].find("*/").map_or(bytes.len(), |j| i + 2 + j + 1);
            }
            b'(' => stack.push(Frame::Call { name: name_before(text, i).to_string(), commas: 0 }),
            b'[' | b'{' => stack.push(Frame::Other),
            b')' | b']' | b'}' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Call { commas, .. }) = stack.last_mut() {
                    *commas += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (name, commas) = stack.iter().rev().find_map(|f| match f {
        Frame::Call { name, commas } => Some((name.as_str(), *commas)),
        _ => None,
    })?;
    let doc = function_doc(name.strip_prefix("core::").unwrap_or(name))?;
    let params: Vec<String> = doc.params().into_iter().map(str::to_string).collect();
    let active_param = commas.min(params.len().saturating_sub(1));
    Some(SignatureHelp { label: doc.signature.to_string(), params, active_param, documentation: doc.markdown() })
}

/// On the name of a built-in function call (`toset` in `toset([…])`): its documentation.
pub(crate) fn function_hover(text: &str, offset: TextSize) -> Option<HoverResult> {
    let at = usize::from(offset).min(text.len());
    if !text.is_char_boundary(at) {
        return None;
    }
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start = name_start(&text[..at], is_name);
    let end = text[at..].find(|c: char| !is_name(c)).map_or(text.len(), |i| at + i);
    let word = &text[start..end];
    let after = text[end..].trim_start_matches([' ', '\t']);
    let before = &text[..start];
    if word.is_empty() || !after.starts_with('(') || (before.ends_with('.') && !before.ends_with("::")) {
        return None;
    }
    if before.ends_with("::") && !before.ends_with("core::") {
        return None; // A provider function: not ours to describe.
    }
    let doc = function_doc(word)?;
    let range = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
    Some(HoverResult { range, markdown: doc.markdown() })
}

/// Where the run of name characters that ends `head` starts (after a character of any width).
fn name_start(head: &str, is_name: impl Fn(char) -> bool) -> usize {
    head.char_indices().rev().find(|(_, c)| !is_name(*c)).map_or(0, |(i, c)| i + c.len_utf8())
}

fn skip_line(bytes: &[u8], i: usize) -> usize {
    bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |j| i + j)
}

/// The function name right before an opening parenthesis (`core::toset` included), or `""`.
fn name_before(text: &str, paren: usize) -> &str {
    let head = text[..paren].trim_end_matches([' ', '\t']);
    let start = name_start(head, |c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
    &head[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Option<SignatureHelp> {
        let i = text.find("$0").unwrap();
        signature_help(&text.replace("$0", ""), TextSize::from(i as u32))
    }

    #[test]
    fn the_call_around_the_cursor_and_the_active_parameter() {
        let h = at("locals {\n  a = format(\"%s-%s\", local.x, $0").unwrap();
        assert_eq!(h.label, "format(spec string, values any...) string");
        // Past the variadic parameter: it stays active.
        assert_eq!(h.active_param, 1);
        let h = at("locals {\n  a = cidrsubnet(\"10.0.0.0/16\", 8, $0)\n}\n").unwrap();
        assert_eq!((h.params.len(), h.active_param), (3, 2));
        // The inner call; commas in strings, brackets and interpolations do not count.
        let h = at("locals {\n  a = join(\",\", [for x in [1, 2] : \"${x},\"], toset($0\n").unwrap();
        assert_eq!((h.label.as_str(), h.active_param), ("toset(v any) set(any)", 0));
        let h = at("locals {\n  a = join(\",\", [\"a,b\", \"${upper(\"x,y\")}\"], $0)\n}\n").unwrap();
        assert_eq!(h.active_param, 1);
        assert!(h.documentation.contains("separator"));
        // Not in a call, after it, or in a provider function.
        assert!(at("locals {\n  a = length([1])$0\n}\n").is_none());
        assert!(at("locals {\n  a = provider::aws::arn_parse($0)\n}\n").is_none());
        // Notes where OpenTofu versions differ.
        assert!(at("locals {\n  a = templatestring($0").unwrap().documentation.contains("OpenTofu 1.7"));
    }

    #[test]
    fn offsets_inside_a_character_are_no_call() {
        let text = "j#\u{1F600}len(";
        for i in 0..=text.len() as u32 {
            let _ = signature_help(text, TextSize::from(i));
            let _ = function_hover(text, TextSize::from(i));
        }
    }

    #[test]
    fn hover_on_a_function_name() {
        let text = "locals {\n  a = core::toset([\"x\"])\n  b = length(local.a)\n  c = local.length\n}\n";
        let h = function_hover(text, TextSize::from(text.find("length").unwrap() as u32 + 2)).unwrap();
        assert!(h.markdown.starts_with("```hcl\nlength(value any) number"), "{}", h.markdown);
        assert!(function_hover(text, TextSize::from(text.find("toset").unwrap() as u32)).is_some());
        assert!(function_hover(text, TextSize::from(text.rfind("length").unwrap() as u32)).is_none());
    }
}
