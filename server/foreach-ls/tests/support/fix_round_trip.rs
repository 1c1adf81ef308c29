//! Every quick fix offered on a fixture, applied, must leave its files without new syntax errors and remove the
//! finding it was offered for (issue 14, item 19), and a file whose lines all end in CRLF keeps them (item 20). "Offered" means what the editor shows for the diagnostic: its
//! own fixes and the "ignore this code for this block" action (`Analysis::code_actions`). Each fix is applied to the
//! analysed texts in memory, the workspace is re-analysed, and then the original texts are put back.
//!
//! A fix must not bring a new error or warning either (one not reported before on the same range, mapped through
//! the edits): a replacement that breaks the reference it edits may well make the finding disappear.
//!
//! The finding counts as still there when a diagnostic with the same code is reported in the same file on the
//! range the fixed one moved to (its range mapped through the edits; touching counts). Fixes that cannot
//! guarantee that are listed in [`EXEMPT`] with the reason, never skipped silently.

use std::collections::{BTreeMap, HashMap};

use foreach_analysis::fixes::apply_edits;
use foreach_analysis::{AnalysisHost, Change, Code, Diagnostic, FileId, Severity, SourceText, TextEdit};
use foreach_ide::Assist;
use foreach_syntax::{TextRange, TextSize};

/// Fixes (by code and the start of their title) that legitimately leave the finding in place, and why. None today:
/// every fix the analysis offers removes what it was offered for.
const EXEMPT: &[(Code, &str, &str)] = &[];

/// Applies every offered fix of the diagnostics of `host` (whose codes are not in `disabled`), one at a time.
/// Returns how many fixes were tried and the failures, one line each.
pub fn check(host: &mut AnalysisHost, disabled: &[String]) -> (usize, Vec<String>) {
    let files = host.file_table();
    let before: Vec<Diagnostic> = host.diagnostics();
    let syntax_before = syntax_errors(&before);
    let mut failures = Vec::new();
    let mut tried = 0;
    for d in before.iter().filter(|d| !disabled.iter().any(|c| c == d.code.as_str())) {
        let actions =
            foreach_ide::Analysis::of(host).code_actions(d.location.file, d.location.range).unwrap_or_default();
        for a in actions.iter().filter(|a| a.diagnostic == *d) {
            if EXEMPT.iter().any(|(code, title, _)| *code == d.code && a.title.starts_with(title)) {
                continue;
            }
            tried += 1;
            if let Err(why) = round_trip(host, &before, &files, &syntax_before, d, a) {
                let path = files.get(&d.location.file).map(|(p, _)| p.as_str()).unwrap_or("?");
                failures.push(format!("{path}: [{}] {:?}, fix {:?}: {why}", d.code.as_str(), d.message, a.title));
            }
        }
    }
    (tried, failures)
}

fn round_trip(
    host: &mut AnalysisHost,
    before: &[Diagnostic],
    files: &HashMap<FileId, (String, SourceText)>,
    syntax_before: &HashMap<FileId, usize>,
    d: &Diagnostic,
    a: &Assist,
) -> Result<(), String> {
    let mut by_file: BTreeMap<FileId, Vec<&TextEdit>> = BTreeMap::new();
    for e in &a.edits {
        by_file.entry(e.location.file).or_default().push(e);
    }
    for edits in by_file.values_mut() {
        edits.sort_by_key(|e| (e.location.range.start(), e.location.range.end()));
    }
    let mut changed = Vec::new();
    for (file, edits) in &by_file {
        let (path, text) = files.get(file).ok_or("an edit in a file the analysis does not know")?;
        let text = text.text();
        let applied = apply_edits(&text, edits);
        if applied.skipped > 0 {
            return Err(format!("{} of its edits do not apply", applied.skipped));
        }
        if lone_line_feeds(&text) == 0 && text.contains("\r\n") && lone_line_feeds(&applied.text) > 0 {
            return Err(format!("{path} ends its lines with CRLF, the fix writes LF: {:?}", a.edits));
        }
        changed.push((path.clone(), Ok(SourceText::from(applied.text.as_str()))));
    }
    host.apply_change(Change { files: changed, ..Change::default() });
    let after = host.diagnostics();
    let result = judge(&after, syntax_before, d, &by_file).and_then(|()| no_new_errors(before, &after, &by_file));
    let originals = by_file.keys().filter_map(|f| files.get(f)).map(|(p, t)| (p.clone(), Ok(t.clone()))).collect();
    host.apply_change(Change { files: originals, ..Change::default() });
    result
}

