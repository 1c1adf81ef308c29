//! IDE features as analysis functions: hover, completion, go to definition, document symbols, code actions.
//!
//! Everything here answers in editor terms (file ids, byte offsets, `TextRange`, Markdown strings) so that the
//! language server only converts positions and types. No LSP types, no IO. Every entry point runs inside
//! [`salsa::Cancelled::catch`]: when the host applies a change while a question is being answered, the answer is
//! abandoned and the caller gets `Err(Cancelled)`.
//!
//! This crate sits on top of the analysis (`foreach-analysis`), like rust-analyzer's `ide` on `hir`: it reads the
//! analysis's queries and nothing in the analysis reads it. It must never depend on LSP types, an async runtime or
//! an editor buffer (that is `foreach-lsp`), nor do IO. [`Analysis::of`] takes a snapshot of an
//! [`AnalysisHost`]; the command line asks it for the workspace's diagnostics, the language server for the rest.

mod calls;
mod code_actions;
mod completion;
mod cursor;
mod document_links;
mod folding;
mod function_docs;
mod goto;
mod highlight;
mod hover;
#[cfg(test)]
mod incremental;
mod init_info;
mod inlay_hints;
mod instance_lens;
mod key_completion;
mod key_origin;
mod migrate_action;
mod occurrences;
mod provider_info;
mod provider_links;
mod references;
mod rename;
mod rename_key;
mod rename_provider;
mod resource_state;
mod results;
mod selection;
mod semantic_tokens;
mod signature_help;
mod state_info;
mod symbols;
#[cfg(test)]
mod test_fixture;
mod var_files;
mod version_info;
mod workspace_symbols;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use foreach_syntax::{LineIndex, TextRange, TextSize};

use foreach_analysis::AnalysisHost;
use foreach_analysis::base::FileId;
use foreach_analysis::checks::workspace_diagnostics;
use foreach_analysis::db::{Db, ModuleDir, RootDatabase, SourceFile, Workspace, dir_index, file_index};
use foreach_analysis::diagnostics::Diagnostic;
use foreach_analysis::paths::parent;

pub use code_actions::Assist;
pub use document_links::{DocumentLink, LinkTarget};
pub use folding::{Fold, FoldKind};
pub use highlight::Highlight;
pub use inlay_hints::InlayHint;
pub use instance_lens::{InstanceLens, count_lens_computations, lens_computations};
pub use migrate_action::Refactor;
pub use rename::{RenameError, RootVariable};
pub use results::{CompletionItem, CompletionKind, CompletionList, HoverResult, NavigationTarget};
pub use semantic_tokens::{MODIFIERS, SemanticToken, TokenType, modifier, tokens as semantic_tokens_of};
pub use signature_help::SignatureHelp;
pub use symbols::{Symbol, SymbolKind};

/// The result of a question asked of a snapshot that a newer change may cancel.
pub type Cancellable<T> = Result<T, salsa::Cancelled>;

/// A cursor: a byte offset in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilePosition {
    pub file: FileId,
    pub offset: TextSize,
}

/// A read-only snapshot of the analysis, cheap to clone and safe to use on another thread.
#[derive(Clone)]
pub struct Analysis {
    db: RootDatabase,
    ws: Workspace,
}

impl Analysis {
    /// A snapshot of the host as it is now. The host's next `apply_change` cancels it: its queries then return
    /// `Err(Cancelled)`, so a snapshot must never be held while applying a change on the same thread.
    pub fn of(host: &AnalysisHost) -> Analysis {
        let (db, ws) = host.snapshot();
        Analysis { db, ws }
    }

    fn with<T>(&self, f: impl FnOnce(&RootDatabase, Workspace) -> T) -> Cancellable<T> {
        let ws = self.ws;
        salsa::Cancelled::catch(AssertUnwindSafe(|| f(&self.db, ws)))
    }

    /// Every diagnostic of the workspace (the same list `check` prints), sorted by file and position.
    pub fn diagnostics(&self) -> Cancellable<Arc<Vec<Diagnostic>>> {
        self.with(|db, ws| workspace_diagnostics(db, ws))
    }

    /// The diagnostics of one file.
    pub fn file_diagnostics(&self, file: FileId) -> Cancellable<Vec<Diagnostic>> {
        self.with(|db, ws| workspace_diagnostics(db, ws).iter().filter(|d| d.location.file == file).cloned().collect())
    }

