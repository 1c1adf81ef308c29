//! The static scope of one module instance: its variables' values (a root's from its assignments, a child's from
//! the calling block's arguments), its locals and `path.*`, ready for [`ModuleScope`] to evaluate on demand. Used
//! while the module tree is built (to evaluate module sources) and afterwards per instance (`module_eval.rs`).

use std::sync::Arc;

use foreach_syntax::TextRange;
use foreach_syntax::ast::Expr;
use smol_str::SmolStr;

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, Workspace, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::scope::{LocalDecl, ModuleScope, ModuleStaticInputs, SuppliedValue, ValueSource, VariableDecl};
use crate::eval::{EvalContext, Provisional, Value, eval_literal_expr};
use crate::model::module::Module;
use crate::paths::relative_path;
use crate::tree_model::{ModuleTree, NodeId, TreeNode};
use crate::vars::{Assignment, RawValue, root_assignments};

/// One argument of a module call, evaluated in the calling instance.
#[derive(Debug, Clone, PartialEq)]
pub struct CallArgument {
    /// The argument's name, shared with the call's `Arg` (a `String` copy was a heap string per argument and
    /// instance, kept for the whole session).
    pub name: SmolStr,
    pub value: Value,
    /// The whole `name = value` attribute.
    pub location: FileRange,
    /// The root defaults the value rests on while they may not be what runs (`eval/provisional.rs`).
    pub provisional: Option<Arc<Provisional>>,
}

/// What addresses in `node` start with: `module.a.module.b.`, or nothing in a root.
pub(crate) fn prefix(node: &TreeNode) -> String {
    let a = node.address();
    if a.is_empty() { a } else { format!("{a}.") }
}

/// Looks up the value supplied for a variable by name.
type SuppliedFn<'a> = Box<dyn Fn(&str) -> Option<SuppliedValue> + 'a>;

/// Where a child instance's variables get their values: the calling `module` block's arguments.
pub(crate) enum CallerArgs<'a> {
    /// The tree is built: nodes and the parent's arguments come from memoised queries (`module_eval.rs`'s
    /// `tree_node` and `call_arguments`), passed in so that this module does not depend on the queries that use it.
    Memoised {
        node_of: &'a dyn Fn(NodeId) -> Option<Arc<TreeNode>>,
        arguments: &'a dyn Fn(NodeId, String) -> Arc<Vec<CallArgument>>,
    },
    /// While the module tree is being built, to evaluate module sources (`tree.rs`): nodes come from the tree
    /// under construction, arguments are evaluated on demand in the caller's scope (`None` for a root). Must give
    /// the same values as `Memoised`.
    Building { tree: &'a ModuleTree, parent_scope: Option<&'a ModuleScope> },
    /// One instance of a repeated call (`module.a["x"]`, `instances/scopes.rs`): the arguments are evaluated in the
    /// scope of the calling module instance with this instance's `each` or `count` (`ctx`), so that a value the
    /// call passes from `each.value` is known in the child.
    Keyed { node_of: &'a dyn Fn(NodeId) -> Option<Arc<TreeNode>>, parent_scope: &'a ModuleScope, ctx: EvalContext },
}

/// The context module call arguments are evaluated in: the call's `each`/`count` are not static, so they stay
/// unknown (the RFC forbids them in anything evaluated early).
pub(crate) fn call_argument_context(node: &TreeNode, call: &str) -> EvalContext {
    EvalContext { each: None, count: None, origin: format!("{}module.{call} argument", prefix(node)) }
}

