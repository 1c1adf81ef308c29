//! `foreach-ls diff` (`docs/diff.md`): which resource and module instances a change creates, destroys, moves or
//! rebinds to another provider instance, before `tofu plan`, against the state or a base revision.
//!
//! It loads the workspace as `check` does, takes what every root declares (`foreach_analysis::instances`, once per
//! environment of the project file), then either compares it with each root's state, or switches the same host to
//! the base revision (`foreach_load::base`; a git revision through `git.rs`, or another checkout), takes what the
//! base declares with the same values, and compares the two (`foreach_analysis::diff`). `render.rs` prints it.

mod git;
mod lines;
mod render;
mod report;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foreach_analysis::AnalysisHost;
use foreach_analysis::diff::{Action, RootDiff, compare_base, compare_state};
use foreach_analysis::instances::{DeclaredRoot, declared_root};
use foreach_analysis::module_eval::root_for_dir;
use foreach_analysis::state::RootState;
use foreach_analysis::tree::module_tree;
use foreach_load::base::{BaseSource, BaseTree, DirTree, RecordingReader, switch_to_base};
use foreach_load::environments;
use foreach_load::project::{Environment, Project};
use foreach_load::{DiskReader, LoadOptions, OrderedVar, StateOption, load, read_boundary};

use crate::args::{DiffArgs, DiffFormat};
use crate::check::env_variables;
use crate::exit::ExitStatus;
use crate::fix::FileTable;
pub use report::{Against, Report, RootReport};

pub fn run(args: &DiffArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    match diff(args, ordered_vars) {
        Ok(status) => status,
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "foreach-ls: {message}");
            ExitStatus::Usage
        }
    }
}

fn diff(args: &DiffArgs, ordered_vars: &[OrderedVar]) -> Result<ExitStatus, String> {
    let states = StateOption::parse_all(&args.state.states).map_err(|e| e.0)?;
    if args.base.is_some() && !states.is_empty() {
        return Err("`--base` compares with another configuration and `--state` with a state: give one".into());
    }
    let start = args.paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
    let project = match crate::project::discover(&start) {
        Ok(p) => p,
        // `discover` printed why.
        Err(status) => return Ok(status),
    };
    let envs: Vec<&Environment> = match &project {
        Some(p) => {
            if crate::project::chosen(Some(p), args.env.as_deref()).is_err() {
                return Ok(ExitStatus::Usage);
            }
            environments::selected(p, args.env.as_deref())
        }
        None if args.env.is_some() => {
            return Ok(crate::project::chosen(None, args.env.as_deref()).err().unwrap_or(ExitStatus::Usage));
        }
        None => Vec::new(),
    };
    let opts = LoadOptions {
        paths: &args.paths,
        excludes: &args.exclude,
        ordered_vars,
        env_vars: env_variables(),
        workspace_name: args.vars.workspace_name(),
        states: &states,
        project_excludes: project.as_ref().map(|p| (p.dir.as_path(), p.exclude.as_slice())),
        texts: foreach_load::KeepTexts::OnDisk,
    };
    let loaded = load(&opts).map_err(|e| e.0)?;
    let mut host = loaded.host;
    if host.file_count() == 0 {
        let roots: Vec<String> = loaded.roots.iter().map(|r| r.display().to_string()).collect();
        return Err(format!(
            "no OpenTofu files (*.tf, *.tofu, *.tfvars and their JSON forms) under {}",
            roots.join(", ")
        ));
    }
    let mut read_roots: Vec<PathBuf> = loaded.roots.iter().map(|r| read_boundary(r)).collect();
    read_roots.sort();
    read_roots.dedup();
    let recorder = Arc::new(RecordingReader::new(Arc::new(DiskReader { roots: read_roots.clone() })));
    host.set_file_reader(Some(recorder.clone()));
    let cwd = std::env::current_dir().unwrap_or_default();
    let cwd = cwd.canonicalize().unwrap_or(cwd);

    // The other side, opened before anything is analysed, so that a bad `--base` fails at once.
    let base = match &args.base {
        Some(spec) => Some(open_base(spec, &start, &cwd)?),
        None => None,
    };
    let current = declare_all(&mut host, project.as_ref(), &envs)?;
    let current_files = host.file_table();
    let (against, roots, base_files) = match base {
        Some((source, against)) => {
            let recorded = recorder.paths();
            switch_to_base(&mut host, &source, &loaded.roots, &recorded, &read_roots).map_err(|e| e.0)?;
            let base = declare_all(&mut host, project.as_ref(), &envs)?;
            let roots = compare_sides(base, current, &cwd);
            (against, roots, host.file_table())
        }
        None => {
            let roots = compare_states(&host, current, &cwd);
            if !roots.iter().any(|r| r.compared) {
                return Err(
                    "no root module here has a state to compare with: give one with `--state FILE`, or compare with a \
                     base revision with `--base REF`"
                        .into(),
                );
            }
            (Against::State, roots, FileTable::new())
        }
    };
    let report = Report { against, roots, current_files, base_files, cwd, deny_destroy: args.deny_destroy };
    let color = crate::stdout::color_wanted(args.no_color);
    // The human format is printed as it is made (a large report is not held whole); the others in one piece.
    let printed = match args.format {
        DiffFormat::Human => render::human_to(&report, color, &mut crate::stdout::print),
        DiffFormat::Json => crate::stdout::print(&render::json(&report)),
        DiffFormat::Markdown => crate::stdout::print(&render::markdown(&report)),
        DiffFormat::Github => crate::stdout::print(&render::github(&report)),
    };
    if let Err(status) = printed {
        return Ok(status);
    }
    Ok(if args.deny_destroy && report.count(Action::Destroy) > 0 { ExitStatus::Diagnostics } else { ExitStatus::Clean })
}

