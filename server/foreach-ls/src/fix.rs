//! `foreach-ls check --fix`: applies the automatic quick fixes of a report to the files on disk.
//!
//! The edits come from the analysis (computed on the text it read); this module only decides which files may be
//! written and writes them safely. A file is left alone when it has a syntax error (the tree the edits were
//! computed on may be partial) or when its content on disk is no longer the text that was analysed (someone
//! edited it meanwhile). Each file is written to a temporary file in the same directory, with the original's
//! permissions, and renamed over the original, so a crash never leaves half a file.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use foreach_analysis::fixes::apply_edits;
use foreach_analysis::source_text::SourceText;
use foreach_analysis::{Code, Diagnostic, FileId, TextEdit};

/// The analysed files: path and the text the analysis read, by id (as `AnalysisHost::file_table` gives them).
pub type FileTable = HashMap<FileId, (String, SourceText)>;

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOutcome {
    /// Written, with this many fixes (diagnostics) applied and this many edits skipped as overlapping.
    Fixed { fixes: usize, skipped_edits: usize },
    /// Not written, and why.
    Skipped(String),
}

/// Applies the first automatic fix of every diagnostic. `files` maps the report's file ids to their path and the
/// text that was analysed. Returns one outcome per file that had something to fix, by path.
pub fn apply_fixes(diagnostics: &[Diagnostic], files: &FileTable) -> BTreeMap<String, FileOutcome> {
    let broken: HashSet<FileId> = diagnostics
        .iter()
        .filter(|d| matches!(d.code, Code::SyntaxError | Code::UnreadableFile))
        .map(|d| d.location.file)
        .collect();

    // Per file: the fixes (as groups of edits) that touch it. A fix whose edits span several files is applied
    // per file; every fix the analysis builds today edits one file.
    let mut by_file: HashMap<FileId, Vec<&TextEdit>> = HashMap::new();
    let mut fix_counts: HashMap<FileId, usize> = HashMap::new();
    for d in diagnostics {
        let Some(fix) = d.fixes.iter().find(|f| f.automatic) else { continue };
        let mut touched = HashSet::new();
        for e in &fix.edits {
            by_file.entry(e.location.file).or_default().push(e);
            touched.insert(e.location.file);
        }
        for f in touched {
            *fix_counts.entry(f).or_default() += 1;
        }
    }

    let mut out = BTreeMap::new();
    for (file, edits) in by_file {
        let Some((path, text)) = files.get(&file) else { continue };
        let outcome = if broken.contains(&file) {
            FileOutcome::Skipped("the file has syntax errors".to_string())
        } else {
            fix_one(Path::new(path), &text.text(), &edits, fix_counts.get(&file).copied().unwrap_or(0))
        };
        out.insert(path.clone(), outcome);
    }
    out
}

fn fix_one(path: &Path, analysed: &str, edits: &[&TextEdit], fixes: usize) -> FileOutcome {
    match std::fs::read(path) {
        Ok(bytes) if bytes == analysed.as_bytes() => {}
        Ok(_) => return FileOutcome::Skipped("the file changed since it was read".to_string()),
        Err(e) => return FileOutcome::Skipped(format!("cannot read it again: {e}")),
    }
    let applied = apply_edits(analysed, edits);
    if applied.applied == 0 {
        return FileOutcome::Skipped("no edit fits the file".to_string());
    }
    // A skipped edit is taken as a fix not applied (every fix built today has a single edit).
    let fixes = fixes.saturating_sub(applied.skipped.min(fixes));
    match write_atomically(path, applied.text.as_bytes()) {
        Ok(()) => FileOutcome::Fixed { fixes, skipped_edits: applied.skipped },
        Err(e) => FileOutcome::Skipped(format!("cannot write it: {e}")),
    }
}

/// Writes `contents` to a temporary file next to `path` with `path`'s permissions, then renames it over `path`.
/// The rename is atomic on the same file system, which the same directory guarantees.
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(path)?.permissions();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp: PathBuf = dir.join(format!(".{name}.foreach-ls-fix.{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        std::fs::set_permissions(&tmp, permissions)?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// One line per file for stderr (stdout carries the report, which may be JSON).
pub fn describe(outcomes: &BTreeMap<String, FileOutcome>, cwd: &Path) -> String {
    let mut s = String::new();
    for (path, outcome) in outcomes {
        let shown = Path::new(path).strip_prefix(cwd).map(|p| p.display().to_string()).unwrap_or(path.clone());
        match outcome {
            FileOutcome::Fixed { fixes, skipped_edits: 0 } => {
                s.push_str(&format!("fixed {fixes} {} in {shown}\n", plural(*fixes)));
            }
            FileOutcome::Fixed { fixes, skipped_edits } => s.push_str(&format!(
                "fixed {fixes} {} in {shown} ({skipped_edits} overlapping edits left for the next run)\n",
                plural(*fixes)
            )),
            FileOutcome::Skipped(why) => s.push_str(&format!("not fixing {shown}: {why}\n")),
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
        let out = apply_fixes(&diags, &files);
        assert_eq!(out[&path], FileOutcome::Fixed { fixes: 1, skipped_edits: 0 });
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
        let out = apply_fixes(&diags, &files);
        assert_eq!(out[&path], FileOutcome::Fixed { fixes: 1, skipped_edits: 1 });
        assert!(std::fs::read_to_string(&path).unwrap().contains("  Y # keep"));
    }

    #[test]
    fn files_with_syntax_errors_or_changed_on_disk_are_left_alone() {
        let (_dir, path, files) = setup(TEXT);
        let mut diags = vec![diag(FileId(1), TEXT, "var.m", "X", true)];
        std::fs::write(&path, format!("{TEXT}# edited\n")).unwrap();
        let out = apply_fixes(&diags, &files);
        assert!(matches!(&out[&path], FileOutcome::Skipped(why) if why.contains("changed")));

        std::fs::write(&path, TEXT).unwrap();
        diags.push(Diagnostic::new(Code::SyntaxError, FileRange::new(FileId(1), TextRange::default()), "bad"));
        let out = apply_fixes(&diags, &files);
        assert!(matches!(&out[&path], FileOutcome::Skipped(why) if why.contains("syntax")));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TEXT);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, path, files) = setup(TEXT);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        apply_fixes(&[diag(FileId(1), TEXT, "var.m", "X", true)], &files);
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
    }
}
