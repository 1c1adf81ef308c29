//! What references resolve to. [`Scope`] is the evaluator's view of its surroundings; [`ModuleScope`] is the
//! static scope of one module, built from plain data ([`ModuleStaticInputs`]) so the configuration model can
//! construct it without knowing the evaluator's internals.
//!
//! A module scope evaluates variables and locals lazily, once each. Locals are evaluated in dependency order
//! (found syntactically up front), so a chain of a thousand locals costs no recursion depth, and cycles are found
//! by a strongly-connected-components pass before anything runs: every member of a cycle is unknown and the
//! cycle is reported once. Diagnostics are collected as data, never printed. A scope is `Send` (build one per
//! module, on any thread) but not `Sync`: its memo tables use `RefCell`.

use super::budget::Budget;
use super::constraint::Constraint;
use super::convert::convert;
use super::expr::{EvalContext, Evaluator, eval_literal_expr};
use super::functions::file::resolve_path;
use super::name_index::NameIndex;
use super::provisional::{Provisional, settle_all};
pub use super::resolve::{EmptyScope, FileAccess, FileReader, Resolved, Scope};
use super::type_expr::parse_variable_type;
use super::value::{Hop, UnknownCause, Value};
use foreach_base::base::{FileId, FileRange};
use foreach_base::diagnostics::{Code, Diagnostic};
use foreach_syntax::ast::Expr;
use smol_str::SmolStr;
use std::cell::RefCell;
use std::sync::Arc;

/// Everything a module's static scope needs, as plain data.
pub struct ModuleStaticInputs {
    /// `""` for the root module, `module.common` for a child (prefixes the hops of unknown chains).
    pub module_label: String,
    pub variables: Vec<VariableDecl>,
    pub locals: Vec<LocalDecl>,
    pub path_module: String,
    pub path_root: String,
    pub path_cwd: String,
    /// `terraform.workspace` / `tofu.workspace`: the selected workspace, `None` when nothing selects one.
    pub workspace: Option<String>,
    /// Absolute directory file functions may not leave.
    pub workspace_root: String,
    pub files: Option<Arc<dyn FileReader>>,
    pub budget: Budget,
}

pub struct VariableDecl {
    pub name: SmolStr,
    /// The declaration to point at (the `variable "name"` label or block).
    pub decl: FileRange,
    pub type_expr: Option<(FileId, Arc<Expr>)>,
    pub default: Option<(FileId, Arc<Expr>)>,
    pub nullable: bool,
    pub sensitive: bool,
    /// Set when OpenTofu refuses the variable in static context (`ephemeral = true`, `const = false`): references
    /// to it are then unknown with that reason, whatever its value.
    pub non_static: Option<super::NonStatic>,
    pub supplied: Option<SuppliedValue>,
    /// The root variables' defaults this variable's value rests on while they may not be what runs (its own
    /// default in a root module that cannot run as it is; what its calling argument rests on in a child):
    /// findings that rest on it are provisional (`provisional.rs`).
    pub provisional: Option<Arc<Provisional>>,
    /// Set when the default must not be used because something outside may override it (completes "it may be
    /// overridden: …"): with no supplied value, the variable is then unknown instead.
    pub default_not_final: Option<Arc<str>>,
}

pub struct LocalDecl {
    pub name: SmolStr,
    pub file: FileId,
    /// The whole `name = expr` attribute.
    pub range: FileRange,
    pub expr: Arc<Expr>,
}

