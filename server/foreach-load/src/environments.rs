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
use crate::{LoadError, path_string, read_source};

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

/// What [`each`] computed in one environment.
pub struct Pass<'e, T> {
    pub env: &'e Environment,
    /// The root module directories it applies to.
    pub roots: Vec<String>,
    pub result: T,
}

/// Runs `f` once per environment in `envs` that applies to some root, on `host` with that environment's settings
/// (its values and workspace for the roots it applies to, then the host's own settings, which override them), and
/// gives each result with the environment and the roots it applies to. `Ok(None)` when no environment applies to
/// any root. The host's settings are restored after.
pub fn each<'e, T>(
    host: &mut AnalysisHost,
    project: &Project,
    envs: &[&'e Environment],
    mut f: impl FnMut(&mut AnalysisHost, &[String]) -> T,
) -> Result<Option<Vec<Pass<'e, T>>>, LoadError> {
    let roots = host.root_dirs();
    let envs: Vec<(&Environment, Vec<String>)> = envs
        .iter()
        .map(|e| (*e, roots.iter().filter(|r| e.applies_to(&project.dir, r)).cloned().collect::<Vec<_>>()))
        .filter(|(_, roots)| !roots.is_empty())
        .collect();
    if envs.is_empty() {
        return Ok(None);
    }
    let var_files = load_var_files(host, &envs)?;
    let base = host.settings();
    let mut out = Vec::with_capacity(envs.len());
    for (env, env_roots) in envs {
        let mut settings = (*base).clone();
        let warn = env_roots.len() == 1;
        let mut scoped = Vec::new();
        for root in &env_roots {
            let for_root = |var| CliVariable::ForRoot { root: root.clone(), warn, var: Box::new(var) };
            scoped.extend(env.var_files.iter().map(|f| for_root(CliVariable::File(var_files[f].clone()))));
            scoped.extend(
                env.variables.iter().map(|(k, v)| for_root(CliVariable::Value { name: k.clone(), value: v.clone() })),
            );
            if let Some(w) = &env.workspace {
                settings.root_workspaces.push((root.clone(), w.clone()));
            }
        }
        // The host's own values (the command line, the editor's settings) come after: they override the file.
        scoped.append(&mut settings.cli_variables);
        settings.cli_variables = scoped;
        host.apply_change(Change { settings: Some(settings), ..Change::default() });
        let result = f(host, &env_roots);
        out.push(Pass { env, roots: env_roots, result });
    }
    host.apply_change(Change { settings: Some((*base).clone()), ..Change::default() });
    Ok(Some(out))
}

/// Every diagnostic of the workspace loaded in `host`, once per environment in `envs` that applies to some root
/// (none: one pass as the host is set up), merged into findings.
pub fn check(host: &mut AnalysisHost, project: &Project, envs: &[&Environment]) -> Result<Vec<Finding>, LoadError> {
    let dirs_of_file: HashMap<FileId, String> = host
        .file_table()
        .into_iter()
        .map(|(id, (path, _))| (id, foreach_analysis::paths::parent(&path).to_string()))
        .collect();
    let covered: HashSet<String> = {
        let roots = host.root_dirs();
        roots.into_iter().filter(|r| envs.iter().any(|e| e.applies_to(&project.dir, r))).collect()
    };
    let passes = each(host, project, envs, |host, env_roots| {
        let keep = dirs_in_trees(host, |root| !covered.contains(root) || env_roots.iter().any(|r| r == root));
        let all = dirs_in_trees(host, |_| true);
        let mut diags = host.diagnostics();
        // A finding in a module only roots of other environments use is theirs, not this one's.
        diags.retain(|d| {
            let dir = dirs_of_file.get(&d.location.file).map(String::as_str).unwrap_or_default();
            !all.contains(dir) || keep.contains(dir)
        });
        diags
    })?;
    let Some(passes) = passes else {
        return Ok(host.diagnostics().into_iter().map(Finding::everywhere).collect());
    };
    let names: Vec<&str> = passes.iter().map(|p| p.env.name.as_str()).collect();
    Ok(merge(passes.into_iter().map(|p| p.result).collect(), &names))
}

/// Merges the diagnostics of several passes (one per environment, named by `names`): the same code, place and
/// message is one finding, tagged with the environments that report it unless all do; the related places of every
/// pass are kept (each environment's values are written somewhere else). Findings of one code at one place whose
/// messages differ stay apart, but a fix they share is offered once, on the first.
pub fn merge(passes: Vec<Vec<Diagnostic>>, names: &[&str]) -> Vec<Finding> {
    let mut merged: HashMap<(Code, FileId, u32, u32, String), usize> = HashMap::new();
    let mut findings: Vec<(Diagnostic, Vec<usize>)> = Vec::new();
    let mut fixes_at: HashMap<(Code, FileId, u32, u32), Vec<foreach_analysis::Fix>> = HashMap::new();
    let count = passes.len();
    for (pass, diags) in passes.into_iter().enumerate() {
        for d in diags {
            let range = d.location.range;
            let key = (d.code, d.location.file, range.start().into(), range.end().into(), d.message.clone());
            match merged.get(&key) {
                Some(&i) => {
                    let (first, passes) = &mut findings[i];
                    for r in d.related {
                        if !first.related.contains(&r) {
                            first.related.push(r);
                        }
                    }
                    passes.push(pass);
                }
                None => {
                    // Each environment's finding at this place may carry the same fix (its message differs, its
                    // edits do not): offered once, on the first finding, so that an editor or `--fix` applying the
                    // fixes on offer does not apply the same edits twice.
                    let mut d = d;
                    let place = (d.code, d.location.file, range.start().into(), range.end().into());
                    let offered = fixes_at.entry(place).or_default();
                    d.fixes.retain(|f| !offered.contains(f));
                    offered.extend(d.fixes.iter().cloned());
                    merged.insert(key, findings.len());
                    findings.push((d, vec![pass]));
                }
            }
        }
    }
    let mut out: Vec<Finding> = findings
        .into_iter()
        .map(|(diagnostic, passes)| {
            let environments =
                if passes.len() == count { Vec::new() } else { passes.iter().map(|p| names[*p].to_string()).collect() };
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
    out
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
    envs: &[(&Environment, Vec<String>)],
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
                files.push((path.clone(), read_source(&canonical)));
            }
            paths.insert(f.clone(), path);
        }
    }
    if !files.is_empty() {
        host.apply_change(Change { files, ..Change::default() });
    }
    Ok(paths)
}
