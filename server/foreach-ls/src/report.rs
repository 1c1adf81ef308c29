//! Turns analysis diagnostics into located records (path relative to the current directory, 1-based line and
//! character column, byte offset) that every output format renders. Computing positions once here keeps the
//! formats consistent with each other.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use foreach_analysis::{Diagnostic, FileId, Severity};
use foreach_syntax::{ColumnEncoding, LineIndex, TextSize};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pos {
    /// 1-based.
    pub line: u32,
    /// 1-based, counted in characters.
    pub column: u32,
    pub offset: u32,
}

#[derive(Debug, Clone)]
pub struct Span {
    pub file: FileId,
    pub path: String,
    pub start: Pos,
    pub end: Pos,
}

#[derive(Debug, Clone)]
pub struct RelatedRecord {
    pub span: Span,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Record {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub related: Vec<RelatedRecord>,
}

#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Files read.
    pub files: usize,
}

/// Diagnostics with positions, and the texts the human format quotes.
pub struct Report {
    pub records: Vec<Record>,
    pub summary: Summary,
    pub texts: HashMap<FileId, Arc<str>>,
}

pub fn build(diagnostics: &[Diagnostic], files: &HashMap<FileId, (String, Arc<str>)>, cwd: &Path) -> Report {
    let mut indexes: HashMap<FileId, LineIndex> = HashMap::new();
    let mut texts: HashMap<FileId, Arc<str>> = HashMap::new();
    let mut span = |file: FileId, start: TextSize, end: TextSize| -> Span {
        let (path, text) = files.get(&file).cloned().unwrap_or_else(|| (String::from("<unknown>"), Arc::from("")));
        let index = indexes.entry(file).or_insert_with(|| LineIndex::new(&text));
        texts.entry(file).or_insert_with(|| text.clone());
        Span { file, path: relative(&path, cwd), start: pos(index, &text, start), end: pos(index, &text, end) }
    };
    let mut summary = Summary { files: files.len(), ..Summary::default() };
    let mut records = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        match d.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Info | Severity::Hint => summary.infos += 1,
        }
        let primary = span(d.location.file, d.location.range.start(), d.location.range.end());
        let related = d
            .related
            .iter()
            .map(|r| RelatedRecord {
                span: span(r.location.file, r.location.range.start(), r.location.range.end()),
                message: r.message.clone(),
            })
            .collect();
        records.push(Record {
            code: d.code.as_str(),
            severity: d.severity,
            message: d.message.clone(),
            span: primary,
            related,
        });
    }
    Report { records, summary, texts }
}

fn pos(index: &LineIndex, text: &str, offset: TextSize) -> Pos {
    let offset = offset.min(TextSize::of(text));
    let lc = index.line_col(offset, ColumnEncoding::Char);
    Pos { line: lc.line + 1, column: lc.col + 1, offset: offset.into() }
}

/// A path relative to the current directory when it is inside it, else the absolute path.
pub fn relative(path: &str, cwd: &Path) -> String {
    let cwd = cwd.to_string_lossy().replace('\\', "/");
    match path.strip_prefix(&cwd) {
        Some(rest) if rest.starts_with('/') => rest[1..].to_string(),
        _ => path.to_string(),
    }
}