/// The scope of `node`: its variables with the values supplied for them (a root's assignments, or the calling
/// block's arguments as `caller` gives them) and their declarations' defaults, its locals, `path.*` and the
/// workspace. Problems with a root's assignments go to `diags`.
pub(crate) fn instance_scope<'a>(
    db: &'a dyn Db,
    ws: Workspace,
    node: &TreeNode,
    caller: CallerArgs<'a>,
    diags: &mut Vec<Diagnostic>,
) -> ModuleScope {
    let module = module(db, node.dir);
    let node_of = |id: NodeId| match &caller {
        CallerArgs::Memoised { node_of, .. } | CallerArgs::Keyed { node_of, .. } => node_of(id),
        CallerArgs::Building { tree, .. } => tree.nodes.get(id.0 as usize).cloned(),
    };
    let root_dir = root_dir_of(node, node_of);
    let building = matches!(caller, CallerArgs::Building { .. });
    let supplied: SuppliedFn = match node.parent {
        None => {
            let assignments = root_assignments(db, ws, node.dir);
            let module = module.clone();
            Box::new(move |name: &str| {
                let a = assignments.values.get(name)?;
                Some(root_value(&module, name, a))
            })
        }
        Some(parent) => {
            let call_name = node.call_path.last().cloned().unwrap_or_default();
            match caller {
                CallerArgs::Memoised { arguments, .. } => {
                    // Only the call's own arguments, not the parent's module: an edit elsewhere in the parent
                    // does not reach this instance.
                    let arguments = arguments(parent, call_name);
                    Box::new(move |name: &str| {
                        let a = arguments.iter().rev().find(|a| a.name == name)?;
                        Some(SuppliedValue {
                            value: a.value.clone(),
                            source: ValueSource::ModuleArgument(a.location),
                            provisional: a.provisional.clone(),
                        })
                    })
                }
                CallerArgs::Building { .. } | CallerArgs::Keyed { .. } => {
                    let parent_node = node_of(parent);
                    let parent_module = parent_node.as_ref().map(|p| self::module(db, p.dir));
                    let (parent_scope, ctx) = match &caller {
                        CallerArgs::Keyed { parent_scope, ctx, .. } => (Some(*parent_scope), Some(ctx.clone())),
                        CallerArgs::Building { parent_scope, .. } => {
                            (*parent_scope, parent_node.as_ref().map(|p| call_argument_context(p, &call_name)))
                        }
                        CallerArgs::Memoised { .. } => (None, None),
                    };
                    Box::new(move |name: &str| {
                        let call = parent_module.as_ref()?.module_call(&call_name)?;
                        let input = call.input(name)?;
                        let expr = input.expr();
                        let (value, provisional) = match (parent_scope, &ctx) {
                            (Some(scope), Some(ctx)) => (scope.eval(input.file, &expr, ctx), scope.provisional(&expr)),
                            _ => (Value::null(), None),
                        };
                        Some(SuppliedValue {
                            value,
                            source: ValueSource::ModuleArgument(input.location()),
                            provisional,
                        })
                    })
                }
            }
        }
    };
    for a in root_assignment_errors(db, ws, node, &module) {
        diags.push(a);
    }
    // Each supplied value is evaluated once (a root's come from `.tfvars` expressions).
    let supplied_values: Vec<Option<SuppliedValue>> = module.variables.iter().map(|v| supplied(&v.name)).collect();
    let defaults = match node.parent {
        None => root_defaults(db, ws, node, &module, &supplied_values, building),
        Some(_) => RootDefaults::Final,
    };
    let variables = module
        .variables
        .iter()
        .zip(supplied_values)
        .map(|(v, supplied)| {
            let uses_default = supplied.is_none() && v.default.is_some();
            let (provisional, default_not_final) = match &defaults {
                RootDefaults::Provisional(missing) if uses_default => {
                    (Some(Provisional::default_of(&v.name, missing.clone())), None)
                }
                RootDefaults::NotFinal(why) if uses_default => (None, Some(why.clone())),
                // A child's value rests on what its calling argument rests on.
                _ => (supplied.as_ref().and_then(|s| s.provisional.clone()), None),
            };
            VariableDecl {
                name: v.name.clone(),
                decl: v.site.name_location(),
                type_expr: v.ty.as_ref().map(|a| (a.file, a.expr())),
                default: v.default.as_ref().map(|a| (a.file, a.expr())),
                nullable: v.nullable().and_then(|a| literal_bool(&a.expr())).unwrap_or(true),
                sensitive: v.sensitive().and_then(|a| literal_bool(&a.expr())).unwrap_or(false),
                non_static: non_static(v),
                supplied,
                provisional,
                default_not_final,
            }
        })
        .collect();
    let locals = module
        .locals
        .iter()
        .map(|l| LocalDecl { name: l.name.clone(), file: l.arg.file, range: l.arg.location(), expr: l.arg.expr() })
        .collect();
    let root_path = root_dir.path(db).clone();
    let workspace_root = ws
        .read_roots(db)
        .iter()
        .find(|r| root_path == **r || root_path.starts_with(&format!("{r}/")))
        .cloned()
        .unwrap_or_else(|| root_path.clone());
    ModuleScope::new(ModuleStaticInputs {
        module_label: node.address(),
        variables,
        locals,
        path_module: relative_path(node.dir.path(db), &root_path),
        path_root: ".".to_string(),
        path_cwd: root_path.clone(),
        workspace: crate::vars::root_workspace(db, ws, root_dir),
        workspace_root,
        files: db.file_reader(),
        budget: Default::default(),
    })
}

