//! Static evaluation of every module instance in the tree, as OpenTofu's early evaluation sees it.
//!
//! A root module's variables get their winning assignment (`vars.rs`), evaluated as a constant; a child's get the
//! calling `module` block's argument, evaluated in the caller's static scope. Each instance then evaluates all its
//! variables and locals once, in a [`ModuleScope`] that memoises, detects cycles and explains unknowns. Instances are
//! evaluated parents first (the tree lists a parent before its children).

use std::sync::Arc;

use foreach_syntax::TextRange;
use foreach_syntax::ast::Expr;

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, Workspace, file_index, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::scope::{LocalDecl, ModuleScope, ModuleStaticInputs, SuppliedValue, ValueSource, VariableDecl};
use crate::eval::{EvalContext, Value, eval_literal_expr};
use crate::model::module::Module;
use crate::paths::relative_path;
use crate::providers::config::module_references;
use crate::providers::expand::{InstanceProviders, analyse_instance};
use crate::tree::{ModuleTree, NodeId, TreeNode, module_tree};
use crate::vars::{Assignment, RawValue, root_assignments};

/// The static values of one module instance.
#[derive(Debug, Clone)]
pub struct InstanceValues {
    /// Every declared variable's value (unknown with a reason where not static).
    pub variables: Vec<(String, Value)>,
    pub locals: Vec<(String, Value)>,
    /// Module call arguments evaluated in this instance's scope: (call name, argument name, value).
    pub call_arguments: Vec<(String, String, Value)>,
    /// Provider `for_each` expansions and the instance keys each reference selects, in this instance.
    pub providers: std::sync::Arc<InstanceProviders>,
}