/// A value given for a variable from outside the module, already evaluated.
#[derive(Debug, Clone)]
pub struct SuppliedValue {
    pub value: Value,
    pub source: ValueSource,
    /// For a module argument: the root defaults it rests on (`provisional.rs`).
    pub provisional: Option<Arc<Provisional>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueSource {
    /// The `name = value` in a `.tfvars` file.
    Tfvars(FileRange),
    /// `-var name=value` / `--var`.
    CommandLine,
    /// `TF_VAR_name`.
    Environment,
    /// The argument of the calling `module` block.
    ModuleArgument(FileRange),
}

/// The static scope of one module. See the module docs.
pub struct ModuleScope {
    inputs: ModuleStaticInputs,
    // Positions in `inputs`, hashed with Fx (`name_index.rs`): every `var.`/`local.` reference looks a name up here,
    // and a scope is built per instance after every change, so the names are neither copied nor hashed slowly.
    var_index: NameIndex,
    local_index: NameIndex,
    local_deps: Vec<Vec<usize>>,
    var_values: RefCell<Vec<Option<Value>>>,
    local_values: RefCell<Vec<Option<Value>>>,
    /// Whether each memoised local is wholly known, computed on first reference, so references to a big known
    /// value do not rescan it for unknowns to annotate.
    local_known: RefCell<Vec<Option<bool>>>,
    /// An upper bound of each evaluated local's value depth (exact where it was measured). Values are measured
    /// only when the bound passes the budget, so chains of locals cannot build values too deep to walk.
    local_depth: RefCell<Vec<usize>>,
    /// The deepest variable value evaluated so far (every variable a local uses is evaluated before the local).
    max_var_depth: std::cell::Cell<usize>,
    in_progress: RefCell<Vec<bool>>,
    diagnostics: RefCell<Vec<Diagnostic>>,
    /// Whether any variable is provisional; when none is (nearly always), nothing is tracked.
    any_provisional: bool,
    /// What each evaluated local rests on (`provisional.rs`), computed with its value, after its dependencies.
    local_provisional: RefCell<Vec<Option<Arc<Provisional>>>>,
}

/// All variable and local values of a module, after [`ModuleScope::evaluate_all`].
#[derive(Debug, Clone)]
pub struct ModuleValues {
    pub variables: Vec<(String, Value)>,
    pub locals: Vec<(String, Value)>,
}

impl ModuleScope {
    pub fn new(inputs: ModuleStaticInputs) -> ModuleScope {
        let var_index = NameIndex::new(inputs.variables.iter().map(|v| v.name.as_str()));
        let local_index = NameIndex::new(inputs.locals.iter().map(|l| l.name.as_str()));
        let local_at = |i: usize| inputs.locals[i].name.as_str();
        let local_deps: Vec<Vec<usize>> = inputs
            .locals
            .iter()
            .map(|l| {
                let mut deps: Vec<usize> =
                    super::deps::local_refs(&l.expr).iter().filter_map(|n| local_index.get(n, local_at)).collect();
                deps.sort_unstable();
                deps.dedup();
                deps
            })
            .collect();
        let n = inputs.locals.len();
        let scope = ModuleScope {
            var_values: RefCell::new(vec![None; inputs.variables.len()]),
            local_values: RefCell::new(vec![None; n]),
            local_known: RefCell::new(vec![None; n]),
            local_depth: RefCell::new(vec![1; n]),
            max_var_depth: std::cell::Cell::new(0),
            in_progress: RefCell::new(vec![false; n]),
            diagnostics: RefCell::new(Vec::new()),
            any_provisional: inputs.variables.iter().any(|v| v.provisional.is_some()),
            local_provisional: RefCell::new(if inputs.variables.iter().any(|v| v.provisional.is_some()) {
                vec![None; n]
            } else {
                Vec::new()
            }),
            inputs,
            var_index,
            local_index,
            local_deps,
        };
        scope.mark_cycles();
        scope
    }

    fn var_index(&self, name: &str) -> Option<usize> {
        self.var_index.get(name, |i| self.inputs.variables[i].name.as_str())
    }

    fn local_index(&self, name: &str) -> Option<usize> {
        self.local_index.get(name, |i| self.inputs.locals[i].name.as_str())
    }

    /// Evaluates an expression of this module (a provider `for_each`, a module argument...).
    pub fn eval(&self, file: FileId, expr: &Expr, ctx: &EvalContext) -> Value {
        let mut ev = Evaluator::new(self, file, ctx, self.inputs.budget);
        let v = ev.eval(expr);
        if !ev.diagnostics.is_empty() {
            settle_all(&mut ev.diagnostics, self.provisional(expr).as_deref());
        }
        self.diagnostics.borrow_mut().extend(ev.diagnostics);
        v
    }

