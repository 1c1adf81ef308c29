//! Command-line syntax (clap). Only parsing lives here; each command's behaviour is in its own module.

use std::path::PathBuf;

use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// `--version`: the crate version and the commit it was built from (`unknown` outside a git checkout; build.rs).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("FOREACH_LS_COMMIT"), ")");

#[derive(Debug, Parser)]
#[command(
    name = "foreach-ls",
    version = VERSION,
    about = "Checks OpenTofu provider iteration (provider for_each) statically: a checker and a language server",
    long_about = None,
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check root modules and everything they call; print diagnostics.
    Check(CheckArgs),
    /// Evaluate an expression in the static scope of a root module, as OpenTofu's early evaluation would.
    Eval(EvalArgs),
    /// Print every provider configuration with its instances, and what each block uses, as JSON.
    Inspect(InspectArgs),
    /// Which resource and module instances a change creates, destroys, moves or rebinds, by provider instance,
    /// against the state or a base revision (`docs/diff.md`).
    Diff(DiffArgs),
    /// Merge the aliased configurations of one provider in a module into one `for_each` provider, rewriting every
    /// reference (`docs/migrate.md`). Prints a unified diff; `--write` applies it.
    Migrate(MigrateArgs),
    /// Rewrite files in the canonical style of `tofu fmt` (`docs/formatting.md`); prints the names of the files it
    /// changed.
    Fmt(FmtArgs),
    /// Start the language server on stdin/stdout.
    Serve,
}

#[derive(Debug, Clone, Args)]
pub struct FmtArgs {
    /// Files and directories to format (default: the current directory); `-` reads standard input and writes the
    /// result to standard output.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write nothing; list the files that need formatting and exit with status 3 if there are any.
    #[arg(long)]
    pub check: bool,
    /// Print a unified diff of each change (files are still rewritten unless `--check`).
    #[arg(long)]
    pub diff: bool,
    /// Also format the files in subdirectories.
    #[arg(long)]
    pub recursive: bool,
}

#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    /// The module directory (default: the current directory).
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: PathBuf,
    /// The provider's local name, e.g. `aws`.
    #[arg(long, value_name = "NAME", required_unless_present_any = ["finish", "undo"])]
    pub provider: Option<String>,
    /// The new configuration's alias (default: `by_region` when the configurations differ in `region`, else
    /// `by_key`).
    #[arg(long, value_name = "NAME")]
    pub alias: Option<String>,
    /// Also merge the per-alias copies of resources, data sources and module calls into blocks with `for_each`,
    /// with a `moved` block per old resource and module call.
    #[arg(long)]
    pub resources: bool,
    /// Apply the change to the files (all of them or none) instead of printing a diff.
    #[arg(long)]
    pub write: bool,
    /// Finish a `--write` that was interrupted between its renames: write the migrated text of every file that
    /// does not have it yet (the journal `.foreach-ls-migrate.json` in PATH holds the texts).
    #[arg(long, conflicts_with_all = ["undo", "write", "provider"])]
    pub finish: bool,
    /// Undo a `--write` that was interrupted between its renames: put back the old text of every file.
    #[arg(long, conflicts_with_all = ["finish", "write", "provider"])]
    pub undo: bool,
    #[command(flatten)]
    pub vars: VarArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// A summary line, then each root's changes grouped by provider instance.
    Human,
    /// One JSON document (its schema: `docs/diff.md`).
    Json,
    /// A pull-request comment: a table per root, the instances in a collapsed list.
    Markdown,
    /// GitHub Actions annotations on the lines whose change destroys something.
    Github,
}

#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// Root module directories or files in them (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Compare with the configuration at this git revision (`origin/main`, `HEAD~1`; read from the repository's
    /// objects) or in this directory (another checkout, standing for the current directory) instead of the state.
    #[arg(long, value_name = "REF|DIR")]
    pub base: Option<String>,
    #[command(flatten)]
    pub vars: VarArgs,
    /// Only this environment of the project file `foreach-ls.toml` (default: every environment it defines, each
    /// root once per environment that applies to it).
    #[arg(long = "env", value_name = "NAME")]
    pub env: Option<String>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
    /// Exit with status 1 when anything would be destroyed (a CI gate: "this change destroys nothing").
    #[arg(long)]
    pub deny_destroy: bool,
    /// Skip paths matching this glob (repeatable), relative to the walked directory.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Never colour the output (colour is used only on a terminal anyway).
    #[arg(long)]
    pub no_color: bool,
    #[command(flatten)]
    pub state: StateArgs,
}

#[derive(Debug, Clone, Args)]
pub struct InspectArgs {
    /// The root module directory (default: the current directory).
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub vars: VarArgs,
    /// Use the values of this environment of the project file `foreach-ls.toml` (`docs/configuration.md`).
    #[arg(long = "env", value_name = "NAME")]
    pub env: Option<String>,
    /// Skip paths matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    #[command(flatten)]
    pub state: StateArgs,
}

