//! Root modules whose inputs a wrapper supplies: a `terragrunt.hcl` in the directory or above it (terragrunt runs
//! the module with its `inputs`), an `atmos.yaml` above it (atmos runs its components with stack variables). Their
//! defaults may be overridden by what the wrapper passes, so the analysis does not take them as what runs when the
//! root cannot run as it is (`Workspace::input_wrappers`).
//!
//! Only the file names are looked at, never their contents, and never above the repository that holds the
//! directory (the read boundary), so a wrapper elsewhere on the disk has no say.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

/// The wrapper files, in the order they are looked for in each directory. An `atmos.yaml` beside a module counts
/// too: atmos keeps it at the top of the repository, where no component lives, so this changes nothing real.
const WRAPPERS: &[&str] = &["terragrunt.hcl", "atmos.yaml", "atmos.yml"];

/// For each of `dirs` that has a wrapper in it or above it (up to the first of `boundaries` that holds it, else the
/// directory alone): the directory and the wrapper file relative to it (`terragrunt.hcl`, `../../atmos.yaml`).
pub fn input_wrappers<'a>(dirs: impl IntoIterator<Item = &'a Path>, boundaries: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let boundary_of = |dir: &Path| boundaries.iter().filter(|b| dir.starts_with(b)).max_by_key(|b| b.as_os_str().len());
    // The directories that may hold a wrapper: each directory and its ancestors up to its boundary.
    let dirs: Vec<&Path> = dirs.into_iter().collect();
    let mut ancestors: HashSet<&Path> = HashSet::new();
    for dir in &dirs {
        let boundary = boundary_of(dir);
        for ancestor in dir.ancestors() {
            if !ancestors.insert(ancestor) || boundary.is_none_or(|b| ancestor == b.as_path()) {
                break;
            }
        }
    }
    // What each holds, looked up once however many directories share it, on every core: three system calls for
    // each of the thousands of directories of a large repository.
    let found: HashMap<&Path, Option<&'static str>> =
        ancestors.into_par_iter().map(|ancestor| (ancestor, wrapper_in(ancestor))).collect();
    let mut out = Vec::new();
    for dir in dirs {
        let boundary = boundary_of(dir);
        for (depth, ancestor) in dir.ancestors().enumerate() {
            let holds = found.get(ancestor).copied().flatten();
            if let Some(name) = holds {
                out.push((dir.to_path_buf(), format!("{}{name}", "../".repeat(depth))));
                break;
            }
            if boundary.is_none_or(|b| ancestor == b.as_path()) {
                break;
            }
        }
    }
    out
}

fn wrapper_in(dir: &Path) -> Option<&'static str> {
    WRAPPERS.iter().find(|name| dir.join(name).is_file()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
    }

    #[test]
    fn finds_terragrunt_beside_or_above_and_atmos_above_within_the_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        touch(&repo.join("live/prod/app/terragrunt.hcl"));
        touch(&repo.join("live/terragrunt.hcl"));
        touch(&repo.join("stacks/atmos.yaml"));
        std::fs::create_dir_all(repo.join("stacks/components/terraform/vpc")).unwrap();
        std::fs::create_dir_all(repo.join("live/stage/db")).unwrap();
        std::fs::create_dir_all(repo.join("plain/root")).unwrap();
        // Outside the repository: must not count.
        touch(&tmp.path().join("terragrunt.hcl"));
        let dirs = [
            repo.join("live/prod/app"),
            repo.join("live/stage/db"),
            repo.join("stacks/components/terraform/vpc"),
            repo.join("plain/root"),
        ];
        let found = input_wrappers(dirs.iter().map(PathBuf::as_path), std::slice::from_ref(&repo));
        let found: Vec<(String, String)> =
            found.into_iter().map(|(d, w)| (d.strip_prefix(&repo).unwrap().display().to_string(), w)).collect();
        assert_eq!(
            found,
            [
                ("live/prod/app".to_string(), "terragrunt.hcl".to_string()),
                ("live/stage/db".to_string(), "../../terragrunt.hcl".to_string()),
                ("stacks/components/terraform/vpc".to_string(), "../../../atmos.yaml".to_string()),
            ]
        );
    }

    #[test]
    fn outside_any_boundary_only_the_directory_itself_counts() {
        let tmp = tempfile::tempdir().unwrap();
        touch(&tmp.path().join("terragrunt.hcl"));
        let dir = tmp.path().join("module");
        std::fs::create_dir_all(&dir).unwrap();
        assert!(input_wrappers([dir.as_path()], &[]).is_empty());
        touch(&dir.join("terragrunt.hcl"));
        assert_eq!(input_wrappers([dir.as_path()], &[]).len(), 1);
    }
}