/// `--base REF|DIR`: an existing directory is another checkout standing for the current directory; anything else
/// a git revision of the repository that holds the first path.
fn open_base(spec: &str, start: &Path, cwd: &Path) -> Result<(BaseSource, Against), String> {
    let as_dir = Path::new(spec);
    if as_dir.is_dir() {
        let root = as_dir.canonicalize().map_err(|e| format!("cannot read `--base {spec}`: {e}"))?;
        let top = cwd.canonicalize().map_err(|e| e.to_string())?;
        let tree: Arc<dyn BaseTree> = Arc::new(DirTree { root });
        return Ok((BaseSource { tree, top }, Against::Dir(spec.to_string())));
    }
    let start = start.canonicalize().map_err(|e| format!("cannot read `{}`: {e}", start.display()))?;
    let (tree, workdir, commit) = git::open(&start, spec)?;
    let tree: Arc<dyn BaseTree> = Arc::new(tree);
    Ok((BaseSource { tree, top: workdir }, Against::Revision { spec: spec.to_string(), commit }))
}

/// What every root declares, in each environment that applies to it (`None`: its own values), by root directory.
type Declared = Vec<(String, Option<String>, Arc<DeclaredRoot>)>;

fn declare_all(host: &mut AnalysisHost, project: Option<&Project>, envs: &[&Environment]) -> Result<Declared, String> {
    let roots = host.root_dirs();
    let mut out = Declared::new();
    let mut covered = std::collections::HashSet::new();
    if let Some(p) = project {
        let passes = environments::each(host, p, envs, |host, env_roots| {
            env_roots.iter().filter_map(|r| declare(host, r)).collect::<Vec<_>>()
        })
        .map_err(|e| e.0)?;
        for pass in passes.into_iter().flatten() {
            for d in pass.result {
                covered.insert(d.dir.clone());
                out.push((d.dir.clone(), Some(pass.env.name.clone()), d));
            }
        }
    }
    for root in roots.iter().filter(|r| !covered.contains(*r)) {
        if let Some(d) = declare(host, root) {
            out.push((root.clone(), None, d));
        }
    }
    Ok(out)
}

fn declare(host: &AnalysisHost, root: &str) -> Option<Arc<DeclaredRoot>> {
    let db = host.db();
    let tree = module_tree(db, host.workspace());
    let dir = *foreach_analysis::db::dir_index(db, host.workspace()).get(root)?;
    let node = root_for_dir(&tree, dir)?;
    Some(Arc::new(declared_root(db, host.workspace(), &tree, node)))
}

fn compare_sides(base: Declared, current: Declared, cwd: &Path) -> Vec<RootReport> {
    let mut base: std::collections::BTreeMap<(String, Option<String>), Arc<DeclaredRoot>> =
        base.into_iter().map(|(dir, env, d)| ((dir, env), d)).collect();
    let mut out = Vec::new();
    for (dir, env, cur) in current {
        let b = base.remove(&(dir.clone(), env.clone())).unwrap_or_else(|| Arc::new(DeclaredRoot::empty(dir.clone())));
        let diff = compare_base(&b, &cur);
        let regions = regions(&diff, &[&cur, &b]);
        out.push(RootReport { root: relative(&dir, cwd), environment: env, diff, compared: true, regions });
    }
    // Roots only the base has: the change deletes them.
    for ((dir, env), b) in base {
        let diff = compare_base(&b, &Arc::new(DeclaredRoot::empty(dir.clone())));
        let regions = regions(&diff, &[&b]);
        out.push(RootReport { root: relative(&dir, cwd), environment: env, diff, compared: true, regions });
    }
    out.sort_by(|a, b| (&a.root, &a.environment).cmp(&(&b.root, &b.environment)));
    out
}

fn compare_states(host: &AnalysisHost, current: Declared, cwd: &Path) -> Vec<RootReport> {
    let states = host.workspace().states(host.db()).clone();
    let mut out: Vec<RootReport> = current
        .into_iter()
        .map(|(dir, env, cur)| {
            let (diff, compared) = match states.get(&dir) {
                Some(RootState::Bindings(b)) => (compare_state(b, &cur), true),
                _ => (RootDiff::default(), false),
            };
            let regions = regions(&diff, &[&cur]);
            RootReport { root: relative(&dir, cwd), environment: env, diff, compared, regions }
        })
        .collect();
    out.sort_by(|a, b| (&a.root, &a.environment).cmp(&(&b.root, &b.environment)));
    out
}

/// The region of every provider instance the changes name, from the first side that knows it.
fn regions(diff: &RootDiff, sides: &[&DeclaredRoot]) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for c in &diff.changes {
        for p in [&c.provider, &c.new_provider].into_iter().flatten() {
            if let Some(region) = sides.iter().find_map(|s| s.providers.region(p)) {
                out.insert(p.name(), region.to_string());
            }
        }
    }
    out
}

/// `live/prod`, or `.` for the current directory.
fn relative(dir: &str, cwd: &Path) -> String {
    if Path::new(dir) == cwd {
        return ".".to_string();
    }
    crate::report::relative(dir, cwd)
}
