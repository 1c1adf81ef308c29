//! The `.tfvars` files that may set a root module's variables, for rename and find references: the ones in its
//! directory (auto-loaded or not), the ones in directories below it that hold no module (`envs/prod.tfvars`, which
//! a pipeline passes with `-var-file`), and the var files the settings give it (`--var-file`, the editor's
//! `varFiles`). The project file's environments are the server's to add (`Analysis::variable_assignments`): the
//! analysis does not read the project file.
//!
//! A var file the settings give to several root modules sets the variable for each of them: renaming it there for
//! one would break the others that declare it, so those are reported, and rename refuses.

use std::collections::HashSet;

use foreach_analysis::base::FileRange;
use foreach_analysis::db::{Db, ModuleDir, SourceFile, Workspace, dir_index, module, parse};
use foreach_analysis::paths::parent;
use foreach_analysis::settings::CliVariable;
use foreach_analysis::tree::module_tree;

/// The var files of a root module, for one variable.
pub(crate) struct RootVarFiles {
    pub files: Vec<SourceFile>,
    /// Var files among `files` that the settings give to another root module declaring the variable too, with
    /// that root's directory.
    pub shared: Vec<(SourceFile, String)>,
}

/// The var files that may set variable `name` of `root`; `None` when `root` is not a root module.
pub(crate) fn root_var_files(db: &dyn Db, ws: Workspace, root: ModuleDir, name: &str) -> Option<RootVarFiles> {
    let tree = module_tree(db, ws);
    let roots: Vec<ModuleDir> = tree.roots.iter().map(|r| tree.node(*r).dir).collect();
    if !roots.contains(&root) {
        return None;
    }
    let mut files: Vec<SourceFile> = root.files(db).iter().filter(|f| f.kind(db).is_tfvars()).copied().collect();
    let index = dir_index(db, ws);
    let root_path = root.path(db).as_str();
    let has_config = |d: &ModuleDir| d.files(db).iter().any(|f| f.kind(db).is_config());
    for dir in ws.dirs(db).iter().filter(|d| **d != root && is_under(d.path(db), root_path) && !has_config(d)) {
        // The nearest directory above that holds a module must be this root: `modules/x/envs/` is not its own.
        let mut up = parent(dir.path(db));
        while up.len() > root_path.len() && !index.get(up).is_some_and(has_config) && parent(up) != up {
            up = parent(up);
        }
        if up == root_path {
            files.extend(dir.files(db).iter().filter(|f| f.kind(db).is_tfvars()));
        }
    }
    let mut shared = Vec::new();
    let given = &ws.settings(db).cli_variables;
    if given.iter().any(|v| file_path(v).is_some()) {
        let other_roots: Vec<ModuleDir> = roots
            .iter()
            .copied()
            .filter(|d| *d != root && module(db, *d).variables.iter().any(|v| v.name == name))
            .collect();
        for v in given {
            let Some(path) = file_path(v) else { continue };
            if !applies(v, root_path) {
                continue;
            }
            let Some(file) = loaded_file(db, ws, path) else { continue };
            files.push(file);
            if let Some(other) = other_roots.iter().find(|d| applies(v, d.path(db))) {
                shared.push((file, other.path(db).clone()));
            }
        }
    }
    let mut seen = HashSet::new();
    files.retain(|f| seen.insert(*f));
    Some(RootVarFiles { files, shared })
}

/// The module whose variables the `.tfvars` files of `dir` set: `dir` itself when it holds a module, else the
/// nearest directory above it that does (`envs/` below a root), else `dir`.
pub(crate) fn var_file_owner(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> ModuleDir {
    let has_config = |d: &ModuleDir| d.files(db).iter().any(|f| f.kind(db).is_config());
    if has_config(&dir) {
        return dir;
    }
    let index = dir_index(db, ws);
    let mut up = dir.path(db).as_str();
    loop {
        let next = parent(up);
        if next == up || next.is_empty() {
            return dir;
        }
        up = next;
        if let Some(d) = index.get(up).filter(|d| has_config(d)) {
            return *d;
        }
    }
}

/// The loaded `.tfvars` file at `path`, if any.
pub(crate) fn loaded_file(db: &dyn Db, ws: Workspace, path: &str) -> Option<SourceFile> {
    let dir = dir_index(db, ws).get(parent(path)).copied()?;
    dir.files(db).iter().find(|f| &**f.path(db) == path && f.kind(db).is_tfvars()).copied()
}

/// The keys of `file` (a `.tfvars` file) that set variable `name`; `Err` with the file's path when it sets it in
/// JSON, which rename does not edit.
pub(crate) fn assignments(db: &dyn Db, file: SourceFile, name: &str) -> Result<Vec<FileRange>, String> {
    let parsed = parse(db, file);
    let keys: Vec<FileRange> = parsed
        .body
        .attributes()
        .filter(|a| a.key.name == name)
        .map(|a| FileRange::new(file.id(db), a.key.range))
        .collect();
    if !keys.is_empty() && file.kind(db).is_json() {
        return Err(file.path(db).to_string());
    }
    Ok(keys)
}

/// The path of a var file the settings give (`None` for a value).
fn file_path(v: &CliVariable) -> Option<&str> {
    match v {
        CliVariable::File(path) => Some(path),
        CliVariable::Scoped { var, .. } | CliVariable::ForRoot { var, .. } => file_path(var),
        CliVariable::Value { .. } => None,
    }
}

/// Whether a setting applies to the root module in directory `root`.
fn applies(v: &CliVariable, root: &str) -> bool {
    match v {
        CliVariable::File(_) | CliVariable::Value { .. } => true,
        CliVariable::Scoped { under, .. } => is_under(root, under),
        CliVariable::ForRoot { root: r, .. } => r == root,
    }
}

/// `path` is `dir` or inside it.
fn is_under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    path == dir || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}