impl InstanceValues {
    pub fn variable(&self, name: &str) -> Option<&Value> {
        self.variables.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn local(&self, name: &str) -> Option<&Value> {
        self.locals.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

#[derive(Debug, Clone, Default)]
pub struct TreeValues {
    /// By tree node index.
    pub instances: Vec<InstanceValues>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Values are compared structurally only where salsa needs it; these results are recomputed together, so no
/// equality is needed (`no_eq`).
#[salsa::tracked(returns(clone), no_eq)]
pub fn tree_values(db: &dyn Db, ws: Workspace) -> Arc<TreeValues> {
    let tree = module_tree(db, ws);
    let mut out = TreeValues::default();
    for (index, node) in tree.nodes.iter().enumerate() {
        let mut diags = Vec::new();
        let scope = instance_scope(db, ws, &tree, node, CallerArgs::Evaluated(&out.instances), &mut diags);
        let values = scope.evaluate_all();
        let module = module(db, node.dir);
        let mut call_arguments = Vec::new();
        for call in &module.module_calls {
            let ctx = call_argument_context(node, &call.name);
            for input in &call.inputs {
                let v = scope.eval(input.file, &input.expr, &ctx);
                call_arguments.push((call.name.clone(), input.name.name.clone(), v));
            }
        }
        let (refs, _) = module_references(&module);
        let files = file_index(db, ws);
        let file_text = |id: FileId| files.get(&id).map(|f| (f.text(db).clone(), f.kind(db)));
        let providers = analyse_instance(&module, &scope, &refs, &node.address(), &file_text);
        diags.extend(providers.diagnostics.iter().cloned());
        diags.extend(scope.take_diagnostics());
        out.diagnostics.extend(diags);
        debug_assert_eq!(out.instances.len(), index);
        out.instances.push(InstanceValues {
            variables: values.variables,
            locals: values.locals,
            call_arguments,
            providers: std::sync::Arc::new(providers),
        });
    }
    Arc::new(out)
}

fn prefix(node: &TreeNode) -> String {
    let a = node.address();
    if a.is_empty() { a } else { format!("{a}.") }
}

/// The static scope of one instance, for evaluating further expressions in it (the `eval` command, hovers).
pub fn scope_for_node(db: &dyn Db, ws: Workspace, node: NodeId) -> (ModuleScope, Vec<Diagnostic>) {
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    let mut diags = Vec::new();
    let scope = instance_scope(db, ws, &tree, tree.node(node), CallerArgs::Evaluated(&values.instances), &mut diags);
    (scope, diags)
}

/// Looks up the value supplied for a variable by name.
type SuppliedFn<'a> = Box<dyn Fn(&str) -> Option<SuppliedValue> + 'a>;

/// Where a child instance's variables get their values: the calling `module` block's arguments.
pub(crate) enum CallerArgs<'a> {
    /// Already evaluated by [`tree_values`] (a parent comes before its children).
    Evaluated(&'a [InstanceValues]),
    /// Evaluated on demand in the caller's scope: while the module tree is being built, before [`tree_values`]
    /// exists, to evaluate module sources (`tree.rs`). Must give the same values as `Evaluated`.
    Scope(&'a ModuleScope),
}

/// The context module call arguments are evaluated in: the call's `each`/`count` are not static, so they stay
/// unknown (the RFC forbids them in anything evaluated early).
fn call_argument_context(node: &TreeNode, call: &str) -> EvalContext {
    EvalContext { each: None, count: None, origin: format!("{}module.{call} argument", prefix(node)) }
}

pub(crate) fn instance_scope(
    db: &dyn Db,
    ws: Workspace,
    tree: &ModuleTree,
    node: &TreeNode,
    caller: CallerArgs<'_>,
    diags: &mut Vec<Diagnostic>,
) -> ModuleScope {
    let module = module(db, node.dir);
    let root = root_of(tree, node);
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
            let parent_module = self::module(db, tree.node(parent).dir);
            let call_name = node.call_path.last().cloned().unwrap_or_default();
            let parent_node = tree.node(parent);
            let ctx = call_argument_context(parent_node, &call_name);
            match caller {
                CallerArgs::Evaluated(evaluated) => {
                    let parent_values = evaluated.get(parent.0 as usize).cloned();
                    Box::new(move |name: &str| {
                        let call = parent_module.module_call(&call_name)?;
                        let input = call.input(name)?;
                        let value = parent_values
                            .as_ref()
                            .and_then(|pv| {
                                pv.call_arguments
                                    .iter()
                                    .find(|(c, n, _)| *c == call_name && n == name)
                                    .map(|(_, _, v)| v.clone())
                            })
                            .unwrap_or_else(Value::null);
                        Some(SuppliedValue { value, source: ValueSource::ModuleArgument(input.location()) })
                    })
                }
                CallerArgs::Scope(parent_scope) => Box::new(move |name: &str| {
                    let call = parent_module.module_call(&call_name)?;
                    let input = call.input(name)?;
                    let value = parent_scope.eval(input.file, &input.expr, &ctx);
                    Some(SuppliedValue { value, source: ValueSource::ModuleArgument(input.location()) })
                }),
            }
        }
    };
    for a in root_assignment_errors(db, ws, node, &module) {
        diags.push(a);
    }
    let variables = module
        .variables
        .iter()
        .map(|v| VariableDecl {
            name: v.name.clone(),
            decl: v.site.name_location(),
            type_expr: v.ty.as_ref().map(|a| (a.file, a.expr.clone())),
            default: v.default.as_ref().map(|a| (a.file, a.expr.clone())),
            nullable: v.nullable.as_ref().and_then(|a| literal_bool(&a.expr)).unwrap_or(true),
            sensitive: v.sensitive.as_ref().and_then(|a| literal_bool(&a.expr)).unwrap_or(false),
            supplied: supplied(&v.name),
        })
        .collect();
    let locals = module
        .locals
        .iter()
        .map(|l| LocalDecl {
            name: l.name.clone(),
            file: l.arg.file,
            range: l.arg.location(),
            expr: l.arg.expr.clone(),
        })
        .collect();
    let root_path = root.dir.path(db).clone();
    let workspace_root = ws
        .roots(db)
        .iter()
        .find(|r| root_path == **r || root_path.starts_with(&format!("{r}/")))
        .cloned()
        .unwrap_or_else(|| root_path.clone());
    let settings = ws.settings(db);
    ModuleScope::new(ModuleStaticInputs {
        module_label: node.address(),
        variables,
        locals,
        path_module: relative_path(node.dir.path(db), &root_path),
        path_root: ".".to_string(),
        path_cwd: root_path.clone(),
        workspace: settings.workspace_name.clone(),
        workspace_root,
        files: db.file_reader(),
        budget: Default::default(),
    })
}

fn root_of<'a>(tree: &'a ModuleTree, node: &'a TreeNode) -> &'a TreeNode {
    let mut n = node;
    while let Some(p) = n.parent {
        n = tree.node(p);
    }
    n
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
    match &ty.expr.unparenthesized().kind {
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

/// The root node whose directory is `dir`, if `dir` is a root module.
pub fn root_for_dir(tree: &ModuleTree, dir: ModuleDir) -> Option<NodeId> {
    tree.roots.iter().copied().find(|r| tree.node(*r).dir == dir)
}
