//! Runtime values of the static evaluator, modelled on cty: primitives, the three collection kinds (list, set,
//! map) with an element type, the two structural kinds (tuple, object), typed nulls, a `sensitive` mark, and
//! **unknown** values that carry *why* they are unknown.
//!
//! Values are cheap to clone: every compound or heap payload sits behind an `Arc`, so passing a 1,000-key object
//! from local to local never copies it. Sets are kept sorted and deduplicated in cty's order so printing and
//! equality need no extra work. This module does not evaluate anything; see `expr.rs`.

use super::number::Number;
use super::quote::go_quote;
use super::types::Type;
use foreach_base::base::FileRange;
use smol_str::SmolStr;
use std::cmp::Ordering;
use std::sync::Arc;

/// [`Value::mapped_unknowns`] of a sequence's elements: a copy with the ones that hold unknowns mapped.
fn mapped_elements(items: &[Value], f: &dyn Fn(&UnknownReason) -> Arc<UnknownReason>) -> Option<Vec<Value>> {
    let mut out: Option<Vec<Value>> = None;
    for (i, v) in items.iter().enumerate() {
        if let Some(mapped) = v.mapped_unknowns(f) {
            out.get_or_insert_with(|| items.to_vec())[i] = mapped;
        }
    }
    out
}

/// [`Value::mapped_unknowns`] of attributes: the same attributes (a large map shared) with the entries that hold
/// unknowns replaced.
fn mapped_attrs(attrs: &Attrs, f: &dyn Fn(&UnknownReason) -> Arc<UnknownReason>) -> Option<Attrs> {
    let mut out: Option<Attrs> = None;
    for (k, v) in attrs.iter() {
        if let Some(mapped) = v.mapped_unknowns(f) {
            out.get_or_insert_with(|| attrs.clone()).insert(k.clone(), mapped);
        }
    }
    out
}

/// Attributes of objects and elements of maps (`attrs.rs`: small ones a sorted vector, large ones a persistent map).
pub type Attrs = super::attrs::Attrs<Value>;

#[derive(Debug, Clone)]
pub enum Value {
    /// A null of a type (`Type::Dynamic` for a plain `null`).
    Null(Type),
    Unknown(Arc<UnknownReason>),
    Bool(bool),
    Number(Arc<Number>),
    String(SmolStr),
    /// `list(elem)`.
    List(Type, Arc<Vec<Value>>),
    /// `set(elem)`: sorted with [`set_order`], no duplicates.
    Set(Type, Arc<Vec<Value>>),
    /// `map(elem)`.
    Map(Type, Arc<Attrs>),
    Tuple(Arc<Vec<Value>>),
    Object(Arc<Attrs>),
    /// The value of a `sensitive = true` variable or of `sensitive(...)`; operations propagate the mark.
    Sensitive(Arc<Value>),
}

/// Why a value is not statically known: the root cause plus the chain of named values it flowed through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownReason {
    pub cause: UnknownCause,
    /// Innermost first: for `for_each = local.a`, `local.a = local.b`, `local.b = data.x.y` the hops are
    /// `[local.b, local.a]`. Use [`UnknownReason::chain`] for the outermost-first display order.
    pub hops: Vec<Hop>,
}

