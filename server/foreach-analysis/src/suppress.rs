//! In-source suppressions: a comment line `# foreach-ls:ignore <code>[, <code>…]` directly above a top-level block
//! silences those codes inside that block. Applied in `checks.rs`, so `check` and the editor agree.

use std::sync::Arc;

use foreach_syntax::TextRange;

use crate::db::{Db, SourceFile, Workspace, file_index, parse};
use crate::diagnostics::Diagnostic;

/// The comment text that starts a suppression (what the editor's "ignore" action inserts).
pub const IGNORE_MARKER: &str = "# foreach-ls:ignore";

/// The codes suppressed in each top-level block of a file that has any suppression comment.
#[salsa::tracked(returns(clone))]
pub fn suppressions(db: &dyn Db, file: SourceFile) -> Arc<Vec<(String, TextRange)>> {
    let text = file.text(db);
    if !file.kind(db).is_config() || !text.contains("foreach-ls:ignore") {
        return Arc::new(Vec::new());
    }
    let parsed = parse(db, file);
    let mut out = Vec::new();
    for block in parsed.body.blocks() {
        let start = usize::from(block.range.start());
        let mut line_end = text[..start].rfind('\n');
        // Walk up the comment lines directly above the block.
        while let Some(end) = line_end {
            let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
            let line = text[line_start..end].trim();
            let Some(rest) = line.strip_prefix('#').or_else(|| line.strip_prefix("//")) else { break };
            if let Some(codes) = rest.trim_start().strip_prefix("foreach-ls:ignore") {
                for code in codes.split([',', ' ', '\t']).filter(|c| !c.is_empty()) {
                    out.push((code.to_string(), block.range));
                }
            }
            line_end = line_start.checked_sub(1);
        }
    }
    Arc::new(out)
}

/// Whether an in-source comment silences `d`.
pub fn is_suppressed(db: &dyn Db, ws: Workspace, d: &Diagnostic) -> bool {
    let Some(file) = file_index(db, ws).get(&d.location.file).copied() else { return false };
    suppressions(db, file).iter().any(|(code, range)| code == d.code.as_str() && range.contains_range(d.location.range))
}
