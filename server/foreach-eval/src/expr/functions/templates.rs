//! `templatefile` and `templatestring`: render a template with only the given variables in scope.
//!
//! The template text is parsed as the body of a heredoc (the same template grammar) and evaluated by a nested
//! evaluator whose only names are the `vars` map; its errors become one error of the call. A template may not
//! call `templatefile` again (OpenTofu forbids the recursion too), which also bounds nesting.

use super::s;
use super::{FnCtx, FnError, FnResult, Func, P, f, p};
use crate::expr::Evaluator;
use crate::resolve::{EmptyScope, FileAccess, Resolved, Scope};
use crate::value::Value;
use foreach_base::base::FileRange;
use foreach_syntax::ast::{ExprKind, TemplatePart};

pub static FUNCS: &[Func] = &[
    f("templatefile", &[p("path", P::Str), p("vars", P::Any)], |cx, a| {
        let bytes = super::file::read(cx, s(&a[0]))?;
        let text = String::from_utf8(bytes).map_err(|_| FnError::Arg(0, "contents are not valid UTF-8".into()))?;
        render(cx, &text, &a[1])
    }),
    f("templatestring", &[p("template", P::Str), p("vars", P::Any)], |cx, a| render(cx, s(&a[0]), &a[1])),
];

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

fn render(cx: &mut FnCtx<'_, '_>, text: &str, vars: &Value) -> FnResult {
    if cx.ev.in_template {
        return Err(FnError::Msg("cannot call a template function from inside a template".into()));
    }
    let Some(vars) = vars.as_attrs() else {
        return Err(FnError::Arg(1, format!("a map or object of variables is required, not {}", vars.friendly_type())));
    };
    for k in vars.keys() {
        if !k.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            || !k.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return Err(FnError::Arg(
                1,
                format!(
                    "invalid template variable name {k:?}: must start with a letter and contain only letters, digits, underscores and dashes"
                ),
            ));
        }
    }
    // A heredoc delimiter that no line of the template can end.
    let mut delim = String::from("FOREACH_LS_TEMPLATE");
    while text.lines().any(|l| l.trim() == delim) {
        delim.push('_');
    }
    let trailing_newline = text.ends_with('\n');
    let source =
        if trailing_newline { format!("<<{delim}\n{text}{delim}") } else { format!("<<{delim}\n{text}\n{delim}") };
    let mut expr = foreach_syntax::parse_expr(&source)
        .map_err(|e| FnError::Msg(format!("the template is not valid: {}", e.message)))?;
    if !trailing_newline
        && let ExprKind::Template(t) = &mut expr.kind
        && let Some(TemplatePart::Literal { value, .. }) = t.parts.last_mut()
    {
        // The wrapper added a final newline the template does not have.
        let mut trimmed = value.to_string();
        trimmed.pop();
        *value = trimmed.into();
    }
    let scope = TemplateScope(cx.ev.scope);
    let mut sub = Evaluator::new(&scope, cx.ev.file, cx.ev.ctx, cx.ev.budget);
    sub.in_template = true;
    sub.steps = cx.ev.steps;
    for (k, v) in vars.iter() {
        sub.bindings.push((k.clone(), v.clone()));
    }
    let v = sub.eval(&expr);
    cx.ev.steps = sub.steps;
    if let Some(d) = sub.diagnostics.first() {
        return Err(FnError::Msg(format!("error in template: {}", d.message)));
    }
    if let Some(r) = v.first_unknown() {
        // Inside a template every name must come from `vars`: any other reference is an error, not a value
        // OpenTofu would know later.
        if let crate::value::UnknownCause::DynamicReference { reference, .. } = &r.cause {
            return Err(FnError::Msg(format!(
                "the template refers to `{reference}`, which is not one of its variables"
            )));
        }
        return Ok(v);
    }
    match v.unmarked() {
        Value::String(_) => Ok(v),
        other => crate::convert::to_string(other)
            .map(Value::String)
            .map_err(|_| FnError::Msg(format!("the template produced {}, not a string", other.friendly_type()))),
    }
}
