//! Fixture directories on disk: finding them, reading their files, and their optional `fixture.toml`.
//!
//! A fixture is a directory containing `main.tf`; everything beneath it (child modules in subdirectories included)
//! belongs to it. This module does IO but no matching; it hands the files to [`crate::check`] as plain data, so
//! in-memory fixtures (Markdown examples) take the same path.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use foreach_syntax::FileKind;
use serde::Deserialize;

use crate::annotation::{AnnotationError, Expectation, parse_annotations};

/// The settings of one fixture, from `fixture.toml` (all keys optional; unknown keys are an error so typos fail).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FixtureConfig {
    /// What the fixture shows, for humans.
    pub description: Option<String>,
    /// Root module variables, as `-var 'name=value'` would give them: the value is the raw command-line text.
    pub vars: BTreeMap<String, String>,
    /// `.tfvars` files (relative to the fixture directory) to load, in order, as `-var-file` would.
    pub var_files: Vec<PathBuf>,
    /// Codes the analysis must not report for this fixture. The caller passes them to the analysis; the harness
    /// only rejects annotations that expect a disabled code.
    pub disabled_codes: Vec<String>,
    /// `false` for fixtures OpenTofu itself cannot load (so a cross-check with `tofu validate` skips them).
    pub tofu_check: bool,
    /// The workspace, as `--workspace` would select it (none: `.terraform/environment` of the fixture, else none).
    pub workspace: Option<String>,
    /// A state file of the fixture (relative to its directory) given as `--state` would give it, replacing the
    /// fixture's local `terraform.tfstate` (which is read without this key, as `check` reads it).
    pub state: Option<PathBuf>,
}

impl Default for FixtureConfig {
    fn default() -> FixtureConfig {
        FixtureConfig {
            description: None,
            vars: BTreeMap::new(),
            var_files: Vec::new(),
            disabled_codes: Vec::new(),
            tofu_check: true,
            workspace: None,
            state: None,
        }
    }
}

impl FixtureConfig {
    /// Parses the text of a `fixture.toml`.
    pub fn parse(text: &str) -> Result<FixtureConfig, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
    }
}

/// One file of a fixture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixtureFile {
    /// Relative to the fixture directory, e.g. `main.tf` or `modules/child/main.tf`.
    pub path: PathBuf,
    pub kind: FileKind,
    /// The exact bytes: a fixture may test a file that is not UTF-8.
    pub bytes: Vec<u8>,
}

impl FixtureFile {
    /// An in-memory file; its kind comes from its name (`Tf` when the name is not one OpenTofu reads).
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> FixtureFile {
        let path = path.into();
        let kind = path.file_name().and_then(|n| n.to_str()).and_then(FileKind::from_file_name).unwrap_or(FileKind::Tf);
        FixtureFile { path, kind, bytes: text.into().into_bytes() }
    }

    /// The text, with invalid UTF-8 replaced (annotations only live in `#` comments, which survive that).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }

    /// Whether annotations can be written in this file: every kind with `#` comments (not the JSON kinds).
    pub fn is_annotatable(&self) -> bool {
        annotatable(self.kind)
    }
}

pub(crate) fn annotatable(kind: FileKind) -> bool {
    matches!(kind, FileKind::Tf | FileKind::Tofu | FileKind::Tfvars | FileKind::TfTest | FileKind::TofuTest)
}

/// A loaded fixture: its settings and every OpenTofu file beneath its directory, sorted by path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// The directory as given (for reports and rewriting); empty for an in-memory fixture.
    pub dir: PathBuf,
    pub config: FixtureConfig,
    pub files: Vec<FixtureFile>,
}

/// Why a fixture could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for LoadError {}

impl Fixture {
    /// Reads `dir` recursively: every file [`FileKind`] recognises, skipping hidden entries (`.terraform/`), plus
    /// `fixture.toml` if present.
    pub fn load(dir: &Path) -> Result<Fixture, LoadError> {
        let config_path = dir.join("fixture.toml");
        let config = match fs::read_to_string(&config_path) {
            Ok(text) => FixtureConfig::parse(&text).map_err(|message| LoadError { path: config_path, message })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => FixtureConfig::default(),
            Err(e) => return Err(LoadError { path: config_path, message: e.to_string() }),
        };
        let mut files = Vec::new();
        walk(dir, Path::new(""), &mut files)?;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let fixture = Fixture { dir: dir.to_path_buf(), config, files };
        for var_file in &fixture.config.var_files {
            if fixture.file(var_file).is_none() {
                let message = format!("`var_files` names `{}`, which is not a file of the fixture", var_file.display());
                return Err(LoadError { path: dir.join("fixture.toml"), message });
            }
        }
        Ok(fixture)
    }

    /// A fixture that exists only in memory, such as an ```` ```hcl ```` block of a docs page as `main.tf`.
    pub fn from_files(files: impl IntoIterator<Item = FixtureFile>) -> Fixture {
        let mut files: Vec<FixtureFile> = files.into_iter().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Fixture { dir: PathBuf::new(), config: FixtureConfig::default(), files }
    }

    pub fn file(&self, path: &Path) -> Option<&FixtureFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Every annotation of every annotatable file, in file order then line order.
    pub fn expectations(&self) -> Result<Vec<Expectation>, AnnotationError> {
        let mut all = Vec::new();
        for file in self.files.iter().filter(|f| f.is_annotatable()) {
            all.extend(parse_annotations(&file.path, &file.text())?);
        }
        Ok(all)
    }
}

fn walk(root: &Path, rel: &Path, files: &mut Vec<FixtureFile>) -> Result<(), LoadError> {
    let dir = root.join(rel);
    let io = |e: std::io::Error| LoadError { path: dir.clone(), message: e.to_string() };
    for entry in fs::read_dir(&dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') {
            continue;
        }
        let path = rel.join(name);
        if entry.file_type().map_err(io)?.is_dir() {
            walk(root, &path, files)?;
        } else if let Some(kind) = FileKind::from_file_name(name) {
            let bytes = fs::read(entry.path()).map_err(io)?;
            files.push(FixtureFile { path, kind, bytes });
        }
    }
    Ok(())
}

/// Every fixture under `root` (including `root` itself), sorted: the directories that contain a `main.tf`. A
/// fixture's subdirectories are its child modules even if they have their own `main.tf`, so the walk does not
/// descend into a fixture. Hidden directories are skipped.
///
/// Panics when a directory cannot be read: silently skipping fixtures would let tests pass by not running.
pub fn discover_fixtures(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    discover(root, &mut found);
    found
}

fn discover(dir: &Path, found: &mut Vec<PathBuf>) {
    if dir.join("main.tf").is_file() {
        found.push(dir.to_path_buf());
        return;
    }
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read fixture directory {}: {e}", dir.display()));
    let mut dirs: Vec<PathBuf> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("cannot read fixture directory {}: {e}", dir.display())))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()) && !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for sub in dirs {
        discover(&sub, found);
    }
}
