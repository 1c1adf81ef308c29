//! `foreach-ls check --fix`: applies the automatic quick fixes of a report to the files on disk.
//!
//! The edits come from the analysis (computed on the text it read); this module only decides which files may be
//! written, and writes them through `write.rs` (atomically, through symbolic links, never over a file changed
//! since it was read). A file is left alone when it has a syntax error (the tree the edits were computed on may be
//! partial) or when its content on disk is no longer the text that was analysed (someone edited it meanwhile). A
//! file reached through several links (a shared `variables.tf` linked into every root) is written once, with the
//! fixes of every module that reads it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use foreach_analysis::fixes::apply_edits;
use foreach_analysis::source_text::SourceText;
use foreach_analysis::{Code, Diagnostic, FileId, TextEdit};

use crate::write::{self, Boundary};

/// The analysed files: path and the text the analysis read, by id (as `AnalysisHost::file_table` gives them).
pub type FileTable = HashMap<FileId, (String, SourceText)>;

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOutcome {
    /// Written, with this many fixes (diagnostics) applied and this many edits skipped as overlapping; `also` are
    /// the other paths (symbolic links) that lead to the same file.
    Fixed { fixes: usize, skipped_edits: usize, also: Vec<String> },
    /// Not written on purpose (syntax errors, no edit fits), and why.
    Skipped(String),
    /// Not written although it should have been (a link out of the repository, a read-only file, a full disk, a
    /// file changed since it was read), and why: the command exits with 2.
    Failed(String),
}

/// An edit as a key: the same fix computed for two modules that share a file is one edit.
type EditKey = (u32, u32, String);

/// Applies the first automatic fix of every diagnostic, writing only inside `boundary`. `files` maps the report's
/// file ids to their path and the text that was analysed. Returns one outcome per file that had something to fix,
/// by path (the first path, in order, of the paths that lead to it).
pub fn apply_fixes(
    diagnostics: &[Diagnostic],
    files: &FileTable,
    boundary: &Boundary,
) -> BTreeMap<String, FileOutcome> {
    let broken: HashSet<FileId> = diagnostics
        .iter()
        .filter(|d| matches!(d.code, Code::SyntaxError | Code::UnreadableFile))
        .map(|d| d.location.file)
        .collect();

    // Per file: the fixes (each as its edits in that file) that touch it. A fix whose edits span several files is
    // applied per file; every fix the analysis builds today edits one file.
    let mut by_file: HashMap<FileId, BTreeSet<Vec<EditKey>>> = HashMap::new();
    for d in diagnostics {
        let Some(fix) = d.fixes.iter().find(|f| f.automatic) else { continue };
        let mut per_file: HashMap<FileId, Vec<EditKey>> = HashMap::new();
        for e in &fix.edits {
            let r = e.location.range;
            per_file.entry(e.location.file).or_default().push((r.start().into(), r.end().into(), e.new_text.clone()));
        }
        for (file, edits) in per_file {
            by_file.entry(file).or_default().insert(edits);
        }
    }

    // The files to write, by the file they really are, each with the paths that lead to it.
    let mut out = BTreeMap::new();
    let mut targets: BTreeMap<PathBuf, Vec<FileId>> = BTreeMap::new();
    for &file in by_file.keys() {
        let Some((path, _)) = files.get(&file) else { continue };
        match write::resolve(Path::new(path), boundary) {
            Ok(real) => targets.entry(real).or_default().push(file),
            Err(e) => {
                out.insert(path.clone(), FileOutcome::Failed(format!("not written: {e}")));
            }
        }
    }
    for (real, mut ids) in targets {
        ids.sort_by(|a, b| files[a].0.cmp(&files[b].0));
        let paths: Vec<String> = ids.iter().map(|id| files[id].0.clone()).collect();
        let texts: Vec<std::sync::Arc<str>> = ids.iter().map(|id| files[id].1.text()).collect();
        let fixes: BTreeSet<&Vec<EditKey>> = ids.iter().flat_map(|id| &by_file[id]).collect();
        let outcome = if ids.iter().any(|id| broken.contains(id)) {
            FileOutcome::Skipped("the file has syntax errors".to_string())
        } else if texts.iter().any(|t| *t != texts[0]) {
            FileOutcome::Failed("the file changed since it was read".to_string())
        } else {
            let edits: BTreeSet<&EditKey> = fixes.iter().flat_map(|f| f.iter()).collect();
            match fix_one(&real, &texts[0], &edits, fixes.len()) {
                FileOutcome::Fixed { fixes, skipped_edits, .. } => {
                    FileOutcome::Fixed { fixes, skipped_edits, also: paths[1..].to_vec() }
                }
                skipped => skipped,
            }
        };
        out.insert(paths[0].clone(), outcome);
    }
    out
}

