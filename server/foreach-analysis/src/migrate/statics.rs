//! Whether an argument of an old block may move into the new configuration's map. A provider's `for_each` is
//! evaluated before anything is planned, so every value in its map must be static for OpenTofu: built from
//! variables, local values, literals and functions, never from a resource, data source or module output (or
//! `each`, `count`, `self`). Migrate copies the expression as written, so it needs the value only to know it is
//! static, not the value itself: a variable that has no value here (set by `-var` in a pipeline) is static for
//! OpenTofu, and its argument moves into the map like any other.
//!
//! The evaluator says which unknowns are only missing inputs (`UnknownCause::is_missing_input`, the same rule as
//! the provider `for_each` check). An unknown value can hide another behind it (`"${var.x}-${data.y.z}"` stops at
//! `var.x`), so when the value has unknowns the references are also followed by name, through local values.

use foreach_syntax::ast::Expr;

use super::text::line_of;
use crate::db::{Db, SourceFile};
use crate::eval::{EvalContext, ModuleScope, UnknownCause, Value};
use crate::model::refs::references;

/// The names that stay static: `var.*`, `local.*` (when what they hold is), `path.*`, `terraform.*`, `tofu.*`.
const STATIC_ROOTS: &[&str] = &["var", "local", "path", "terraform", "tofu"];

/// What the arguments are evaluated with: the module's scope, and its local values' expressions by name.
pub(super) struct Statics<'a> {
    pub scope: &'a ModuleScope,
    pub locals: Vec<(String, &'a Expr)>,
}

impl Statics<'_> {
    /// The value of one argument of an old block (possibly with unknowns that are only inputs missing here), or
    /// why it cannot move into the map.
    pub(super) fn eval(&self, db: &dyn Db, file: SourceFile, expr: &Expr, origin: String) -> Result<Value, String> {
        let ctx = EvalContext { origin: origin.clone(), ..EvalContext::default() };
        let v = self.scope.eval(file.id(db), expr, &ctx);
        let reasons = v.unknown_reasons();
        let refuse = |why: String| {
            format!(
                "{}:{}: {origin} is not static ({why}): a provider's for_each is evaluated before anything is \
                 planned, so every value in its map must come from variables, local values and literals",
                file.path(db),
                line_of(&file.text(db), expr.range.start()),
            )
        };
        if let Some(r) = reasons.iter().find(|r| !static_for_opentofu(&r.cause)) {
            return Err(refuse(format!("{}; {}", r.explanation(), r.chain_text(&origin))));
        }
        if !reasons.is_empty()
            && let Some(chain) = self.dynamic_reference(expr, &mut Vec::new())
        {
            let root = chain.last().cloned().unwrap_or_default();
            let mut parts = vec![origin.clone()];
            parts.extend(chain);
            return Err(refuse(format!("`{root}` is not known before planning; {}", parts.join(" -> "))));
        }
        Ok(v)
    }

    /// The chain of names (`local.a`, `data.x.y`) to the first reference of `expr` that is not static, following
    /// local values by name. `seen` stops cycles (reported by the analysis elsewhere).
    fn dynamic_reference(&self, expr: &Expr, seen: &mut Vec<String>) -> Option<Vec<String>> {
        for r in references(expr, &[]) {
            let root = r.root();
            if !STATIC_ROOTS.contains(&root) {
                let name = match (r.attr(0), r.attr(1)) {
                    (Some(a), Some(b)) if matches!(root, "data" | "ephemeral" | "module") => format!("{root}.{a}.{b}"),
                    (Some(a), _) => format!("{root}.{a}"),
                    _ => root.to_string(),
                };
                return Some(vec![name]);
            }
            if root != "local" {
                continue;
            }
            let Some(name) = r.attr(0) else { continue };
            if seen.iter().any(|s| s == name) {
                continue;
            }
            seen.push(name.to_string());
            let Some((_, local)) = self.locals.iter().find(|(n, _)| n == name) else { continue };
            if let Some(mut chain) = self.dynamic_reference(local, seen) {
                chain.insert(0, format!("local.{name}"));
                return Some(chain);
            }
        }
        None
    }
}

/// Whether OpenTofu knows a value with this unknown before planning: an input this checker lacks (a variable with
/// no value here, the workspace, a file not in the checkout), or an impure function OpenTofu calls early. The rule
/// of the provider `for_each` check (`providers::expand`), so that what migrate writes is what `check` accepts.
fn static_for_opentofu(cause: &UnknownCause) -> bool {
    match cause {
        c if c.is_missing_input() => true,
        UnknownCause::ImpureFunction { name, .. } => name != "plantimestamp",
        _ => false,
    }
}
