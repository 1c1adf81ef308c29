//! The expression evaluator: walks an AST expression and computes its value the way HCL and OpenTofu do, with
//! references resolved through a [`Scope`] and failures turned into diagnostics plus an unknown value (so one
//! error never cascades into more).
//!
//! It recurses only on the AST (whose depth the parser caps) and guards that with the budget's depth limit;
//! loops over values count steps. References, traversals and splats are in `traverse.rs`, templates in
//! `template.rs`, operators in `ops.rs`, function calls in `functions/`.

use super::attrs::SortedBuilder;
use super::budget::{Budget, Exceeded};
use super::constraint::Constraint;
use super::convert::{convert, to_string};
use super::resolve::Scope;
use super::types::Type;
use super::value::{UnknownCause, UnknownReason, Value};
use foreach_base::base::{FileId, FileRange};
use foreach_base::diagnostics::{Code, Diagnostic};
use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, ForExpr, ObjectKey};
use smol_str::SmolStr;
use std::sync::Arc;

mod call;
pub mod functions;
mod ops;

/// Where an expression is evaluated: the `each`/`count` of its block, if any, and a label for messages and
/// unknown chains (`provider "aws" (by_region) for_each`).
#[derive(Debug, Clone, Default)]
pub struct EvalContext {
    /// `each.key` and `each.value`.
    pub each: Option<(Value, Value)>,
    /// `count.index`.
    pub count: Option<Value>,
    pub origin: String,
}

/// One evaluation run over one file's expressions. Build it through [`Scope`] implementations; it collects
/// diagnostics in `diagnostics` rather than reporting them anywhere.
pub struct Evaluator<'a> {
    pub(crate) scope: &'a dyn Scope,
    pub(crate) file: FileId,
    pub(crate) ctx: &'a EvalContext,
    pub(crate) budget: Budget,
    /// `for` and template-`for` variables, innermost last.
    pub(crate) bindings: Vec<(SmolStr, Value)>,
    pub diagnostics: Vec<Diagnostic>,
    depth: usize,
    pub(crate) steps: u64,
    /// False guarantees that no value seen so far contains an unknown, so results need no scan for unknowns.
    /// Set whenever an expression evaluates to an unknown, a reference resolves to a value that may contain
    /// one, or `each`/`count` values are in play: every unknown starts at one of those.
    pub maybe_unknown: bool,
    /// Inside `templatefile`/`templatestring`, which may not call themselves again.
    pub(crate) in_template: bool,
    /// False for constant expressions (variable defaults, `.tfvars` values), where OpenTofu allows no calls.
    pub(crate) allow_functions: bool,
}

/// Evaluates a constant expression (a `.tfvars` value, a `-var` value, a variable default, an `optional`
/// default): literals, operators, templates and `for` expressions, but no references and no function calls, as
/// in OpenTofu ("Functions may not be called here").
pub fn eval_literal_expr(file: FileId, expr: &Expr) -> Result<Value, Vec<Diagnostic>> {
    let scope = super::resolve::EmptyScope;
    let ctx = EvalContext::default();
    let mut ev = Evaluator::new(&scope, file, &ctx, Budget::default());
    ev.allow_functions = false;
    let v = ev.eval(expr);
    if !ev.diagnostics.is_empty() {
        return Err(ev.diagnostics);
    }
    if let Some(r) = v.first_unknown() {
        return Err(vec![Diagnostic::new(
            Code::EvaluationError,
            r.location(),
            format!("{}: a constant value is required here", r.explanation()),
        )]);
    }
    Ok(v)
}

/// The values of the integer literals below 1024, built once: literals inside `for` bodies are evaluated on
/// every iteration, and a 512-bit number costs two allocations each time.
fn small_literal(text: &str) -> Option<Value> {
    static SMALL: std::sync::LazyLock<Vec<Value>> = std::sync::LazyLock::new(|| {
        (0..1024).map(|i| Value::number(super::number::Number::from_int_literal(i))).collect()
    });
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    SMALL.get(text.parse::<usize>().ok()?).cloned()
}

