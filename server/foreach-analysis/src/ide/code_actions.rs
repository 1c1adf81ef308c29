//! Code actions: the quick fixes the diagnostics carry (written once, in the checks, and shared with
//! `check --fix`), and "ignore this code for this block".

use foreach_syntax::{TextRange, TextSize};

use crate::base::{FileId, FileRange};
use crate::checks::workspace_diagnostics;
use crate::db::{Db, Workspace, parse};
use crate::diagnostics::{Diagnostic, TextEdit};
use crate::suppress::MARKER;

use super::cursor::block_at;
use super::source_file;

/// One action: a title, its edits, and the diagnostic it fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assist {
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub diagnostic: Diagnostic,
    /// The fix the editor may apply with one key (the diagnostic's own automatic fix).
    pub preferred: bool,
}

pub(crate) fn code_actions(db: &dyn Db, ws: Workspace, file: FileId, range: TextRange) -> Vec<Assist> {
    let diags = workspace_diagnostics(db, ws);
    let mut out = Vec::new();
    let mut ignores = Vec::new();
    for d in diags.iter().filter(|d| d.location.file == file && overlaps(d.location.range, range)) {
        for fix in &d.fixes {
            out.push(Assist {
                title: fix.title.clone(),
                edits: fix.edits.clone(),
                diagnostic: d.clone(),
                preferred: fix.automatic,
            });
        }
        if let Some(a) = ignore_for_block(db, ws, d) {
            ignores.push(a);
        }
    }
    out.extend(ignores);
    out
}

/// Touching counts: a cursor at either end of a squiggle gets its actions.
fn overlaps(a: TextRange, b: TextRange) -> bool {
    a.start() <= b.end() && b.start() <= a.end()
}

/// Inserts `# foreach-ls:ignore <code>` on its own line above the top-level block holding the diagnostic, indented
/// like the block.
fn ignore_for_block(db: &dyn Db, ws: Workspace, d: &Diagnostic) -> Option<Assist> {
    let file = source_file(db, ws, d.location.file)?;
    if !file.kind(db).is_config() || file.kind(db).is_json() {
        return None;
    }
    let parsed = parse(db, file);
    let block = block_at(&parsed.body, d.location.range.start())?;
    let text = file.text(db);
    let block_start = usize::from(block.range.start());
    let line_start = text[..block_start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..block_start];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let code = d.code.as_str();
    let at = TextRange::empty(TextSize::from(line_start as u32));
    Some(Assist {
        title: format!("Ignore `{code}` for this block"),
        edits: vec![TextEdit {
            location: FileRange::new(d.location.file, at),
            new_text: format!("{indent}# {MARKER} {code}\n"),
        }],
        diagnostic: d.clone(),
        preferred: false,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;
    use crate::host::Change;
    use std::sync::Arc;

    fn apply(text: &str, edits: &[crate::TextEdit]) -> String {
        let mut out = text.to_string();
        let mut edits = edits.to_vec();
        edits.sort_by_key(|e| std::cmp::Reverse(e.location.range.start()));
        for e in edits {
            out.replace_range(std::ops::Range::<usize>::from(e.location.range), &e.new_text);
        }
        out
    }

    #[test]
    fn ignore_this_code_for_this_block_silences_it() {
        let text = "resource \"x\" \"y\" {\n  a = local.nope\n}\n";
        let mut f = Fixture::parse(text);
        let file = f.file_id("/ws/main.tf");
        let whole = foreach_syntax::TextRange::up_to((text.len() as u32).into());
        let actions = f.host.analysis().code_actions(file, whole).unwrap();
        let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(titles, ["Ignore `undefined-reference` for this block"]);
        let fixed = apply(text, &actions[0].edits);
        assert_eq!(fixed, "# foreach-ls:ignore undefined-reference\nresource \"x\" \"y\" {\n  a = local.nope\n}\n");
        f.host.apply_change(Change {
            files: vec![("/ws/main.tf".to_string(), Ok(Arc::from(fixed.as_str())))],
            ..Change::default()
        });
        assert!(f.host.analysis().diagnostics().unwrap().is_empty());
    }

    #[test]
    fn surfaces_the_diagnostics_fixes() {
        // `.tofu` beside `.tf`: no fix; an undeclared tfvars value has a removal fix if the check offers one.
        let f = Fixture::parse("#- /main.tf\nvariable \"a\" {}\n#- /terraform.tfvars\na = 1\nb = 2\n");
        let file = f.file_id("/ws/terraform.tfvars");
        let whole = foreach_syntax::TextRange::up_to(12.into());
        let actions = f.host.analysis().code_actions(file, whole).unwrap();
        let diags = f.host.analysis().file_diagnostics(file).unwrap();
        let expected: Vec<String> = diags.iter().flat_map(|d| d.fixes.iter().map(|x| x.title.clone())).collect();
        let got: Vec<String> = actions.iter().map(|a| a.title.clone()).collect();
        assert_eq!(got, expected);
    }
}
