//! One file per LSP method. Each handler converts in, asks the analysis once on a snapshot, and converts out.

pub mod code_action;
pub mod code_lens;
pub mod completion;
pub mod definition;
pub mod diagnostic;
pub mod did_change;
pub mod did_change_configuration;
pub mod did_change_watched_files;
pub mod did_change_workspace_folders;
pub mod did_close;
pub mod did_open;
pub mod document_highlight;
pub mod document_link;
pub mod document_symbol;
pub mod folding_range;
pub mod formatting;
pub mod hover;
pub mod initialize;
pub mod initialized;
pub mod inlay_hint;
pub mod references;
pub mod rename;
pub mod selection_range;
pub mod semantic_tokens;
pub mod signature_help;
pub mod workspace_symbol;