/// The state to check against (`docs/state.md`).
#[derive(Debug, Clone, Args)]
pub struct StateArgs {
    /// A state file as OpenTofu writes it (`terraform.tfstate`, or `tofu state pull` output; `-` reads standard
    /// input), for the root module given; `ROOT_DIR=FILE` for one of several (repeatable). It replaces the root's
    /// local state file, which is used without this option. Only read, never written.
    #[arg(long = "state", value_name = "FILE|ROOT_DIR=FILE")]
    pub states: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// The value in `tofu console` syntax.
    Human,
    /// `{"value": <json>, "type": "<type>"}`.
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct EvalArgs {
    /// The expression, e.g. `local.regions` or `keys(var.accounts)`; it may start with `-` (`-5 + 2`).
    #[arg(allow_hyphen_values = true)]
    pub expression: String,
    /// The root module directory (default: the current directory). Relative `--var-file` paths are resolved
    /// against it, as `tofu -chdir=PATH console` does; it need not hold any configuration.
    #[arg(long, value_name = "PATH", default_value = ".")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub vars: VarArgs,
    /// Use the values of this environment of the project file `foreach-ls.toml` (`docs/configuration.md`).
    #[arg(long = "env", value_name = "NAME")]
    pub env: Option<String>,
    #[arg(long, value_enum, default_value_t = EvalFormat::Human)]
    pub format: EvalFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Code frames with the source line and a caret underline.
    Human,
    /// One JSON document with every diagnostic and a summary.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other tools.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
}

/// Variable options shared by every command that evaluates.
#[derive(Debug, Clone, Args)]
pub struct VarArgs {
    /// Set a root variable: NAME=VALUE (repeatable; later ones win).
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// Read root variable values from a file (repeatable; later ones win).
    #[arg(long = "var-file", value_name = "FILE")]
    pub var_files: Vec<PathBuf>,
    /// The value of `terraform.workspace` (default: `TF_WORKSPACE`, else the workspace `tofu workspace select`
    /// chose in each root, else unknown).
    #[arg(long, value_name = "NAME")]
    pub workspace: Option<String>,
}

impl VarArgs {
    /// The workspace chosen explicitly: `--workspace`, else `TF_WORKSPACE` (as OpenTofu, which prefers the
    /// environment variable to the workspace selected in `.terraform/environment`).
    pub fn workspace_name(&self) -> Option<String> {
        self.workspace.clone().or_else(foreach_load::workspace_from_env)
    }
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Root module directories or files in them (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub vars: VarArgs,
    /// Check only this environment of the project file `foreach-ls.toml` (default: every environment it defines,
    /// each root once per environment that applies to it).
    #[arg(long = "env", value_name = "NAME")]
    pub env: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit with status 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Skip paths matching this glob (repeatable), relative to the walked directory, e.g. `**/examples/**`.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Never colour the output (colour is used only on a terminal anyway).
    #[arg(long)]
    pub no_color: bool,
    /// Apply the automatic quick fixes in place (never in files with syntax errors), then report what remains.
    #[arg(long)]
    pub fix: bool,
    /// The PATHs are changed files (as pre-commit passes them): check the root modules that contain them, or that
    /// call the modules containing them, found under the current directory.
    #[arg(long)]
    pub changed: bool,
    #[command(flatten)]
    pub state: StateArgs,
}

pub use foreach_load::OrderedVar;

pub struct Parsed {
    pub cli: Cli,
    /// `--var`/`--var-file` of the subcommand, interleaved in the order given (OpenTofu applies them in order).
    pub ordered_vars: Vec<OrderedVar>,
}

pub fn parse<I, T>(args: I) -> Result<Parsed, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = Cli::command().try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    let ordered_vars = match matches.subcommand() {
        // `serve` and `fmt` have no `--var` arguments (clap's debug build panics when asked for an undefined one).
        Some(("serve" | "fmt", _)) => Vec::new(),
        Some((_, sub)) => ordered_vars(sub),
        None => Vec::new(),
    };
    Ok(Parsed { cli, ordered_vars })
}

fn ordered_vars(m: &ArgMatches) -> Vec<OrderedVar> {
    let mut out: Vec<(usize, OrderedVar)> = Vec::new();
    if let (Some(idx), Some(vals)) = (m.indices_of("vars"), m.get_many::<String>("vars")) {
        out.extend(idx.zip(vals).map(|(i, v)| (i, OrderedVar::Var(v.clone()))));
    }
    if let (Some(idx), Some(vals)) = (m.indices_of("var_files"), m.get_many::<PathBuf>("var_files")) {
        out.extend(idx.zip(vals).map(|(i, v)| (i, OrderedVar::File(v.clone()))));
    }
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, v)| v).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn var_and_var_file_keep_their_order() {
        let p =
            parse(["foreach-ls", "check", "--var-file", "a.tfvars", "--var", "x=1", "--var-file", "b.tfvars"]).unwrap();
        assert_eq!(
            p.ordered_vars,
            vec![
                OrderedVar::File("a.tfvars".into()),
                OrderedVar::Var("x=1".into()),
                OrderedVar::File("b.tfvars".into())
            ]
        );
    }

    #[test]
    fn rejects_unknown_format() {
        assert!(parse(["foreach-ls", "check", "--format", "xml"]).is_err());
    }
}
