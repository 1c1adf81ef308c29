//! Which value each root variable gets, by OpenTofu's precedence (later wins):
//!
//! default < `TF_VAR_name` < `terraform.tfvars` < `terraform.tfvars.json` < `*.auto.tfvars(.json)` in lexical order
//! of file name < `--var` / `--var-file` in the order given.
//!
//! Only the root module reads `.tfvars` files; a child module's variables come from its caller's arguments. This
//! module decides *which* assignment wins and where it is; turning it into a typed value is the evaluator's job.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::FileKind;
use foreach_syntax::ast::{Attribute, Body, Expr, Structure};

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, SourceFile, Workspace, module, parse};
use crate::diagnostics::{Code, Diagnostic, Fix, TextEdit};
use crate::settings::CliVariable;
use crate::suggest::closest;

/// Where a variable's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueSource {
    /// `TF_VAR_name`.
    Environment,
    /// An attribute in a `.tfvars` file (auto-loaded or given with `--var-file`).
    File { location: FileRange },
    /// `--var name=value`, the n-th `--var`/`--var-file` on the command line.
    CommandLine { position: usize },
}

/// The raw value before evaluation and type conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawValue {
    /// An expression from a `.tfvars` file.
    Expr { file: FileId, expr: Arc<Expr> },
    /// A string from the environment or the command line. OpenTofu parses it as an HCL expression when the
    /// variable's type is not `string`, otherwise takes it literally.
    Text(String),
    /// Perhaps set by a var file that git-crypt left encrypted here: unknown (not the default).
    Encrypted { file: FileRange },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub source: ValueSource,
    pub value: RawValue,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RootAssignments {
    /// The winning assignment of each variable that has one.
    pub values: HashMap<String, Assignment>,
    pub diagnostics: Vec<Diagnostic>,
    /// Values of undeclared variables in command-line var files: reported only when the file applies to a single
    /// root ([`root_assignment_diagnostics`]), or the warning would fire for every root that lacks the variable.
    /// Kept apart because counting roots needs the module tree, which itself reads these values (computed module
    /// sources), so this query must not read the tree.
    pub undeclared: Vec<(WarnWhen, Diagnostic)>,
}

/// When an undeclared-value warning applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarnWhen {
    /// A `--var-file` for every root: when there is a single root.
    SingleRoot,
    /// A `--var-file` scoped to the roots under a directory: when exactly one root is under it.
    SingleRootUnder(String),
    /// An environment's var file applied to several roots: never.
    Never,
}

/// The order in which OpenTofu auto-loads the `.tfvars` files of a root module directory.
pub fn auto_loaded_var_files(db: &dyn Db, dir: ModuleDir) -> Vec<SourceFile> {
    let mut tfvars: Vec<SourceFile> = Vec::new();
    let mut auto: Vec<SourceFile> = Vec::new();
    for f in dir.files(db).iter() {
        let name = f.file_name(db);
        match name {
            "terraform.tfvars" | "terraform.tfvars.json" => tfvars.push(*f),
            _ if name.ends_with(".auto.tfvars") || name.ends_with(".auto.tfvars.json") => auto.push(*f),
            _ => {}
        }
    }
    // `terraform.tfvars` before `terraform.tfvars.json`; auto files by name.
    tfvars.sort_by_key(|f| f.kind(db) == FileKind::TfvarsJson);
    auto.sort_by(|a, b| a.file_name(db).cmp(b.file_name(db)));
    tfvars.extend(auto);
    tfvars
}

