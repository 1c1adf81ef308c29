//! `foreach-ls migrate`: plans the migration of a module's aliased provider configurations to one `for_each`
//! configuration (`foreach_analysis::migrate`) and prints it as a unified diff, or applies it with `--write`.
//!
//! Writing is all or nothing: every file is first checked to be unchanged since it was read and written to a
//! temporary file beside its target (`write.rs`: through symbolic links, inside the repository); only when all
//! temporary files exist is the journal written (`journal.rs`), then the temporary files are renamed over the
//! originals, each checked once more right before, and the journal removed. A rename that fails puts back the
//! files already renamed. A run stopped between the renames leaves the journal, which the next `migrate` or `check`
//! reports and `--finish` or `--undo` ends.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use foreach_analysis::fixes::apply_edits;
use foreach_analysis::migrate::{Options, Plan};
use foreach_load::{LoadOptions, OrderedVar, load, path_string};

use crate::args::MigrateArgs;
use crate::check::env_variables;
use crate::exit::ExitStatus;
use crate::{journal, leftovers, write};

pub fn run(args: &MigrateArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    let mut err = std::io::stderr().lock();
    let cwd = std::env::current_dir().unwrap_or_default();
    if args.path.is_dir() {
        // An interrupted `--write` comes first: nothing else may be done to a half-migrated module.
        if let Some(status) = interrupted(args, &cwd, &mut err) {
            return status;
        }
    }
    let Some(provider) = &args.provider else {
        let _ = writeln!(err, "foreach-ls: --provider is required");
        return ExitStatus::Usage;
    };
    for (flag, value) in [("--provider", Some(provider)), ("--alias", args.alias.as_ref())] {
        if let Some(v) = value
            && !is_identifier(v)
        {
            let _ = writeln!(err, "foreach-ls: {flag} {v:?} is not a valid name (letters, digits, `_` and `-`)");
            return ExitStatus::Usage;
        }
    }
    if !args.path.is_dir() {
        let _ = writeln!(err, "foreach-ls: {} is not a directory", args.path.display());
        return ExitStatus::Usage;
    }
    let paths = [args.path.clone()];
    let opts = LoadOptions {
        paths: &paths,
        excludes: &[],
        ordered_vars,
        env_vars: env_variables(),
        workspace_name: args.vars.workspace_name(),
        states: &[],
        project_excludes: None,
        texts: foreach_load::KeepTexts::Compressed,
    };
    let loaded = match load(&opts) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(err, "foreach-ls: {}", e.0);
            return ExitStatus::Usage;
        }
    };
    let Some(root) = loaded.roots.first() else {
        let _ = writeln!(err, "foreach-ls: no directory given");
        return ExitStatus::Usage;
    };
    let options = Options { provider: provider.clone(), alias: args.alias.clone(), resources: args.resources };
    let plan = match loaded.host.migrate_providers(&path_string(root), &options) {
        Ok(p) => p,
        Err(reasons) => {
            let _ = writeln!(err, "foreach-ls: cannot migrate the `{provider}` configurations; nothing was changed:");
            for r in reasons {
                let _ = writeln!(err, "  {}", shorten(&r, &cwd));
            }
            return ExitStatus::Diagnostics;
        }
    };
    for l in &plan.left_alone {
        let _ = writeln!(err, "left alone: {}", shorten(l, &cwd));
    }
    for n in &plan.notes {
        let _ = writeln!(err, "note: {}", shorten(n, &cwd));
    }
    let changed = new_texts(&plan);
    if !args.write {
        let mut out = std::io::stdout().lock();
        for (path, old, new) in &changed {
            let shown = shown(path, &cwd, root);
            let diff = similar::TextDiff::from_lines(old.as_str(), new.as_str());
            let _ = write!(
                out,
                "{}",
                diff.unified_diff().context_radius(3).header(&format!("a/{shown}"), &format!("b/{shown}"))
            );
        }
        return ExitStatus::Clean;
    }
    // Temporary files an interrupted run left beside any file of the module are removed first.
    let table = loaded.host.file_table();
    let reals: Vec<PathBuf> = table.values().filter_map(|(p, _)| Path::new(p).canonicalize().ok()).collect();
    let removed = leftovers::sweep_all(reals.iter().filter_map(|r| r.parent()).chain([args.path.as_path()]));
    leftovers::report(&removed, &cwd, &mut err);
    let boundary = write::Boundary::of(std::slice::from_ref(&args.path));
    for (path, _, _) in &changed {
        if Path::new(path).symlink_metadata().is_ok_and(|m| m.file_type().is_symlink())
            && let Ok(real) = Path::new(path).canonicalize()
        {
            let _ = writeln!(
                err,
                "note: {} is a symbolic link: the change is written to {}, which other modules may read too",
                shorten(path, &cwd),
                shorten(&path_string(&real), &cwd)
            );
        }
    }
    match write_all(&changed, &args.path, &boundary) {
        Ok(()) => {
            let _ = writeln!(
                err,
                "migrated {} `{provider}` configurations into `{provider}.{}` in {} file{}",
                plan.keys.len(),
                plan.alias,
                changed.len(),
                if changed.len() == 1 { "" } else { "s" }
            );
            if args.resources {
                let _ = writeln!(
                    err,
                    "merged {} per-alias block{} into blocks with for_each, with {} moved block{}",
                    plan.merged,
                    if plan.merged == 1 { "" } else { "s" },
                    plan.moved,
                    if plan.moved == 1 { "" } else { "s" }
                );
            }
            ExitStatus::Clean
        }
        // A write that fails (no space, a read-only file, a file changed meanwhile) is an IO failure: 2.
        Err(Failed::NothingChanged(e)) => {
            let _ = writeln!(err, "foreach-ls: nothing was changed: {}", shorten(&e, &cwd));
            ExitStatus::Usage
        }
        Err(Failed::HalfDone(e)) => {
            let _ = writeln!(err, "foreach-ls: {}", shorten(&e, &cwd));
            ExitStatus::Usage
        }
    }
}

