//! The project file `foreach-ls.toml` (`docs/configuration.md`): excludes, severity overrides and environments,
//! shared by `check`, `inspect`, `eval` and the language server. Found as the nearest one at or above the checked
//! path; paths in it are relative to its directory.
//!
//! Read with `toml` and `serde`, denying unknown keys: a typo must stop the run (exit status 2, or a diagnostic on
//! the file in the editor) rather than silently check something else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use foreach_analysis::suggest::closest;
use foreach_analysis::{Code, Diagnostic, Severity};
use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::path_string;

/// The project file's name.
pub const PROJECT_FILE: &str = "foreach-ls.toml";

/// A project file that cannot be used: where (1-based line and column) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    /// Byte range in the file, for an editor diagnostic.
    pub range: std::ops::Range<usize>,
    pub message: String,
}

impl std::fmt::Display for ProjectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.path.display(), self.line, self.column, self.message)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table")]
struct RawProject {
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    environments: BTreeMap<String, RawEnvironment>,
}

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table of the environment's settings (`var_files`, `variables`, `workspace`, `roots`)"
)]
struct RawEnvironment {
    #[serde(default)]
    var_files: Vec<Spanned<String>>,
    #[serde(default)]
    variables: BTreeMap<String, String>,
    workspace: Option<String>,
    roots: Option<Vec<Spanned<String>>>,
}

/// A parsed project file.
#[derive(Debug, Clone, Default)]
pub struct Project {
    /// The file itself.
    pub path: PathBuf,
    /// Its directory, against which every path and glob in it is resolved.
    pub dir: PathBuf,
    /// Globs of paths not walked, relative to `dir`.
    pub exclude: Vec<String>,
    /// Code -> severity; `None` turns the code off.
    pub severity: BTreeMap<Code, Option<Severity>>,
    /// In name order.
    pub environments: Vec<Environment>,
}

/// One `[environments.NAME]` table: the values one pipeline plans with.
#[derive(Debug, Clone)]
pub struct Environment {
    pub name: String,
    /// Absolute (joined to the project directory), in order.
    pub var_files: Vec<PathBuf>,
    /// Applied after `var_files`, as `-var` after `-var-file`.
    pub variables: Vec<(String, String)>,
    pub workspace: Option<String>,
    /// Which root modules it applies to (globs relative to the project directory); `None`: every root.
    pub roots: Option<GlobSet>,
}

impl Environment {
    /// Whether this environment applies to the root module in directory `root` (absolute, `/`-separated).
    pub fn applies_to(&self, project_dir: &Path, root: &str) -> bool {
        let Some(globs) = &self.roots else { return true };
        let dir = path_string(project_dir);
        let rel = match root.strip_prefix(dir.trim_end_matches('/')) {
            Some("") => ".",
            Some(rest) if rest.starts_with('/') => &rest[1..],
            _ => return false,
        };
        globs.is_match(rel)
    }
}

impl Project {
    /// The nearest project file at or above `start` (a file's directory, or the directory itself), parsed.
    /// `Ok(None)` when there is none.
    pub fn discover(start: &Path) -> Result<Option<Project>, ProjectError> {
        let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
        let dir = if start.is_dir() { start.as_path() } else { start.parent().unwrap_or(&start) };
        for candidate in dir.ancestors() {
            let path = candidate.join(PROJECT_FILE);
            if path.is_file() {
                // Absolute, so that roots (canonical paths) compare with its directory.
                let path = path.canonicalize().unwrap_or(path);
                return Project::read(&path).map(Some);
            }
        }
        Ok(None)
    }

    pub fn read(path: &Path) -> Result<Project, ProjectError> {
        let text = std::fs::read_to_string(path).map_err(|e| ProjectError {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            range: 0..0,
            message: format!("cannot read the project file: {e}"),
        })?;
        Project::parse(path, &text)
    }

