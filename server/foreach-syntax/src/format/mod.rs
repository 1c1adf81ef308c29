//! Formatting in the canonical style of `tofu fmt` / `terraform fmt`, byte for byte.
//!
//! Both format with HCL's hclwrite on the tokens of HCL's scanner, after a few rewrites of their own; this module
//! does the same on our own token stream, never through hcl-edit's printer (which does not give back the source
//! byte for byte). `lex` makes the tokens, `tidy` makes the rewrites (quoted labels, `"${x}"` → `x`, legacy
//! variable types), `layout` sets the whitespace. Files with syntax errors are not formatted: the formatter would
//! guess at structure that is not there.

mod layout;
mod lex;
mod tidy;

use crate::{FileKind, SyntaxError};

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The text is not valid native HCL; the first syntax error.
    Syntax(SyntaxError),
    /// JSON files (`*.tf.json`, `*.tfvars.json`) are not formatted, as by `tofu fmt`.
    NotNativeSyntax,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(err) => write!(f, "{}", err.message),
            FormatError::NotNativeSyntax => write!(f, "only native HCL files are formatted, not JSON"),
        }
    }
}

/// The text formatted as `tofu fmt` formats it, or why it cannot be. Valid input always formats; the result is
/// often the input itself (compare to know whether a file needs formatting).
pub fn format(text: &str, kind: FileKind) -> Result<String, FormatError> {
    if kind.is_json() {
        return Err(FormatError::NotNativeSyntax);
    }
    let parse = crate::parse(text, kind);
    if let Some(err) = parse.errors.into_iter().next() {
        return Err(FormatError::Syntax(err));
    }
    Ok(format_valid(text))
}

/// Formats a text already known to parse.
fn format_valid(text: &str) -> String {
    let (bom, src) = match text.strip_prefix(crate::BOM) {
        Some(rest) => (crate::BOM, rest),
        None => ("", text),
    };
    let tokens = lex::lex(src);
    let tidy = tidy::Tidy::run(&tokens, src);
    let (mut out_tokens, extra) = (tidy.out, tidy.extra);
    layout::layout(&mut out_tokens, src, &extra);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    out.push_str(bom);
    for t in &out_tokens {
        for _ in 0..t.spaces {
            out.push(' ');
        }
        out.push_str(t.text(src, &extra));
    }
    out
}

#[cfg(test)]
mod tests;