/// One named value an unknown passed through on its way to the expression being evaluated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// `local.regions`, `var.accounts`, `module.common:var.x`. Inline when short, as most are: every unknown value
    /// of every module instance carries its hops.
    pub name: SmolStr,
    /// The declaration of that value (a local's whole `name = expr` attribute, a variable's block label).
    pub declaration: FileRange,
    /// Where the dependent expression referenced it.
    pub referenced_at: FileRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnknownCause {
    /// A reference OpenTofu resolves only while planning or applying (resource, data source, module output,
    /// `each`/`count`/`self` outside their block, ...).
    DynamicReference { reference: String, kind: DynamicKind, location: FileRange },
    /// An impure function (`timestamp`, `uuid`, `bcrypt`...): OpenTofu computes a value but nobody can predict it.
    ImpureFunction { name: String, location: FileRange },
    /// `provider::NAME::FN(...)`: provider functions are not available to static evaluation.
    ProviderFunction { name: String, location: FileRange },
    /// A variable OpenTofu refuses wherever it evaluates before planning, whatever its value: `ephemeral = true`
    /// (1.11) or `const = false` (1.12). `location` is the reference; `module` as for `VariableWithoutValue`.
    NonStaticVariable { name: String, module: String, why: NonStatic, declaration: FileRange, location: FileRange },
    /// A variable with neither a supplied value nor a default. `name` is the variable's name; `module` the label
    /// of its module (`""` for the root, `module.common` for a child), so it displays as `module.common:var.x`.
    VariableWithoutValue { name: String, module: String, declaration: FileRange },
    /// A file function (`file`, `templatefile`, `filebase64`...) read a path where nothing exists in this
    /// checkout. Such files are often generated before OpenTofu runs (keys, rendered JSON) or kept out of git, so
    /// the value is unknown here rather than an error. `path` is as written in the call.
    MissingFile { function: String, path: String, location: FileRange },
    /// A file function was not allowed to read a path outside the repository being checked (`/etc/ssl/…`, a CI
    /// secret under `/run`, a superproject's file read from a submodule, a link leading out). OpenTofu reads it, so
    /// it is no mistake of the configuration: the value is unknown here, and the call gets a
    /// `file-outside-repository` info. `path` is as written in the call; `link` when it is inside as written but a
    /// symbolic link leads out.
    FileOutsideRepository { function: String, path: String, link: bool, location: FileRange },
    /// Evaluation failed; a diagnostic with the details was reported at `location`.
    Error { message: String, location: FileRange },
    /// A budget (depth, size, steps) was exceeded.
    Limit { message: String, location: FileRange },
    /// JSON input that is not an expression, and similar holes in the tree.
    Invalid { location: FileRange },
    /// `terraform.workspace` / `tofu.workspace` when nothing selects a workspace (no `--workspace`, no
    /// `TF_WORKSPACE`, no `.terraform/environment`). OpenTofu would use `default`, but a repository that uses
    /// workspaces is checked for whichever one its user selects, so assuming `default` reports false errors.
    WorkspaceNotSelected { reference: String, location: FileRange },
    /// A root variable that a var file git-crypt left encrypted here may set (`location` is that file).
    EncryptedValue { name: String, location: FileRange },
    /// A root variable's default while something outside may override it: a wrapper supplies the root module's
    /// inputs (`terragrunt.hcl`, `atmos.yaml`), or, for what `tofu init` evaluates (module sources), the root
    /// cannot run as it is. `why` completes "its default may be overridden: …".
    DefaultNotFinal { name: String, declaration: FileRange, why: String },
}

/// Why a variable can't be used in static context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonStatic {
    /// `ephemeral = true`: its value must not be kept anywhere, and what is evaluated before planning is.
    Ephemeral,
    /// `const = false`: the module says it is not a constant.
    NotConst,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DynamicKind {
    Resource,
    Data,
    Ephemeral,
    ModuleOutput,
    Each,
    Count,
    SelfRef,
    /// `terraform.applying` and anything else OpenTofu refuses in static context.
    Other,
}

impl UnknownCause {
    /// Whether OpenTofu knows this value in its static evaluation and only the checker lacks an input: a root
    /// variable with no value here, the workspace when none is selected, a file that is not in the checkout or is
    /// outside the repository. Such values make checks *unresolved* (an info), never *not static* (an error).
    pub fn is_missing_input(&self) -> bool {
        matches!(
            self,
            UnknownCause::VariableWithoutValue { .. }
                | UnknownCause::WorkspaceNotSelected { .. }
                | UnknownCause::MissingFile { .. }
                | UnknownCause::FileOutsideRepository { .. }
                | UnknownCause::EncryptedValue { .. }
                | UnknownCause::DefaultNotFinal { .. }
        )
    }
}

/// The root variables a set of unknowns waits for, in words: those without a value here, and those whose default
/// may be overridden ([`UnknownCause::DefaultNotFinal`]), which must never be said to have no value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AwaitedInputs {
    /// `var.region`, `module.a:var.x`, sorted.
    pub without_value: Vec<String>,
    /// `var.regions`, sorted.
    pub overridable: Vec<String>,
    /// Why the defaults of `overridable` may be overridden (the first reason's).
    pub why: Option<String>,
}