    /// Parses the text of the project file at `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Project, ProjectError> {
        let error = |range: std::ops::Range<usize>, message: String| {
            let (line, column) = line_column(text, range.start);
            ProjectError { path: path.to_path_buf(), line, column, range, message }
        };
        let raw: RawProject = toml::from_str(text).map_err(|e| {
            // toml's message repeats the position and a source excerpt on several lines; the first is enough.
            let message = e.message().lines().next().unwrap_or("invalid TOML");
            let span = e.span().unwrap_or(0..0);
            error(span.clone(), crate::project_errors::plain(message, text, span))
        })?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut project =
            Project { path: path.to_path_buf(), dir: dir.clone(), exclude: Vec::new(), ..Project::default() };
        for glob in raw.exclude {
            Glob::new(glob.get_ref()).map_err(|e| error(glob.span(), format!("invalid exclude glob: {e}")))?;
            project.exclude.push(glob.into_inner());
        }
        for (code, level) in raw.severity {
            let Some(c) = Code::from_name(code.get_ref()) else {
                let mut msg = format!("`{}` is not a foreach-ls diagnostic code", code.get_ref());
                if let Some(s) = closest(code.get_ref(), Code::ALL.iter().map(|c| c.as_str())) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                return Err(error(code.span(), msg));
            };
            let severity = match level.get_ref().as_str() {
                "off" => None,
                s => Some(Severity::parse(s).ok_or_else(|| {
                    error(
                        level.span(),
                        format!("unknown severity `{s}`: write `error`, `warning`, `info`, `hint` or `off`"),
                    )
                })?),
            };
            project.severity.insert(c, severity);
        }
        for (name, env) in raw.environments {
            let roots = match env.roots {
                None => None,
                Some(globs) => {
                    let mut b = GlobSetBuilder::new();
                    for g in globs {
                        b.add(Glob::new(g.get_ref()).map_err(|e| error(g.span(), format!("invalid roots glob: {e}")))?);
                    }
                    Some(b.build().map_err(|e| error(0..0, format!("invalid roots globs: {e}")))?)
                }
            };
            let mut var_files = Vec::new();
            for f in env.var_files {
                let file = dir.join(f.get_ref());
                if !file.is_file() {
                    return Err(error(
                        f.span(),
                        format!("var file `{}` of environment `{name}` does not exist", f.get_ref()),
                    ));
                }
                var_files.push(file);
            }
            project.environments.push(Environment {
                name,
                var_files,
                variables: env.variables.into_iter().collect(),
                workspace: env.workspace,
                roots,
            });
        }
        Ok(project)
    }

    /// The environment named `name`.
    pub fn environment(&self, name: &str) -> Option<&Environment> {
        self.environments.iter().find(|e| e.name == name)
    }

    /// Applies the severity overrides: changes severities and drops the codes turned off.
    pub fn apply_severities(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain_mut(|d| self.override_severity(d));
    }

    /// Applies the severity override of `d`'s code; `false` when the code is turned off.
    pub fn override_severity(&self, d: &mut Diagnostic) -> bool {
        match self.severity.get(&d.code) {
            Some(None) => false,
            Some(Some(s)) => {
                d.severity = *s;
                true
            }
            None => true,
        }
    }
}

/// 1-based line and column (in characters) of byte `offset`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Project, ProjectError> {
        Project::parse(Path::new("/nowhere/foreach-ls.toml"), text)
    }

    #[test]
    fn reads_every_section() {
        let p = parse(
            "exclude = [\"examples/**\"]\n[severity]\nunknown-provider-instance = \"warning\"\nundefined-reference = \"off\"\n\
             [environments.staging]\nvariables = { replicas = \"1\" }\nworkspace = \"stg\"\nroots = [\"live/**\"]\n",
        )
        .unwrap();
        assert_eq!(p.exclude, ["examples/**"]);
        assert_eq!(p.severity[&Code::UnknownProviderInstance], Some(Severity::Warning));
        assert_eq!(p.severity[&Code::UndefinedReference], None);
        let env = p.environment("staging").unwrap();
        assert_eq!(env.variables, [("replicas".to_string(), "1".to_string())]);
        assert_eq!(env.workspace.as_deref(), Some("stg"));
        assert!(env.applies_to(Path::new("/nowhere"), "/nowhere/live/prod"));
        assert!(!env.applies_to(Path::new("/nowhere"), "/nowhere/modules/x"));
        assert!(!env.applies_to(Path::new("/nowhere"), "/elsewhere/live/prod"));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("[environments.prod]\nvar_file = [\"a.tfvars\"]\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.message.starts_with("unknown key `var_file`; did you mean `var_files`?"), "{e}");
        let e = parse("[environments.prod]\nworkspace = 3\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 13), "{e}");
        let e = parse("[severity]\nno-such-code = \"off\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(!e.message.contains("did you mean"), "{e}");
        let e = parse("[severity]\nundefined-refrence = \"off\"\n").unwrap_err();
        assert_eq!(
            e.message,
            "`undefined-refrence` is not a foreach-ls diagnostic code; did you mean `undefined-reference`?"
        );
        let e = parse("[severity]\nundefined-reference = \"loud\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 23), "{e}");
        // In TOML's words, not serde's.
        let e = parse("exclude = \"a\"\n").unwrap_err();
        assert_eq!(e.message, "expected an array for `exclude`, found the string \"a\"");
        let e = parse("[environments]\nprod = \"x\"\n").unwrap_err();
        assert!(e.message.starts_with("expected a table of the environment's settings"), "{e}");
        let e = parse("exclude = [\"a\"\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = parse("[environments.prod]\nvar_files = [\"missing.tfvars\"]\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 14), "{e}");
        assert_eq!(
            e.to_string(),
            "/nowhere/foreach-ls.toml:2:14: var file `missing.tfvars` of environment `prod` does not exist"
        );
    }
}