/// Path, text read and new text of every file the plan changes.
fn new_texts(plan: &Plan) -> Vec<(String, String, String)> {
    plan.files
        .iter()
        .map(|f| {
            let edits: Vec<_> = f.edits.iter().collect();
            (f.path.clone(), f.original.to_string(), apply_edits(&f.original, &edits).text)
        })
        .collect()
}

/// What to do about a journal left in the module directory by an interrupted `--write` (`journal.rs`): `None` to go
/// on with the migration, else the exit status. `--finish` and `--undo` end it; without them a half-migrated module
/// is refused, and a journal whose files all have one text (old or new) is removed with a note.
fn interrupted(args: &MigrateArgs, cwd: &Path, err: &mut impl Write) -> Option<ExitStatus> {
    let dir = &args.path;
    let shown = dir.display().to_string();
    let journal = match journal::read(dir) {
        None if args.finish || args.undo => {
            let _ = writeln!(err, "foreach-ls: no interrupted `migrate --write` in {shown}: nothing to finish or undo");
            return Some(ExitStatus::Usage);
        }
        None => return None,
        Some(Ok(j)) => j,
        Some(Err(e)) => {
            let _ = writeln!(err, "foreach-ls: {e}");
            return Some(ExitStatus::Usage);
        }
    };
    if args.finish || args.undo {
        // The temporary files the interrupted run left are its own: removed, whichever way it is ended.
        let reals: Vec<PathBuf> = journal.files.iter().filter_map(|e| Path::new(&e.path).canonicalize().ok()).collect();
        let removed = leftovers::sweep_all(reals.iter().filter_map(|r| r.parent()).chain([dir.as_path()]));
        leftovers::report(&removed, cwd, err);
        return Some(match journal::recover(dir, &journal, args.undo) {
            Ok(n) => {
                let what = if args.undo { "undid" } else { "finished" };
                let _ = writeln!(
                    err,
                    "{what} the interrupted migration of {shown}: {n} file{} written",
                    if n == 1 { "" } else { "s" }
                );
                ExitStatus::Clean
            }
            Err(e) => {
                let _ = writeln!(err, "foreach-ls: {e}");
                ExitStatus::Usage
            }
        });
    }
    let states = journal.states();
    let _ = err.write_all(journal::describe(&shown, &states, cwd).as_bytes());
    if journal::is_half_done(&states) {
        return Some(ExitStatus::Usage);
    }
    // Every file has its old text, or every file its new one: the journal says nothing more; carry on without it.
    match journal::remove(dir) {
        Ok(()) => {
            let _ = writeln!(err, "note: removed {}/{}, which recorded nothing unfinished", shown, journal::NAME);
            None
        }
        Err(e) => {
            let _ = writeln!(err, "foreach-ls: cannot remove {}/{}: {e}", shown, journal::NAME);
            Some(ExitStatus::Usage)
        }
    }
}

/// Why `--write` failed.
#[derive(Debug)]
enum Failed {
    /// Every file is as it was.
    NothingChanged(String),
    /// Some files could not be put back: the journal is kept, the message says how to go on.
    HalfDone(String),
}

#[cfg(test)]
impl Failed {
    fn message(&self) -> &str {
        match self {
            Failed::NothingChanged(m) | Failed::HalfDone(m) => m,
        }
    }
}

