//! Renaming a root module's variable in the project file: the `-var` names of `[environments.X] variables` that
//! set it (`docs/configuration.md`), and which var files of those environments the rename must follow
//! ([`var_files`]: the analysis finds the keys in them). The language server adds these edits to the rename of the
//! variable itself.
//!
//! Edits are byte spans of the key in the file's text, so nothing else in the file changes (no reformatting, the
//! comments stay). The spans come from `toml`'s `Spanned` keys and are checked to hold the name, bare or quoted.

use std::collections::BTreeMap;
use std::ops::Range;

use foreach_ide::RootVariable;
use serde::Deserialize;
use toml::Spanned;

use crate::project::Project;

#[derive(Deserialize)]
struct RawProject {
    #[serde(default)]
    environments: BTreeMap<String, RawEnvironment>,
}

#[derive(Deserialize)]
struct RawEnvironment {
    #[serde(default)]
    variables: BTreeMap<Spanned<String>, toml::Value>,
}

/// The edits (byte range of the key, new text) that rename `var` to `new_name` in the project file `text` of
/// `project`, in the environments that apply to the variable's root module; or why that cannot be done safely: an
/// environment that sets the name for another root module declaring it too, one that already sets `new_name`, a
/// key written with escapes. A file that no longer parses (being edited) gets no edits.
pub fn variable_edits(
    project: &Project,
    text: &str,
    var: &RootVariable,
    new_name: &str,
) -> Result<Vec<(Range<usize>, String)>, String> {
    let Ok(raw) = toml::from_str::<RawProject>(text) else { return Ok(Vec::new()) };
    let file = project.path.display();
    let mut edits = Vec::new();
    for env in project.environments.iter().filter(|e| e.applies_to(&project.dir, &var.root)) {
        let Some(raw_env) = raw.environments.get(&env.name) else { continue };
        let Some((key, _)) = raw_env.variables.get_key_value(var.name.as_str()) else { continue };
        let what = format!("cannot rename variable `{}`: environment `{}` of {file}", var.name, env.name);
        if let Some(other) = var.other_roots.iter().find(|r| env.applies_to(&project.dir, r)) {
            return Err(format!("{what} sets it for the root module {other} too, which declares it as well"));
        }
        if new_name != var.name && raw_env.variables.contains_key(new_name) {
            return Err(format!("{what} already sets `{new_name}`"));
        }
        let span = key.span();
        let written = text.get(span.clone()).unwrap_or_default();
        let inner = if written == var.name {
            span
        } else if written.len() == var.name.len() + 2
            && (written.starts_with('"') || written.starts_with('\''))
            && written[1..written.len() - 1] == var.name
        {
            span.start + 1..span.end - 1
        } else {
            return Err(format!("{what} writes the name with escapes; rename it there by hand"));
        };
        edits.push((inner, new_name.to_string()));
    }
    Ok(edits)
}

/// A var file of an environment that applies to a root variable's module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvironmentVarFile {
    /// As the loader keys the file: canonical, `/`-separated.
    pub path: String,
    pub environment: String,
    /// Another root module declaring the variable that the environment applies to as well: the file sets the
    /// variable there too, so renaming it in the file would break that root.
    pub shared_with: Option<String>,
}

impl EnvironmentVarFile {
    /// Why the variable cannot be renamed in this file (when it sets it and is shared).
    pub fn refusal(&self, var: &RootVariable) -> Option<String> {
        let other = self.shared_with.as_ref()?;
        Some(format!(
            "cannot rename variable `{}`: the var file {} of environment `{}` sets it for the root module {other} too, \
             which declares it as well",
            var.name, self.path, self.environment
        ))
    }
}

