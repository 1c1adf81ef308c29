//! `foreach-ls migrate`: plans the migration of a module's aliased provider configurations to one `for_each`
//! configuration (`foreach_analysis::migrate`) and prints it as a unified diff, or applies it with `--write`.
//!
//! Writing is all or nothing: every file is first checked to be unchanged since it was read and written to a
//! temporary file beside it; only when all temporary files exist are they renamed over the originals (a rename in
//! one directory is atomic). A rename that still fails puts back the files already renamed.

use std::io::Write;
use std::path::{Path, PathBuf};

use foreach_analysis::fixes::apply_edits;
use foreach_analysis::migrate::{Options, Plan};
use foreach_load::{LoadOptions, OrderedVar, load, path_string};

use crate::args::MigrateArgs;
use crate::check::env_variables;
use crate::exit::ExitStatus;

pub fn run(args: &MigrateArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    let mut err = std::io::stderr().lock();
    for (flag, value) in [("--provider", Some(&args.provider)), ("--alias", args.alias.as_ref())] {
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
    let cwd = std::env::current_dir().unwrap_or_default();
    let options = Options { provider: args.provider.clone(), alias: args.alias.clone(), resources: args.resources };
    let plan = match loaded.host.migrate_providers(&path_string(root), &options) {
        Ok(p) => p,
        Err(reasons) => {
            let _ = writeln!(
                err,
                "foreach-ls: cannot migrate the `{}` configurations; nothing was changed:",
                args.provider
            );
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
    match write_all(&changed) {
        Ok(()) => {
            let _ = writeln!(
                err,
                "migrated {} `{}` configurations into `{}.{}` in {} file{}",
                plan.keys.len(),
                args.provider,
                args.provider,
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
        Err(e) => {
            let _ = writeln!(err, "foreach-ls: nothing was changed: {e}");
            ExitStatus::Diagnostics
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

fn write_all(changed: &[(String, String, String)]) -> Result<(), String> {
    for (path, old, _) in changed {
        match std::fs::read(path) {
            Ok(bytes) if bytes == old.as_bytes() => {}
            Ok(_) => return Err(format!("{path} changed since it was read")),
            Err(e) => return Err(format!("cannot read {path} again: {e}")),
        }
    }
    let mut temps: Vec<(PathBuf, &str)> = Vec::new();
    let cleanup = |temps: &[(PathBuf, &str)]| {
        for (t, _) in temps {
            let _ = std::fs::remove_file(t);
        }
    };
    for (path, _, new) in changed {
        match write_temp(Path::new(path), new.as_bytes()) {
            Ok(t) => temps.push((t, path)),
            Err(e) => {
                cleanup(&temps);
                return Err(format!("cannot write beside {path}: {e}"));
            }
        }
    }
    for (i, (tmp, path)) in temps.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, path) {
            // Put back what was already replaced, so that the module is never half migrated.
            for (path, old, _) in &changed[..i] {
                let _ = crate::fix::write_atomically(Path::new(path), old.as_bytes());
            }
            cleanup(&temps[i..]);
            return Err(format!("cannot replace {path}: {e}"));
        }
    }
    Ok(())
}

/// Writes `contents` to a temporary file beside `path`, with `path`'s permissions.
fn write_temp(path: &Path, contents: &[u8]) -> std::io::Result<PathBuf> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(path)?.permissions();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.foreach-ls-migrate.{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        std::fs::set_permissions(&tmp, permissions)
    })();
    match result {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
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

        // The second file changed since it was read: nothing is written.
        let stale = vec![
            (s(&a), "old a\n".to_string(), "new a\n".to_string()),
            (s(&b), "other b\n".to_string(), "new b\n".to_string()),
        ];
        assert!(write_all(&stale).unwrap_err().contains("changed since it was read"));
        // The second file is gone: nothing is written either, and no temporary file is left.
        let missing = dir.path().join("gone/c.tf");
        let broken = vec![
            (s(&a), "old a\n".to_string(), "new a\n".to_string()),
            (s(&missing), String::new(), "new c\n".to_string()),
        ];
        assert!(write_all(&broken).is_err());
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
        write_all(&good).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a\n");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b\n");
    }
}
