//! Values given outside configuration files: `-var name=value` / `--var` and `TF_VAR_name`, read the way OpenTofu
//! reads them.

use super::constraint::Constraint;
use super::expr::eval_literal_expr;
use super::value::Value;
use foreach_base::base::FileId;

/// The value of a `-var` or `TF_VAR_` string. OpenTofu takes the text literally as a string when the variable
/// has no `type` or a primitive one (`string`, `number`, `bool`: conversion happens when the constraint is
/// applied), and parses it as an HCL expression for every other constraint, `any` included. `file` only labels
/// ranges in the returned error.
pub fn cli_value(raw: &str, constraint: Option<&Constraint>, file: FileId) -> Result<Value, String> {
    let literal = match constraint {
        None => true,
        Some(c) => matches!(c, Constraint::String | Constraint::Number | Constraint::Bool),
    };
    if literal {
        return Ok(Value::string(raw));
    }
    let expr =
        foreach_syntax::parse_expr(raw).map_err(|e| format!("the value is not a valid expression: {}", e.message))?;
    eval_literal_expr(file, &expr).map_err(|ds| ds.first().map(|d| d.message.clone()).unwrap_or_default())
}