/// The var files of the environments of `project` that apply to the root module of `var`, each once.
pub fn var_files(project: &Project, var: &RootVariable) -> Vec<EnvironmentVarFile> {
    let mut out: Vec<EnvironmentVarFile> = Vec::new();
    for env in project.environments.iter().filter(|e| e.applies_to(&project.dir, &var.root)) {
        let shared_with = var.other_roots.iter().find(|r| env.applies_to(&project.dir, r)).cloned();
        for f in &env.var_files {
            let path = crate::path_string(&f.canonicalize().unwrap_or_else(|_| f.clone()));
            match out.iter_mut().find(|v| v.path == path) {
                Some(seen) => {
                    if seen.shared_with.is_none() && shared_with.is_some() {
                        seen.shared_with = shared_with.clone();
                        seen.environment = env.name.clone();
                    }
                }
                None => out.push(EnvironmentVarFile {
                    path,
                    environment: env.name.clone(),
                    shared_with: shared_with.clone(),
                }),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn project(text: &str) -> Project {
        Project::parse(Path::new("/p/foreach-ls.toml"), text).unwrap()
    }

    fn var(name: &str, others: &[&str]) -> RootVariable {
        RootVariable {
            root: "/p".to_string(),
            name: name.to_string(),
            other_roots: others.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
        let mut out = text.to_string();
        edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        for (r, t) in edits {
            out.replace_range(r, &t);
        }
        out
    }

    #[test]
    fn renames_bare_quoted_and_table_keys_only_in_the_environments_that_apply() {
        let text = "# the pipelines\n[environments.prod]\nvariables = { region = \"eu\", size = \"2\" }\n\n\
                    [environments.staging]\nvariables = {\"region\"= \"us\"}\n\n\
                    [environments.dev.variables]\nregion   = \"dev\"  # aligned\n\n\
                    [environments.other]\nroots = [\"elsewhere\"]\nvariables = { region = \"x\" }\n";
        let p = project(text);
        let edits = variable_edits(&p, text, &var("region", &[]), "zone").unwrap();
        assert_eq!(
            apply(text, edits),
            text.replacen("{ region", "{ zone", 1)
                .replace("{\"region\"", "{\"zone\"")
                .replace("region   =", "zone   =")
        );
        // Another variable is not touched.
        assert!(variable_edits(&p, text, &var("nope", &[]), "zone").unwrap().is_empty());
    }

    #[test]
    fn var_files_of_the_environments_that_apply_and_whether_another_root_shares_them() {
        let text = "[environments.prod]\nvar_files = [\"prod.tfvars\"]\nroots = [\".\"]\n\
                    [environments.all]\nvar_files = [\"common.tfvars\", \"prod.tfvars\"]\n\
                    [environments.elsewhere]\nvar_files = [\"other.tfvars\"]\nroots = [\"other\"]\n";
        let dir = tempfile::tempdir().unwrap();
        for f in ["prod.tfvars", "common.tfvars", "other.tfvars"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let dir = dir.path().canonicalize().unwrap();
        let p = Project::parse(&dir.join("foreach-ls.toml"), text).unwrap();
        let root = crate::path_string(&dir);
        let var =
            RootVariable { root: root.clone(), name: "region".into(), other_roots: vec![format!("{root}/other")] };
        let got: Vec<(String, String, Option<String>)> = var_files(&p, &var)
            .into_iter()
            .map(|f| (f.path.trim_start_matches(&root).to_string(), f.environment, f.shared_with))
            .collect();
        let shared = Some(format!("{root}/other"));
        assert_eq!(
            got,
            [
                ("/common.tfvars".to_string(), "all".to_string(), shared.clone()),
                ("/prod.tfvars".to_string(), "all".to_string(), shared),
            ]
        );
        assert!(var_files(&p, &var)[0].refusal(&var).unwrap().contains("environment `all`"));
    }

    #[test]
    fn refuses_what_would_break_another_root_or_collide() {
        let text = "[environments.prod]\nvariables = { region = \"eu\", zone = \"a\" }\n";
        let p = project(text);
        let e = variable_edits(&p, text, &var("region", &["/p/other"]), "r").unwrap_err();
        assert!(e.contains("/p/other") && e.contains("prod"), "{e}");
        let e = variable_edits(&p, text, &var("region", &[]), "zone").unwrap_err();
        assert!(e.contains("already sets `zone`"), "{e}");
        let escaped = "[environments.prod]\nvariables = { \"reg\\u0069on\" = \"eu\" }\n";
        let e = variable_edits(&project(escaped), escaped, &var("region", &[]), "r").unwrap_err();
        assert!(e.contains("escapes"), "{e}");
        // A file being edited into something unreadable gets no edits rather than an error.
        assert!(variable_edits(&p, "[environments", &var("region", &[]), "r").unwrap().is_empty());
    }
}
