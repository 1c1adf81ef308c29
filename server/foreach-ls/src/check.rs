//! `foreach-ls check`: load, analyse, (with `--fix`) apply the automatic fixes and analyse again, print, and choose
//! the exit status.

use std::collections::HashSet;
use std::io::Write;

use crate::args::{CheckArgs, Format};
use crate::exit::ExitStatus;
use crate::{changed, fix, journal, leftovers, render, report, write};
use foreach_analysis::FileId;
use foreach_load::OrderedVar;
use foreach_load::environments::{self, Finding};
use foreach_load::{LoadOptions, StateOption, load};

/// `TF_VAR_name` values from the environment.
pub fn env_variables() -> Vec<(String, String)> {
    std::env::vars().filter_map(|(k, v)| k.strip_prefix("TF_VAR_").map(|name| (name.to_string(), v))).collect()
}

pub fn run(args: &CheckArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    let states = match StateOption::parse_all(&args.state.states) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "foreach-ls: {}", e.0);
            return ExitStatus::Usage;
        }
    };
    // The project file above the checked path; with `--changed` (pre-commit, run at the repository root) above the
    // first changed file, so that a project file in a subdirectory (`infra/foreach-ls.toml`) applies to its files.
    let start = args.paths.first().cloned().unwrap_or_else(|| std::path::PathBuf::from("."));
    let project = match crate::project::discover(&start) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let mut opts = LoadOptions {
        paths: &args.paths,
        excludes: &args.exclude,
        ordered_vars,
        env_vars: env_variables(),
        workspace_name: args.vars.workspace_name(),
        states: &states,
        project_excludes: project.as_ref().map(|p| (p.dir.as_path(), p.exclude.as_slice())),
        // A run over before the files change: it reads a text again only to quote it (`SourceText::on_disk`).
        texts: foreach_load::KeepTexts::OnDisk,
    };
    let changed_roots;
    if args.changed {
        changed_roots = match changed::roots_for(&args.paths, &opts) {
            Ok(roots) => roots,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "foreach-ls: {}", e.0);
                return ExitStatus::Usage;
            }
        };
        if changed_roots.is_empty() {
            // Only files outside any module changed (or none were given): nothing to check.
            return ExitStatus::Clean;
        }
        opts.paths = &changed_roots;
    }
    let loaded = match load(&opts) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "foreach-ls: {}", e.0);
            return ExitStatus::Usage;
        }
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    // A `migrate --write` stopped between its renames left a journal: say so (the findings below are those of a
    // half-migrated module), and fail even without findings.
    let half_migrated =
        journal::report_all(loaded.listed_dirs.iter().map(String::as_str), &cwd, &mut std::io::stderr().lock());
    let write_boundary = write::Boundary::of(&loaded.roots);
    let mut host = loaded.host;
    if host.file_count() == 0 {
        let roots: Vec<String> = loaded.roots.iter().map(|r| r.display().to_string()).collect();
        let _ = writeln!(
            std::io::stderr(),
            "foreach-ls: no OpenTofu files (*.tf, *.tofu, *.tfvars and their JSON forms) under {}",
            roots.join(", ")
        );
        return ExitStatus::Usage;
    }
    let envs = match &project {
        Some(p) => {
            if let Err(status) = crate::project::chosen(Some(p), args.env.as_deref()) {
                return status;
            }
            environments::selected(p, args.env.as_deref())
        }
        None if args.env.is_some() => {
            return crate::project::chosen(None, args.env.as_deref()).err().unwrap_or(ExitStatus::Usage);
        }
        None => Vec::new(),
    };
    // Every environment's findings, merged (`foreach_load::environments`), with the severity overrides applied.
    let analyse = |host: &mut foreach_analysis::AnalysisHost| -> Result<Vec<Finding>, ExitStatus> {
        let mut findings = match &project {
            Some(p) => environments::check(host, p, &envs).map_err(|e| usage(&e.0))?,
            None => host.diagnostics().into_iter().map(Finding::everywhere).collect(),
        };
        if let Some(p) = &project {
            findings.retain_mut(|f| p.override_severity(&mut f.diagnostic));
        }
        Ok(findings)
    };
    let mut findings = match analyse(&mut host) {
        Ok(f) => f,
        Err(status) => return status,
    };
    let mut write_failed = false;
    if args.fix {
        let diagnostics: Vec<foreach_analysis::Diagnostic> = findings.iter().map(|f| f.diagnostic.clone()).collect();
        let table = host.file_table();
        // Temporary files an interrupted `--fix` left beside any file read are removed first.
        let reals: Vec<std::path::PathBuf> =
            table.values().filter_map(|(p, _)| std::path::Path::new(p).canonicalize().ok()).collect();
        let removed = leftovers::sweep_all(reals.iter().filter_map(|r| r.parent()));
        leftovers::report(&removed, &cwd, &mut std::io::stderr().lock());
        let outcomes = fix::apply_fixes(&diagnostics, &table, &write_boundary);
        let _ = std::io::stderr().write_all(fix::describe(&outcomes, &cwd).as_bytes());
        write_failed = outcomes.values().any(|o| matches!(o, fix::FileOutcome::Failed(_)));
        if outcomes.values().any(|o| matches!(o, fix::FileOutcome::Fixed { .. })) {
            // Report what remains: analyse the files as they are now.
            match load(&opts) {
                Ok(l) => host = l.host,
                Err(e) => return usage(&e.0),
            }
            findings = match analyse(&mut host) {
                Ok(f) => f,
                Err(status) => return status,
            };
        }
    }
    let quoted: HashSet<FileId> = findings.iter().flat_map(|f| f.diagnostic.files()).collect();
    let report = report::build(&findings, &host.file_table_of(|id| quoted.contains(&id)), host.file_count(), &cwd);

    let color = crate::stdout::color_wanted(args.no_color);
    let text = match args.format {
        Format::Human => render::human(&report, color),
        Format::Json => render::json(&report),
        Format::Sarif => render::sarif(&report),
        Format::Github => render::github(&report),
    };
    if let Err(status) = crate::stdout::print(&text) {
        return status;
    }
    // The process ends right after this: dropping the analysis of a whole workspace, node by node, was 4% of a
    // `check` of the dev corpus, on one core, for memory the system takes back at exit anyway.
    std::mem::forget(host);
    if half_migrated || write_failed {
        ExitStatus::Usage
    } else if report.summary.errors > 0 || (args.deny_warnings && report.summary.warnings > 0) {
        ExitStatus::Diagnostics
    } else {
        ExitStatus::Clean
    }
}

fn usage(message: &str) -> ExitStatus {
    let _ = writeln!(std::io::stderr(), "foreach-ls: {message}");
    ExitStatus::Usage
}
