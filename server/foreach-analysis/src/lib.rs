//! The analysis core of foreach-ls: the OpenTofu semantics of a workspace as salsa queries, from the loaded files
//! to every diagnostic (the configuration model, the module tree, variables, instances, the provider checks, the
//! state, `migrate`'s plans).
//!
//! It does no IO and never fails: the CLI and the language server feed file texts in through [`AnalysisHost`], and
//! read diagnostics and values out; the editor features are `foreach-ide`, on top of it. It stands on the syntax
//! layer, the shared identities (`foreach-base`) and the evaluator (`foreach-eval`, re-exported as [`eval`]), and
//! must never depend on LSP types, an async runtime, a terminal or the IDE crate. Inside, modules are layered as
//! inputs, quick-fix builders, queries, checks, then the host and the commands (`docs/architecture.md`; the
//! layering test lists each module's layer).

pub mod checks;
mod chunks;
pub mod db;
pub mod diff;
pub mod fixes;
pub mod host;
pub mod init_settings;
pub mod init_values;
pub mod inspect;
pub mod instance_scope;
pub mod instances;
pub mod migrate;
pub mod model;
pub mod module_eval;
pub mod module_outputs;
pub mod paths;
pub mod providers;
pub mod refcheck;
pub mod reparse;
pub mod settings;
pub mod similar;
pub mod source_text;
pub mod state;
pub mod suppress;
pub mod test_refs;
pub mod tree;
pub mod tree_locations;
pub mod tree_model;
pub mod vars;
pub mod versions;

// The shared identities and diagnostics live in `foreach-base`, below the evaluator; re-exported under the names the
// analysis has always used for them.
// The evaluator is `foreach-eval`, below the analysis; re-exported as the module it was.
pub use foreach_base::{
    Code, Diagnostic, FileId, FileRange, Fix, Related, Severity, TextEdit, base, diagnostics, suggest,
};
pub use foreach_eval as eval;
pub use host::{AnalysisHost, Change, EXPRESSION_FILE, Evaluation};
pub use settings::{CliVariable, Settings};
pub use source_text::SourceText;
