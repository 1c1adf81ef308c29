//! Checks that every root module's backend, cloud and encryption arguments are known at `tofu init` (the words
//! are `init_values.rs`'s). A query of its own: it reads the module tree and the roots' scopes, which the
//! classification in `init_values.rs` must not depend on (the tree is built with it).

use std::sync::Arc;

use crate::base::FileRange;
use crate::db::{Db, Workspace, module};
use crate::diagnostics::Diagnostic;
use crate::init_values::{Field, diagnose, eval_settings_arg, settings_args, settings_block_kind};
use crate::module_eval::scope_for_node;
use crate::tree::module_tree;

/// Backend and encryption arguments of every root module that are not known at init. Child modules are skipped:
/// OpenTofu reads these blocks only in the root module.
#[salsa::tracked(returns(clone))]
pub fn init_settings_checks(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let tree = module_tree(db, ws);
    let mut out = Vec::new();
    for &root in &tree.roots {
        let m = module(db, tree.node(root).dir);
        if m.backends.is_empty() && m.encryption.is_empty() {
            continue;
        }
        // Evaluation errors inside these arguments are reported by the scope; undefined references by refcheck.
        let (scope, _) = scope_for_node(db, ws, tree.node(root));
        for block in m.backends.iter().chain(m.encryption.iter()) {
            let kind = settings_block_kind(&block.block);
            for arg in settings_args(block.file, &block.block.body) {
                let outcome = eval_settings_arg(&scope, &arg, kind);
                let field = match kind {
                    "encryption" => Field::Encryption { path: &arg.path },
                    block => Field::Backend { block, path: &arg.path },
                };
                out.extend(diagnose(field, FileRange::new(arg.file, arg.attr.value.range), &outcome));
            }
        }
        out.extend(scope.take_diagnostics());
    }
    Arc::new(out)
}
