//! Conversions between the protocol and the analysis: positions (UTF-8 or UTF-16 columns, negotiated at
//! initialisation), ranges, URIs and paths, diagnostics, symbols, completion items. No HCL reasoning.

use std::path::Path;
use std::sync::Arc;

use dashmap::DashMap;

use foreach_analysis::{Diagnostic as ADiagnostic, FileId, Severity};
use foreach_ide::{Analysis, Cancellable};
use foreach_ide::{Assist, CompletionItem as AItem, CompletionKind, Refactor, Symbol, SymbolKind as AKind};
use foreach_syntax::{ColumnEncoding, LineCol, LineIndex, TextRange, TextSize};
use tower_lsp_server::ls_types::{self as lsp, Position, Range, Uri};

/// The column unit agreed with the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionEncoding {
    Utf8,
    Utf16,
}

impl PositionEncoding {
    /// UTF-8 when the client offers it (no conversion needed), else the LSP default UTF-16.
    pub fn negotiate(caps: &lsp::ClientCapabilities) -> PositionEncoding {
        let offered = caps.general.as_ref().and_then(|g| g.position_encodings.as_ref());
        match offered {
            Some(list) if list.contains(&lsp::PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
            _ => PositionEncoding::Utf16,
        }
    }

    pub fn kind(self) -> lsp::PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }
    }

    fn columns(self) -> ColumnEncoding {
        match self {
            PositionEncoding::Utf8 => ColumnEncoding::Utf8,
            PositionEncoding::Utf16 => ColumnEncoding::Utf16,
        }
    }
}

/// An LSP position as a byte offset, clamped into the text (never a panic, never inside a character).
pub fn offset(index: &LineIndex, pos: Position, enc: PositionEncoding) -> TextSize {
    index.offset(LineCol { line: pos.line, col: pos.character }, enc.columns())
}

pub fn text_range(index: &LineIndex, range: Range, enc: PositionEncoding) -> TextRange {
    let start = offset(index, range.start, enc);
    let end = offset(index, range.end, enc).max(start);
    TextRange::new(start, end)
}

pub fn position(index: &LineIndex, offset: TextSize, enc: PositionEncoding) -> Position {
    let lc = index.line_col(offset, enc.columns());
    Position { line: lc.line, character: lc.col }
}

pub fn range(index: &LineIndex, range: TextRange, enc: PositionEncoding) -> Range {
    Range { start: position(index, range.start(), enc), end: position(index, range.end(), enc) }
}

pub fn uri_to_path(uri: &Uri) -> Option<String> {
    let path = uri.to_file_path()?;
    Some(foreach_load::path_string(&path))
}

pub fn path_to_uri(path: &str) -> Option<Uri> {
    Uri::from_file_path(Path::new(path))
}

/// The URI each document was opened with, by path: every answer and publication about that file uses it, not the
/// URI the server would write for the path (`path_to_uri` writes `+` as `%2B`, a client may not, and clients that
/// compare URIs as strings miss a publication spelt differently). Kept after the document is closed: its
/// diagnostics go on being published under the name the client knows it by.
#[derive(Clone, Default)]
pub struct ClientUris(Arc<DashMap<String, Uri>>);

impl ClientUris {
    /// Remembers how the client spells the URI of `path`.
    pub fn remember(&self, path: String, uri: &Uri) {
        if self.0.get(&path).is_none_or(|known| *known != *uri) {
            self.0.insert(path, uri.clone());
        }
    }

    /// The URI of `path` as the client wrote it, or the server's own for a file the client never opened.
    pub fn uri(&self, path: &str) -> Option<Uri> {
        match self.0.get(path) {
            Some(uri) => Some(uri.clone()),
            None => path_to_uri(path),
        }
    }
}

/// Looks up a file's URI and line index in a snapshot, for converting ranges in any file.
pub struct Files<'a> {
    pub analysis: &'a Analysis,
    pub encoding: PositionEncoding,
    pub uris: &'a ClientUris,
}

impl Files<'_> {
    pub fn location(&self, file: FileId, r: TextRange) -> Cancellable<Option<lsp::Location>> {
        let Some(path) = self.analysis.file_path(file)? else { return Ok(None) };
        let Some(index) = self.analysis.line_index(file)? else { return Ok(None) };
        Ok(self.uris.uri(&path).map(|uri| lsp::Location { uri, range: range(&index, r, self.encoding) }))
    }

    pub fn diagnostic(&self, index: &LineIndex, d: &ADiagnostic) -> Cancellable<lsp::Diagnostic> {
        let mut related = Vec::new();
        for r in &d.related {
            if let Some(location) = self.location(r.location.file, r.location.range)? {
                related.push(lsp::DiagnosticRelatedInformation { location, message: r.message.clone() });
            }
        }
        Ok(lsp::Diagnostic {
            range: range(index, d.location.range, self.encoding),
            severity: Some(severity(d.severity)),
            code: Some(lsp::NumberOrString::String(d.code.as_str().to_string())),
            code_description: None,
            source: Some("foreach-ls".to_string()),
            message: d.message.clone(),
            related_information: if related.is_empty() { None } else { Some(related) },
            tags: None,
            data: None,
        })
    }

    /// An analysis assist as a quick-fix code action with a workspace edit.
    pub fn code_action(&self, a: &Assist) -> Cancellable<Option<lsp::CodeAction>> {
        let mut changes: std::collections::HashMap<Uri, Vec<lsp::TextEdit>> = std::collections::HashMap::new();
        for e in &a.edits {
            let Some(loc) = self.location(e.location.file, e.location.range)? else { return Ok(None) };
            changes.entry(loc.uri).or_default().push(lsp::TextEdit { range: loc.range, new_text: e.new_text.clone() });
        }
        let Some(index) = self.analysis.line_index(a.diagnostic.location.file)? else { return Ok(None) };
        Ok(Some(lsp::CodeAction {
            title: a.title.clone(),
            kind: Some(lsp::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![self.diagnostic(&index, &a.diagnostic)?]),
            edit: Some(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }),
            is_preferred: if a.preferred { Some(true) } else { None },
            ..Default::default()
        }))
    }

    /// A refactoring (no diagnostic) as a `refactor.rewrite` code action with a workspace edit.
    pub fn refactor_action(&self, r: &Refactor) -> Cancellable<Option<lsp::CodeAction>> {
        let mut changes: std::collections::HashMap<Uri, Vec<lsp::TextEdit>> = std::collections::HashMap::new();
        for e in &r.edits {
            let Some(loc) = self.location(e.location.file, e.location.range)? else { return Ok(None) };
            changes.entry(loc.uri).or_default().push(lsp::TextEdit { range: loc.range, new_text: e.new_text.clone() });
        }
        Ok(Some(lsp::CodeAction {
            title: r.title.clone(),
            kind: Some(lsp::CodeActionKind::REFACTOR_REWRITE),
            edit: Some(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }),
            ..Default::default()
        }))
    }
}