    /// Every loaded file: id and absolute path.
    pub fn files(&self) -> Cancellable<Vec<(FileId, String)>> {
        self.with(|db, ws| file_index(db, ws).iter().map(|(id, f)| (*id, f.path(db).to_string())).collect())
    }

    /// The id of the loaded file at this absolute path.
    pub fn file_id(&self, path: &str) -> Cancellable<Option<FileId>> {
        self.with(|db, ws| path_index(db, ws).get(path).copied())
    }

    pub fn file_path(&self, file: FileId) -> Cancellable<Option<String>> {
        self.with(|db, ws| source_file(db, ws, file).map(|f| f.path(db).to_string()))
    }

    pub fn file_text(&self, file: FileId) -> Cancellable<Option<Arc<str>>> {
        self.with(|db, ws| source_file(db, ws, file).map(|f| f.text(db)))
    }

    /// The line index of a file's current text (memoised per text).
    pub fn line_index(&self, file: FileId) -> Cancellable<Option<Arc<LineIndex>>> {
        self.with(|db, ws| source_file(db, ws, file).map(|f| line_index(db, f)))
    }

    pub fn hover(&self, pos: FilePosition) -> Cancellable<Option<HoverResult>> {
        self.with(|db, ws| hover::hover(db, ws, pos))
    }

    pub fn completions(&self, pos: FilePosition) -> Cancellable<Vec<CompletionItem>> {
        self.with(|db, ws| completion::completions(db, ws, pos))
    }

    /// [`Analysis::completions`], with long instance-key lists filtered by what is typed and cut (`is_incomplete`).
    pub fn completion_list(&self, pos: FilePosition) -> Cancellable<CompletionList> {
        self.with(|db, ws| completion::completion_list(db, ws, pos))
    }

    pub fn goto_definition(&self, pos: FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        self.with(|db, ws| goto::goto_definition(db, ws, pos))
    }

    /// Evaluated instance keys after provider `for_each` expressions and after `provider = …[key]` references.
    pub fn inlay_hints(&self, file: FileId) -> Cancellable<Vec<InlayHint>> {
        self.with(|db, ws| inlay_hints::inlay_hints(db, ws, file))
    }

    /// Code lenses on the `for_each`/`count` lines whose instances differ from the state's (`instance_lens.rs`).
    pub fn instance_lenses(&self, file: FileId) -> Cancellable<Vec<InstanceLens>> {
        self.with(|db, ws| instance_lens::instance_lenses(db, ws, file))
    }

    /// Every use of the provider configuration under the cursor (and its block, with `include_declaration`).
    pub fn references(
        &self,
        pos: FilePosition,
        include_declaration: bool,
    ) -> Cancellable<Vec<foreach_analysis::FileRange>> {
        self.with(|db, ws| references::references(db, ws, pos, include_declaration))
    }

    /// The name under the cursor that a rename would change, or why it cannot be renamed (`rename.rs`).
    pub fn prepare_rename(&self, pos: FilePosition) -> Cancellable<Result<TextRange, RenameError>> {
        self.with(|db, ws| rename::prepare_rename(db, ws, pos))
    }

    /// The edits that rename the symbol under the cursor to `new_name`, or why it cannot be renamed.
    pub fn rename(
        &self,
        pos: FilePosition,
        new_name: &str,
    ) -> Cancellable<Result<Vec<foreach_analysis::TextEdit>, RenameError>> {
        self.with(|db, ws| rename::rename(db, ws, pos, new_name))
    }

    /// The variable under the cursor when it belongs to a root module, for the project file's `-var` names that a
    /// rename must follow (`rename.rs`).
    pub fn root_variable(&self, pos: FilePosition) -> Cancellable<Option<RootVariable>> {
        self.with(|db, ws| rename::root_variable(db, ws, pos))
    }

    /// The keys that set variable `name` in the loaded `.tfvars` file at `path`, for the var files of the project
    /// file's environments, which the server adds to a root variable's rename (`var_files.rs`); none when no such
    /// file is loaded, the reason when rename cannot edit them (a JSON file).
    pub fn var_file_assignments(
        &self,
        path: &str,
        name: &str,
    ) -> Cancellable<Result<Vec<foreach_analysis::FileRange>, RenameError>> {
        self.with(|db, ws| match var_files::loaded_file(db, ws, path) {
            None => Ok(Vec::new()),
            Some(f) => var_files::assignments(db, f, name).map_err(|path| {
                format!("cannot rename variable `{name}`: the JSON var file {path} sets it, which rename does not edit")
            }),
        })
    }

