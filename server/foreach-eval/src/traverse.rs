//! References and traversals: which roots are static (`var`, `local`, `path`, `terraform`/`tofu`, and `each`/
//! `count` inside their block), which are only known after apply (resources, `data`, `module` outputs...), and
//! how attribute access, indexing and both splat forms apply to values.

use super::constraint::Constraint;
use super::convert::{convert, to_string};
use super::expr::Evaluator;
use super::value::{DynamicKind, UnknownCause, Value};
use foreach_base::diagnostics::Code;
use foreach_syntax::TextRange;
use foreach_syntax::ast::{Expr, ExprKind, Ident, TraversalOp, TraversalStep};

impl Evaluator<'_> {
    /// `Variable` and `Traversal` expressions.
    pub(crate) fn eval_traversal(&mut self, expr: &Expr) -> Value {
        let (base, steps): (&Expr, &[TraversalStep]) = match &expr.kind {
            ExprKind::Traversal { base, steps } => (base, steps),
            _ => (expr, &[]),
        };
        let (value, consumed) = match &base.kind {
            ExprKind::Variable(root) => match self.binding(&root.name) {
                Some(v) => (v.clone(), 0),
                None => self.resolve_root(root, steps, expr.range),
            },
            _ => (self.eval(base), 0),
        };
        self.apply_steps(value, &steps[consumed..])
    }

    /// Resolves a reference root and the steps that name the referenced object; returns how many steps it used.
    fn resolve_root(&mut self, root: &Ident, steps: &[TraversalStep], whole: TextRange) -> (Value, usize) {
        let attr = |i: usize| -> Option<&Ident> {
            match steps.get(i).map(|s| &s.op) {
                Some(TraversalOp::GetAttr(id)) => Some(id),
                _ => None,
            }
        };
        let upto = |n: usize| -> TextRange {
            match n.checked_sub(1).and_then(|i| steps.get(i)) {
                Some(s) => root.range.cover(s.range),
                None => root.range,
            }
        };
        let name = root.name.as_str();
        match name {
            "var" | "local" => {
                let Some(a) = attr(0) else {
                    let msg = format!("`{name}` must be followed by an attribute name, as in `{name}.example`");
                    return (self.error(Code::EvaluationError, whole, msg), steps.len());
                };
                let at = self.range(upto(1));
                let v = if name == "var" { self.scope.variable(&a.name, at) } else { self.scope.local(&a.name, at) };
                match v {
                    Some(r) => {
                        self.maybe_unknown |= !r.wholly_known;
                        (r.value, 1)
                    }
                    None => {
                        let kind = if name == "var" { "input variable" } else { "local value" };
                        let mut msg = format!("reference to undeclared {kind} `{name}.{}`", a.name);
                        if let Some(s) = suggest(&a.name, self.scope.declared_names(name)) {
                            msg.push_str(&format!("; did you mean `{name}.{s}`?"));
                        }
                        (self.error(Code::UndefinedReference, upto(1), msg), steps.len())
                    }
                }
            }
            "path" => match attr(0).map(|a| a.name.as_str()) {
                Some(p @ ("module" | "root" | "cwd")) => (Value::string(self.scope.path(p).unwrap_or_default()), 1),
                _ => (
                    self.error(
                        Code::EvaluationError,
                        upto(1),
                        "`path` has only the attributes `module`, `root` and `cwd`",
                    ),
                    steps.len(),
                ),
            },
            "terraform" | "tofu" => match attr(0).map(|a| a.name.as_str()) {
                Some("workspace") => match self.scope.workspace() {
                    Some(selected) => (Value::string(selected), 1),
                    None => {
                        let reference = format!("{name}.workspace");
                        let location = self.range(upto(1));
                        (Value::unknown(UnknownCause::WorkspaceNotSelected { reference, location }), 1)
                    }
                },
                Some("applying") => {
                    (self.dynamic(format!("{name}.applying"), DynamicKind::Other, upto(1)), steps.len())
                }
                _ => (
                    self.error(
                        Code::EvaluationError,
                        upto(1),
                        format!("`{name}` has only the attribute `workspace` here"),
                    ),
                    steps.len(),
                ),
            },
            "each" => match (&self.ctx.each, attr(0).map(|a| a.name.as_str())) {
                (Some((k, _)), Some("key")) => (k.clone(), 1),
                (Some((_, v)), Some("value")) => (v.clone(), 1),
                (Some(_), _) => (
                    self.error(Code::EvaluationError, upto(1), "`each` has only the attributes `key` and `value`"),
                    steps.len(),
                ),
                (None, a) => {
                    let n = a.map(|a| format!("each.{a}")).unwrap_or_else(|| "each".into());
                    (self.dynamic(n, DynamicKind::Each, upto(1)), steps.len())
                }
            },
            "count" => match (&self.ctx.count, attr(0).map(|a| a.name.as_str())) {
                (Some(c), Some("index")) => (c.clone(), 1),
                (Some(_), _) => {
                    (self.error(Code::EvaluationError, upto(1), "`count` has only the attribute `index`"), steps.len())
                }
                (None, _) => (self.dynamic("count.index".into(), DynamicKind::Count, upto(1)), steps.len()),
            },
            "self" => (self.dynamic("self".into(), DynamicKind::SelfRef, root.range), steps.len()),
            "data" | "ephemeral" | "module" | "resource" => {
                let kind = match name {
                    "data" => DynamicKind::Data,
                    "ephemeral" => DynamicKind::Ephemeral,
                    "module" => DynamicKind::ModuleOutput,
                    _ => DynamicKind::Resource,
                };
                let n = (0..2).take_while(|i| attr(*i).is_some()).count();
                let mut text = name.to_string();
                for i in 0..n {
                    text.push('.');
                    text.push_str(&attr(i).map(|a| a.name.clone()).unwrap_or_default());
                }
                (self.dynamic(text, kind, upto(n)), steps.len())
            }
            _ => {
                // Any other root is a resource type: `aws_instance.web`.
                let n = usize::from(attr(0).is_some());
                let mut text = name.to_string();
                if let Some(a) = attr(0) {
                    text.push('.');
                    text.push_str(&a.name);
                }
                (self.dynamic(text, DynamicKind::Resource, upto(n)), steps.len())
            }
        }
    }

    fn dynamic(&self, reference: String, kind: DynamicKind, range: TextRange) -> Value {
        Value::unknown(UnknownCause::DynamicReference { reference, kind, location: self.range(range) })
    }

    pub(crate) fn apply_steps(&mut self, mut value: Value, steps: &[TraversalStep]) -> Value {
        let mut i = 0;
        while i < steps.len() {
            let step = &steps[i];
            match &step.op {
                TraversalOp::AttrSplat | TraversalOp::FullSplat => {
                    // `.*` applies only the attribute steps after it; `[*]` applies every following step.
                    let full = matches!(step.op, TraversalOp::FullSplat);
                    let end = if full {
                        steps.len()
                    } else {
                        i + 1
                            + steps[i + 1..]
                                .iter()
                                .take_while(|s| matches!(s.op, TraversalOp::GetAttr(_) | TraversalOp::LegacyIndex(_)))
                                .count()
                    };
                    value = self.splat(value, &steps[i + 1..end]);
                    i = end;
                }
                _ => {
                    value = self.step(value, step);
                    i += 1;
                }
            }
        }
        value
    }

    fn splat(&mut self, value: Value, rest: &[TraversalStep]) -> Value {
        let sensitive = value.is_sensitive();
        let result = match value.unmarked() {
            Value::Unknown(r) => Value::Unknown(r.clone()),
            Value::Null(_) => Value::tuple(Vec::new()),
            Value::List(_, items) | Value::Set(_, items) => {
                let out: Vec<Value> = items.iter().map(|v| self.apply_steps(v.clone(), rest)).collect();
                let elem = super::convert::unify(out.iter().map(Value::type_of)).unwrap_or(super::types::Type::Dynamic);
                let out = out.into_iter().map(|v| convert(&v, &Constraint::from_type(&elem)).unwrap_or(v)).collect();
                Value::list(elem, out)
            }
            Value::Tuple(items) => Value::tuple(items.iter().map(|v| self.apply_steps(v.clone(), rest)).collect()),
            // A non-collection is treated as a one-element tuple.
            other => Value::tuple(vec![self.apply_steps(other.clone(), rest)]),
        };
        if sensitive { result.mark_sensitive() } else { result }
    }

    fn step(&mut self, value: Value, step: &TraversalStep) -> Value {
        let sensitive = value.is_sensitive();
        let v = value.unmarked();
        let result = match &step.op {
            TraversalOp::GetAttr(name) => self.get_attr(v, &name.name, step.range),
            TraversalOp::LegacyIndex(n) => {
                self.index(v, &Value::int(i64::try_from(*n).unwrap_or(i64::MAX)), step.range)
            }
            TraversalOp::Index(e) => {
                let k = self.eval(e);
                if k.is_sensitive() {
                    let r = self.index(v, k.unmarked(), step.range);
                    return r.mark_sensitive();
                }
                self.index(v, &k, step.range)
            }
            TraversalOp::AttrSplat | TraversalOp::FullSplat => v.clone(),
        };
        if sensitive { result.mark_sensitive() } else { result }
    }

    fn get_attr(&mut self, v: &Value, name: &str, range: TextRange) -> Value {
        match v {
            Value::Unknown(r) => Value::Unknown(r.clone()),
            Value::Null(_) => {
                self.error(Code::EvaluationError, range, format!("cannot access attribute `{name}` of a null value"))
            }
            Value::Object(attrs) => match attrs.get(name) {
                Some(x) => x.clone(),
                None => {
                    let mut msg = format!("this object does not have an attribute named `{name}`");
                    if let Some(s) = suggest(name, attrs.keys().map(|k| &**k)) {
                        msg.push_str(&format!("; did you mean `{s}`?"));
                    }
                    self.error(Code::EvaluationError, range, msg)
                }
            },
            Value::Map(_, attrs) => match attrs.get(name) {
                Some(x) => x.clone(),
                None => self.error(Code::EvaluationError, range, format!("the map has no element with key `{name}`")),
            },
            other => self.error(
                Code::EvaluationError,
                range,
                format!("cannot access attribute `{name}`: {} has no attributes", article(&other.friendly_type())),
            ),
        }
    }

    fn index(&mut self, v: &Value, key: &Value, range: TextRange) -> Value {
        if let Value::Unknown(r) = key {
            return Value::Unknown(r.clone());
        }
        match v {
            Value::Unknown(r) => Value::Unknown(r.clone()),
            Value::Null(_) => self.error(Code::EvaluationError, range, "cannot index a null value"),
            Value::List(_, items) | Value::Tuple(items) => {
                let idx = match convert(key, &Constraint::Number) {
                    Ok(Value::Number(n)) if n.is_integer() => n.to_i64(),
                    Ok(Value::Number(_)) => {
                        return self.error(Code::EvaluationError, range, "the index must be a whole number");
                    }
                    _ => {
                        let msg =
                            format!("a {} must be indexed by a number, not {}", v.friendly_type(), key.friendly_type());
                        return self.error(Code::EvaluationError, range, msg);
                    }
                };
                match idx.and_then(|i| usize::try_from(i).ok()).and_then(|i| items.get(i)) {
                    Some(x) => x.clone(),
                    None => {
                        let msg = format!(
                            "index {} is out of range for a {} of {} elements",
                            key_text(key),
                            v.friendly_type(),
                            items.len()
                        );
                        self.error(Code::EvaluationError, range, msg)
                    }
                }
            }
            Value::Map(_, attrs) | Value::Object(attrs) => {
                let k = match to_string(key) {
                    Ok(k) => k,
                    Err(_) => {
                        let msg =
                            format!("a {} must be indexed by a string, not {}", v.friendly_type(), key.friendly_type());
                        return self.error(Code::EvaluationError, range, msg);
                    }
                };
                match attrs.get(&k) {
                    Some(x) => x.clone(),
                    None => {
                        let mut msg = format!("no element with key {:?}", &*k);
                        if let Some(s) = suggest(&k, attrs.keys().map(|k| &**k)) {
                            msg.push_str(&format!("; did you mean {s:?}?"));
                        }
                        self.error(Code::EvaluationError, range, msg)
                    }
                }
            }
            Value::Set(..) => self.error(
                Code::EvaluationError,
                range,
                "elements of a set cannot be accessed by index; convert it with `tolist` first",
            ),
            other => self.error(
                Code::EvaluationError,
                range,
                format!("{} cannot be indexed", article(&other.friendly_type())),
            ),
        }
    }
}

fn key_text(k: &Value) -> String {
    super::render::compact(k)
}

fn article(t: &str) -> String {
    if t.starts_with(['a', 'e', 'i', 'o', 'u']) { format!("an {t}") } else { format!("a {t}") }
}

/// The closest name within a small edit distance, for "did you mean" hints in evaluation errors (one edit more
/// lenient than [`foreach_base::suggest::closest`]).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    foreach_base::suggest::closest_with_slack(name, candidates, 1).map(str::to_string)
}
