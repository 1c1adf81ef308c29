//! Writing files without ever losing data. Every command that changes files (`fmt`, `check --fix`, `migrate
//! --write`) writes through [`replace`] (or [`stage`] and [`commit`], for `migrate`'s all-or-nothing writes):
//!
//! - A symbolic link is written through, as `terraform fmt` does: the file written is the link's target
//!   ([`resolve`]) and the link stays a link. A target outside the repository is refused ([`Boundary`], the same
//!   boundary as file functions), so is anything but a regular file.
//! - The new text goes to a temporary file in the *target's* directory (a rename is atomic only within one file
//!   system), with the target's mode (and owner, where the system allows it), is synced, and is renamed over the
//!   target; then the directory is synced, so that a power cut after the command ends loses nothing. A crash leaves
//!   the old file or the new one, never a mix, and at most a temporary file, which the next run that writes removes
//!   (`leftovers.rs`).
//! - The target must still hold the text the command read, checked right before the rename: a file an editor saved
//!   meanwhile is left as it is. A read-only file (no write bit, or not writable by this user) is refused rather
//!   than replaced (the rename would succeed in a writable directory), and so is a file with several hard links (the
//!   rename would split them).
//!
//! `tempfile` makes the temporary file (a fresh name opened exclusively, removed if anything fails before the
//! rename) and renames it (`persist`). It does not follow links, keep the mode or the owner, sync the directory or
//! compare the target before the rename, so this module does those around it.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::leftovers;

/// Where a command may write: the repositories of the paths it was given. As for file functions
/// (`foreach_load::read_boundary`), a path's repository is the nearest directory at or above it with a `.git`
/// entry, else the path itself (its directory, for a file).
#[derive(Debug, Clone)]
pub struct Boundary {
    roots: Vec<PathBuf>,
}

impl Boundary {
    pub fn of<P: AsRef<Path>>(paths: &[P]) -> Boundary {
        let mut roots: Vec<PathBuf> = paths
            .iter()
            .filter_map(|p| {
                let p = p.as_ref();
                let dir = if p.is_dir() { p } else { p.parent().filter(|d| !d.as_os_str().is_empty())? };
                let dir = dir.canonicalize().ok()?;
                foreach_load::read_boundary(&dir).canonicalize().ok()
            })
            .collect();
        // A path given as a bare file name (`fmt main.tf`) has the current directory.
        if paths.iter().any(|p| p.as_ref().parent().is_some_and(|d| d.as_os_str().is_empty()))
            && let Ok(cwd) = std::env::current_dir().and_then(|d| d.canonicalize())
        {
            roots.extend(foreach_load::read_boundary(&cwd).canonicalize().ok());
        }
        roots.sort();
        roots.dedup();
        Boundary { roots }
    }

    fn contains(&self, real: &Path) -> bool {
        self.roots.iter().any(|r| real.starts_with(r))
    }
}

/// Why a file was not written. Each message says what is wrong in plain words; the caller names the file.
#[derive(Debug)]
pub enum WriteError {
    /// The path leads (through a symbolic link) to a file outside the [`Boundary`].
    Outside {
        real: PathBuf,
        roots: Vec<PathBuf>,
    },
    NotAFile,
    ReadOnly,
    HardLinks(u64),
    /// The file on disk is no longer the text that was read.
    Changed,
    Io {
        doing: String,
        error: std::io::Error,
    },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Outside { real, roots } => {
                let roots: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
                write!(
                    f,
                    "it links to {}, outside the repository being written ({}); foreach-ls writes only inside it",
                    real.display(),
                    if roots.is_empty() { "none could be found".to_string() } else { roots.join(", ") }
                )
            }
            WriteError::NotAFile => write!(f, "it is not a regular file"),
            WriteError::ReadOnly => write!(f, "the file is read-only"),
            WriteError::HardLinks(n) => {
                write!(f, "the file has {n} hard links, and replacing it would split them; it is left as it is")
            }
            WriteError::Changed => {
                write!(
                    f,
                    "the file changed on disk since foreach-ls read it; it is left as it is (run the command again)"
                )
            }
            WriteError::Io { doing, error } => write!(f, "{doing}: {error}"),
        }
    }
}

fn io(doing: impl Into<String>) -> impl FnOnce(std::io::Error) -> WriteError {
    let doing = doing.into();
    move |error| WriteError::Io { doing, error }
}

/// The file that writing `path` really changes: `path` with every symbolic link followed, inside `boundary`.
pub fn resolve(path: &Path, boundary: &Boundary) -> Result<PathBuf, WriteError> {
    let real = path.canonicalize().map_err(io("cannot find it"))?;
    if !boundary.contains(&real) {
        return Err(WriteError::Outside { real, roots: boundary.roots.clone() });
    }
    Ok(real)
}

/// Replaces the text of `real` (a path from [`resolve`]), which must still be `expected`, by `new`, durably.
pub fn replace(real: &Path, expected: &[u8], new: &[u8]) -> Result<(), WriteError> {
    commit(stage(real, new)?, expected)?;
    sync_dirs([real.parent().unwrap_or(Path::new("/"))])
}

/// The new text of one file, written and synced in a temporary file beside it, not yet renamed over it. Dropped
/// without [`commit`], the temporary file is removed.
pub struct Staged {
    tmp: tempfile::NamedTempFile,
    target: PathBuf,
}

impl Staged {
    pub fn target(&self) -> &Path {
        &self.target
    }
}

