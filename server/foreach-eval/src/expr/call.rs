//! Calling functions, the evaluator's side of the function library (`functions/`): the calling convention (arity,
//! `...` expansion, parameter conversion, null, unknown and sensitive arguments, result budgets, impure and provider
//! functions), `try` and `can`, which evaluate their arguments lazily, and what the library calls back into
//! ([`FnHost`]): the budget, the scope, nested template evaluation.

use super::Evaluator;
use super::functions::{self, FnCtx, FnError, FnHost};
use crate::budget::{Budget, Exceeded};
use crate::convert::convert;
use crate::resolve::{EmptyScope, FileAccess, Resolved, Scope};
use crate::traverse::suggest;
use crate::value::{UnknownCause, Value};
use foreach_base::base::FileRange;
use foreach_base::diagnostics::{Code, Diagnostic};
use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, FuncCall};

impl Evaluator<'_> {
    /// Calls a function: the built-ins of the library (`functions/`), with the calling convention they share.
    pub(crate) fn call_function(&mut self, call: &FuncCall, range: TextRange) -> Value {
        let ev = self;
        if !ev.allow_functions {
            return ev.error(
                Code::EvaluationError,
                range,
                "functions may not be called here: a constant value is required",
            );
        }
        let ns: Vec<&str> = call.name.namespace.iter().map(|i| i.name.as_str()).collect();
        let name = call.name.name.name.as_str();
        let name_range = call.name.name.range;
        match ns.as_slice() {
            [] | ["core"] => {}
            ["provider", _] => {
                let location = ev.range(range);
                return Value::unknown(UnknownCause::ProviderFunction { name: call.name.full_name(), location });
            }
            _ => {
                let msg = format!("call to unknown function `{}`", call.name.full_name());
                return ev.error(Code::UnknownFunction, name_range, msg);
            }
        }
        if functions::IMPURE.contains(&name) {
            // Arguments are still evaluated so their errors are reported.
            for a in &call.args {
                ev.eval(a);
            }
            let location = ev.range(range);
            return Value::unknown(UnknownCause::ImpureFunction { name: name.to_string(), location });
        }
        match name {
            "try" => return ev.call_try(call, range),
            "can" => return ev.call_can(call, range),
            "type" => {
                return ev.error(
                    Code::EvaluationError,
                    name_range,
                    "the `type` function is only available in `terraform console`",
                );
            }
            _ => {}
        }
        let Some(func) = functions::lookup(name) else {
            let mut msg = format!("call to unknown function `{name}`");
            let candidates: Vec<String> = functions::names().into_iter().map(String::from).collect();
            if let Some(s) = suggest(name, candidates.iter().map(String::as_str)) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            return ev.error(Code::UnknownFunction, name_range, msg);
        };
        // Evaluate the arguments, expanding a final `...` argument.
        let mut args: Vec<Value> = Vec::with_capacity(call.args.len());
        let mut arg_ranges: Vec<TextRange> = Vec::with_capacity(call.args.len());
        for (i, a) in call.args.iter().enumerate() {
            let v = ev.eval(a);
            if call.expand_final && i + 1 == call.args.len() {
                let sensitive = v.is_sensitive();
                match v.unmarked() {
                    Value::Unknown(r) => return Value::Unknown(r.clone()),
                    Value::List(_, items) | Value::Tuple(items) | Value::Set(_, items) => {
                        for item in items.iter() {
                            args.push(if sensitive { item.clone().mark_sensitive() } else { item.clone() });
                            arg_ranges.push(a.range);
                        }
                    }
                    Value::Null(_) => {
                        return ev.error(Code::EvaluationError, a.range, "cannot expand a null value with `...`");
                    }
                    other => {
                        let msg = format!(
                            "the final argument must be a list, set or tuple to expand it with `...`, not {}",
                            other.friendly_type()
                        );
                        return ev.error(Code::EvaluationError, a.range, msg);
                    }
                }
            } else {
                args.push(v);
                arg_ranges.push(a.range);
            }
        }
        let n_fixed = func.params.len();
        if args.len() < n_fixed {
            let missing = func.params[args.len()].name;
            let msg = format!("not enough arguments for `{name}`: missing `{missing}`");
            return ev.error(Code::EvaluationError, range, msg);
        }
        if args.len() > n_fixed && func.variadic.is_none() {
            let r = arg_ranges.get(n_fixed).copied().unwrap_or(range);
            let msg = format!("too many arguments for `{name}`: it takes {n_fixed}");
            return ev.error(Code::EvaluationError, r, msg);
        }
        let mut sensitive = false;
        let mut converted = Vec::with_capacity(args.len());
        let mut unknown = None;
        for (i, a) in args.iter().enumerate() {
            let Some(param) = func.params.get(i).or(func.variadic.as_ref()) else { break };
            let marks_aware = matches!(name, "sensitive" | "nonsensitive" | "issensitive");
            let a = if marks_aware {
                a.clone()
            } else if param.passthrough {
                sensitive |= a.is_sensitive();
                a.unmarked().clone()
            } else {
                let (v, marked) = a.unmark_deep();
                sensitive |= marked;
                v
            };
            if let Value::Unknown(r) = a.unmarked() {
                unknown.get_or_insert(r.clone());
                continue;
            }
            if !param.passthrough
                && let Some(r) = a.first_unknown()
            {
                unknown.get_or_insert(r.clone());
                continue;
            }
            if a.is_null() && !param.allow_null {
                let msg = format!("argument `{}` of `{name}` must not be null", param.name);
                return ev.error(Code::EvaluationError, arg_ranges[i], msg);
            }
            match convert(&a, &param.ty.constraint()) {
                Ok(v) => converted.push(v),
                Err(e) => {
                    let msg = format!("invalid value for `{}` of `{name}`: {e}", param.name);
                    return ev.error(Code::EvaluationError, arg_ranges[i], msg);
                }
            }
        }
        if let Some(r) = unknown {
            return Value::Unknown(r);
        }
        let mut cx = FnCtx { host: &mut *ev, range };
        let result = (func.imp)(&mut cx, &converted);
        let v = match result {
            Ok(v) => {
                if v.len() > ev.budget.max_collection {
                    return ev.limit(range, Exceeded::Collection(v.len()));
                }
                v
            }
            Err(FnError::Arg(i, m)) => {
                let r = arg_ranges.get(i).copied().unwrap_or(range);
                return ev.error(Code::EvaluationError, r, format!("invalid argument to `{name}`: {m}"));
            }
            Err(FnError::Msg(m)) => return ev.error(Code::EvaluationError, range, format!("`{name}` failed: {m}")),
            Err(FnError::Limit(x)) => return ev.limit(range, x),
            Err(FnError::Unknown(m)) => {
                let location = ev.range(range);
                return Value::unknown(UnknownCause::Error { message: m, location });
            }
            Err(FnError::MissingFile(path)) => {
                let location = ev.range(range);
                return Value::unknown(UnknownCause::MissingFile { function: name.to_string(), path, location });
            }
            Err(FnError::OutsideRepository { path, link }) => {
                let location = ev.range(range);
                let why = if link { functions::file::LINKS_OUTSIDE } else { functions::file::OUTSIDE };
                let message = format!(
                    "`{name}({path:?})` was not read: {why}, and foreach-ls reads no file outside it, so the value is \
                     unknown here (OpenTofu reads the file when it runs)"
                );
                ev.diagnostics.push(Diagnostic::new(Code::FileOutsideRepository, location, message));
                let function = name.to_string();
                return Value::unknown(UnknownCause::FileOutsideRepository { function, path, link, location });
            }
        };
        if sensitive { v.mark_sensitive() } else { v }
    }

    /// Evaluates `e` and tells whether it failed (reported an error, or is unknown because of an earlier error). Its
    /// diagnostics are dropped, as `try` and `can` swallow the errors, except `file-outside-repository`: that is no
    /// failure (OpenTofu reads the file, so the result is unknown, not the fallback), and the file is still not read.
    fn attempt(&mut self, e: &Expr) -> (Value, bool) {
        let ev = self;
        let mark = ev.diagnostics.len();
        let v = ev.eval(e);
        let mut said = ev.diagnostics.split_off(mark);
        let all = said.len();
        said.retain(|d| d.code == Code::FileOutsideRepository);
        let failed =
            said.len() < all || matches!(v.first_unknown().map(|r| &r.cause), Some(UnknownCause::Error { .. }));
        ev.diagnostics.extend(said);
        (v, failed)
    }

    fn call_try(&mut self, call: &FuncCall, range: TextRange) -> Value {
        let ev = self;
        if call.args.is_empty() {
            return ev.error(Code::EvaluationError, range, "`try` needs at least one argument");
        }
        for a in &call.args {
            let (v, failed) = ev.attempt(a);
            if !failed {
                // An unknown that is not an error might still fail later: the result cannot be known yet.
                return v;
            }
        }
        ev.error(Code::EvaluationError, range, "no expression given to `try` could be evaluated without an error")
    }

    fn call_can(&mut self, call: &FuncCall, range: TextRange) -> Value {
        let ev = self;
        if call.args.len() != 1 {
            return ev.error(Code::EvaluationError, range, "`can` takes exactly one argument");
        }
        let (v, failed) = ev.attempt(&call.args[0]);
        if !failed && let Some(r) = v.first_unknown() {
            return Value::Unknown(r.clone());
        }
        Value::Bool(!failed)
    }
}

