//! The `foreach-ls` binary's library half: command-line parsing ([`args`]), running commands ([`check`],
//! [`eval`], [`fix`], [`fmt`], [`migrate`]), writing files without losing data ([`write`], [`leftovers`],
//! [`journal`]) and rendering reports ([`report`], [`render`]). Loading from disk is `foreach-load`.
//! It holds no OpenTofu semantics: those are all in `foreach-analysis`. It is the top layer: it may use every
//! crate of the workspace, and none of them may depend on it.

pub mod args;
pub mod changed;
pub mod check;
pub mod diff;
pub mod eval;
pub mod exit;
pub mod fix;
pub mod fmt;
pub mod inspect;
pub mod journal;
pub mod leftovers;
pub mod migrate;
pub mod project;
pub mod render;
pub mod report;
pub mod stdout;
pub mod write;
pub mod write_hooks;

use exit::ExitStatus;

/// Entry point of the binary; returns the process exit code. `before_check` runs before `check` loads anything
/// (the binary tunes its allocator there: it owns the allocator, this library does not).
pub fn run(before_check: fn()) -> i32 {
    run_with_hook(std::env::args_os(), before_check).code()
}

pub fn run_with<I, T>(args: I) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_with_hook(args, || {})
}

fn run_with_hook<I, T>(args: I, before_check: fn()) -> ExitStatus
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let parsed = match args::parse(args) {
        Ok(p) => p,
        Err(e) => {
            // clap prints help and version through the error path too; those are successes.
            let _ = e.print();
            return if e.use_stderr() { ExitStatus::Usage } else { ExitStatus::Clean };
        }
    };
    match parsed.cli.command {
        args::Command::Check(a) => {
            before_check();
            check::run(&a, &parsed.ordered_vars)
        }
        args::Command::Eval(a) => eval::run(&a, &parsed.ordered_vars),
        args::Command::Inspect(a) => inspect::run(&a, &parsed.ordered_vars),
        args::Command::Diff(a) => {
            before_check();
            diff::run(&a, &parsed.ordered_vars)
        }
        args::Command::Migrate(a) => migrate::run(&a, &parsed.ordered_vars),
        args::Command::Fmt(a) => fmt::run(&a),
        args::Command::Serve => match foreach_lsp::serve_stdio() {
            0 => ExitStatus::Clean,
            1 => ExitStatus::ServeWithoutShutdown,
            _ => ExitStatus::Usage,
        },
    }
}