/// Writes every changed file (path, text read, new text), all or none; the journal goes in `module`.
fn write_all(changed: &[(String, String, String)], module: &Path, boundary: &write::Boundary) -> Result<(), Failed> {
    use Failed::NothingChanged as Nothing;
    // Each file by the file it really is (through symbolic links), once.
    let mut targets: Vec<(PathBuf, &str, &str, &str)> = Vec::new();
    let mut seen: HashMap<PathBuf, &str> = HashMap::new();
    for (path, old, new) in changed {
        let real = write::resolve(Path::new(path), boundary).map_err(|e| Nothing(format!("{path}: {e}")))?;
        match seen.get(&real) {
            Some(other) if *other == new.as_str() => continue,
            Some(_) => return Err(Nothing(format!("{path} and another file of the module are links to one file"))),
            None => {
                seen.insert(real.clone(), new);
            }
        }
        match std::fs::read(&real) {
            Ok(bytes) if bytes == old.as_bytes() => {}
            Ok(_) => return Err(Nothing(format!("{path} changed since it was read"))),
            Err(e) => return Err(Nothing(format!("cannot read {path} again: {e}"))),
        }
        targets.push((real, path, old, new));
    }
    let mut staged = Vec::new();
    for (real, path, _, new) in &targets {
        // Dropping `staged` on an early return removes the temporary files written so far.
        staged.push(write::stage(real, new.as_bytes()).map_err(|e| Nothing(format!("{path}: {e}")))?);
        crate::write_hooks::delay();
    }
    let entries = targets
        .iter()
        .map(|(_, path, old, new)| journal::Entry {
            path: path.to_string(),
            old: old.to_string(),
            new: new.to_string(),
        })
        .collect();
    journal::write(module, &journal::Journal::new(entries)).map_err(|e| Nothing(e.to_string()))?;
    for (i, s) in staged.into_iter().enumerate() {
        let (_, path, old, _) = targets[i];
        crate::write_hooks::delay();
        if let Err(e) = write::commit(s, old.as_bytes()) {
            return Err(undo(&targets[..i], module, &format!("{path}: {e}")));
        }
    }
    // The renames are made durable before the journal that records them goes.
    if let Err(e) = write::sync_dirs(targets.iter().filter_map(|(real, ..)| real.parent())) {
        return Err(Failed::HalfDone(format!("{e}; the journal {} is kept", journal::path(module).display())));
    }
    if let Err(e) = journal::remove(module) {
        return Err(Failed::HalfDone(format!(
            "every file was migrated, but the journal {} could not be removed ({e}); delete it",
            journal::path(module).display()
        )));
    }
    Ok(())
}

/// Puts back the old text of the files already replaced after a rename failed; the journal is removed once nothing
/// is left half done, and kept (for `--finish` or `--undo`) otherwise.
fn undo(replaced: &[(PathBuf, &str, &str, &str)], module: &Path, why: &str) -> Failed {
    let failed: Vec<String> = replaced
        .iter()
        .filter_map(|(real, path, old, new)| {
            write::replace(real, new.as_bytes(), old.as_bytes()).err().map(|e| format!("{path}: {e}"))
        })
        .collect();
    if failed.is_empty() && journal::remove(module).is_ok() {
        return Failed::NothingChanged(why.to_string());
    }
    Failed::HalfDone(format!(
        "{why}; the files already replaced could not all be put back ({}): the module is half migrated, run `foreach-ls \
         migrate {} --undo` or `--finish`",
        failed.join("; "),
        module.display()
    ))
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The path in diff headers (`a/<path>`): relative to the current directory when under it, else to the module.
fn shown(path: &str, cwd: &Path, module: &Path) -> String {
    let p = Path::new(path);
    p.strip_prefix(cwd)
        .or_else(|_| p.strip_prefix(module))
        .map(path_string)
        .unwrap_or_else(|_| path.trim_start_matches('/').to_string())
}

/// A message with absolute paths under the current directory made relative.
fn shorten(message: &str, cwd: &Path) -> String {
    let prefix = format!("{}/", path_string(cwd));
    message.replace(&prefix, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_all_files_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.tf");
        let b = dir.path().join("b.tf");
        std::fs::write(&a, "old a\n").unwrap();
        std::fs::write(&b, "old b\n").unwrap();
        let s = |p: &Path| p.to_string_lossy().into_owned();
        let bound = write::Boundary::of(&[dir.path()]);

        // The second file changed since it was read: nothing is written.
        let stale = vec![
            (s(&a), "old a\n".to_string(), "new a\n".to_string()),
            (s(&b), "other b\n".to_string(), "new b\n".to_string()),
        ];
        assert!(write_all(&stale, dir.path(), &bound).unwrap_err().message().contains("changed since it was read"));
        // The second file is gone: nothing is written either, and no temporary file is left.
        let missing = dir.path().join("gone/c.tf");
        let broken = vec![
            (s(&a), "old a\n".to_string(), "new a\n".to_string()),
            (s(&missing), String::new(), "new c\n".to_string()),
        ];
        assert!(write_all(&broken, dir.path(), &bound).is_err());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a\n");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");

        let good = vec![
            (s(&a), "old a\n".to_string(), "new a\n".to_string()),
            (s(&b), "old b\n".to_string(), "new b\n".to_string()),
        ];
        write_all(&good, dir.path(), &bound).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a\n");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b\n");
    }
}