fn judge(
    after: &[Diagnostic],
    syntax_before: &HashMap<FileId, usize>,
    d: &Diagnostic,
    by_file: &BTreeMap<FileId, Vec<&TextEdit>>,
) -> Result<(), String> {
    let syntax_after = syntax_errors(after);
    for file in by_file.keys() {
        let (was, is) = (syntax_before.get(file).copied().unwrap_or(0), syntax_after.get(file).copied().unwrap_or(0));
        if is > was {
            let first = after.iter().find(|x| x.code == Code::SyntaxError && x.location.file == *file);
            return Err(format!("syntax errors {was} -> {is}: {:?}", first.map(|x| &x.message)));
        }
    }
    let edits = by_file.get(&d.location.file).map(Vec::as_slice).unwrap_or_default();
    let moved = map_range(d.location.range, edits);
    if let Some(still) = after
        .iter()
        .find(|x| x.code == d.code && x.location.file == d.location.file && overlaps(moved, x.location.range))
    {
        return Err(format!("the finding is still there: {:?}", still.message));
    }
    Ok(())
}

/// Every error and warning after the fix was there before: same code, same file, and a range that overlaps where
/// the earlier one moved (messages may change, e.g. a list of instances that the fix extended).
fn no_new_errors(
    before: &[Diagnostic],
    after: &[Diagnostic],
    by_file: &BTreeMap<FileId, Vec<&TextEdit>>,
) -> Result<(), String> {
    let was_there = |d: &Diagnostic| {
        let edits = by_file.get(&d.location.file).map(Vec::as_slice).unwrap_or_default();
        before.iter().any(|b| {
            let moved = map_range(b.location.range, edits);
            b.code == d.code && b.location.file == d.location.file && overlaps(moved, d.location.range)
        })
    };
    match after.iter().find(|d| matches!(d.severity, Severity::Error | Severity::Warning) && !was_there(d)) {
        Some(d) => Err(format!("a new {}: [{}] {}", d.severity.as_str(), d.code.as_str(), d.message)),
        None => Ok(()),
    }
}

/// Touching counts, so that empty ranges meet.
fn overlaps(a: TextRange, b: TextRange) -> bool {
    a.start() <= b.end() && b.start() <= a.end()
}

/// `\n` not preceded by `\r`.
fn lone_line_feeds(text: &str) -> usize {
    text.match_indices('\n').filter(|(i, _)| !text[..*i].ends_with('\r')).count()
}

fn syntax_errors(diags: &[Diagnostic]) -> HashMap<FileId, usize> {
    let mut out = HashMap::new();
    for d in diags.iter().filter(|d| d.code == Code::SyntaxError) {
        *out.entry(d.location.file).or_default() += 1;
    }
    out
}

/// Where `r` is after `edits` (non-overlapping, all applied): shifted by the edits before it; an end inside an
/// edit moves to the end of its new text, a start inside one to its start.
fn map_range(r: TextRange, edits: &[&TextEdit]) -> TextRange {
    let map = |p: TextSize, is_end: bool| -> TextSize {
        let mut delta: i64 = 0;
        for e in edits {
            let (s, en) = (e.location.range.start(), e.location.range.end());
            let grow = e.new_text.len() as i64 - i64::from(u32::from(en - s));
            if en <= p && !(s == en && s == p && is_end) {
                delta += grow;
            } else if s < p && p < en {
                let base = i64::from(u32::from(s)) + delta;
                return TextSize::from(if is_end { base + e.new_text.len() as i64 } else { base } as u32);
            }
        }
        TextSize::from((i64::from(u32::from(p)) + delta) as u32)
    };
    let start = map(r.start(), false);
    TextRange::new(start, map(r.end(), true).max(start))
}
