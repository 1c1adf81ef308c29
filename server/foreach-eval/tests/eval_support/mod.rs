//! Test support for the evaluator tests: builds a module static scope from HCL text (a tiny stand-in for the
//! configuration model) and evaluates expressions in it.

#![allow(dead_code)]

use foreach_base::FileId;
use foreach_base::FileRange;
use foreach_base::diagnostics::Diagnostic;
use foreach_eval::budget::Budget;
use foreach_eval::render;
use foreach_eval::{
    EvalContext, LocalDecl, ModuleScope, ModuleStaticInputs, NonStatic, SuppliedValue, Value, VariableDecl,
};
use foreach_syntax::FileKind;
use foreach_syntax::ast::ExprKind;

pub const MODULE_FILE: FileId = FileId(1);
pub const EXPR_FILE: FileId = FileId(2);

/// Inputs for a module given as the text of one `.tf` file.
pub fn inputs(text: &str, supplied: Vec<(&str, SuppliedValue)>) -> ModuleStaticInputs {
    let parse = foreach_syntax::parse(text, FileKind::Tf);
    assert!(parse.errors.is_empty(), "syntax errors in test module: {:?}", parse.errors);
    let mut variables = Vec::new();
    let mut locals = Vec::new();
    for block in parse.body.blocks() {
        match block.ident.name.as_str() {
            "variable" => {
                let name = block.label(0).unwrap_or_default().to_string();
                let bool_attr = |n: &str, d: bool| match block.body.attribute(n).map(|a| &a.value.kind) {
                    Some(ExprKind::Bool(b)) => *b,
                    _ => d,
                };
                variables.push(VariableDecl {
                    supplied: supplied.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()),
                    provisional: None,
                    default_not_final: None,
                    name: name.into(),
                    decl: FileRange::new(MODULE_FILE, block.labels[0].range),
                    type_expr: block.body.attribute("type").map(|a| (MODULE_FILE, a.value.clone())),
                    default: block.body.attribute("default").map(|a| (MODULE_FILE, a.value.clone())),
                    nullable: bool_attr("nullable", true),
                    sensitive: bool_attr("sensitive", false),
                    non_static: if bool_attr("ephemeral", false) {
                        Some(NonStatic::Ephemeral)
                    } else if !bool_attr("const", true) {
                        Some(NonStatic::NotConst)
                    } else {
                        None
                    },
                });
            }
            "locals" => {
                for a in block.body.attributes() {
                    locals.push(LocalDecl {
                        name: a.key.name.clone(),
                        file: MODULE_FILE,
                        range: FileRange::new(MODULE_FILE, a.range),
                        expr: a.value.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    ModuleStaticInputs {
        module_label: String::new(),
        variables,
        locals,
        path_module: ".".into(),
        path_root: ".".into(),
        path_cwd: "/work/project".into(),
        workspace: Some("default".into()),
        workspace_root: "/work/project".into(),
        files: None,
        budget: Budget::default(),
    }
}

pub fn scope(text: &str) -> ModuleScope {
    ModuleScope::new(inputs(text, Vec::new()))
}

/// Evaluates `expr` in the module; returns the value and every diagnostic (module and expression).
pub fn eval_in(module: &str, expr: &str) -> (Value, Vec<Diagnostic>) {
    let scope = scope(module);
    eval_with(&scope, expr)
}

pub fn eval_with(scope: &ModuleScope, expr: &str) -> (Value, Vec<Diagnostic>) {
    let e = foreach_syntax::parse_expr(expr).unwrap_or_else(|e| panic!("cannot parse `{expr}`: {e:?}"));
    let v = scope.eval(EXPR_FILE, &e, &EvalContext { origin: "test".into(), ..EvalContext::default() });
    (v, scope.take_diagnostics())
}

/// The console rendering of `expr` evaluated with no module, asserting no diagnostics.
pub fn ev(expr: &str) -> String {
    let (v, d) = eval_in("", expr);
    assert!(d.is_empty(), "`{expr}` gave diagnostics: {d:#?}");
    render::console(&v)
}

/// The console rendering of `expr` evaluated in `module`, asserting no diagnostics.
pub fn ev_in(module: &str, expr: &str) -> String {
    let (v, d) = eval_in(module, expr);
    assert!(d.is_empty(), "`{expr}` gave diagnostics: {d:#?}");
    render::console(&v)
}

/// One line: the compact rendering of `expr`, asserting no diagnostics.
pub fn c(expr: &str) -> String {
    let (v, d) = eval_in("", expr);
    assert!(d.is_empty(), "`{expr}` gave diagnostics: {d:#?}");
    render::compact(&v)
}

/// The messages of the diagnostics `expr` produces (asserting there is at least one), joined.
pub fn fails(expr: &str) -> String {
    let (_, d) = eval_in("", expr);
    assert!(!d.is_empty(), "`{expr}` should fail");
    d.iter().map(|d| format!("{}: {}", d.code.as_str(), d.message)).collect::<Vec<_>>().join("\n")
}