#[salsa::tracked(returns(clone))]
pub fn root_assignments(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Arc<RootAssignments> {
    let settings = ws.settings(db);
    let module = module(db, dir);
    let declared = |name: &str| module.variable(name).is_some();
    let names: Vec<&str> = module.variables.iter().map(|v| v.name.as_str()).collect();
    let declared = Declared { is: &declared, names: &names };
    let mut out = RootAssignments::default();

    for (name, value) in &settings.env_variables {
        // OpenTofu ignores TF_VAR_ values of undeclared variables silently.
        if (declared.is)(name) {
            out.values.insert(
                name.clone(),
                Assignment { source: ValueSource::Environment, value: RawValue::Text(value.clone()) },
            );
        }
    }
    for file in auto_loaded_var_files(db, dir) {
        apply_file(db, file, &declared, None, &mut out);
    }
    let var_files = command_line_var_files(db, ws);
    for (position, v) in settings.cli_variables.iter().enumerate() {
        // A scoped entry applies to the roots under its directory; its undeclared names are reported when it
        // applies to a single root.
        let (v, warn_undeclared) = match v {
            CliVariable::Scoped { under, var } => {
                if !is_under(dir.path(db), under) {
                    continue;
                }
                (&**var, Some(WarnWhen::SingleRootUnder(under.clone())))
            }
            CliVariable::ForRoot { root, warn, var } => {
                if dir.path(db) != root {
                    continue;
                }
                (&**var, if *warn { None } else { Some(WarnWhen::Never) })
            }
            v => (v, Some(WarnWhen::SingleRoot)),
        };
        match v {
            CliVariable::File(path) => {
                if let Some(file) = var_files.get(path) {
                    apply_file(db, *file, &declared, warn_undeclared.clone(), &mut out);
                }
            }
            CliVariable::Scoped { .. } | CliVariable::ForRoot { .. } => {}
            CliVariable::Value { name, value } => {
                out.values.insert(
                    name.clone(),
                    Assignment { source: ValueSource::CommandLine { position }, value: RawValue::Text(value.clone()) },
                );
            }
        }
    }
    Arc::new(out)
}

/// The workspace in effect in the root module in `root`: the one chosen explicitly (`--workspace`, `TF_WORKSPACE`,
/// the editor setting), else the one an environment of the project file selects for it, else the one
/// `.terraform/environment` records; `None`: unknown. Memoised per root, so that a check pass per environment
/// re-evaluates only the roots whose workspace changed (the settings change as a whole).
#[salsa::tracked(returns(clone))]
pub fn root_workspace(db: &dyn Db, ws: Workspace, root: ModuleDir) -> Option<String> {
    let settings = ws.settings(db);
    let path = root.path(db);
    settings
        .workspace_name
        .clone()
        .or_else(|| settings.root_workspaces.iter().find(|(dir, _)| dir == path).map(|(_, w)| w.clone()))
        .or_else(|| ws.selected_workspaces(db).get(path).cloned())
}

/// The `.tfvars` files of the root module in `root` that OpenTofu loads only when `-var-file` names them: in its
/// directory and in directories below it that hold no module (`envs/prod.tfvars`), as paths relative to it, sorted.
/// Empty when a var file is already given for this root (command line, editor, or an environment of the project
/// file): then the values are the user's choice. For the `provider-for-each-unresolved` hint.
#[salsa::tracked(returns(clone))]
pub fn unloaded_var_files(db: &dyn Db, ws: Workspace, root: ModuleDir) -> Arc<[String]> {
    let root_path = root.path(db);
    let given = |v: &CliVariable| -> bool {
        fn file(v: &CliVariable) -> bool {
            matches!(v, CliVariable::File(_))
        }
        match v {
            CliVariable::File(_) => true,
            CliVariable::Scoped { under, var } => file(var) && is_under(root_path, under),
            CliVariable::ForRoot { root, var, .. } => file(var) && root == root_path,
            CliVariable::Value { .. } => false,
        }
    };
    if ws.settings(db).cli_variables.iter().any(given) {
        return Arc::from([]);
    }
    let auto: Vec<SourceFile> = auto_loaded_var_files(db, root);
    let mut out = Vec::new();
    for dir in ws.dirs(db).iter() {
        let path = dir.path(db);
        let own = *dir == root;
        if !own && (!is_under(path, root_path) || dir.files(db).iter().any(|f| f.kind(db).is_config())) {
            continue;
        }
        for f in dir.files(db).iter() {
            if f.kind(db).is_tfvars() && !auto.contains(f) {
                let rel = f.path(db).strip_prefix(root_path).unwrap_or(f.path(db)).trim_start_matches('/');
                out.push(rel.to_string());
            }
        }
    }
    out.sort();
    Arc::from(out)
}

/// The loaded files that `--var-file` names (the loader reads each one), by path. Once per workspace, not per root
/// module: a map of every file built for each of thousands of roots was most of a `check` on a real monorepo.
#[salsa::tracked(returns(ref))]
fn command_line_var_files(db: &dyn Db, ws: Workspace) -> HashMap<String, SourceFile> {
    fn named(v: &CliVariable, out: &mut Vec<String>) {
        match v {
            CliVariable::File(path) => out.push(path.clone()),
            CliVariable::Scoped { var, .. } | CliVariable::ForRoot { var, .. } => named(var, out),
            CliVariable::Value { .. } => {}
        }
    }
    let mut named_paths = Vec::new();
    for v in &ws.settings(db).cli_variables {
        named(v, &mut named_paths);
    }
    let paths: std::collections::HashSet<String> = named_paths.into_iter().collect();
    if paths.is_empty() {
        return HashMap::new();
    }
    let mut out = HashMap::new();
    for file in ws.dirs(db).iter().flat_map(|d| d.files(db).iter()) {
        if paths.contains(&**file.path(db)) {
            out.insert(file.path(db).to_string(), *file);
        }
    }
    out
}

/// `path` is `dir` or inside it.
pub(crate) fn is_under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    path == dir || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

/// The root module's variables, for `.tfvars` files.
struct Declared<'a> {
    is: &'a dyn Fn(&str) -> bool,
    /// Every declared name, for "did you mean".
    names: &'a [&'a str],
}

