//! References to undeclared variables and locals outside `locals` blocks (resource and data bodies, outputs,
//! provider configurations, module arguments and meta-arguments). Locals themselves are checked by the evaluator,
//! which evaluates every one of them. Per module, not per instance: a declaration is missing whoever calls it.

use crate::diagnostics::{Code, Diagnostic};
use crate::model::items::{Arg, BodyRefs};
use crate::model::module::Module;
use crate::model::refs::{Reference, references};
use crate::suggest::closest;
use crate::{FileId, FileRange};
use foreach_syntax::{TextRange, TextSize};

pub fn undefined_references(module: &Module) -> Vec<Diagnostic> {
    let vars: Vec<&str> = module.variables.iter().map(|v| v.name.as_str()).collect();
    let locals: Vec<&str> = module.locals.iter().map(|l| l.name.as_str()).collect();
    let mut out = Vec::new();
    for (file, r) in collect(module) {
        let (declared, kind) = match r.root() {
            "var" => (&vars, "input variable"),
            "local" => (&locals, "local value"),
            _ => continue,
        };
        let Some(name) = r.attr(0) else { continue };
        if declared.contains(&name) {
            continue;
        }
        let mut msg = format!("reference to undeclared {kind} `{}.{name}`", r.root());
        if let Some(s) = closest(name, declared.iter().copied()) {
            msg.push_str(&format!("; did you mean `{}.{s}`?", r.root()));
        }
        // Underline `var.name`, not any further attribute steps.
        let end = r.root_range.end() + TextSize::of(".") + TextSize::of(name);
        let range = TextRange::new(r.root_range.start(), end.min(r.range.end()));
        out.push(Diagnostic::new(Code::UndefinedReference, FileRange::new(file, range), msg));
    }
    out
}

/// Every reference outside `locals`, with its file.
fn collect(module: &Module) -> Vec<(FileId, Reference)> {
    let mut out: Vec<(FileId, Reference)> = Vec::new();
    let mut body = |b: &BodyRefs| out.extend(b.refs.iter().map(|r| (b.file, r.clone())));
    for r in &module.resources {
        body(&r.body_refs);
    }
    for o in &module.outputs {
        body(&o.body_refs);
    }
    for p in &module.providers {
        body(&p.body_refs);
    }
    for o in &module.others {
        body(&o.body_refs);
    }
    let mut args: Vec<&Arg> = Vec::new();
    for r in &module.resources {
        args.extend([r.for_each(), r.count(), r.enabled()].into_iter().flatten());
    }
    args.extend(module.providers.iter().filter_map(|p| p.for_each.as_deref()));
    for c in &module.module_calls {
        args.extend([&c.source, &c.version, &c.for_each, &c.count, &c.enabled].into_iter().flatten().map(|b| &**b));
        args.extend(c.inputs.iter());
    }
    for a in args {
        out.extend(references(&a.expr, &[]).into_iter().map(|r| (a.file, r)));
    }
    out
}