impl AwaitedInputs {
    pub fn of<'r>(reasons: impl IntoIterator<Item = &'r UnknownReason>) -> AwaitedInputs {
        let mut out = AwaitedInputs::default();
        for r in reasons {
            match &r.cause {
                UnknownCause::VariableWithoutValue { .. } | UnknownCause::EncryptedValue { .. } => {
                    out.without_value.push(r.root_name())
                }
                UnknownCause::DefaultNotFinal { why, .. } => {
                    out.overridable.push(r.root_name());
                    out.why.get_or_insert_with(|| why.clone());
                }
                _ => {}
            }
        }
        for names in [&mut out.without_value, &mut out.overridable] {
            names.sort();
            names.dedup();
        }
        out
    }

    /// Whether only overridable defaults are awaited.
    pub fn only_overridable(&self) -> bool {
        self.without_value.is_empty() && !self.overridable.is_empty()
    }

    /// `` `var.a`, which has no value here, and `var.b`, whose default may be overridden (…) ``, to follow
    /// "depends on".
    pub fn phrase(&self) -> String {
        let quoted = |names: &[String]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
        let without = match self.without_value.len() {
            0 => None,
            1 => Some(format!("{}, which has no value here", quoted(&self.without_value))),
            _ => Some(format!("{}, which have no value here", quoted(&self.without_value))),
        };
        let overridable = match self.overridable.len() {
            0 => None,
            n => Some(format!(
                "{}, whose {} may be overridden ({})",
                quoted(&self.overridable),
                if n == 1 { "default" } else { "defaults" },
                self.why.as_deref().unwrap_or_default()
            )),
        };
        match (without, overridable) {
            (Some(a), Some(b)) => format!("{a}, and on {b}"),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => String::new(),
        }
    }
}

impl UnknownReason {
    pub fn new(cause: UnknownCause) -> Arc<UnknownReason> {
        Arc::new(UnknownReason { cause, hops: Vec::new() })
    }

    /// Where the root cause is.
    pub fn location(&self) -> FileRange {
        match &self.cause {
            UnknownCause::DynamicReference { location, .. }
            | UnknownCause::ImpureFunction { location, .. }
            | UnknownCause::ProviderFunction { location, .. }
            | UnknownCause::MissingFile { location, .. }
            | UnknownCause::FileOutsideRepository { location, .. }
            | UnknownCause::Error { location, .. }
            | UnknownCause::Limit { location, .. }
            | UnknownCause::NonStaticVariable { location, .. }
            | UnknownCause::Invalid { location }
            | UnknownCause::WorkspaceNotSelected { location, .. }
            | UnknownCause::EncryptedValue { location, .. } => *location,
            UnknownCause::VariableWithoutValue { declaration, .. }
            | UnknownCause::DefaultNotFinal { declaration, .. } => *declaration,
        }
    }

    /// The name of the root cause as it appears at the end of a chain (`data.aws_regions.all`, `timestamp()`).
    pub fn root_name(&self) -> String {
        match &self.cause {
            UnknownCause::DynamicReference { reference, .. } | UnknownCause::WorkspaceNotSelected { reference, .. } => {
                reference.clone()
            }
            UnknownCause::EncryptedValue { name, .. } | UnknownCause::DefaultNotFinal { name, .. } => {
                format!("var.{name}")
            }
            UnknownCause::ImpureFunction { name, .. } | UnknownCause::ProviderFunction { name, .. } => {
                format!("{name}()")
            }
            UnknownCause::VariableWithoutValue { name, module, .. }
            | UnknownCause::NonStaticVariable { name, module, .. } => {
                if module.is_empty() {
                    format!("var.{name}")
                } else {
                    format!("{module}:var.{name}")
                }
            }
            UnknownCause::MissingFile { function, path, .. }
            | UnknownCause::FileOutsideRepository { function, path, .. } => format!("{function}({path:?})"),
            UnknownCause::Error { .. } => "an evaluation error".into(),
            UnknownCause::Limit { .. } => "an evaluation limit".into(),
            UnknownCause::Invalid { .. } => "an invalid expression".into(),
        }
    }

