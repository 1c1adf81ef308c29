//! Folding ranges: blocks, multi-line objects, tuples and heredocs, and runs of comment lines (or one block comment
//! over several lines). Comments come from the semantic tokens' gap lexer, the rest from the syntax tree.

use foreach_syntax::ast::*;
use foreach_syntax::{LineIndex, TextRange};

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace, parse};

use super::semantic_tokens::{TokenType, tokens};
use super::source_file;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldKind {
    /// A block body or a multi-line object, tuple or heredoc: the last line (closing bracket or marker) stays shown.
    Region,
    /// Comment lines: every line folds.
    Comment,
}

/// A fold over whole lines (0-based, both included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    pub start_line: u32,
    pub end_line: u32,
    pub kind: FoldKind,
}

pub(crate) fn folding_ranges(db: &dyn Db, ws: Workspace, file: FileId) -> Vec<Fold> {
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    if f.kind(db).is_json() {
        return Vec::new();
    }
    folds(&f.text(db), &parse(db, f).body)
}

/// The folds of a native HCL file, sorted by start line.
pub fn folds(text: &str, body: &Body) -> Vec<Fold> {
    let index = LineIndex::new(text);
    let line = |at| index.line_col(at, foreach_syntax::ColumnEncoding::Utf8).line;
    let mut out = Vec::new();
    let mut region = |r: TextRange| {
        let (start, end) = (line(r.start()), line(r.end()));
        // The closing line stays visible.
        if end > start + 1 {
            out.push(Fold { start_line: start, end_line: end - 1, kind: FoldKind::Region });
        }
    };
    walk_body(body, &mut region);
    // Comment runs: consecutive lines each holding a comment, or one block comment over several lines.
    let mut run: Option<(u32, u32)> = None;
    let mut comments = Vec::new();
    for t in tokens(text, body).into_iter().filter(|t| t.kind == TokenType::Comment) {
        let (s, e) = (line(t.range.start()), line(t.range.end()));
        match run {
            Some((rs, re)) if s == re + 1 && s == e => run = Some((rs, e)),
            _ => {
                comments.extend(run.take());
                run = Some((s, e));
            }
        }
    }
    comments.extend(run);
    out.extend(comments.into_iter().filter(|(s, e)| e > s).map(|(s, e)| Fold {
        start_line: s,
        end_line: e,
        kind: FoldKind::Comment,
    }));
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out
}

fn walk_body(body: &Body, region: &mut impl FnMut(TextRange)) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => walk_expr(&a.value, region),
            Structure::Block(b) => {
                region(b.body_range);
                walk_body(&b.body, region);
            }
        }
    }
}

fn walk_expr(e: &Expr, region: &mut impl FnMut(TextRange)) {
    match &e.kind {
        ExprKind::Tuple(items) => {
            region(e.range);
            items.iter().for_each(|i| walk_expr(i, region));
        }
        ExprKind::Object(items) => {
            region(e.range);
            for i in items {
                if let ObjectKey::Expr(k) = &i.key {
                    walk_expr(k, region);
                }
                walk_expr(&i.value, region);
            }
        }
        ExprKind::Template(t) if t.kind == TemplateKind::Heredoc => region(e.range),
        ExprKind::For(f) => {
            region(e.range);
            walk_expr(&f.value_expr, region);
        }
        ExprKind::FuncCall(f) => {
            region(e.range);
            f.args.iter().for_each(|a| walk_expr(a, region));
        }
        ExprKind::Parenthesis(inner) => walk_expr(inner, region),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            for x in [cond, then_expr, else_expr] {
                walk_expr(x, region);
            }
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            walk_expr(lhs, region);
            walk_expr(rhs, region);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_syntax::FileKind;

    #[test]
    fn blocks_heredocs_collections_and_comment_runs() {
        let text = "# a\n# b\n# c\nresource \"x\" \"y\" {\n  tags = {\n    a = 1\n  }\n  h = <<EOT\none\nEOT\n  one = [1]\n}\n# lone\n/* x\n y */\n";
        let parsed = foreach_syntax::parse(text, FileKind::Tf);
        let got: Vec<(u32, u32, FoldKind)> =
            folds(text, &parsed.body).iter().map(|f| (f.start_line, f.end_line, f.kind)).collect();
        assert_eq!(
            got,
            [
                (0, 2, FoldKind::Comment),
                (3, 10, FoldKind::Region),
                (4, 5, FoldKind::Region),
                (7, 8, FoldKind::Region),
                (13, 14, FoldKind::Comment),
            ]
        );
    }
}