pub fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelled out.
pub fn symbol(index: &LineIndex, s: &Symbol, enc: PositionEncoding) -> lsp::DocumentSymbol {
    let kind = match s.kind {
        AKind::Variable => lsp::SymbolKind::VARIABLE,
        AKind::Local => lsp::SymbolKind::CONSTANT,
        AKind::Output => lsp::SymbolKind::EVENT,
        AKind::Provider => lsp::SymbolKind::INTERFACE,
        AKind::Resource => lsp::SymbolKind::CLASS,
        AKind::DataSource => lsp::SymbolKind::STRUCT,
        AKind::Module => lsp::SymbolKind::MODULE,
        AKind::Block => lsp::SymbolKind::NAMESPACE,
        AKind::Attribute => lsp::SymbolKind::FIELD,
    };
    lsp::DocumentSymbol {
        name: s.name.clone(),
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: range(index, s.range, enc),
        selection_range: range(index, s.selection_range, enc),
        children: if s.children.is_empty() {
            None
        } else {
            Some(s.children.iter().map(|c| symbol(index, c, enc)).collect())
        },
    }
}

/// A completion item; `snippets` is whether the client declared `completionItem.snippetSupport` (without it a
/// snippet is sent as the plain text it expands to with its defaults).
pub fn completion_item(index: &LineIndex, item: &AItem, enc: PositionEncoding, snippets: bool) -> lsp::CompletionItem {
    let snippet = item.is_snippet && snippets;
    let new_text =
        if item.is_snippet && !snippets { snippet_to_plain(&item.insert_text) } else { item.insert_text.clone() };
    lsp::CompletionItem {
        label: item.label.clone(),
        kind: Some(match item.kind {
            CompletionKind::Field => lsp::CompletionItemKind::FIELD,
            CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
            CompletionKind::Provider => lsp::CompletionItemKind::MODULE,
            CompletionKind::Key | CompletionKind::Value => lsp::CompletionItemKind::VALUE,
        }),
        filter_text: item.filter_text.clone(),
        insert_text_format: Some(if snippet {
            lsp::InsertTextFormat::SNIPPET
        } else {
            lsp::InsertTextFormat::PLAIN_TEXT
        }),
        detail: item.detail.clone(),
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
            range: range(index, item.replace, enc),
            new_text,
        })),
        ..Default::default()
    }
}

/// The text a snippet inserts with every placeholder at its default: `${1:each.key}` -> `each.key`, `$0` -> ``,
/// `\$` -> `$` (the LSP snippet grammar's escapes; choices `${1|a,b|}` take their first option).
pub fn snippet_to_plain(snippet: &str) -> String {
    let mut out = String::with_capacity(snippet.len());
    let mut chars = snippet.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '$' if chars.peek().is_some_and(char::is_ascii_digit) => {
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
            }
            '$' if chars.peek() == Some(&'{') => {
                chars.next();
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
                match chars.next() {
                    Some(':') => {}
                    Some('|') => {
                        // A choice: keep the first option.
                        let mut first = true;
                        for c in chars.by_ref() {
                            match c {
                                '|' => break,
                                ',' => first = false,
                                c if first => out.push(c),
                                _ => {}
                            }
                        }
                        chars.next(); // `}`
                        continue;
                    }
                    _ => continue, // `${1}`
                }
                // The default may hold nested placeholders and escapes: copy it up to the matching `}`.
                let mut depth = 1;
                let mut inner = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            inner.push('\\');
                            if let Some(n) = chars.next() {
                                inner.push(n);
                            }
                            continue;
                        }
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    inner.push(c);
                }
                out.push_str(&snippet_to_plain(&inner));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod snippet_tests {
    use super::snippet_to_plain;

    #[test]
    fn snippets_as_plain_text() {
        assert_eq!(snippet_to_plain("aws.by_region[${1:each.key}]"), "aws.by_region[each.key]");
        assert_eq!(snippet_to_plain("a$0b$12 \\$x ${2} ${3|one,two|} ${4:x${5:y}}"), "ab $x  one xy");
    }
}
