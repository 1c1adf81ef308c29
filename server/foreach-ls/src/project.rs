//! The project file as the commands use it (`foreach_load::project` reads it): found from the checked path, a
//! broken one ends the command with status 2, and `--env NAME` picks one environment's values.

use std::io::Write;
use std::path::Path;

use foreach_load::OrderedVar;
use foreach_load::project::{Environment, Project};

use crate::exit::ExitStatus;

/// The project file nearest above `start`; a broken one is printed (`file:line:column: why`) and ends the command.
pub fn discover(start: &Path) -> Result<Option<Project>, ExitStatus> {
    Project::discover(start).map_err(|e| usage(&format!("{e}")))
}

/// The environment `--env` names; an unknown name ends the command and lists the known ones.
pub fn chosen<'p>(project: Option<&'p Project>, name: Option<&str>) -> Result<Option<&'p Environment>, ExitStatus> {
    let Some(name) = name else { return Ok(None) };
    let found = project.and_then(|p| p.environment(name));
    match (found, project) {
        (Some(env), _) => Ok(Some(env)),
        (None, Some(p)) if !p.environments.is_empty() => {
            let names: Vec<&str> = p.environments.iter().map(|e| e.name.as_str()).collect();
            Err(usage(&format!(
                "no environment `{name}` in {} (it has {})",
                p.path.display(),
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            )))
        }
        (None, Some(p)) => Err(usage(&format!("no environment `{name}`: {} defines none", p.path.display()))),
        (None, None) => Err(usage(&format!(
            "no environment `{name}`: no {} found at or above the checked path",
            foreach_load::project::PROJECT_FILE
        ))),
    }
}

/// The variables of `env` followed by those of the command line, which override the file: its var files, then its
/// `variables` (as `-var` after `-var-file`), then `--var`/`--var-file` in their order.
pub fn with_environment(env: Option<&Environment>, command_line: &[OrderedVar]) -> Vec<OrderedVar> {
    let mut out = Vec::new();
    if let Some(env) = env {
        out.extend(env.var_files.iter().cloned().map(OrderedVar::File));
        out.extend(env.variables.iter().map(|(k, v)| OrderedVar::Var(format!("{k}={v}"))));
    }
    out.extend(command_line.iter().cloned());
    out
}

fn usage(message: &str) -> ExitStatus {
    let _ = writeln!(std::io::stderr(), "foreach-ls: {message}");
    ExitStatus::Usage
}
