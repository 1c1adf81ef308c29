//! `workspace/didChangeWatchedFiles`: files edited, created or deleted outside the editor (a `prod.tfvars` changed
//! by a script, a branch switch) update the analysis; open documents keep their buffer text. The events are queued
//! and applied in batches (`file_events.rs`): a few files are read again, a storm re-indexes the workspace. A state
//! file that changed (a `tofu apply` wrote `terraform.tfstate`) is read again for the roots that use it
//! (`state_files::refresh`). A changed `.terraform/environment`, `.terraform/modules/modules.json` or
//! `foreach-ls.toml` re-indexes the workspace.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeWatchedFilesParams;

use crate::state::State;

pub async fn run(state: &Arc<State>, p: DidChangeWatchedFilesParams) {
    crate::file_events::push(state, p.changes);
}
