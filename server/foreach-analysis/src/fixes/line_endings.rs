//! Fix builders write line breaks as `\n`. A file whose lines end in `\r\n` keeps them: one pass over the finished
//! diagnostics ([`match_files`]) rewrites the line breaks of every edit into its file's style, so no builder has
//! to remember. Text copied from the file into an edit already has the file's breaks and is left as it is.

use crate::base::FileId;
use crate::diagnostics::Diagnostic;

/// Whether `text` ends its lines with `\r\n`, judged by its first line break (as editors do).
pub fn uses_crlf(text: &str) -> bool {
    text.find('\n').is_some_and(|i| text[..i].ends_with('\r'))
}

/// `s` with every `\n` not already preceded by `\r` written as `\r\n`.
pub fn to_crlf(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 16);
    let mut prev = '\0';
    for c in s.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// Rewrites the line breaks of the fixes' edits in files for which `crlf` says yes.
pub fn match_files(diags: &mut [Diagnostic], crlf: impl Fn(FileId) -> bool) {
    for edit in diags.iter_mut().flat_map(|d| d.fixes.iter_mut()).flat_map(|f| f.edits.iter_mut()) {
        if edit.new_text.contains('\n') && crlf(edit.location.file) {
            edit.new_text = to_crlf(&edit.new_text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserted_breaks_follow_the_file() {
        assert!(uses_crlf("a\r\nb\n"));
        assert!(!uses_crlf("a\nb\r\n"));
        assert!(!uses_crlf("no break"));
        assert_eq!(to_crlf("  alias = \"x\"\n"), "  alias = \"x\"\r\n");
        // Copied text keeps its breaks; lone ones are converted.
        assert_eq!(to_crlf("a\r\nb\nc"), "a\r\nb\r\nc");
        assert_eq!(to_crlf("\n\n"), "\r\n\r\n");
    }
}