    /// The defaults that may not be what runs which an expression of this module rests on: those of the variables
    /// it names and those the locals it names rest on (`provisional.rs`). `None` for nearly every expression.
    pub fn provisional(&self, expr: &Expr) -> Option<Arc<Provisional>> {
        if !self.any_provisional {
            return None;
        }
        let mut out = self.vars_provisional(expr);
        for name in super::deps::local_refs(expr) {
            if let Some(idx) = self.local_index(name) {
                self.ensure_local(idx);
                out = Provisional::union(out, self.local_provisional.borrow()[idx].as_ref());
            }
        }
        out
    }

    /// What the variables an expression names directly rest on.
    fn vars_provisional(&self, expr: &Expr) -> Option<Arc<Provisional>> {
        let mut out = None;
        for name in super::deps::var_refs(expr) {
            if let Some(idx) = self.var_index(name) {
                out = Provisional::union(out, self.inputs.variables[idx].provisional.as_ref());
            }
        }
        out
    }

    /// The value of `local.NAME` (unknown with a reason if it cannot be known), `None` if undeclared.
    pub fn local_value(&self, name: &str) -> Option<Value> {
        let idx = self.local_index(name)?;
        Some(self.ensure_local(idx))
    }

    /// The value of `var.NAME` after type conversion, `None` if undeclared.
    pub fn variable_value(&self, name: &str) -> Option<Value> {
        let idx = self.var_index(name)?;
        Some(self.ensure_variable(idx))
    }

    /// Where the value of `var.NAME` came from when it was supplied from outside the module; `None` when the
    /// variable is undeclared or nothing was supplied (the declared default applies).
    pub fn variable_source(&self, name: &str) -> Option<&ValueSource> {
        let idx = self.var_index(name)?;
        self.inputs.variables[idx].supplied.as_ref().map(|s| &s.source)
    }

    /// Evaluates every variable and local (what `foreach-ls check` needs to report all errors).
    pub fn evaluate_all(&self) -> ModuleValues {
        let variables = (0..self.inputs.variables.len())
            .map(|i| (self.inputs.variables[i].name.to_string(), self.ensure_variable(i)))
            .collect();
        let locals = (0..self.inputs.locals.len())
            .map(|i| (self.inputs.locals[i].name.to_string(), self.ensure_local(i)))
            .collect();
        ModuleValues { variables, locals }
    }

    /// Evaluates every variable and local for their diagnostics, keeping the values only in this scope.
    pub fn evaluate_every_declaration(&self) {
        for i in 0..self.inputs.variables.len() {
            self.ensure_variable(i);
        }
        for i in 0..self.inputs.locals.len() {
            self.ensure_local(i);
        }
    }

    /// Diagnostics found so far (cycles, undefined references, failed evaluations, invalid variable values).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics.borrow().clone()
    }