    /// The signature of the built-in function call around the cursor and the parameter being typed.
    pub fn signature_help(&self, pos: FilePosition) -> Cancellable<Option<SignatureHelp>> {
        self.with(|db, ws| {
            let file = source_file(db, ws, pos.file)?;
            signature_help::signature_help(&file.text(db), pos.offset)
        })
    }

    pub fn document_symbols(&self, file: FileId) -> Cancellable<Vec<Symbol>> {
        self.with(|db, ws| symbols::document_symbols(db, ws, file))
    }

    /// The semantic tokens of a native HCL file (all of it, or those overlapping `range`), sorted and disjoint.
    pub fn semantic_tokens(&self, file: FileId, range: Option<TextRange>) -> Cancellable<Vec<SemanticToken>> {
        self.with(|db, ws| semantic_tokens::semantic_tokens(db, ws, file, range))
    }

    /// Folds: blocks, multi-line collections and heredocs, comment runs.
    pub fn folding_ranges(&self, file: FileId) -> Cancellable<Vec<Fold>> {
        self.with(|db, ws| folding::folding_ranges(db, ws, file))
    }

    /// For each offset, the ranges around it from the innermost outwards (expression, attribute, block, ...).
    pub fn selection_ranges(&self, file: FileId, offsets: &[TextSize]) -> Cancellable<Vec<Vec<TextRange>>> {
        self.with(|db, ws| selection::selection_ranges(db, ws, file, offsets))
    }

    /// The occurrences in the file of the name under the cursor (variable, local, module, resource, provider).
    pub fn document_highlights(&self, pos: FilePosition) -> Cancellable<Vec<Highlight>> {
        self.with(|db, ws| highlight::highlights(db, ws, pos))
    }

    /// The top-level blocks of every loaded file whose name matches `query` (fuzzy, in order), at most 1,000.
    pub fn workspace_symbols(&self, query: &str) -> Cancellable<Vec<(FileId, Symbol)>> {
        self.with(|db, ws| workspace_symbols::workspace_symbols(db, ws, query))
    }

    /// Links on module `source` strings: to the local module's main file or the registry page.
    pub fn document_links(&self, file: FileId) -> Cancellable<Vec<DocumentLink>> {
        self.with(|db, ws| document_links::document_links(db, ws, file))
    }

    /// Quick fixes for the diagnostics that touch `range`, plus "ignore this code for this block".
    pub fn code_actions(&self, file: FileId, range: TextRange) -> Cancellable<Vec<Assist>> {
        self.with(|db, ws| code_actions::code_actions(db, ws, file, range))
    }

    /// Refactorings on the block at `range`: converting aliased provider blocks into one `for_each` provider.
    pub fn migrate_refactors(&self, file: FileId, range: TextRange) -> Cancellable<Vec<Refactor>> {
        self.with(|db, ws| migrate_action::refactors(db, ws, file, range))
    }
}

#[salsa::tracked(returns(clone))]
fn line_index(db: &dyn Db, file: SourceFile) -> Arc<LineIndex> {
    Arc::new(LineIndex::new(&file.text(db)))
}

/// File ids by path (rebuilt only when the set of files changes).
#[salsa::tracked(returns(clone))]
fn path_index(db: &dyn Db, ws: Workspace) -> Arc<std::collections::HashMap<String, FileId>> {
    Arc::new(file_index(db, ws).values().map(|f| (f.path(db).to_string(), f.id(db))).collect())
}

pub(crate) fn source_file(db: &dyn Db, ws: Workspace, file: FileId) -> Option<SourceFile> {
    file_index(db, ws).get(&file).copied()
}

/// The directory (module) a file belongs to.
pub(crate) fn dir_of(db: &dyn Db, ws: Workspace, file: SourceFile) -> Option<ModuleDir> {
    dir_index(db, ws).get(parent(file.path(db))).copied()
}

/// `start <= offset <= end`: a cursor right after a name still touches it.
pub(crate) fn touches(range: TextRange, offset: TextSize) -> bool {
    range.start() <= offset && offset <= range.end()
}