/// The directory of the root module above `node` (its own for a root).
pub(crate) fn root_dir_of(node: &TreeNode, node_of: impl Fn(NodeId) -> Option<Arc<TreeNode>>) -> ModuleDir {
    let mut dir = node.dir;
    let mut parent = node.parent;
    while let Some(p) = parent.and_then(&node_of) {
        dir = p.dir;
        parent = p.parent;
    }
    dir
}

/// Whether OpenTofu refuses the variable in static context: `ephemeral = true` (1.11), `const = false` (1.12).
fn non_static(v: &crate::model::items::Variable) -> Option<crate::eval::NonStatic> {
    let flag = |a: Option<&crate::model::items::Arg>| a.and_then(|a| literal_bool(&a.expr()));
    if flag(v.ephemeral()) == Some(true) {
        Some(crate::eval::NonStatic::Ephemeral)
    } else if flag(v.constant()) == Some(false) {
        Some(crate::eval::NonStatic::NotConst)
    } else {
        None
    }
}

fn literal_bool(e: &Expr) -> Option<bool> {
    match &e.unparenthesized().kind {
        foreach_syntax::ast::ExprKind::Bool(b) => Some(*b),
        _ => None,
    }
}

/// Evaluates a root variable's winning assignment. `.tfvars` values are constant expressions; `--var` and
/// `TF_VAR_` text is taken literally for untyped and primitive-typed variables and parsed as an expression
/// otherwise, as OpenTofu does.
fn root_value(module: &Module, name: &str, a: &Assignment) -> SuppliedValue {
    let source = match &a.source {
        crate::vars::ValueSource::File { location } => ValueSource::Tfvars(*location),
        crate::vars::ValueSource::CommandLine { .. } => ValueSource::CommandLine,
        crate::vars::ValueSource::Environment => ValueSource::Environment,
    };
    let value = match &a.value {
        RawValue::Encrypted { file } => {
            Value::unknown(crate::eval::UnknownCause::EncryptedValue { name: name.to_string(), location: *file })
        }
        RawValue::Expr { file, expr } => eval_literal_expr(*file, expr).unwrap_or_else(|d| error_value(&d)),
        RawValue::Text(text) => {
            if parses_as_literal(module, name) {
                Value::string(text.as_str())
            } else {
                match foreach_syntax::parse_expr(text) {
                    Ok(expr) => eval_literal_expr(CLI_FILE, &expr).unwrap_or_else(|d| error_value(&d)),
                    Err(_) => Value::string(text.as_str()),
                }
            }
        }
    };
    SuppliedValue { value, source, provisional: None }
}