impl FnHost for Evaluator<'_> {
    fn budget(&self) -> &Budget {
        &self.budget
    }

    fn scope(&self) -> &dyn Scope {
        self.scope
    }

    fn tick(&mut self, n: u64) -> bool {
        Evaluator::tick(self, n)
    }

    fn in_template(&self) -> bool {
        self.in_template
    }

    fn eval_template(&mut self, template: &Expr, vars: &Value) -> Result<Value, String> {
        let scope = TemplateScope(self.scope);
        let mut sub = Evaluator::new(&scope, self.file, self.ctx, self.budget);
        sub.in_template = true;
        sub.steps = self.steps;
        for (k, v) in vars.as_attrs().into_iter().flat_map(|a| a.iter()) {
            sub.bindings.push((k.clone(), v.clone()));
        }
        let v = sub.eval(template);
        self.steps = sub.steps;
        match sub.diagnostics.first() {
            Some(d) => Err(d.message.clone()),
            None => Ok(v),
        }
    }
}

/// The file functions of the enclosing scope, but no variables or locals.
struct TemplateScope<'a>(&'a dyn Scope);

impl Scope for TemplateScope<'_> {
    fn variable(&self, name: &str, at: FileRange) -> Option<Resolved> {
        EmptyScope.variable(name, at)
    }
    fn local(&self, name: &str, at: FileRange) -> Option<Resolved> {
        EmptyScope.local(name, at)
    }
    fn declared_names(&self, _: &str) -> Vec<&str> {
        Vec::new()
    }
    fn path(&self, which: &str) -> Option<String> {
        self.0.path(which)
    }
    fn workspace(&self) -> Option<String> {
        self.0.workspace()
    }
    fn files(&self) -> Option<FileAccess<'_>> {
        self.0.files()
    }
}
