//! The native HCL files of the repository's fixtures and docs, for the tests that compare parsers on them.

use std::path::Path;

use super::files::{self, repo};

/// Configuration files in HCL syntax (the parsers compared do not read JSON).
pub fn hcl(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    [".tf", ".tofu", ".tfvars", ".tftest.hcl", ".hcl"].iter().any(|ext| name.ends_with(ext))
}

/// Every HCL file under `testdata/` and `docs/`, as (path, text), in path order.
pub fn fixture_texts() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    files::files_under(&repo().join("testdata"), &hcl, &mut paths);
    files::files_under(&repo().join("docs"), &hcl, &mut paths);
    paths.sort();
    paths.into_iter().filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(&p).ok()?))).collect()
}