impl<'a> Evaluator<'a> {
    pub fn new(scope: &'a dyn Scope, file: FileId, ctx: &'a EvalContext, budget: Budget) -> Evaluator<'a> {
        let maybe_unknown = ctx.each.is_some() || ctx.count.is_some();
        Evaluator {
            scope,
            file,
            ctx,
            budget,
            bindings: Vec::new(),
            diagnostics: Vec::new(),
            depth: 0,
            steps: 0,
            maybe_unknown,
            in_template: false,
            allow_functions: true,
        }
    }

    pub fn range(&self, r: TextRange) -> FileRange {
        FileRange::new(self.file, r)
    }

    /// Reports an error diagnostic and returns the unknown that stands for the failed result.
    pub fn error(&mut self, code: Code, range: TextRange, message: impl Into<String>) -> Value {
        let message = message.into();
        let location = self.range(range);
        self.diagnostics.push(Diagnostic::new(code, location, message.clone()));
        Value::unknown(UnknownCause::Error { message, location })
    }

    pub fn limit(&mut self, range: TextRange, what: Exceeded) -> Value {
        let message = what.message(&self.budget);
        let location = self.range(range);
        self.diagnostics.push(Diagnostic::new(Code::EvaluationLimit, location, message.clone()));
        Value::unknown(UnknownCause::Limit { message, location })
    }

    /// Counts `n` steps of work; false when the step budget is exhausted.
    pub fn tick(&mut self, n: u64) -> bool {
        self.steps += n;
        self.steps <= self.budget.max_steps
    }

    pub fn eval(&mut self, expr: &Expr) -> Value {
        if self.depth >= self.budget.max_depth {
            return self.limit(expr.range, Exceeded::Depth);
        }
        if !self.tick(1) {
            return self.limit(expr.range, Exceeded::Steps);
        }
        self.depth += 1;
        let v = self.eval_inner(expr);
        self.depth -= 1;
        if let Value::Unknown(_) = v {
            self.maybe_unknown = true;
        }
        v
    }

    fn eval_inner(&mut self, expr: &Expr) -> Value {
        match &expr.kind {
            ExprKind::Null => Value::null(),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Number(text) => match small_literal(text) {
                Some(v) => v,
                None => match super::number::Number::parse(text) {
                    Some(n) => Value::number(n),
                    None => self.error(Code::EvaluationError, expr.range, format!("`{text}` is not a valid number")),
                },
            },
            ExprKind::Template(t) => self.eval_template(t, expr.range),
            ExprKind::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.eval(item));
                }
                Value::tuple(out)
            }
            ExprKind::Object(items) => {
                // Collected whole, so a big object is one sorted vector (`attrs.rs`); a later duplicate key wins.
                let mut out = Vec::with_capacity(items.len());
                let mut pending_unknown = None;
                for item in items {
                    let key = match &item.key {
                        ObjectKey::Ident(i) => Value::String(i.name.clone()),
                        ObjectKey::Expr(e) => self.object_key(e),
                    };
                    let value = self.eval(&item.value);
                    match key {
                        Value::Unknown(r) => pending_unknown = Some(r),
                        Value::String(k) => out.push((k, value)),
                        _ => {}
                    }
                }
                // An unknown key makes the whole object's type unknown, as in HCL.
                match pending_unknown {
                    Some(r) => Value::Unknown(r),
                    None => Value::object(out.into_iter().collect()),
                }
            }
            ExprKind::Variable(_) | ExprKind::Traversal { .. } => self.eval_traversal(expr),
            ExprKind::FuncCall(call) => self.call_function(call, expr.range),
            ExprKind::Parenthesis(inner) => self.eval(inner),
            ExprKind::Conditional { cond, then_expr, else_expr } => self.eval_conditional(cond, then_expr, else_expr),
            ExprKind::Unary { op, operand } => {
                let v = self.eval(operand);
                self.unary_op(*op, v, expr.range)
            }
            ExprKind::Binary { lhs, op, rhs } => {
                let l = self.eval(lhs);
                // OpenTofu 1.10+ short-circuits `&&` and `||`: `var.x == null || var.x.y == 1` does not fail when
                // `var.x` is null, because the right side is not evaluated once the left decides the result.
                // (Terraform 1.11, the differential oracle, still evaluates both sides.)
                // The skipped side is still evaluated for OpenTofu's static validation (a reference to an
                // undeclared variable is an error there too); its evaluation errors are dropped.
                if let Some(decided) = Self::short_circuit(*op, &l) {
                    let before = self.diagnostics.len();
                    self.eval(rhs);
                    let kept: Vec<Diagnostic> =
                        self.diagnostics.drain(before..).filter(|d| d.code == Code::UndefinedReference).collect();
                    self.diagnostics.extend(kept);
                    return decided;
                }
                let r = self.eval(rhs);
                self.binary_op(*op, (l, lhs.range), (r, rhs.range), expr.range)
            }
            ExprKind::For(f) => self.eval_for(f, expr.range),
            ExprKind::Invalid => Value::unknown(UnknownCause::Invalid { location: self.range(expr.range) }),
        }
    }

    /// An object key expression: a string (numbers and bools convert), never null.
    fn object_key(&mut self, e: &Expr) -> Value {
        // `{ (foo) = 1 }` and `{ foo = 1 }` differ; a bare name that the parser kept as an expression is a string.
        if let ExprKind::Variable(id) = &e.kind
            && self.binding(&id.name).is_none()
        {
            return Value::String(id.name.clone());
        }
        let k = self.eval(e);
        self.key_string(k, e.range)
    }

    fn key_string(&mut self, k: Value, range: TextRange) -> Value {
        match k.unmarked() {
            Value::Unknown(r) => Value::Unknown(r.clone()),
            Value::Null(_) => self.error(Code::EvaluationError, range, "object key must not be null"),
            v => match to_string(v) {
                Ok(s) => Value::String(s),
                Err(_) => self.error(
                    Code::EvaluationError,
                    range,
                    format!("object key must be a string, not {}", v.friendly_type()),
                ),
            },
        }
    }

    pub(crate) fn binding(&self, name: &str) -> Option<&Value> {
        self.bindings.iter().rev().find(|(n, _)| &**n == name).map(|(_, v)| v)
    }

    /// HCL's `ConditionalExpr`: both results are evaluated and their types unified (cty's unsafe unification)
    /// before the condition is looked at, so mismatched types are an error whatever the condition; only the
    /// chosen result's errors count, and it is converted to the unified type (`c ? toset(["a"]) : []` is a set).
    /// The marks of the condition and of both results all go on the result.
    fn eval_conditional(&mut self, cond: &Expr, then_expr: &Expr, else_expr: &Expr) -> Value {
        let mark = self.diagnostics.len();
        let c = self.eval(cond);
        let c_diags: Vec<Diagnostic> = self.diagnostics.drain(mark..).collect();
        let t = self.eval(then_expr);
        let t_diags: Vec<Diagnostic> = self.diagnostics.drain(mark..).collect();
        let e = self.eval(else_expr);
        let e_diags: Vec<Diagnostic> = self.diagnostics.drain(mark..).collect();
        let is_plain_null = |v: &Value| matches!(v, Value::Null(Type::Dynamic));
        let (tt, et) = (t.unmarked().type_of(), e.unmarked().type_of());
        // A literal `null` takes the other result's type; an unknown (dynamic) result leaves the type open.
        let result_type = if is_plain_null(&t) {
            Some(et.clone())
        } else if is_plain_null(&e) {
            Some(tt.clone())
        } else if tt == Type::Dynamic || et == Type::Dynamic {
            Some(Type::Dynamic)
        } else {
            // Our unknowns carry no type, so an unknown inside a result (`{ url = module.q[0].url }`) is `Dynamic`
            // where OpenTofu has a real type (a string), or even a failing branch that makes the whole result
            // dynamic. When unification fails only perhaps because of that, the result type is left open rather
            // than reported (philips-labs/terraform-aws-github-runner: `enabled ? { n = 1, url = … } : {}`).
            super::unify::unify(&[tt.clone(), et.clone()], true)
                .or_else(|| (tt.has_dynamic() || et.has_dynamic()).then_some(Type::Dynamic))
        };
        let Some(result_type) = result_type else {
            return self.error(
                Code::EvaluationError,
                then_expr.range.cover(else_expr.range),
                format!(
                    "inconsistent conditional result types: the true result is {} and the false result is {}",
                    tt.friendly_name(),
                    et.friendly_name()
                ),
            );
        };
        self.diagnostics.extend(c_diags);
        let sensitive = c.is_sensitive() || t.is_sensitive() || e.is_sensitive();
        let choice = match c.unmarked() {
            Value::Unknown(r) => return Value::Unknown(r.clone()),
            Value::Null(_) => {
                return self.error(Code::EvaluationError, cond.range, "the condition value is null");
            }
            v => match convert(v, &Constraint::Bool) {
                Ok(Value::Bool(b)) => b,
                _ => {
                    return self.error(
                        Code::EvaluationError,
                        cond.range,
                        format!("the condition must be a bool, not {}", v.friendly_type()),
                    );
                }
            },
        };
        let (chosen, diags, range, which) = if choice {
            (t.unmarked(), t_diags, then_expr.range, "true")
        } else {
            (e.unmarked(), e_diags, else_expr.range, "false")
        };
        self.diagnostics.extend(diags);
        let result = if chosen.type_of() == result_type {
            chosen.clone()
        } else {
            match convert(chosen, &Constraint::from_type(&result_type)) {
                Ok(v) => v,
                Err(err) => {
                    let msg = format!(
                        "inconsistent conditional result types: the {which} result value has the wrong type: {err}"
                    );
                    self.error(Code::EvaluationError, range, msg)
                }
            }
        };
        if sensitive { result.mark_sensitive() } else { result }
    }

    fn eval_for(&mut self, f: &ForExpr, range: TextRange) -> Value {
        let coll = self.eval(&f.collection);
        let sensitive = coll.is_sensitive();
        let coll = coll.unmarked().clone();
        let pairs: Vec<(Value, Value)> = match &coll {
            Value::Unknown(r) => return Value::Unknown(r.clone()),
            Value::Null(_) => {
                return self.error(Code::EvaluationError, f.collection.range, "cannot iterate over a null value");
            }
            Value::List(_, items) | Value::Tuple(items) => {
                items.iter().enumerate().map(|(i, v)| (Value::int(i as i64), v.clone())).collect()
            }
            Value::Set(_, items) => items.iter().map(|v| (v.clone(), v.clone())).collect(),
            Value::Map(_, attrs) | Value::Object(attrs) => {
                attrs.iter().map(|(k, v)| (Value::String(k.clone()), v.clone())).collect()
            }
            v => {
                return self.error(
                    Code::EvaluationError,
                    f.collection.range,
                    format!("a `for` expression needs a collection, not {}", v.friendly_type()),
                );
            }
        };
        if pairs.len() > self.budget.max_collection {
            return self.limit(range, Exceeded::Collection(pairs.len()));
        }
        let mut tuple_out = Vec::new();
        let mut object_out = SortedBuilder::new();
        let mut group_items: std::collections::BTreeMap<String, Vec<Value>> = std::collections::BTreeMap::new();
        let mut unknown: Option<Arc<UnknownReason>> = None;
        // Names are shared, not copied, on every iteration.
        let key_name: Option<SmolStr> = f.key_var.as_ref().map(|k| k.name.clone());
        let value_name: SmolStr = f.value_var.name.clone();
        for (k, v) in pairs {
            if !self.tick(1) {
                return self.limit(range, Exceeded::Steps);
            }
            let pushed = if let Some(kv) = &key_name {
                self.bindings.push((kv.clone(), k));
                2
            } else {
                1
            };
            self.bindings.push((value_name.clone(), v));
            let keep = match &f.cond {
                None => Some(true),
                Some(c) => {
                    let cv = self.eval(c);
                    match cv.unmarked() {
                        Value::Unknown(r) => {
                            unknown.get_or_insert_with(|| r.clone());
                            None
                        }
                        Value::Bool(b) => Some(*b),
                        Value::Null(_) => {
                            let e = self.error(Code::EvaluationError, c.range, "the `for` condition is null");
                            self.bindings.truncate(self.bindings.len() - pushed);
                            return e;
                        }
                        other => match convert(other, &Constraint::Bool) {
                            Ok(Value::Bool(b)) => Some(b),
                            _ => {
                                let msg = format!("the `for` condition must be a bool, not {}", other.friendly_type());
                                let e = self.error(Code::EvaluationError, c.range, msg);
                                self.bindings.truncate(self.bindings.len() - pushed);
                                return e;
                            }
                        },
                    }
                }
            };
            if keep == Some(true) {
                match &f.key_expr {
                    None => tuple_out.push(self.eval(&f.value_expr)),
                    Some(ke) => {
                        let kv = self.eval(ke);
                        let kv = self.key_string(kv, ke.range);
                        let val = self.eval(&f.value_expr);
                        match kv {
                            Value::String(s) => {
                                if f.grouping {
                                    group_items.entry(s.to_string()).or_default().push(val);
                                } else if object_out.insert_new(s.clone(), val).is_err() {
                                    let msg = format!(
                                        "duplicate object key `{s}` in `for` expression; add `...` after the value to group values by key"
                                    );
                                    let e = self.error(Code::EvaluationError, ke.range, msg);
                                    self.bindings.truncate(self.bindings.len() - pushed);
                                    return e;
                                }
                            }
                            Value::Unknown(r) => {
                                unknown.get_or_insert(r);
                            }
                            _ => {}
                        }
                    }
                }
            }
            self.bindings.truncate(self.bindings.len() - pushed);
        }
        if let Some(r) = unknown {
            return Value::Unknown(r);
        }
        let result = if f.key_expr.is_none() {
            Value::tuple(tuple_out)
        } else if f.grouping {
            Value::object(group_items.into_iter().map(|(k, items)| (k, Value::tuple(items))).collect())
        } else {
            Value::object(object_out.finish())
        };
        if sensitive { result.mark_sensitive() } else { result }
    }
}
