//! Checking every environment of the project file at once (`docs/configuration.md`): each root module once per
//! environment that applies to it, a root that none applies to once with its own values.
//!
//! One database serves every environment. Only the settings input changes between passes (each environment's var
//! files and values scoped to the roots it applies to, and their workspace), so parsing, module summaries,
//! per-module checks and every instance whose values do not change are computed once: salsa re-runs the variable
//! assignments, backdates the roots whose values are the same, and re-evaluates only the instances below the roots
//! whose values differ.
//!
//! Findings of the passes are merged: the same code, place and message is one finding, reported without
//! environment names when every pass has it and with the names of those that do otherwise.

use std::collections::{HashMap, HashSet};

use foreach_analysis::tree::module_tree;
use foreach_analysis::{AnalysisHost, Change, CliVariable, Code, Diagnostic, FileId};
use foreach_syntax::FileKind;

use crate::project::{Environment, Project};
use crate::{LoadError, path_string, read_text};

/// A diagnostic and the environments it occurs in: empty when it occurs in every environment checked (or when no
/// environment was checked).
#[derive(Debug, Clone)]
pub struct Finding {
    pub diagnostic: Diagnostic,
    pub environments: Vec<String>,
}

impl Finding {
    pub fn everywhere(diagnostic: Diagnostic) -> Finding {
        Finding { diagnostic, environments: Vec::new() }
    }
}

/// The environments to check: the one named, else all of them.
pub fn selected<'p>(project: &'p Project, only: Option<&str>) -> Vec<&'p Environment> {
    project.environments.iter().filter(|e| only.is_none_or(|n| e.name == n)).collect()
}

/// Every diagnostic of the workspace loaded in `host`, once per environment in `envs` that applies to some root
/// (none: one pass as the host is set up). The host's settings are the base of every pass and are restored after.
pub fn check(host: &mut AnalysisHost, project: &Project, envs: &[&Environment]) -> Result<Vec<Finding>, LoadError> {
    let roots = host.root_dirs();
    let applies: Vec<Vec<&str>> = envs
        .iter()
        .map(|e| roots.iter().filter(|r| e.applies_to(&project.dir, r)).map(String::as_str).collect())
        .collect();
    let envs: Vec<(&Environment, Vec<&str>)> =
        envs.iter().copied().zip(applies).filter(|(_, roots)| !roots.is_empty()).collect();
    if envs.is_empty() {
        return Ok(host.diagnostics().into_iter().map(Finding::everywhere).collect());
    }
    let var_files = load_var_files(host, &envs)?;
    let covered: HashSet<&str> = envs.iter().flat_map(|(_, roots)| roots.iter().copied()).collect();
    let dirs_of_file: HashMap<FileId, String> = host
        .file_table()
        .into_iter()
        .map(|(id, (path, _))| (id, foreach_analysis::paths::parent(&path).to_string()))
        .collect();
    let base = host.settings();
    // (code, place, message) -> the finding and the passes that report it, in first-seen order.
    let mut merged: HashMap<(Code, FileId, u32, u32, String), usize> = HashMap::new();
    let mut findings: Vec<(Diagnostic, Vec<usize>)> = Vec::new();
    for (pass, (env, env_roots)) in envs.iter().enumerate() {
        let mut settings = (*base).clone();
        let warn = env_roots.len() == 1;
        let mut scoped = Vec::new();
        for root in env_roots {
            let for_root = |var| CliVariable::ForRoot { root: root.to_string(), warn, var: Box::new(var) };
            scoped.extend(env.var_files.iter().map(|f| for_root(CliVariable::File(var_files[f].clone()))));
            scoped.extend(
                env.variables.iter().map(|(k, v)| for_root(CliVariable::Value { name: k.clone(), value: v.clone() })),
            );
            if let Some(w) = &env.workspace {
                settings.root_workspaces.push((root.to_string(), w.clone()));
            }
        }
        // The command line's values come after the environment's: they override the file.
        scoped.append(&mut settings.cli_variables);
        settings.cli_variables = scoped;
        host.apply_change(Change { settings: Some(settings), ..Change::default() });
        let keep = dirs_in_trees(host, |root| !covered.contains(root) || env_roots.contains(&root));
        let all = dirs_in_trees(host, |_| true);
        for d in host.diagnostics() {
            // A finding in a module only roots of other environments use is theirs, not this one's.
            let dir = dirs_of_file.get(&d.location.file).map(String::as_str).unwrap_or_default();
            if all.contains(dir) && !keep.contains(dir) {
                continue;
            }
            let key = (
                d.code,
                d.location.file,
                d.location.range.start().into(),
                d.location.range.end().into(),
                d.message.clone(),
            );
            match merged.get(&key) {
                Some(&i) => {
                    // Each environment's related places (where its keys are written) are worth showing.
                    let (first, passes) = &mut findings[i];
                    for r in d.related {
                        if !first.related.contains(&r) {
                            first.related.push(r);
                        }
                    }
                    passes.push(pass);
                }
                None => {
                    merged.insert(key, findings.len());
                    findings.push((d, vec![pass]));
                }
            }
        }
    }
    host.apply_change(Change { settings: Some((*base).clone()), ..Change::default() });
    let mut out: Vec<Finding> = findings
        .into_iter()
        .map(|(diagnostic, passes)| {
            let environments = if passes.len() == envs.len() {
                Vec::new()
            } else {
                passes.iter().map(|p| envs[*p].0.name.clone()).collect()
            };
            Finding { diagnostic, environments }
        })
        .collect();
    out.sort_by(|a, b| {
        let key = |f: &Finding| {
            let d = &f.diagnostic;
            (d.location.file, d.location.range.start(), d.location.range.end(), d.code, d.message.clone())
        };
        key(a).cmp(&key(b)).then_with(|| a.environments.cmp(&b.environments))
    });
    Ok(out)
}