    pub fn take_diagnostics(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.diagnostics.borrow_mut())
    }

    fn label(&self, name: String) -> String {
        if self.inputs.module_label.is_empty() { name } else { format!("{}:{name}", self.inputs.module_label) }
    }

    fn report(&self, d: Diagnostic) {
        self.diagnostics.borrow_mut().push(d);
    }

    fn ensure_local(&self, idx: usize) -> Value {
        if let Some(v) = &self.local_values.borrow()[idx] {
            return v.clone();
        }
        // Evaluate dependencies first, in post-order, with an explicit stack (no recursion on chain length).
        // Usually they are all done already (evaluation in declaration order), so skip the walk then.
        let deps_done = self.local_deps[idx].iter().all(|&d| self.local_values.borrow()[d].is_some());
        let mut order = Vec::new();
        if deps_done {
            order.push(idx);
        }
        let mut stack = if deps_done { Vec::new() } else { vec![(idx, 0usize)] };
        let mut visited = std::collections::HashSet::new();
        visited.insert(idx);
        while let Some((node, next)) = stack.pop() {
            if let Some(&dep) = self.local_deps[node].get(next) {
                stack.push((node, next + 1));
                if self.local_values.borrow()[dep].is_none() && visited.insert(dep) {
                    stack.push((dep, 0));
                }
            } else {
                order.push(node);
            }
        }
        for node in order {
            if self.local_values.borrow()[node].is_some() || self.in_progress.borrow()[node] {
                continue;
            }
            self.in_progress.borrow_mut()[node] = true;
            let decl = &self.inputs.locals[node];
            let ctx = EvalContext { origin: self.label(format!("local.{}", decl.name)), ..EvalContext::default() };
            let mut ev = Evaluator::new(self, decl.file, &ctx, self.inputs.budget);
            let mut v = ev.eval(&decl.expr);
            if self.any_provisional {
                // Its dependencies are evaluated (and their provisional sets known) before it.
                let mut p = self.vars_provisional(&decl.expr);
                for &dep in &self.local_deps[node] {
                    p = Provisional::union(p, self.local_provisional.borrow()[dep].as_ref());
                }
                settle_all(&mut ev.diagnostics, p.as_deref());
                self.local_provisional.borrow_mut()[node] = p;
            }
            self.diagnostics.borrow_mut().extend(ev.diagnostics);
            v = self.bound_depth(node, v);
            if !ev.maybe_unknown {
                self.local_known.borrow_mut()[node] = Some(true);
            }
            self.in_progress.borrow_mut()[node] = false;
            self.local_values.borrow_mut()[node] = Some(v);
        }
        let v = self.local_values.borrow()[idx].clone();
        // Only reachable if the dependency scan missed an edge and the local re-entered itself.
        v.unwrap_or_else(|| {
            let decl = &self.inputs.locals[idx];
            Value::unknown(UnknownCause::Error {
                message: format!("`local.{}` refers to itself", decl.name),
                location: decl.range,
            })
        })
    }

    /// Records the depth bound of a freshly evaluated local, measuring (and refusing) values that are too deep.
    /// Measuring walks the whole value, so it happens only when the bound computed from the expression and the
    /// bounds of what it refers to passes the budget.
    fn bound_depth(&self, node: usize, v: Value) -> Value {
        let decl = &self.inputs.locals[node];
        let mut bound = {
            let depths = self.local_depth.borrow();
            let local = |name: &str| self.local_index(name).map_or(1, |i| depths[i]);
            super::deps::value_depth_bound(&decl.expr, &local, self.max_var_depth.get(), 0)
        };
        let limit = self.inputs.budget.max_value_depth;
        if bound > limit {
            bound = v.depth();
            if bound > limit {
                let what = super::budget::Exceeded::ValueDepth(bound);
                let message = format!("`local.{}`: {}", decl.name, what.message(&self.inputs.budget));
                self.report(Diagnostic::new(Code::EvaluationLimit, decl.range, message.clone()));
                self.local_depth.borrow_mut()[node] = 1;
                return Value::unknown(UnknownCause::Limit { message, location: decl.range });
            }
        }
        self.local_depth.borrow_mut()[node] = bound;
        v
    }

    fn ensure_variable(&self, idx: usize) -> Value {
        if let Some(v) = &self.var_values.borrow()[idx] {
            return v.clone();
        }
        let mut v = self.compute_variable(idx);
        // Variables are measured once: values passed between modules can nest without bound.
        let depth = v.depth();
        self.max_var_depth.set(self.max_var_depth.get().max(depth));
        if depth > self.inputs.budget.max_value_depth / 2 {
            let decl = &self.inputs.variables[idx];
            let what = super::budget::Exceeded::ValueDepth(depth);
            let message = format!("`var.{}`: {}", decl.name, what.message(&self.inputs.budget));
            self.report(Diagnostic::new(Code::EvaluationLimit, decl.decl, message.clone()));
            v = Value::unknown(UnknownCause::Limit { message, location: decl.decl });
        }
        self.var_values.borrow_mut()[idx] = Some(v.clone());
        v
    }

    fn compute_variable(&self, idx: usize) -> Value {
        let decl = &self.inputs.variables[idx];
        let constraint = match &decl.type_expr {
            None => Constraint::Any,
            Some((file, texpr)) => {
                let eval_default = |e: &Expr| -> Result<Value, String> {
                    eval_literal_expr(*file, e).map_err(|d| d.first().map(|d| d.message.clone()).unwrap_or_default())
                };
                match parse_variable_type(texpr, &eval_default) {
                    Ok(c) => c,
                    Err(e) => {
                        let location = FileRange::new(*file, e.range);
                        self.report(Diagnostic::new(
                            Code::EvaluationError,
                            location,
                            format!("invalid type constraint: {}", e.message),
                        ));
                        return Value::unknown(UnknownCause::Error { message: e.message, location });
                    }
                }
            }
        };
        let fail = |location: FileRange, message: String| -> Value {
            let mut d = Diagnostic::new(Code::InvalidVariableValue, location, message.clone())
                .with_related(decl.decl, "variable declared here");
            // A supplied value that rests on a provisional default is provisional; a default is checked as written.
            if decl.supplied.is_some()
                && let Some(p) = &decl.provisional
            {
                p.settle(&mut d);
            }
            self.report(d);
            Value::unknown(UnknownCause::Error { message, location })
        };
        let from_default = || -> Option<Value> {
            let (file, dexpr) = decl.default.as_ref()?;
            let location = FileRange::new(*file, dexpr.range);
            Some(match eval_literal_expr(*file, dexpr) {
                Ok(v) => match convert(&v, &constraint) {
                    Ok(v) => v,
                    Err(e) => fail(location, format!("invalid default value for variable `{}`: {e}", decl.name)),
                },
                Err(ds) => {
                    let msg = ds.first().map(|d| d.message.clone()).unwrap_or_default();
                    fail(location, format!("invalid default value for variable `{}`: {msg}", decl.name))
                }
            })
        };
        let value = match &decl.supplied {
            Some(s) => {
                let location = match s.source {
                    ValueSource::Tfvars(r) | ValueSource::ModuleArgument(r) => r,
                    ValueSource::CommandLine | ValueSource::Environment => decl.decl,
                };
                let from = match s.source {
                    ValueSource::Tfvars(_) => "",
                    ValueSource::ModuleArgument(_) => "",
                    ValueSource::CommandLine => " (given with --var)",
                    ValueSource::Environment => " (given in the environment)",
                };
                if s.value.is_null() && !decl.nullable {
                    match from_default() {
                        Some(v) => v,
                        None => fail(location, format!("variable `{}` must not be null{from}", decl.name)),
                    }
                } else {
                    match convert(&s.value, &constraint) {
                        Ok(v) => v,
                        Err(e) => fail(location, format!("invalid value for variable `{}`{from}: {e}", decl.name)),
                    }
                }
            }
            None => match from_default() {
                // Checked as written (OpenTofu rejects an invalid default whatever is supplied), not used.
                Some(_) if decl.default_not_final.is_some() => Value::unknown(UnknownCause::DefaultNotFinal {
                    name: decl.name.to_string(),
                    declaration: decl.decl,
                    why: decl.default_not_final.as_deref().unwrap_or_default().to_string(),
                }),
                Some(v) => v,
                None => Value::unknown(UnknownCause::VariableWithoutValue {
                    name: decl.name.to_string(),
                    module: self.inputs.module_label.clone(),
                    declaration: decl.decl,
                }),
            },
        };
        if decl.sensitive { value.mark_sensitive() } else { value }
    }

    /// Finds cycles among locals (Tarjan's SCC, iterative), reports each once and makes its members unknown.
    fn mark_cycles(&self) {
        for scc in super::deps::cycles(&self.local_deps) {
            let path = super::deps::cycle_path(&scc, &self.local_deps);
            let names: Vec<String> = path.iter().map(|&i| format!("local.{}", self.inputs.locals[i].name)).collect();
            let first = path[0];
            let text = format!("{} -> {}", names.join(" -> "), names[0]);
            let location = self.inputs.locals[first].range;
            let mut d = Diagnostic::new(
                Code::ReferenceCycle,
                location,
                format!("local values refer to each other in a cycle: {text}"),
            );
            for &i in path.iter().skip(1) {
                d = d.with_related(
                    self.inputs.locals[i].range,
                    format!("`local.{}` is part of the cycle", self.inputs.locals[i].name),
                );
            }
            self.report(d);
            for &i in &scc {
                let message = format!("`local.{}` is part of the reference cycle {text}", self.inputs.locals[i].name);
                self.local_values.borrow_mut()[i] =
                    Some(Value::unknown(UnknownCause::Error { message, location: self.inputs.locals[i].range }));
            }
        }
    }
}

