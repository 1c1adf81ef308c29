//! The static scope of one module instance: its variables' values (a root's from its assignments, a child's from
//! the calling block's arguments), its locals and `path.*`, ready for [`ModuleScope`] to evaluate on demand. Used
//! while the module tree is built (to evaluate module sources) and afterwards per instance (`module_eval.rs`).

use std::sync::Arc;

use foreach_syntax::TextRange;
use foreach_syntax::ast::Expr;

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, Workspace, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::scope::{LocalDecl, ModuleScope, ModuleStaticInputs, SuppliedValue, ValueSource, VariableDecl};
use crate::eval::{EvalContext, Value, eval_literal_expr};
use crate::model::module::Module;
use crate::paths::relative_path;
use crate::tree_model::{ModuleTree, NodeId, TreeNode};
use crate::vars::{Assignment, RawValue, root_assignments};

/// One argument of a module call, evaluated in the calling instance.
#[derive(Debug, Clone, PartialEq)]
pub struct CallArgument {
    pub name: String,
    pub value: Value,
    /// The whole `name = value` attribute.
    pub location: FileRange,
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
        CallerArgs::Memoised { node_of, .. } => node_of(id),
        CallerArgs::Building { tree, .. } => tree.nodes.get(id.0 as usize).cloned(),
    };
    let root_dir = root_dir_of(node, node_of);
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
                        Some(SuppliedValue { value: a.value.clone(), source: ValueSource::ModuleArgument(a.location) })
                    })
                }
                CallerArgs::Building { parent_scope, .. } => {
                    let parent_node = node_of(parent);
                    let parent_module = parent_node.as_ref().map(|p| self::module(db, p.dir));
                    let ctx = parent_node.as_ref().map(|p| call_argument_context(p, &call_name));
                    Box::new(move |name: &str| {
                        let call = parent_module.as_ref()?.module_call(&call_name)?;
                        let input = call.input(name)?;
                        let value = match (parent_scope, &ctx) {
                            (Some(scope), Some(ctx)) => scope.eval(input.file, &input.expr(), ctx),
                            _ => Value::null(),
                        };
                        Some(SuppliedValue { value, source: ValueSource::ModuleArgument(input.location()) })
                    })
                }
            }
        }
    };
    for a in root_assignment_errors(db, ws, node, &module) {
        diags.push(a);
    }
    // A root module with a required variable that nothing here gives a value cannot run as it is: its values come
    // from somewhere this check does not see (a var file passed by a wrapper such as atmos, Leverage or a CI job),
    // which may set the variables that have defaults too. Their defaults are then not final, so they are unknown
    // rather than checked as if OpenTofu used them.
    // Each supplied value is evaluated once (a root's come from `.tfvars` expressions).
    let supplied_values: Vec<Option<SuppliedValue>> = module.variables.iter().map(|v| supplied(&v.name)).collect();
    let defaults_not_final = node.parent.is_none()
        && module.variables.iter().zip(&supplied_values).any(|(v, s)| v.default.is_none() && s.is_none());
    let variables = module
        .variables
        .iter()
        .zip(supplied_values)
        .map(|(v, supplied)| VariableDecl {
            name: v.name.clone(),
            decl: v.site.name_location(),
            type_expr: v.ty.as_ref().map(|a| (a.file, a.expr())),
            default: if defaults_not_final && supplied.is_none() {
                None
            } else {
                v.default.as_ref().map(|a| (a.file, a.expr()))
            },
            nullable: v.nullable.as_ref().and_then(|a| literal_bool(&a.expr())).unwrap_or(true),
            sensitive: v.sensitive.as_ref().and_then(|a| literal_bool(&a.expr())).unwrap_or(false),
            non_static: non_static(v),
            supplied,
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
    let flag = |a: &crate::model::items::OptArg| a.as_ref().and_then(|a| literal_bool(&a.expr()));
    if flag(&v.ephemeral) == Some(true) {
        Some(crate::eval::NonStatic::Ephemeral)
    } else if flag(&v.constant) == Some(false) {
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
    SuppliedValue { value, source }
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
