//! Turns analysis diagnostics into located records (path relative to the current directory, 1-based line and
//! character column, byte offset) that every output format renders. Computing positions once here keeps the
//! formats consistent with each other.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use foreach_analysis::{FileId, FileRange, Severity};
use foreach_load::environments::Finding;
use foreach_syntax::{ColumnEncoding, LineIndex, TextSize};

use crate::fix::FileTable;

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
    pub fixes: Vec<FixRecord>,
    /// The environments of the project file it occurs in; empty when it occurs in every one checked.
    pub environments: Vec<String>,
}

/// A quick fix with located edits.
#[derive(Debug, Clone)]
pub struct FixRecord {
    pub title: String,
    pub automatic: bool,
    pub edits: Vec<(Span, String)>,
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

/// Turns file ranges into [`Span`]s, reading each file's text and building its line index once (only for the
/// files findings are in: the table's texts may be kept compressed).
pub struct Locator<'a> {
    files: &'a FileTable,
    cwd: &'a Path,
    /// Each located file's text (unless `keep_texts` is off), length and line index.
    indexes: HashMap<FileId, (Option<Arc<str>>, TextSize, LineIndex)>,
    keep_texts: bool,
}

impl<'a> Locator<'a> {
    pub fn new(files: &'a FileTable, cwd: &'a Path) -> Locator<'a> {
        Locator { files, cwd, indexes: HashMap::new(), keep_texts: true }
    }

    /// A locator that keeps only the line indexes, for output that quotes no text (`diff` locates a change in
    /// every file of a large workspace: keeping their texts doubled its memory).
    pub fn without_texts(files: &'a FileTable, cwd: &'a Path) -> Locator<'a> {
        Locator { keep_texts: false, ..Locator::new(files, cwd) }
    }

    pub fn span(&mut self, location: FileRange) -> Span {
        let file = location.file;
        let path = self.files.get(&file).map_or("<unknown>", |(p, _)| p.as_str());
        let keep = self.keep_texts;
        let (_, len, index) = self.indexes.entry(file).or_insert_with(|| {
            let text = self.files.get(&file).map_or_else(|| Arc::from(""), |(_, t)| t.text());
            let index = LineIndex::new(&text);
            (keep.then(|| text.clone()), TextSize::of(&*text), index)
        });
        let pos = |offset: TextSize| {
            let offset = offset.min(*len);
            let lc = index.line_col(offset, ColumnEncoding::Char);
            Pos { line: lc.line + 1, column: lc.col + 1, offset: offset.into() }
        };
        Span {
            file,
            path: relative(path, self.cwd),
            start: pos(location.range.start()),
            end: pos(location.range.end()),
        }
    }

    /// The text of a file that [`Locator::span`] has located something in.
    pub fn text(&self, file: FileId) -> Option<Arc<str>> {
        self.indexes.get(&file).and_then(|(t, _, _)| t.clone())
    }
}

/// `files` holds at least the files the findings point into ([`foreach_analysis::Diagnostic::files`]); `files_read`
/// is how many the analysis read, for the summary.
pub fn build(findings: &[Finding], files: &FileTable, files_read: usize, cwd: &Path) -> Report {
    let mut locator = Locator::new(files, cwd);
    let mut texts: HashMap<FileId, Arc<str>> = HashMap::new();
    let mut summary = Summary { files: files_read, ..Summary::default() };
    let mut records = Vec::with_capacity(findings.len());
    for finding in findings {
        let d = &finding.diagnostic;
        match d.severity {
            Severity::Error => summary.errors += 1,
            Severity::Warning => summary.warnings += 1,
            Severity::Info | Severity::Hint => summary.infos += 1,
        }
        let primary = locator.span(d.location);
        let related: Vec<RelatedRecord> = d
            .related
            .iter()
            .map(|r| RelatedRecord { span: locator.span(r.location), message: r.message.clone() })
            .collect();
        for f in std::iter::once(d.location.file).chain(d.related.iter().map(|r| r.location.file)) {
            if let Some(t) = locator.text(f) {
                texts.entry(f).or_insert(t);
            }
        }
        let fixes = d
            .fixes
            .iter()
            .map(|f| FixRecord {
                title: f.title.clone(),
                automatic: f.automatic,
                edits: f.edits.iter().map(|e| (locator.span(e.location), e.new_text.clone())).collect(),
            })
            .collect();
        records.push(Record {
            code: d.code.as_str(),
            severity: d.severity,
            message: d.message.clone(),
            span: primary,
            related,
            fixes,
            environments: finding.environments.clone(),
        });
    }
    Report { records, summary, texts }
}

/// A path relative to the current directory when it is inside it, else the absolute path.
pub fn relative(path: &str, cwd: &Path) -> String {
    let cwd = cwd.to_string_lossy().replace('\\', "/");
    match path.strip_prefix(&cwd) {
        Some(rest) if rest.starts_with('/') => rest[1..].to_string(),
        _ => path.to_string(),
    }
}