impl Scope for ModuleScope {
    fn variable(&self, name: &str, referenced_at: FileRange) -> Option<Resolved> {
        let idx = self.var_index(name)?;
        // Everything a module scope evaluates is what OpenTofu evaluates before planning (for_each of providers,
        // module sources, keys, backend settings), where these variables are refused.
        if let Some(why) = self.inputs.variables[idx].non_static {
            let decl = &self.inputs.variables[idx];
            let cause = UnknownCause::NonStaticVariable {
                name: decl.name.to_string(),
                module: self.inputs.module_label.clone(),
                why,
                declaration: decl.decl,
                location: referenced_at,
            };
            return Some(Resolved { value: Value::unknown(cause), wholly_known: false });
        }
        let v = self.ensure_variable(idx);
        // Variable values are small and scanned once per reference.
        if v.is_wholly_known() {
            return Some(Resolved { value: v, wholly_known: true });
        }
        let decl = &self.inputs.variables[idx];
        let hop = Hop { name: self.label(format!("var.{name}")).into(), declaration: decl.decl, referenced_at };
        Some(Resolved { value: v.map_unknowns(&|r| r.with_hop(hop.clone())), wholly_known: false })
    }

    fn local(&self, name: &str, referenced_at: FileRange) -> Option<Resolved> {
        let idx = self.local_index(name)?;
        let v = self.ensure_local(idx);
        let known = *self.local_known.borrow_mut()[idx].get_or_insert_with(|| v.is_wholly_known());
        if known {
            return Some(Resolved { value: v, wholly_known: true });
        }
        let decl = &self.inputs.locals[idx];
        let hop = Hop { name: self.label(format!("local.{name}")).into(), declaration: decl.range, referenced_at };
        Some(Resolved { value: v.map_unknowns(&|r| r.with_hop(hop.clone())), wholly_known: false })
    }

    fn declared_names(&self, root: &str) -> Vec<&str> {
        match root {
            "var" => self.inputs.variables.iter().map(|v| v.name.as_str()).collect(),
            "local" => self.inputs.locals.iter().map(|l| l.name.as_str()).collect(),
            _ => Vec::new(),
        }
    }

    fn path(&self, which: &str) -> Option<String> {
        match which {
            "module" => Some(self.inputs.path_module.clone()),
            "root" => Some(self.inputs.path_root.clone()),
            "cwd" => Some(self.inputs.path_cwd.clone()),
            _ => None,
        }
    }

    fn workspace(&self) -> Option<String> {
        self.inputs.workspace.clone()
    }

    fn files(&self) -> Option<FileAccess<'_>> {
        let reader = self.inputs.files.as_deref()?;
        Some(FileAccess { reader, base_dir: &self.inputs.path_cwd, root: &self.inputs.workspace_root })
    }
}

/// Where a file function's path argument points, or why it may not be read.
pub fn confine(access: &FileAccess<'_>, path: &str) -> Result<String, String> {
    resolve_path(access.base_dir, access.root, path)
}
