//! `foreach-ls fmt`: rewrites files in the canonical style of `tofu fmt` (`foreach_syntax::format`), used like
//! `tofu fmt` (`docs/formatting.md`).
//!
//! Paths are files (formatted whatever their name) or directories (their `.tf`, `.tofu`, `.tfvars`, `.tftest.hcl`
//! and `.tofutest.hcl` files, subdirectories only with `--recursive`; hidden and editor-backup names skipped, as
//! OpenTofu skips them). `-` formats standard input to standard output. Exit status as `tofu fmt`: 0, 2 when a file
//! could not be read, parsed or written (the others are still formatted), 3 with `--check` when a file needs
//! formatting.
//!
//! Writing goes through `write.rs`: a symbolic link is formatted in its target (once, however many links lead to
//! it) and stays a link, a target outside the repository is refused, a file changed on disk since it was read is
//! left alone, and a crash leaves each file whole, old or new. A run that writes first removes the temporary files
//! an interrupted run left in the directories it formats.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use foreach_syntax::FileKind;
use foreach_syntax::format::{FormatError, format};
use rayon::prelude::*;

use crate::args::FmtArgs;
use crate::exit::ExitStatus;
use crate::{leftovers, write};

/// The file name endings `tofu fmt` formats in a directory.
const EXTENSIONS: [&str; 5] = [".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl"];

pub fn run(args: &FmtArgs) -> ExitStatus {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let paths = if args.paths.is_empty() { vec![PathBuf::from(".")] } else { args.paths.clone() };
    let mut failed = false;
    let mut needs_formatting = false;
    let mut seen = HashSet::new();
    let cwd = std::env::current_dir().unwrap_or_default();
    for path in &paths {
        if path.as_os_str() == "-" {
            match stdin(args, &mut out) {
                Ok(changed) => needs_formatting |= changed,
                Err(message) => {
                    failed = true;
                    let _ = writeln!(err, "foreach-ls: <stdin>{message}");
                }
            }
            continue;
        }
        let mut files = Vec::new();
        if path.is_dir() {
            collect(path, args.recursive, &mut files);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            failed = true;
            let _ = writeln!(err, "foreach-ls: {}: no such file or directory", path.display());
            continue;
        }
        // Each file once, under the first name that leads to it: two links to one shared file, or a link next to
        // its target, must not format (and write) it twice.
        let files: Vec<(PathBuf, PathBuf)> = files
            .into_iter()
            .filter_map(|f| {
                let real = f.canonicalize().unwrap_or_else(|_| f.clone());
                seen.insert(real.clone()).then_some((f, real))
            })
            .collect();
        if !args.check {
            let removed = leftovers::sweep_all(files.iter().filter_map(|(_, real)| real.parent()));
            leftovers::report(&removed, &cwd, &mut err);
        }
        let boundary = write::Boundary::of(std::slice::from_ref(path));
        // Files are formatted on every core (parsing dominates), then reported in order.
        let results: Vec<(Result<Outcome, String>, Vec<u8>)> = files
            .par_iter()
            .map(|(file, real)| {
                let mut report = Vec::new();
                (one_file(file, real, &boundary, args, &mut report), report)
            })
            .collect();
        let mut written_in = Vec::new();
        for ((file, real), (result, report)) in files.iter().zip(results) {
            let _ = out.write_all(&report);
            match result {
                Ok(w) => {
                    needs_formatting |= w != Outcome::Unchanged;
                    if w == Outcome::Written {
                        written_in.extend(real.parent());
                    }
                }
                Err(message) => {
                    failed = true;
                    let _ = writeln!(err, "foreach-ls: {}{message}", file.display());
                }
            }
        }
        if let Err(e) = write::sync_dirs(written_in) {
            failed = true;
            let _ = writeln!(err, "foreach-ls: {e}");
        }
    }
    if failed {
        ExitStatus::Usage
    } else if args.check && needs_formatting {
        ExitStatus::NeedsFormatting
    } else {
        ExitStatus::Clean
    }
}

/// What [`one_file`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Unchanged,
    /// It needed formatting and was not written (`--check`).
    NeedsFormatting,
    /// Renamed into place; its directory is synced once the run is over.
    Written,
}

/// Formats one file, `path` as named and `real` the file it leads to. Errors start with `:` or `:LINE:COL:`, to
/// follow the path.
fn one_file(
    path: &Path,
    real: &Path,
    boundary: &write::Boundary,
    args: &FmtArgs,
    out: &mut impl Write,
) -> Result<Outcome, String> {
    let bytes = std::fs::read(real).map_err(|e| format!(": cannot read it: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| ": not UTF-8 text; left unchanged".to_owned())?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let kind = FileKind::from_file_name(&name).unwrap_or(FileKind::Tf);
    let formatted = format_or_explain(&text, kind)?;
    if formatted == text {
        return Ok(Outcome::Unchanged);
    }
    let shown = path.display().to_string();
    let _ = writeln!(out, "{shown}");
    if args.diff {
        print_diff(out, &text, &formatted, &shown);
    }
    if args.check {
        return Ok(Outcome::NeedsFormatting);
    }
    let not_written = |e: write::WriteError| format!(": not written: {e}");
    let real = write::resolve(path, boundary).map_err(not_written)?;
    let staged = write::stage(&real, formatted.as_bytes()).map_err(not_written)?;
    write::commit(staged, text.as_bytes()).map_err(not_written)?;
    Ok(Outcome::Written)
}

/// `-`: standard input formatted to standard output (or only checked, or diffed).
fn stdin(args: &FmtArgs, out: &mut impl Write) -> Result<bool, String> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map_err(|e| format!(": cannot read it: {e}"))?;
    let formatted = format_or_explain(&text, FileKind::Tf)?;
    if args.diff {
        print_diff(out, &text, &formatted, "<stdin>");
    } else if !args.check {
        let _ = out.write_all(formatted.as_bytes());
    }
    Ok(formatted != text)
}

fn format_or_explain(text: &str, kind: FileKind) -> Result<String, String> {
    format(text, kind).map_err(|e| match e {
        FormatError::Syntax(err) => {
            let index = foreach_syntax::LineIndex::new(text);
            let at = index.line_col(err.range.start(), foreach_syntax::ColumnEncoding::Char);
            format!(":{}:{}: {}; the file is left unchanged", at.line + 1, at.col + 1, err.message)
        }
        FormatError::NotNativeSyntax => format!(": {e}; the file is left unchanged"),
    })
}

fn print_diff(out: &mut impl Write, old: &str, new: &str, shown: &str) {
    let diff = similar::TextDiff::from_lines(old, new);
    let _ =
        write!(out, "{}", diff.unified_diff().context_radius(3).header(&format!("a/{shown}"), &format!("b/{shown}")));
}

/// The files of `dir` that `tofu fmt` formats, in name order; subdirectories too when `recursive`.
fn collect(dir: &Path, recursive: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        // OpenTofu's ignored files: hidden ones and editor backups.
        if name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#')) {
            continue;
        }
        let path = entry.path();
        // As `tofu fmt`: a link to a directory is not walked into (a link loop cannot recur, and a directory
        // linked into the tree is formatted where it is); a link to a file is formatted in its target.
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            if recursive {
                collect(&path, recursive, out);
            }
        } else if EXTENSIONS.iter().any(|ext| name.ends_with(ext)) && !path.is_dir() {
            out.push(path);
        }
    }
}
