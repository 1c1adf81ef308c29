//! The output formats of `check`: human code frames, JSON, SARIF 2.1.0 and GitHub workflow commands.
//!
//! SARIF is written with serde_json rather than a SARIF crate: we emit a small, fixed subset (one run, rules,
//! results with physical locations and related locations), and the typed SARIF crates add a large dependency for
//! no extra checking of that subset. The test suite checks the fields GitHub code scanning requires.

use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use foreach_analysis::{Code, Severity};
use serde_json::{Value, json};

use crate::report::{Record, Report, Span};

pub fn human(report: &Report, color: bool) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() }.decor_style(DecorStyle::Ascii);
    let mut out = String::new();
    for r in &report.records {
        let level = level(r.severity);
        // A finding of only some environments names them: `error[code] (staging): message`.
        let named = (!r.environments.is_empty())
            .then(|| format!("{}[{}] ({})", level_name(r.severity), r.code, r.environments.join(", ")));
        let title = match &named {
            Some(name) => level.with_name(name.as_str()).primary_title(r.message.as_str()),
            None => level.primary_title(r.message.as_str()).id(r.code),
        };
        let mut group: Group = title.element(snippet(report, &r.span, None));
        for rel in &r.related {
            group = group.element(snippet(report, &rel.span, Some(rel.message.as_str())));
        }
        for f in &r.fixes {
            let how = if f.automatic { " (applied by `check --fix`)" } else { " (offered in the editor)" };
            group = group.element(Level::HELP.message(format!("quick fix: {}{how}", f.title)));
        }
        out.push_str(&renderer.render(&[group]));
        out.push_str("\n\n");
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}

fn level_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Hint => "help",
        s => s.as_str(),
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
        Severity::Hint => Level::HELP,
    }
}

/// A snippet of just the lines the span covers, so rendering cost does not grow with file size.
fn snippet<'a>(
    report: &'a Report,
    span: &'a Span,
    label: Option<&'a str>,
) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
    let text: &str = report.texts.get(&span.file).map(|t| &**t).unwrap_or("");
    let start = (span.start.offset as usize).min(text.len());
    let end = (span.end.offset as usize).clamp(start, text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    // The `\r` of a CRLF line is not part of the line (annotate-snippets would print it as `␍`).
    let line_end = if line_end > start && text[..line_end].ends_with('\r') { line_end - 1 } else { line_end };
    let source = &text[line_start..line_end];
    let (a, b) = (start - line_start, end.min(line_end) - line_start);
    let kind = if label.is_some() { AnnotationKind::Context } else { AnnotationKind::Primary };
    let mut annotation = kind.span(a..b.max(a));
    if let Some(l) = label {
        annotation = annotation.label(l);
    }
    Snippet::source(source).line_start(span.start.line as usize).path(span.path.as_str()).annotation(annotation)
}

pub fn summary_line(report: &Report) -> String {
    let s = &report.summary;
    let plural = |n: usize, w: &str| if n == 1 { format!("{n} {w}") } else { format!("{n} {w}s") };
    format!(
        "foreach-ls: {}, {}, {} in {}",
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        plural(s.infos, "note"),
        plural(s.files, "file")
    )
}

fn span_json(span: &Span) -> Value {
    json!({
        "start": {"line": span.start.line, "column": span.start.column, "offset": span.start.offset},
        "end": {"line": span.end.line, "column": span.end.column, "offset": span.end.offset},
    })
}

pub fn json(report: &Report) -> String {
    let diagnostics: Vec<Value> = report
        .records
        .iter()
        .map(|r| {
            let mut d = json!({
                "code": r.code,
                "severity": r.severity.as_str(),
                "message": r.message,
                "file": r.span.path,
                "range": span_json(&r.span),
                "fixes": r.fixes.iter().map(|f| json!({
                    "title": f.title,
                    "automatic": f.automatic,
                    "edits": f.edits.iter().map(|(span, text)| json!({
                        "file": span.path, "range": span_json(span), "new_text": text,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "related": r.related.iter().map(|rel| json!({
                    "file": rel.span.path,
                    "range": span_json(&rel.span),
                    "message": rel.message,
                })).collect::<Vec<_>>(),
            });
            if !r.environments.is_empty() {
                d["environments"] = json!(r.environments);
            }
            d
        })
        .collect();
    let s = &report.summary;
    let doc = json!({
        "diagnostics": diagnostics,
        "summary": {"errors": s.errors, "warnings": s.warnings, "infos": s.infos, "files": s.files},
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

fn sarif_region(span: &Span) -> Value {
    json!({
        "startLine": span.start.line,
        "startColumn": span.start.column,
        "endLine": span.end.line,
        "endColumn": span.end.column,
        "byteOffset": span.start.offset,
        "byteLength": span.end.offset.saturating_sub(span.start.offset),
    })
}

pub fn sarif(report: &Report) -> String {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|c| {
            json!({
                "id": c.as_str(),
                "name": c.as_str(),
                "shortDescription": {"text": c.summary()},
                "helpUri": format!("https://example.invalid/foreach-ls/docs/diagnostics/{}.md", c.as_str()),
                "defaultConfiguration": {"level": sarif_level(c.default_severity())},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .records
        .iter()
        .map(|r: &Record| {
            let rule_index = Code::ALL.iter().position(|c| c.as_str() == r.code).unwrap_or(0);
            let mut result = json!({
                "ruleId": r.code,
                "ruleIndex": rule_index,
                "level": sarif_level(r.severity),
                "message": {"text": r.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": r.span.path, "uriBaseId": "%SRCROOT%"},
                        "region": sarif_region(&r.span),
                    }
                }],
                "relatedLocations": r.related.iter().enumerate().map(|(i, rel)| json!({
                    "id": i,
                    "message": {"text": rel.message},
                    "physicalLocation": {
                        "artifactLocation": {"uri": rel.span.path, "uriBaseId": "%SRCROOT%"},
                        "region": sarif_region(&rel.span),
                    }
                })).collect::<Vec<_>>(),
            });
            if !r.environments.is_empty() {
                result["properties"] = json!({"environments": r.environments});
            }
            result
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "foreach-ls",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://example.invalid/foreach-ls",
                "rules": rules,
            }},
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// GitHub workflow commands. Property values and messages are escaped as the runner expects (`%`, CR, LF, and in
/// properties also `:` and `,`).
pub fn github(report: &Report) -> String {
    let mut out = String::new();
    for r in &report.records {
        let cmd = match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info | Severity::Hint => "notice",
        };
        out.push_str(&format!(
            "::{cmd} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape_property(&r.span.path),
            r.span.start.line,
            r.span.start.column,
            r.span.end.line,
            r.span.end.column,
            escape_property(&format!("foreach-ls {}", r.code)),
            escape_data(&tagged_message(r))
        ));
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}

/// The message, after the environments it occurs in when not all: `(staging) message`.
fn tagged_message(r: &Record) -> String {
    match r.environments.as_slice() {
        [] => r.message.clone(),
        envs => format!("({}) {}", envs.join(", "), r.message),
    }
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}