    /// Our explanation of the root cause, lower case.
    pub fn explanation(&self) -> String {
        match &self.cause {
            UnknownCause::DynamicReference { reference, kind, .. } => match kind {
                DynamicKind::Each | DynamicKind::Count | DynamicKind::SelfRef => {
                    format!("`{reference}` is not available in static context")
                }
                _ => format!("`{reference}` is only known after apply"),
            },
            UnknownCause::ImpureFunction { name, .. } => {
                format!("`{name}()` returns a different value on every run")
            }
            UnknownCause::ProviderFunction { name, .. } => {
                format!("provider function `{name}` cannot be called in static context")
            }
            UnknownCause::VariableWithoutValue { .. } => {
                format!("`{}` has no value: set it in a .tfvars file or with --var", self.root_name())
            }
            UnknownCause::MissingFile { path, .. } => format!(
                "{path:?} does not exist here; it may be created before OpenTofu runs (generated by an earlier step, \
                 or not committed)"
            ),
            UnknownCause::FileOutsideRepository { path, link, .. } => format!(
                "{path:?} {} the repository being checked, and foreach-ls reads no file outside it (OpenTofu reads it \
                 when it runs)",
                if *link { "links to a file outside" } else { "is outside" }
            ),
            UnknownCause::NonStaticVariable { why: NonStatic::Ephemeral, .. } => format!(
                "`{}` is ephemeral (`ephemeral = true`), and OpenTofu allows no ephemeral value in what it evaluates \
                 before planning",
                self.root_name()
            ),
            UnknownCause::NonStaticVariable { why: NonStatic::NotConst, .. } => format!(
                "`{}` is declared `const = false`, so OpenTofu does not allow it where a value must be known before \
                 planning",
                self.root_name()
            ),
            UnknownCause::Error { message, .. } | UnknownCause::Limit { message, .. } => message.clone(),
            UnknownCause::Invalid { .. } => "the expression is not valid".into(),
            UnknownCause::WorkspaceNotSelected { .. } => {
                "no workspace selected: set TF_WORKSPACE or --workspace, or run `tofu workspace select`".into()
            }
            UnknownCause::EncryptedValue { name, .. } => {
                format!("`var.{name}` may be set in a var file that is encrypted with git-crypt in this checkout")
            }
            UnknownCause::DefaultNotFinal { name, why, .. } => {
                format!("`var.{name}` has a default, but it may be overridden: {why}")
            }
        }
    }

    /// Outermost first, ending with the root cause: `["local.a", "local.b", "data.x.y"]`.
    pub fn chain(&self) -> Vec<String> {
        let mut out: Vec<String> = self.hops.iter().rev().map(|h| h.name.to_string()).collect();
        let root = self.root_name();
        if out.last() != Some(&root) {
            out.push(root);
        }
        out
    }

    /// `origin -> local.a -> data.x.y`.
    pub fn chain_text(&self, origin: &str) -> String {
        let mut parts = vec![origin.to_string()];
        parts.extend(self.chain());
        parts.join(" -> ")
    }

    pub fn with_hop(&self, hop: Hop) -> Arc<UnknownReason> {
        let mut r = self.clone();
        // A variable without value already names itself as the root; do not repeat it as a hop.
        let same_as_root = r.hops.is_empty() && r.root_name() == hop.name;
        if !same_as_root {
            r.hops.push(hop);
        }
        Arc::new(r)
    }
}

impl Value {
    pub fn string(s: impl Into<SmolStr>) -> Value {
        Value::String(s.into())
    }

    pub fn number(n: Number) -> Value {
        Value::Number(Arc::new(n))
    }

    pub fn int(i: i64) -> Value {
        Value::number(Number::from_i64(i))
    }

    pub fn null() -> Value {
        Value::Null(Type::Dynamic)
    }

