//! `--base REF`: a git revision's configuration, read in process from the repository's objects with gix (loose
//! objects and packs alike). No `git` process runs and nothing is written: the revision is parsed as git parses it
//! (`origin/main`, `HEAD~1`, a commit id), its tree is read directory by directory as the comparison asks, each
//! directory decoded once, and a file is compared with the working tree's by its blob id, so unchanged files are
//! never read from the repository.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use foreach_load::base::{BaseTree, EntryKind};
use gix::ObjectId;

/// One directory of the tree: name, kind, object id, and whether it is a symbolic link.
type Entries = Arc<Vec<(String, EntryKind, ObjectId, bool)>>;

pub struct GitTree {
    /// Shared between the threads that compare directories; each read takes a thread-local handle.
    repo: gix::ThreadSafeRepository,
    root: ObjectId,
    dirs: Mutex<HashMap<String, Option<Entries>>>,
}

/// The revision `spec` of the repository that holds `start`: its tree, the repository's working directory and the
/// commit id.
pub fn open(start: &Path, spec: &str) -> Result<(GitTree, PathBuf, String), String> {
    let repo = gix::discover(start)
        .map_err(|e| format!("`--base {spec}` needs a git repository, and `{}` is in none: {e}", start.display()))?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| format!("`--base {spec}`: the repository of `{}` has no working tree", start.display()))?
        .canonicalize()
        .map_err(|e| e.to_string())?;
    let (root, commit_id) = {
        let id = repo.rev_parse_single(spec).map_err(|e| format!("`--base {spec}` names no revision here: {e}"))?;
        let commit = id
            .object()
            .and_then(|o| o.peel_to_commit())
            .map_err(|e| format!("`--base {spec}` is not a commit: {e}"))?;
        let root = commit.tree_id().map_err(|e| format!("cannot read the tree of `{spec}`: {e}"))?.detach();
        (root, commit.id.to_string())
    };
    Ok((GitTree { repo: repo.into_sync(), root, dirs: Mutex::new(HashMap::new()) }, workdir, commit_id))
}

impl GitTree {
    /// The entries of directory `dir`, decoded once.
    fn entries(&self, dir: &str) -> Option<Entries> {
        if let Some(e) = self.dirs.lock().ok()?.get(dir) {
            return e.clone();
        }
        let id = if dir.is_empty() {
            Some(self.root)
        } else {
            let (parent, name) = dir.rsplit_once('/').unwrap_or(("", dir));
            self.entries(parent)
                .and_then(|es| es.iter().find(|(n, k, _, _)| n == name && *k == EntryKind::Dir).map(|e| e.2))
        };
        let entries = id.and_then(|id| self.decode(id));
        self.dirs.lock().ok()?.insert(dir.to_string(), entries.clone());
        entries
    }

    fn decode(&self, id: ObjectId) -> Option<Entries> {
        let repo = self.repo.to_thread_local();
        let tree = repo.find_tree(id).ok()?;
        let decoded = tree.decode().ok()?;
        let mut out = Vec::with_capacity(decoded.entries.len());
        for e in &decoded.entries {
            let Ok(name) = std::str::from_utf8(e.filename) else { continue };
            let kind = if e.mode.is_tree() {
                EntryKind::Dir
            } else if e.mode.is_blob_or_symlink() {
                EntryKind::File
            } else {
                continue; // a submodule
            };
            out.push((name.to_string(), kind, e.oid.to_owned(), e.mode.is_link()));
        }
        Some(Arc::new(out))
    }

    /// The blob of file `path`, following symbolic links inside the tree (as the loader reads links to files).
    fn blob(&self, path: &str) -> Result<ObjectId, String> {
        let mut path = path.to_string();
        for _ in 0..8 {
            let (dir, name) = path.rsplit_once('/').unwrap_or(("", &path));
            let entries = self.entries(dir).ok_or_else(|| "no such file at the base".to_string())?;
            let (_, kind, id, link) = entries
                .iter()
                .find(|(n, _, _, _)| n == name)
                .cloned()
                .ok_or_else(|| "no such file at the base".to_string())?;
            if kind != EntryKind::File {
                return Err("a directory at the base".to_string());
            }
            if !link {
                return Ok(id);
            }
            let target = String::from_utf8(self.read_object(id)?).map_err(|e| e.to_string())?;
            path = normalise(dir, &target).ok_or_else(|| "a link that leads out of the repository".to_string())?;
        }
        Err("too many symbolic links".to_string())
    }

    fn read_object(&self, id: ObjectId) -> Result<Vec<u8>, String> {
        let repo = self.repo.to_thread_local();
        let blob = repo.find_blob(id).map_err(|e| e.to_string())?;
        Ok(blob.data.clone())
    }
}

/// `dir/target` with `.` and `..` resolved; `None` when it leaves the top directory or is absolute.
fn normalise(dir: &str, target: &str) -> Option<String> {
    if target.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in target.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

impl BaseTree for GitTree {
    fn list(&self, dir: &str) -> Option<Vec<(String, EntryKind)>> {
        Some(self.entries(dir)?.iter().map(|(n, k, _, _)| (n.clone(), *k)).collect())
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.read_object(self.blob(path)?)
    }

    fn holds(&self, path: &str, bytes: &[u8]) -> bool {
        let Ok(id) = self.blob(path) else { return false };
        gix::objs::compute_hash(id.kind(), gix::objs::Kind::Blob, bytes).is_ok_and(|h| h == id)
    }
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn link_targets_resolve_inside_the_tree_only() {
        assert_eq!(normalise("a/b", "../c.tf").as_deref(), Some("a/c.tf"));
        assert_eq!(normalise("", "./x/y.tf").as_deref(), Some("x/y.tf"));
        assert_eq!(normalise("a", "../../etc/passwd"), None);
        assert_eq!(normalise("a", "/etc/passwd"), None);
    }
}
