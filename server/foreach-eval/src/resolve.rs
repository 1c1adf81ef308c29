//! What references resolve to: [`Scope`] is the evaluator's view of its surroundings (variables, locals, `path.*`,
//! the workspace, files). Apart from the scopes that implement it (`scope.rs`), which evaluate with the evaluator.

use super::value::Value;
use foreach_base::base::FileRange;

/// A resolved reference.
pub struct Resolved {
    pub value: Value,
    /// True only if the value certainly contains no unknown (lets the evaluator skip scanning big values).
    pub wholly_known: bool,
}

/// The evaluator's view of its surroundings.
pub trait Scope {
    /// `var.NAME`; `None` if no such variable is declared. Unknowns in the result carry the hop.
    fn variable(&self, name: &str, referenced_at: FileRange) -> Option<Resolved>;
    /// `local.NAME`; `None` if no such local is declared.
    fn local(&self, name: &str, referenced_at: FileRange) -> Option<Resolved>;
    /// Declared names under `var` or `local`, for "did you mean" hints.
    fn declared_names(&self, root: &str) -> Vec<&str>;
    /// `path.module`, `path.root`, `path.cwd`.
    fn path(&self, which: &str) -> Option<String>;
    /// The selected workspace, `None` when nothing selects one.
    fn workspace(&self) -> Option<String>;
    /// The reader and root that file functions use; `None` when files are not available (file functions then
    /// give an unknown value).
    fn files(&self) -> Option<FileAccess<'_>> {
        None
    }
}

/// How file functions reach files: paths are resolved against `base_dir` (OpenTofu resolves relative paths
/// against the working directory, `path.cwd`) and must stay inside `root`.
pub struct FileAccess<'a> {
    pub reader: &'a dyn FileReader,
    pub base_dir: &'a str,
    pub root: &'a str,
}

/// File system access provided by the host (the analysis itself does no IO). Paths are absolute and normalised,
/// with `/` separators; confinement to the workspace root is checked before any call.
pub trait FileReader: Send + Sync {
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    fn is_file(&self, path: &str) -> bool;
    /// Every file below `dir`, as paths relative to `dir` with `/` separators.
    fn walk(&self, dir: &str) -> Result<Vec<String>, String>;
    /// Whether nothing at all is at `path` (no file, directory or link, not even a dangling one). A file function
    /// reading such a path gives an unknown value rather than an error: real configurations read files that are
    /// generated before OpenTofu runs or not committed. The default (`false`) keeps every failure an error.
    fn missing(&self, _path: &str) -> bool {
        false
    }
    /// Whether `path` (inside the root as written) is a symbolic link, or below one, that leads outside every read
    /// boundary. A file function reading it gives an unknown value and a `file-outside-repository` info, as for a
    /// path outside as written: OpenTofu follows the link. The default (`false`) keeps every failure an error.
    fn links_outside(&self, _path: &str) -> bool {
        false
    }
}

/// A scope with nothing in it: for `.tfvars` values and other constant expressions.
pub struct EmptyScope;

impl Scope for EmptyScope {
    fn variable(&self, _: &str, _: FileRange) -> Option<Resolved> {
        None
    }
    fn local(&self, _: &str, _: FileRange) -> Option<Resolved> {
        None
    }
    fn declared_names(&self, _: &str) -> Vec<&str> {
        Vec::new()
    }
    fn path(&self, _: &str) -> Option<String> {
        None
    }
    fn workspace(&self) -> Option<String> {
        None
    }
}
