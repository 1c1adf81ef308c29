//! The journal of `migrate --write`: how a migration stopped between its renames (a crash, a kill, a power cut) is
//! found and finished or undone.
//!
//! `migrate --write` changes several files, all or none (`migrate.rs`). Each file is replaced by a rename, and no
//! file system renames several files at once, so before the first rename it writes this journal,
//! [`NAME`] in the module directory (synced, like the renamed files): every file's path, its old text and its new
//! text. It removes the journal after the last rename. A journal found later therefore means an interrupted run,
//! and says which files have which text. The next `migrate` in that directory refuses to start, and `check` says
//! so too, until `migrate --finish` (write the new texts that are missing) or `migrate --undo` (put the old texts
//! back) ends it. A file that has neither text any more (edited since) is never overwritten: the journal keeps
//! both texts for doing it by hand.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{leftovers, write};

/// The journal's file name in the module directory (hidden, not `.tf`: nothing loads it).
pub const NAME: &str = ".foreach-ls-migrate.json";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Journal {
    /// What the file is, for whoever finds it.
    pub about: String,
    pub files: Vec<Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    /// The file as the module names it (a symbolic link is followed again when the journal is used).
    pub path: String,
    pub old: String,
    pub new: String,
}

/// Which text a file of the journal has now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    Old,
    New,
    /// Neither (edited since, or unreadable).
    Other,
}

impl Journal {
    pub fn new(files: Vec<Entry>) -> Journal {
        let about = "foreach-ls migrate --write was changing these files; if this file is still here, it was \
                     interrupted: run `foreach-ls migrate <this directory> --finish` or `--undo`"
            .to_string();
        Journal { about, files }
    }

    /// Each file's path and state.
    pub fn states(&self) -> Vec<(String, FileState)> {
        self.files
            .iter()
            .map(|e| {
                let state = match std::fs::read(&e.path) {
                    Ok(b) if b == e.new.as_bytes() => FileState::New,
                    Ok(b) if b == e.old.as_bytes() => FileState::Old,
                    _ => FileState::Other,
                };
                (e.path.clone(), state)
            })
            .collect()
    }
}

pub fn path(dir: &Path) -> PathBuf {
    dir.join(NAME)
}

/// The journal of `dir`, if there is one (`Err` when it cannot be read).
pub fn read(dir: &Path) -> Option<Result<Journal, String>> {
    let p = path(dir);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(Err(format!("cannot read {}: {e}", p.display()))),
    };
    Some(
        serde_json::from_slice(&bytes)
            .map_err(|e| format!("{} is not a journal foreach-ls can read: {e}", p.display())),
    )
}

/// Writes the journal of `dir` atomically and durably (a temporary file renamed, the directory synced).
pub fn write(dir: &Path, journal: &Journal) -> Result<(), write::WriteError> {
    let io = |doing: &str| {
        let doing = format!("{doing} {}", path(dir).display());
        move |error| write::WriteError::Io { doing, error }
    };
    let text = serde_json::to_vec_pretty(journal).map_err(|e| io("cannot write")(std::io::Error::other(e)))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(&leftovers::prefix(NAME.as_ref()))
        .suffix(leftovers::SUFFIX)
        .tempfile_in(dir)
        .map_err(io("cannot write"))?;
    tmp.write_all(&text).map_err(io("cannot write"))?;
    tmp.as_file().sync_all().map_err(io("cannot write"))?;
    tmp.persist(path(dir)).map_err(|e| io("cannot write")(e.error))?;
    write::sync_dir(dir).map_err(io("cannot sync the directory of"))
}

/// Removes the journal of `dir`, durably.
pub fn remove(dir: &Path) -> std::io::Result<()> {
    std::fs::remove_file(path(dir))?;
    write::sync_dir(dir)
}

/// Whether the states are a half-applied migration (some files migrated and others not, or edited since).
pub fn is_half_done(states: &[(String, FileState)]) -> bool {
    let all = |s: FileState| states.iter().all(|(_, st)| *st == s);
    !(all(FileState::New) || all(FileState::Old))
}