    pub fn unknown(cause: UnknownCause) -> Value {
        Value::Unknown(UnknownReason::new(cause))
    }

    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Arc::new(items))
    }

    pub fn object(attrs: Attrs) -> Value {
        Value::Object(Arc::new(attrs))
    }

    /// A list whose element type is unified from its elements by the caller.
    pub fn list(elem: Type, items: Vec<Value>) -> Value {
        Value::List(elem, Arc::new(items))
    }

    pub fn map(elem: Type, items: Attrs) -> Value {
        Value::Map(elem, Arc::new(items))
    }

    /// Builds a set: sorts and deduplicates.
    pub fn set(elem: Type, mut items: Vec<Value>) -> Value {
        items.sort_by(set_order);
        items.dedup_by(|a, b| a.raw_equals(b));
        Value::Set(elem, Arc::new(items))
    }

    pub fn type_of(&self) -> Type {
        match self {
            Value::Null(t) => t.clone(),
            Value::Unknown(_) => Type::Dynamic,
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::List(e, _) => Type::List(Box::new(e.clone())),
            Value::Set(e, _) => Type::Set(Box::new(e.clone())),
            Value::Map(e, _) => Type::Map(Box::new(e.clone())),
            Value::Tuple(items) => Type::Tuple(Arc::new(items.iter().map(Value::type_of).collect())),
            Value::Object(attrs) => {
                Type::Object(Arc::new(attrs.iter().map(|(k, v)| (k.to_string(), v.type_of())).collect()))
            }
            Value::Sensitive(v) => v.type_of(),
        }
    }

    pub fn is_null(&self) -> bool {
        match self {
            Value::Null(_) => true,
            Value::Sensitive(v) => v.is_null(),
            _ => false,
        }
    }

    pub fn is_unknown(&self) -> bool {
        match self {
            Value::Unknown(_) => true,
            Value::Sensitive(v) => v.is_unknown(),
            _ => false,
        }
    }

    /// Only a top-level mark counts (as for OpenTofu's for_each check).
    pub fn is_sensitive(&self) -> bool {
        matches!(self, Value::Sensitive(_))
    }

    /// The value without a top-level sensitive mark.
    pub fn unmarked(&self) -> &Value {
        match self {
            Value::Sensitive(v) => v.unmarked(),
            v => v,
        }
    }

    pub fn mark_sensitive(self) -> Value {
        match self {
            Value::Sensitive(_) => self,
            v => Value::Sensitive(Arc::new(v)),
        }
    }

    /// Removes every mark, at any depth; returns whether there was one.
    pub fn unmark_deep(&self) -> (Value, bool) {
        match self {
            Value::Sensitive(v) => (v.unmark_deep().0, true),
            Value::List(e, items) | Value::Set(e, items) => {
                if !items.iter().any(Value::has_marks) {
                    return (self.clone(), false);
                }
                let items: Vec<Value> = items.iter().map(|v| v.unmark_deep().0).collect();
                let v = if matches!(self, Value::Set(..)) {
                    Value::set(e.clone(), items)
                } else {
                    Value::list(e.clone(), items)
                };
                (v, true)
            }
            Value::Tuple(items) => {
                if !items.iter().any(Value::has_marks) {
                    return (self.clone(), false);
                }
                (Value::tuple(items.iter().map(|v| v.unmark_deep().0).collect()), true)
            }
            Value::Map(e, attrs) => {
                if !attrs.values().any(Value::has_marks) {
                    return (self.clone(), false);
                }
                (Value::map(e.clone(), attrs.iter().map(|(k, v)| (k.clone(), v.unmark_deep().0)).collect()), true)
            }
            Value::Object(attrs) => {
                if !attrs.values().any(Value::has_marks) {
                    return (self.clone(), false);
                }
                (Value::object(attrs.iter().map(|(k, v)| (k.clone(), v.unmark_deep().0)).collect()), true)
            }
            _ => (self.clone(), false),
        }
    }

    pub fn has_marks(&self) -> bool {
        match self {
            Value::Sensitive(_) => true,
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => items.iter().any(Value::has_marks),
            Value::Map(_, attrs) | Value::Object(attrs) => attrs.values().any(Value::has_marks),
            _ => false,
        }
    }

    /// Every distinct unknown reason inside the value (a partially known map can hide several).
    pub fn unknown_reasons(&self) -> Vec<Arc<UnknownReason>> {
        let mut out: Vec<Arc<UnknownReason>> = Vec::new();
        let mut stack = vec![self];
        while let Some(v) = stack.pop() {
            match v {
                Value::Unknown(r) if !out.iter().any(|o| **o == **r) => out.push(r.clone()),
                Value::Sensitive(inner) => stack.push(inner),
                Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => stack.extend(items.iter()),
                Value::Map(_, attrs) | Value::Object(attrs) => stack.extend(attrs.values()),
                _ => {}
            }
        }
        out
    }

    /// The first unknown found anywhere in the value (depth first), for "why is this not wholly known".
    pub fn first_unknown(&self) -> Option<&Arc<UnknownReason>> {
        match self {
            Value::Unknown(r) => Some(r),
            Value::Sensitive(v) => v.first_unknown(),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                items.iter().find_map(Value::first_unknown)
            }
            Value::Map(_, attrs) | Value::Object(attrs) => attrs.values().find_map(Value::first_unknown),
            _ => None,
        }
    }

    /// How deeply the value nests (a primitive is 1), found without recursion.
    pub fn depth(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&Value, usize)> = vec![(self, 1)];
        while let Some((v, d)) = stack.pop() {
            max = max.max(d);
            match v {
                Value::Sensitive(inner) => stack.push((inner, d)),
                Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                    stack.extend(items.iter().map(|x| (x, d + 1)));
                }
                Value::Map(_, attrs) | Value::Object(attrs) => stack.extend(attrs.values().map(|x| (x, d + 1))),
                _ => {}
            }
        }
        max
    }

    pub fn is_wholly_known(&self) -> bool {
        self.first_unknown().is_none()
    }

    /// Applies `f` to every unknown reason inside the value (used to add a hop when a value leaves a local).
    pub fn map_unknowns(&self, f: &dyn Fn(&UnknownReason) -> Arc<UnknownReason>) -> Value {
        self.mapped_unknowns(f).unwrap_or_else(|| self.clone())
    }

    /// [`Value::map_unknowns`], or `None` when the value holds no unknown. Only what holds one is rebuilt: a map
    /// keeps sharing its other entries. One unknown in a local of 6,000 entries (a misspelt reference being
    /// typed) used to rebuild the whole map at every reference to the local, on every keystroke.
    fn mapped_unknowns(&self, f: &dyn Fn(&UnknownReason) -> Arc<UnknownReason>) -> Option<Value> {
        Some(match self {
            Value::Unknown(r) => Value::Unknown(f(r)),
            Value::Sensitive(v) => Value::Sensitive(Arc::new(v.mapped_unknowns(f)?)),
            Value::List(e, items) => Value::List(e.clone(), Arc::new(mapped_elements(items, f)?)),
            Value::Set(e, items) => Value::Set(e.clone(), Arc::new(mapped_elements(items, f)?)),
            Value::Tuple(items) => Value::Tuple(Arc::new(mapped_elements(items, f)?)),
            Value::Map(e, a) => Value::Map(e.clone(), Arc::new(mapped_attrs(a, f)?)),
            Value::Object(a) => Value::Object(Arc::new(mapped_attrs(a, f)?)),
            _ => return None,
        })
    }

    /// cty's `RawEquals` on unmarked values: same type and same content (numbers numerically).
    pub fn raw_equals(&self, other: &Value) -> bool {
        match (self.unmarked(), other.unmarked()) {
            (Value::Null(a), Value::Null(b)) => a == b || *a == Type::Dynamic || *b == Type::Dynamic,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::List(ea, a), Value::List(eb, b)) | (Value::Set(ea, a), Value::Set(eb, b)) => {
                (ea == eb || a.is_empty() && b.is_empty()) && seq_eq(a, b)
            }
            (Value::Tuple(a), Value::Tuple(b)) => seq_eq(a, b),
            (Value::Map(ea, a), Value::Map(eb, b)) => (ea == eb || a.is_empty() && b.is_empty()) && attrs_eq(a, b),
            (Value::Object(a), Value::Object(b)) => attrs_eq(a, b),
            _ => false,
        }
    }

    /// The elements of a list, set or tuple.
    pub fn as_seq(&self) -> Option<&[Value]> {
        match self.unmarked() {
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => Some(items),
            _ => None,
        }
    }

    /// The entries of a map or object.
    pub fn as_attrs(&self) -> Option<&Attrs> {
        match self.unmarked() {
            Value::Map(_, a) | Value::Object(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self.unmarked() {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<&Number> {
        match self.unmarked() {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.unmarked() {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Number of elements of a collection or structure (1 for anything else), used by size budgets.
    pub fn len(&self) -> usize {
        match self.unmarked() {
            Value::List(_, i) | Value::Set(_, i) | Value::Tuple(i) => i.len(),
            Value::Map(_, a) | Value::Object(a) => a.len(),
            _ => 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// cty's short kind name for messages: `string`, `tuple`, `object`, `list of string`.
    pub fn friendly_type(&self) -> String {
        self.type_of().friendly_name()
    }
}

fn seq_eq(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.raw_equals(y))
}

fn attrs_eq(a: &Attrs, b: &Attrs) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && va.raw_equals(vb))
}

/// cty's set element order: known before unknown, non-null before null, strings bytewise, numbers numerically,
/// `false` before `true`; other types by their rendered form (cty orders those by hash: a deliberate difference).
pub fn set_order(a: &Value, b: &Value) -> Ordering {
    let (a, b) = (a.unmarked(), b.unmarked());
    match (a, b) {
        (Value::Unknown(_), Value::Unknown(_)) => Ordering::Equal,
        (Value::Unknown(_), _) => Ordering::Greater,
        (_, Value::Unknown(_)) => Ordering::Less,
        (Value::Null(_), Value::Null(_)) => Ordering::Equal,
        (Value::Null(_), _) => Ordering::Greater,
        (_, Value::Null(_)) => Ordering::Less,
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Number(x), Value::Number(y)) => x.cmp_num(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => compact(a).cmp(&compact(b)),
    }
}

/// Structural equality for tests and memo checks: same marks, same unknown reasons, otherwise [`Value::raw_equals`].
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Sensitive(a), Value::Sensitive(b)) => a == b,
            (Value::Sensitive(_), _) | (_, Value::Sensitive(_)) => false,
            (Value::Unknown(a), Value::Unknown(b)) => a == b,
            (Value::Null(a), Value::Null(b)) => a == b,
            _ => self.type_of() == other.type_of() && self.raw_equals(other),
        }
    }
}

/// One line, HCL-like: `["a", 1]`, `{a = 1}`, `toset(["a"])`; for messages and set ordering of compound values.
pub fn compact(v: &Value) -> String {
    let mut out = String::new();
    compact_into(v, &mut out);
    out
}

fn compact_into(v: &Value, out: &mut String) {
    match v {
        Value::Unknown(_) => out.push_str("(unknown)"),
        Value::Sensitive(_) => out.push_str("(sensitive value)"),
        Value::Null(_) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_text()),
        Value::String(s) => out.push_str(&go_quote(s)),
        Value::Tuple(items) | Value::List(_, items) | Value::Set(_, items) => {
            let (open, close) = match v {
                Value::List(..) => ("tolist([", "])"),
                Value::Set(..) => ("toset([", "])"),
                _ => ("[", "]"),
            };
            out.push_str(open);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                compact_into(item, out);
            }
            out.push_str(close);
        }
        Value::Object(attrs) | Value::Map(_, attrs) => {
            let (open, close) = if matches!(v, Value::Map(..)) { ("tomap({", "})") } else { ("{", "}") };
            out.push_str(open);
            for (i, (k, item)) in attrs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&go_quote(k));
                out.push_str(" = ");
                compact_into(item, out);
            }
            out.push_str(close);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adding a hop to the one unknown of a large object changes only the entry that holds it: the others keep
    /// their values (shared, not copied), and a wholly known value is returned as it is.
    #[test]
    fn mapping_unknowns_rebuilds_only_the_entries_that_hold_them() {
        let location = FileRange::new(foreach_base::base::FileId(0), text_size::TextRange::default());
        let unknown = Value::unknown(UnknownCause::Invalid { location });
        let mut attrs: Attrs = (0..1000)
            .map(|i| (format!("k{i}"), Value::string(format!("a string too long to live inline {i}"))))
            .collect();
        attrs.insert("k500".into(), Value::tuple(vec![Value::string("x"), unknown]));
        let object = Value::object(attrs);
        let hop = Hop { name: "local.big".into(), declaration: location, referenced_at: location };
        let mapped = object.map_unknowns(&|r| r.with_hop(hop.clone()));

        let (Value::Object(before), Value::Object(after)) = (&object, &mapped) else { panic!("objects") };
        let hops = |v: &Value| v.first_unknown().map(|r| r.hops.len());
        assert_eq!((hops(&object), hops(&mapped)), (Some(0), Some(1)), "the hop is added");
        let same = |k: &str| match (&before[k], &after[k]) {
            // Long enough to be shared, not inline: the same text at the same address is the same string.
            (Value::String(a), Value::String(b)) => std::ptr::eq(a.as_str(), b.as_str()),
            (Value::Tuple(a), Value::Tuple(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        assert!(same("k0") && same("k999"), "entries without unknowns keep their values");
        assert!(!same("k500"), "the entry with the unknown is rebuilt");

        let known = Value::tuple(vec![Value::string("a")]);
        let (Value::Tuple(a), Value::Tuple(b)) = (&known, &known.map_unknowns(&|r| r.with_hop(hop.clone()))) else {
            panic!("tuples")
        };
        assert!(Arc::ptr_eq(a, b), "a wholly known value is not copied");
    }
}
