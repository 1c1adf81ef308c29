//! `foreach-ls eval EXPR`: the "static `tofu console`". Prints the value OpenTofu's early evaluation would compute,
//! or why it cannot (the chain of references to the root cause), and exits 1 then.

use std::io::Write;

use foreach_analysis::eval::functions::json_text;
use foreach_analysis::eval::render::console;
use foreach_analysis::eval::{UnknownCause, UnknownReason, Value};
use serde_json::json;

use crate::args::{EvalArgs, EvalFormat};
use crate::check::env_variables;
use crate::exit::ExitStatus;
use foreach_load::OrderedVar;
use foreach_load::{LoadOptions, load, path_string};

pub fn run(args: &EvalArgs, ordered_vars: &[OrderedVar]) -> ExitStatus {
    let paths = [args.dir.clone()];
    let project = match crate::project::discover(&args.dir) {
        Ok(p) => p,
        Err(status) => return status,
    };
    let env = match crate::project::chosen(project.as_ref(), args.env.as_deref()) {
        Ok(e) => e,
        Err(status) => return status,
    };
    // `--dir` is the directory the command runs in, as `tofu -chdir=DIR`: relative var files are found there.
    // The environment's var files are already absolute (relative to the project file).
    let ordered_vars: Vec<OrderedVar> = crate::project::with_environment(env, &[])
        .into_iter()
        .chain(ordered_vars.iter().map(|v| match v {
            OrderedVar::File(p) if p.is_relative() => OrderedVar::File(args.dir.join(p)),
            other => other.clone(),
        }))
        .collect();
    let opts = LoadOptions {
        paths: &paths,
        excludes: &[],
        ordered_vars: &ordered_vars,
        env_vars: env_variables(),
        workspace_name: args.vars.workspace_name().or_else(|| env.and_then(|e| e.workspace.clone())),
        states: &[],
        project_excludes: None,
        texts: foreach_load::KeepTexts::Compressed,
    };
    let loaded = match load(&opts) {
        Ok(l) => l,
        Err(e) => return usage(&e.0),
    };
    let Some(root) = loaded.roots.first() else { return usage("no directory given") };
    let evaluation = loaded.host.evaluate_in(&path_string(root), &args.expression);
    let value = evaluation.value;
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    // Only problems in the expression itself: the module's own diagnostics are `check`'s business.
    for d in evaluation.diagnostics.iter().filter(|d| d.location.file == foreach_analysis::EXPRESSION_FILE) {
        let _ = writeln!(err, "{}[{}]: {}", d.severity.as_str(), d.code.as_str(), d.message);
    }
    if let Some(reason) = value.first_unknown()
        && matches!(
            reason.cause,
            UnknownCause::Error { .. } | UnknownCause::Limit { .. } | UnknownCause::Invalid { .. }
        )
    {
        // A failure, not a value OpenTofu would know later: say what failed. An error in the expression itself
        // was printed above; one in the module (a local that cannot be evaluated) is printed here with its chain.
        if reason.location().file != foreach_analysis::EXPRESSION_FILE {
            let _ = match reason.hops.is_empty() {
                true => writeln!(err, "error: {}", reason.explanation()),
                false => writeln!(err, "error: {} (via {})", reason.explanation(), via(reason)),
            };
        }
        if args.format == EvalFormat::Json {
            let _ = writeln!(out, "{}", json!({"error": reason.explanation(), "chain": reason.chain()}));
        }
        return ExitStatus::Diagnostics;
    }
    if let Some(reason) = value.first_unknown() {
        let chain = reason.chain_text("the expression");
        let explanation = reason.explanation();
        let _ = match args.format {
            EvalFormat::Human => writeln!(out, "(not known statically)\n{explanation}\n{chain}"),
            EvalFormat::Json => writeln!(
                out,
                "{}",
                json!({"unknown": true, "reason": explanation, "chain": reason.chain(), "type": type_of(&value)})
            ),
        };
        return ExitStatus::Diagnostics;
    }
    let text = match args.format {
        EvalFormat::Human => console(&value),
        EvalFormat::Json => {
            let v: serde_json::Value = json_text(&value)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .unwrap_or(serde_json::Value::Null);
            json!({"value": v, "type": type_of(&value)}).to_string()
        }
    };
    let _ = writeln!(out, "{text}");
    ExitStatus::Clean
}

/// `the expression -> local.a -> local.b`: the hops of an error's chain, without its root.
fn via(reason: &UnknownReason) -> String {
    let mut parts = vec!["the expression".to_string()];
    parts.extend(reason.hops.iter().rev().map(|h| h.name.to_string()));
    parts.join(" -> ")
}

fn type_of(v: &Value) -> String {
    v.type_of().type_expr()
}

fn usage(message: &str) -> ExitStatus {
    let _ = writeln!(std::io::stderr(), "foreach-ls: {message}");
    ExitStatus::Usage
}