/// Whether a root module's defaults are what runs.
enum RootDefaults {
    /// Every required variable has a value here: the root can run as it is, and its defaults are final.
    Final,
    /// Required variables (these, sorted) have no value here, so the values come from outside, which may override
    /// the defaults too: they are used, and what rests on them is provisional (`eval/provisional.rs`).
    Provisional(Arc<[SmolStr]>),
    /// The defaults must not be used at all (completes "it may be overridden: …"): a wrapper supplies this root's
    /// inputs, or the module tree is being built, where what `tofu init` evaluates (module sources) decides which
    /// directories are loaded, and a guessed source would load the wrong one.
    NotFinal(Arc<str>),
}

fn root_defaults(
    db: &dyn Db,
    ws: Workspace,
    node: &TreeNode,
    module: &Module,
    supplied: &[Option<SuppliedValue>],
    building: bool,
) -> RootDefaults {
    let mut missing: Vec<SmolStr> = module
        .variables
        .iter()
        .zip(supplied)
        .filter(|(v, s)| v.default.is_none() && s.is_none())
        .map(|(v, _)| SmolStr::new(format!("var.{}", v.name)))
        .collect();
    if missing.is_empty() {
        return RootDefaults::Final;
    }
    missing.sort();
    if let Some(wrapper) = ws.input_wrappers(db).get(node.dir.path(db)) {
        return RootDefaults::NotFinal(Arc::from(format!("`{wrapper}` supplies this root module's inputs")));
    }
    if building {
        let names: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
        let has = if names.len() == 1 { "has" } else { "have" };
        return RootDefaults::NotFinal(Arc::from(format!(
            "this root module cannot run as it is: {} {has} no value here",
            names.join(", ")
        )));
    }
    RootDefaults::Provisional(Arc::from(missing))
}

/// A stand-in file id for expressions that come from the command line or the environment.
const CLI_FILE: FileId = FileId(u32::MAX);

fn error_value(d: &[Diagnostic]) -> Value {
    let message = d.first().map(|d| d.message.clone()).unwrap_or_default();
    let location = d.first().map(|d| d.location).unwrap_or(FileRange::new(CLI_FILE, TextRange::default()));
    Value::unknown(crate::eval::UnknownCause::Error { message, location })
}

fn parses_as_literal(module: &Module, name: &str) -> bool {
    // OpenTofu parses a `-var` value as an expression only for variables with a non-primitive type constraint.
    let Some(ty) = module.variable(name).and_then(|v| v.ty.as_ref()) else { return true };
    match &ty.expr().unparenthesized().kind {
        foreach_syntax::ast::ExprKind::Variable(i) => matches!(i.name.as_str(), "string" | "number" | "bool"),
        _ => false,
    }
}

/// Problems with root assignments that only show when evaluating them: a `.tfvars` value that is not constant.
fn root_assignment_errors(db: &dyn Db, ws: Workspace, node: &TreeNode, module: &Module) -> Vec<Diagnostic> {
    if node.parent.is_some() {
        return Vec::new();
    }
    let assignments = root_assignments(db, ws, node.dir);
    let mut out = Vec::new();
    for (name, a) in &assignments.values {
        if let RawValue::Expr { file, expr } = &a.value
            && let Err(diags) = eval_literal_expr(*file, expr)
        {
            for d in diags {
                out.push(Diagnostic::new(
                    Code::InvalidVariableValue,
                    d.location,
                    format!("the value for `var.{name}` must be a constant: {}", d.message),
                ));
            }
        }
        if let RawValue::Text(text) = &a.value
            && !parses_as_literal(module, name)
            && foreach_syntax::parse_expr(text).is_err()
            && let Some(v) = module.variable(name)
        {
            out.push(Diagnostic::new(
                Code::InvalidVariableValue,
                v.site.name_location(),
                format!("the value given for `var.{name}` on the command line or in TF_VAR_{name} is not a valid expression for its type"),
            ));
        }
    }
    out
}
