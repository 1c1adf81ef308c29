//! Static evaluation of OpenTofu expressions: the values OpenTofu knows before planning (input variables, locals
//! derived from them, literals, pure functions), computed as OpenTofu computes them, and for everything else an
//! unknown value that says why.
//!
//! Layout: `number`/`value`/`types`/`convert`/`unify`/`render` model cty; `expr` and `template` evaluate the AST;
//! `functions/` holds the built-ins by group; `scope` resolves `var.`/`local.`/`path.` references for one module
//! and collects diagnostics; `budget` bounds depth, size and steps. Nothing here prints or does IO except through
//! the [`scope::FileReader`] the host provides.
//!
//! It stands on the syntax tree (`foreach-syntax`) and the shared identities and diagnostics (`foreach-base`) and
//! must never depend on the analysis (salsa, the configuration model, the module tree) nor on anything that serves
//! an editor: what a module's scope needs arrives as plain data ([`ModuleStaticInputs`]). Inside, the layers run
//! one way: values and types, then conversion, then the function library, then the evaluator that calls it.

mod attrs;
pub mod budget;
mod cli;
pub mod constraint;
pub mod convert;
mod deps;
pub mod expr;
mod name_index;
pub mod number;
pub mod provisional;
mod quote;
pub mod render;
pub mod resolve;
pub mod scope;
pub mod template;
mod traverse;
pub mod type_expr;
pub mod types;
pub mod unify;
pub mod value;

pub use cli::cli_value;
pub use constraint::Constraint;
pub use convert::{ConvError, convert, unify};
pub use expr::functions;
pub use expr::{EvalContext, Evaluator, eval_literal_expr};
pub use number::Number;
pub use provisional::Provisional;
pub use scope::{
    FileReader, LocalDecl, ModuleScope, ModuleStaticInputs, ModuleValues, Resolved, Scope, SuppliedValue, ValueSource,
    VariableDecl,
};
pub use types::Type;
pub use value::{AwaitedInputs, DynamicKind, Hop, NonStatic, UnknownCause, UnknownReason, Value};