fn apply_file(
    db: &dyn Db,
    file: SourceFile,
    declared: &Declared<'_>,
    // `None`: always warn (an auto-loaded file of this root).
    warn_undeclared: Option<WarnWhen>,
    out: &mut RootAssignments,
) {
    let id = file.id(db);
    if file.load_error(db).as_deref() == Some(crate::diagnostics::GIT_CRYPT_ENCRYPTED) {
        let location = FileRange::new(id, foreach_syntax::TextRange::default());
        for name in declared.names {
            let value = RawValue::Encrypted { file: location };
            out.values.insert(name.to_string(), Assignment { source: ValueSource::File { location }, value });
        }
        return;
    }
    let parsed = parse(db, file);
    for s in &parsed.body.structures {
        match s {
            Structure::Attribute(a) => {
                let name = &a.key.name;
                if !(declared.is)(name) {
                    let d = undeclared(file.kind(db), id, a, declared.names, &parsed.body);
                    match &warn_undeclared {
                        None => out.diagnostics.push(d),
                        Some(when) => out.undeclared.push((when.clone(), d)),
                    }
                    continue;
                }
                out.values.insert(
                    name.to_string(),
                    Assignment {
                        source: ValueSource::File { location: FileRange::new(id, a.range) },
                        value: RawValue::Expr { file: id, expr: a.value.clone() },
                    },
                );
            }
            Structure::Block(b) => out.diagnostics.push(Diagnostic::new(
                Code::InvalidVariableValue,
                FileRange::new(id, b.ident.range),
                "a .tfvars file holds only `name = value` assignments, not blocks",
            )),
        }
    }
}

/// `undeclared-variable-value` for the assignment `a` of a `.tfvars` file: with the closest declared name, and a
/// fix renaming the assignment to it unless the file sets that name already.
fn undeclared(kind: FileKind, file: FileId, a: &Attribute, declared: &[&str], body: &Body) -> Diagnostic {
    let name = &a.key.name;
    let suggestion = closest(name, declared.iter().copied());
    let hint = match suggestion {
        Some(s) => format!("did you mean `{s}`? "),
        None => String::new(),
    };
    let mut d = Diagnostic::new(
        Code::UndeclaredVariableValue,
        FileRange::new(file, a.key.range),
        format!(
            "`{name}` is set here, but the root module declares no variable `{name}`; {hint}OpenTofu ignores this \
             value (declare the variable, fix the name or remove the line)"
        ),
    );
    if let Some(s) = suggestion
        && body.attributes().all(|other| other.key.name != s)
    {
        // A JSON key is a whole string token, quotes included.
        let new_text = if kind.is_json() { serde_json::to_string(s).unwrap_or_default() } else { s.to_string() };
        d = d.with_fix(Fix {
            title: format!("Rename to `{s}`"),
            edits: vec![TextEdit { location: FileRange::new(file, a.key.range), new_text }],
            automatic: false,
        });
    }
    d
}