/// The directories of the modules in the trees of the roots that `keep` selects (by root directory).
fn dirs_in_trees(host: &AnalysisHost, keep: impl Fn(&str) -> bool) -> HashSet<String> {
    let db = host.db();
    let tree = module_tree(db, host.workspace());
    // The tree lists a parent before its children, so each node's root is known when it is reached.
    let mut root_of: Vec<usize> = Vec::with_capacity(tree.nodes.len());
    let mut out = HashSet::new();
    for (i, node) in tree.nodes.iter().enumerate() {
        let root = node.parent.map_or(i, |p| root_of[p.0 as usize]);
        root_of.push(root);
        if keep(tree.nodes[root].dir.path(db)) {
            out.insert(node.dir.path(db).clone());
        }
    }
    out
}

/// Reads the environments' var files into the host (those not loaded with the workspace), each once; returns
/// their canonical paths by the path in the project file.
fn load_var_files(
    host: &mut AnalysisHost,
    envs: &[(&Environment, Vec<&str>)],
) -> Result<HashMap<std::path::PathBuf, String>, LoadError> {
    let mut paths = HashMap::new();
    let mut files = Vec::new();
    for (env, _) in envs {
        for f in &env.var_files {
            if paths.contains_key(f) {
                continue;
            }
            let canonical = f.canonicalize().map_err(|e| {
                LoadError(format!("cannot read var file `{}` of environment `{}`: {e}", f.display(), env.name))
            })?;
            let name = canonical.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if !FileKind::from_file_name(name).is_some_and(FileKind::is_tfvars) {
                return Err(LoadError(format!(
                    "var file `{}` of environment `{}` must be named *.tfvars or *.tfvars.json",
                    f.display(),
                    env.name
                )));
            }
            let path = path_string(&canonical);
            if !host.has_file(&path) {
                files.push((path.clone(), read_text(&canonical)));
            }
            paths.insert(f.clone(), path);
        }
    }
    if !files.is_empty() {
        host.apply_change(Change { files, ..Change::default() });
    }
    Ok(paths)
}
