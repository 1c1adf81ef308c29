//! `templatefile` and `templatestring`: render a template with only the given variables in scope.
//!
//! The template text is parsed as the body of a heredoc (the same template grammar) and evaluated by a nested
//! evaluator whose only names are the `vars` map (the host's [`FnHost::eval_template`](super::api::FnHost)); its
//! errors become one error of the call. A template may not
//! call `templatefile` again (OpenTofu forbids the recursion too), which also bounds nesting.

use super::api::s;
use super::api::{FnCtx, FnError, FnResult, Func, P, f, p};
use crate::value::Value;
use foreach_syntax::ast::{ExprKind, TemplatePart};

pub static FUNCS: &[Func] = &[
    f("templatefile", &[p("path", P::Str), p("vars", P::Any)], |cx, a| {
        let bytes = super::file::read(cx, s(&a[0]))?;
        let text = String::from_utf8(bytes).map_err(|_| FnError::Arg(0, "contents are not valid UTF-8".into()))?;
        render(cx, &text, &a[1])
    }),
    f("templatestring", &[p("template", P::Str), p("vars", P::Any)], |cx, a| render(cx, s(&a[0]), &a[1])),
];

fn render(cx: &mut FnCtx<'_>, text: &str, vars_value: &Value) -> FnResult {
    let vars = vars_value;
    if cx.host.in_template() {
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
    let v = cx.host.eval_template(&expr, vars_value).map_err(|m| FnError::Msg(format!("error in template: {m}")))?;
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