/// Writes `new` to a temporary file beside `real` with `real`'s permissions (and owner where allowed), synced.
pub fn stage(real: &Path, new: &[u8]) -> Result<Staged, WriteError> {
    let meta = std::fs::metadata(real).map_err(io("cannot read it"))?;
    if !meta.is_file() {
        return Err(WriteError::NotAFile);
    }
    if meta.permissions().readonly() {
        return Err(WriteError::ReadOnly);
    }
    writable(real)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(WriteError::HardLinks(meta.nlink()));
        }
    }
    let dir = real.parent().unwrap_or(Path::new("/"));
    let name = real.file_name().unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&leftovers::prefix(name))
        .suffix(leftovers::SUFFIX)
        .tempfile_in(dir)
        .map_err(io(format!("cannot create a temporary file in {}", dir.display())))?;
    // Held until the rename: a sweep by another run leaves a locked file alone (`leftovers.rs`). A file system
    // without locks is no reason not to write.
    let _ = fs4::FileExt::try_lock(tmp.as_file());
    let shown = tmp.path().display().to_string();
    tmp.write_all(new).map_err(io(format!("cannot write the temporary file {shown}")))?;
    tmp.as_file().set_permissions(meta.permissions()).map_err(io(format!("cannot set the mode of {shown}")))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Only root (or the owner, for a group it belongs to) may give the file back its owner: elsewhere the
        // replaced file belongs to whoever ran the command, as with git and editors.
        let _ = std::os::unix::fs::fchown(tmp.as_file(), Some(meta.uid()), Some(meta.gid()));
    }
    tmp.as_file().sync_all().map_err(io(format!("cannot write the temporary file {shown}")))?;
    Ok(Staged { tmp, target: real.to_path_buf() })
}

/// Renames a staged text over its target if the target still holds `expected`. The rename is durable once the
/// caller has synced the target's directory ([`sync_dirs`]; once per directory for a command that writes many files
/// there, which halves what `fmt` of a large tree spends waiting for the disk).
pub fn commit(staged: Staged, expected: &[u8]) -> Result<(), WriteError> {
    crate::write_hooks::before_commit(&staged.target);
    let current = std::fs::read(&staged.target).map_err(io("cannot read it again"))?;
    if current != expected {
        return Err(WriteError::Changed);
    }
    staged.tmp.persist(&staged.target).map_err(|e| WriteError::Io {
        doing: "cannot rename the temporary file over it".to_string(),
        error: e.error,
    })?;
    Ok(())
}

/// Syncs each directory once, so that the renames in them survive a power cut.
pub fn sync_dirs<'a>(dirs: impl IntoIterator<Item = &'a Path>) -> Result<(), WriteError> {
    let mut dirs: Vec<&Path> = dirs.into_iter().collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        sync_dir(dir).map_err(io(format!(
            "files were written in {}, but the directory could not be synced (a power cut could undo them)",
            dir.display()
        )))?;
    }
    Ok(())
}

/// Makes a rename in `dir` durable (a directory is synced through a handle to it; Windows has no such handle).
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Whether this user may write the file (root may whatever its mode, which is checked apart), and its file system
/// is not read-only.
fn writable(path: &Path) -> Result<(), WriteError> {
    #[cfg(unix)]
    {
        match rustix::fs::access(path, rustix::fs::Access::WRITE_OK) {
            Ok(()) => Ok(()),
            Err(e) if e == rustix::io::Errno::ACCESS || e == rustix::io::Errno::PERM => Err(WriteError::ReadOnly),
            Err(e) => Err(WriteError::Io { doing: "cannot write it".to_string(), error: e.into() }),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn replaces_keeping_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("main.tf");
        std::fs::write(&f, "old").unwrap();
        replace(&f, b"old", b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(names(dir.path()), ["main.tf"]);
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("main.tf");
        std::fs::write(&f, "edited").unwrap();
        assert!(matches!(replace(&f, b"old", b"new"), Err(WriteError::Changed)));
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "edited");
        assert_eq!(names(dir.path()), ["main.tf"]);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_mode_and_refuses_read_only_files_and_hard_links() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("main.tf");
        std::fs::write(&f, "old").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        replace(&f, b"old", b"new").unwrap();
        assert_eq!(std::fs::metadata(&f).unwrap().permissions().mode() & 0o7777, 0o640);

        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).unwrap();
        assert!(matches!(replace(&f, b"new", b"newer"), Err(WriteError::ReadOnly)));
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();

        std::fs::hard_link(&f, dir.path().join("other.tf")).unwrap();
        assert!(matches!(replace(&f, b"new", b"newer"), Err(WriteError::HardLinks(2))));
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(names(dir.path()), ["main.tf", "other.tf"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_resolve_to_their_target_inside_the_boundary_only() {
        let outer = tempfile::tempdir().unwrap();
        let repo = outer.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("shared")).unwrap();
        std::fs::create_dir_all(repo.join("root")).unwrap();
        std::fs::write(repo.join("shared/vars.tf"), "x").unwrap();
        std::fs::write(outer.path().join("secret.tf"), "x").unwrap();
        std::os::unix::fs::symlink("../shared/vars.tf", repo.join("root/vars.tf")).unwrap();
        std::os::unix::fs::symlink("../../secret.tf", repo.join("root/secret.tf")).unwrap();
        let boundary = Boundary::of(&[repo.join("root")]);
        let real = resolve(&repo.join("root/vars.tf"), &boundary).unwrap();
        assert_eq!(real, repo.join("shared/vars.tf").canonicalize().unwrap());
        let err = resolve(&repo.join("root/secret.tf"), &boundary).unwrap_err();
        assert!(err.to_string().contains("outside the repository"), "{err}");
        // Without `.git`, the given directory is the boundary.
        std::fs::remove_dir(repo.join(".git")).unwrap();
        let boundary = Boundary::of(&[repo.join("root")]);
        assert!(matches!(resolve(&repo.join("root/vars.tf"), &boundary), Err(WriteError::Outside { .. })));
    }
}