fn fix_one(real: &Path, analysed: &str, edits: &BTreeSet<&EditKey>, fixes: usize) -> FileOutcome {
    match std::fs::read(real) {
        Ok(bytes) if bytes == analysed.as_bytes() => {}
        Ok(_) => return FileOutcome::Failed("the file changed since it was read".to_string()),
        Err(e) => return FileOutcome::Failed(format!("cannot read it again: {e}")),
    }
    let file = FileId(0);
    let edits: Vec<TextEdit> = edits
        .iter()
        .map(|(start, end, new_text)| TextEdit {
            location: foreach_analysis::FileRange::new(
                file,
                foreach_syntax::TextRange::new((*start).into(), (*end).into()),
            ),
            new_text: new_text.clone(),
        })
        .collect();
    let refs: Vec<&TextEdit> = edits.iter().collect();
    let applied = apply_edits(analysed, &refs);
    if applied.applied == 0 {
        return FileOutcome::Skipped("no edit fits the file".to_string());
    }
    // A skipped edit is taken as a fix not applied (every fix built today has a single edit).
    let fixes = fixes.saturating_sub(applied.skipped.min(fixes));
    match write::replace(real, analysed.as_bytes(), applied.text.as_bytes()) {
        Ok(()) => FileOutcome::Fixed { fixes, skipped_edits: applied.skipped, also: Vec::new() },
        Err(e) => FileOutcome::Failed(format!("not written: {e}")),
    }
}

/// One line per file for stderr (stdout carries the report, which may be JSON).
pub fn describe(outcomes: &BTreeMap<String, FileOutcome>, cwd: &Path) -> String {
    let mut s = String::new();
    for (path, outcome) in outcomes {
        let shown = Path::new(path).strip_prefix(cwd).map(|p| p.display().to_string()).unwrap_or(path.clone());
        match outcome {
            FileOutcome::Fixed { fixes, skipped_edits, also } => {
                s.push_str(&format!("fixed {fixes} {} in {shown}", plural(*fixes)));
                if *skipped_edits > 0 {
                    s.push_str(&format!(" ({skipped_edits} overlapping edits left for the next run)"));
                }
                for other in also {
                    let other = Path::new(other).strip_prefix(cwd).unwrap_or(Path::new(other));
                    s.push_str(&format!(" (also linked as {})", other.display()));
                }
                s.push('\n');
            }
            FileOutcome::Skipped(why) | FileOutcome::Failed(why) => s.push_str(&format!("not fixing {shown}: {why}\n")),
        }
    }
    s
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "problem" } else { "problems" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_analysis::{FileRange, Fix, TextEdit};
    use foreach_syntax::{TextRange, TextSize};

    const TEXT: &str = "resource \"a\" \"b\" {\n  for_each = var.m # keep\n}\n";

    fn diag(file: FileId, text: &str, needle: &str, new_text: &str, automatic: bool) -> Diagnostic {
        let at = text.find(needle).unwrap();
        let range = TextRange::at(TextSize::from(at as u32), TextSize::from(needle.len() as u32));
        Diagnostic::new(Code::UndefinedReference, FileRange::new(file, range), "x").with_fix(Fix {
            title: "t".to_string(),
            edits: vec![TextEdit { location: FileRange::new(file, range), new_text: new_text.to_string() }],
            automatic,
        })
    }

    fn boundary(path: &str) -> Boundary {
        Boundary::of(&[Path::new(path).parent().unwrap()])
    }

    fn setup(text: &str) -> (tempfile::TempDir, String, FileTable) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("main.tf");
        std::fs::write(&path, text).unwrap();
        let p = path.to_string_lossy().into_owned();
        let files = HashMap::from([(FileId(1), (p.clone(), SourceText::compressed(text)))]);
        (dir, p, files)
    }

    #[test]
    fn applies_automatic_fixes_only_and_keeps_everything_else() {
        let (_dir, path, files) = setup(TEXT);
        let diags = vec![
            diag(FileId(1), TEXT, "var.m", "{ for k, v in var.m : k => v }", true),
            diag(FileId(1), TEXT, "\"a\"", "\"zzz\"", false),
        ];
        let out = apply_fixes(&diags, &files, &boundary(&path));
        assert_eq!(out[&path], FileOutcome::Fixed { fixes: 1, skipped_edits: 0, also: vec![] });
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "resource \"a\" \"b\" {\n  for_each = { for k, v in var.m : k => v } # keep\n}\n"
        );
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(Path::new(&path).parent().unwrap()).unwrap().count(), 1);
    }

    #[test]
    fn overlapping_edits_are_skipped() {
        let (_dir, path, files) = setup(TEXT);
        let diags =
            vec![diag(FileId(1), TEXT, "var.m", "X", true), diag(FileId(1), TEXT, "for_each = var.m", "Y", true)];
        let out = apply_fixes(&diags, &files, &boundary(&path));
        assert_eq!(out[&path], FileOutcome::Fixed { fixes: 1, skipped_edits: 1, also: vec![] });
        assert!(std::fs::read_to_string(&path).unwrap().contains("  Y # keep"));
    }

    #[test]
    fn files_with_syntax_errors_or_changed_on_disk_are_left_alone() {
        let (_dir, path, files) = setup(TEXT);
        let mut diags = vec![diag(FileId(1), TEXT, "var.m", "X", true)];
        std::fs::write(&path, format!("{TEXT}# edited\n")).unwrap();
        let out = apply_fixes(&diags, &files, &boundary(&path));
        assert!(matches!(&out[&path], FileOutcome::Failed(why) if why.contains("changed")));

        std::fs::write(&path, TEXT).unwrap();
        diags.push(Diagnostic::new(Code::SyntaxError, FileRange::new(FileId(1), TextRange::default()), "bad"));
        let out = apply_fixes(&diags, &files, &boundary(&path));
        assert!(matches!(&out[&path], FileOutcome::Skipped(why) if why.contains("syntax")));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TEXT);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, path, files) = setup(TEXT);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        apply_fixes(&[diag(FileId(1), TEXT, "var.m", "X", true)], &files, &boundary(&path));
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
    }
}