/// What the journal of `dir` (shown as `shown`) says, and how to end it, for standard error.
pub fn describe(shown: &str, states: &[(String, FileState)], cwd: &Path) -> String {
    let name = |p: &str| Path::new(p).strip_prefix(cwd).unwrap_or(Path::new(p)).display().to_string();
    let list =
        |s: FileState| -> Vec<String> { states.iter().filter(|(_, st)| *st == s).map(|(p, _)| name(p)).collect() };
    let (new, old, other) = (list(FileState::New), list(FileState::Old), list(FileState::Other));
    let mut m = format!("foreach-ls: a `migrate --write` in {shown} was interrupted ({shown}/{NAME} records it): ");
    if other.is_empty() && old.is_empty() {
        m.push_str(&format!("every file was migrated; `foreach-ls migrate {shown} --finish` removes the journal\n"));
        return m;
    }
    if other.is_empty() && new.is_empty() {
        m.push_str(&format!("no file was changed; `foreach-ls migrate {shown} --undo` removes the journal\n"));
        return m;
    }
    m.push_str("the module is half migrated\n");
    for (label, files) in [("migrated", &new), ("not migrated", &old), ("changed since", &other)] {
        if !files.is_empty() {
            m.push_str(&format!("  {label}: {}\n", files.join(", ")));
        }
    }
    if other.is_empty() {
        m.push_str(&format!(
            "  finish it with `foreach-ls migrate {shown} --finish`, or undo it with `foreach-ls migrate {shown} \
             --undo`\n"
        ));
    } else {
        m.push_str(&format!(
            "  a file changed since has neither its old nor its migrated text, so foreach-ls will not overwrite it: \
             finish or undo by hand (the journal holds both texts of every file), then delete {shown}/{NAME}\n"
        ));
    }
    m
}

/// Ends the interrupted migration of `dir`: every file gets its new text (`undo`: its old one), then the journal
/// is removed. Refused, with nothing written, when a file has neither text. Returns how many files were written.
pub fn recover(dir: &Path, journal: &Journal, undo: bool) -> Result<usize, String> {
    let states = journal.states();
    if let Some((p, _)) = states.iter().find(|(_, s)| *s == FileState::Other) {
        return Err(format!(
            "{p} has neither its old nor its migrated text (edited since?); nothing was written. The journal {} \
             holds both texts",
            path(dir).display()
        ));
    }
    let mut written = 0;
    for (entry, (_, state)) in journal.files.iter().zip(&states) {
        let (from, to, done) =
            if undo { (&entry.new, &entry.old, FileState::Old) } else { (&entry.old, &entry.new, FileState::New) };
        if *state == done {
            continue;
        }
        let real = Path::new(&entry.path).canonicalize().map_err(|e| format!("cannot find {}: {e}", entry.path))?;
        write::replace(&real, from.as_bytes(), to.as_bytes())
            .map_err(|e| format!("{}: not written: {e}", entry.path))?;
        written += 1;
    }
    remove(dir).map_err(|e| format!("cannot remove {}: {e}", path(dir).display()))?;
    Ok(written)
}

/// Reports on standard error every journal in `dirs` (`check`); whether one of them is a half-applied migration.
pub fn report_all<'a>(dirs: impl IntoIterator<Item = &'a str>, cwd: &Path, err: &mut impl Write) -> bool {
    let mut half = false;
    let mut dirs: Vec<&str> = dirs.into_iter().collect();
    dirs.sort_unstable();
    for dir in dirs {
        let dir = Path::new(dir);
        let shown = dir.strip_prefix(cwd).unwrap_or(dir).display().to_string();
        let shown = if shown.is_empty() { ".".to_string() } else { shown };
        match read(dir) {
            None => {}
            Some(Ok(j)) => {
                let states = j.states();
                half |= is_half_done(&states);
                let _ = err.write_all(describe(&shown, &states, cwd).as_bytes());
            }
            Some(Err(e)) => {
                half = true;
                let _ = writeln!(err, "foreach-ls: {e}");
            }
        }
    }
    half
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_done_migration_is_described_finished_and_undone() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().canonicalize().unwrap();
        let a = d.join("a.tf");
        let b = d.join("b.tf");
        std::fs::write(&a, "new a").unwrap();
        std::fs::write(&b, "old b").unwrap();
        let s = |p: &Path| p.to_string_lossy().into_owned();
        let j = Journal::new(vec![
            Entry { path: s(&a), old: "old a".into(), new: "new a".into() },
            Entry { path: s(&b), old: "old b".into(), new: "new b".into() },
        ]);
        write(&d, &j).unwrap();
        let read_back = read(&d).unwrap().unwrap();
        let states = read_back.states();
        assert!(is_half_done(&states));
        let text = describe("mod", &states, &d);
        assert!(text.contains("migrated: a.tf\n") && text.contains("not migrated: b.tf\n"), "{text}");
        assert!(text.contains("migrate mod --finish") && text.contains("migrate mod --undo"), "{text}");

        assert_eq!(recover(&d, &read_back, true).unwrap(), 1);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert!(read(&d).is_none(), "the journal is removed");

        write(&d, &j).unwrap();
        assert_eq!(recover(&d, &j, false).unwrap(), 2);
        assert_eq!(
            (std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap()),
            ("new a".into(), "new b".into())
        );

        // A file edited since is never overwritten.
        write(&d, &j).unwrap();
        std::fs::write(&b, "edited").unwrap();
        assert!(recover(&d, &j, true).unwrap_err().contains("neither its old nor its migrated text"));
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert!(read(&d).is_some());
    }
}
