//! The `LanguageServer` implementation: one line per method, each delegating to its handler.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::handlers;
use crate::state::State;

pub struct Backend {
    pub state: Arc<State>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend { state: Arc::new(State::new(client)) }
    }

    pub fn with_state(state: Arc<State>) -> Backend {
        Backend { state }
    }

    /// `foreach-ls/documentText`, a test-only request (`test_hooks.rs`).
    pub async fn document_text(
        &self,
        p: crate::test_hooks::DocumentTextParams,
    ) -> Result<Option<crate::test_hooks::DocumentText>> {
        crate::test_hooks::document_text(self.state.test_hooks, &self.state.docs, p)
    }

    /// `foreach-ls/lensComputations`, a test-only request (`test_hooks.rs`).
    pub async fn lens_computations(&self, p: crate::test_hooks::LensComputationsParams) -> Result<usize> {
        crate::test_hooks::lens_computations(self.state.test_hooks, p)
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, p: InitializeParams) -> Result<InitializeResult> {
        handlers::initialize::run(&self.state, p).await
    }

    async fn initialized(&self, p: InitializedParams) {
        handlers::initialized::run(&self.state, p).await
    }

    async fn shutdown(&self) -> Result<()> {
        self.state.shutdown();
        Ok(())
    }

    async fn did_open(&self, p: DidOpenTextDocumentParams) {
        handlers::did_open::run(&self.state, p).await
    }

    async fn did_change(&self, p: DidChangeTextDocumentParams) {
        handlers::did_change::run(&self.state, p).await
    }

    async fn did_close(&self, p: DidCloseTextDocumentParams) {
        handlers::did_close::run(&self.state, p).await
    }

    async fn did_change_watched_files(&self, p: DidChangeWatchedFilesParams) {
        handlers::did_change_watched_files::run(&self.state, p).await
    }

    async fn did_change_workspace_folders(&self, p: DidChangeWorkspaceFoldersParams) {
        handlers::did_change_workspace_folders::run(&self.state, p).await
    }

    async fn did_change_configuration(&self, p: DidChangeConfigurationParams) {
        handlers::did_change_configuration::run(&self.state, p).await
    }

    async fn hover(&self, p: HoverParams) -> Result<Option<Hover>> {
        handlers::hover::run(&self.state, p).await
    }

    async fn completion(&self, p: CompletionParams) -> Result<Option<CompletionResponse>> {
        handlers::completion::run(&self.state, p).await
    }

    async fn goto_definition(&self, p: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        handlers::definition::run(&self.state, p).await
    }

    async fn references(&self, p: ReferenceParams) -> Result<Option<Vec<Location>>> {
        handlers::references::run(&self.state, p).await
    }

    async fn prepare_rename(&self, p: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        handlers::rename::prepare(&self.state, p).await
    }

    async fn rename(&self, p: RenameParams) -> Result<Option<WorkspaceEdit>> {
        handlers::rename::run(&self.state, p).await
    }

    async fn signature_help(&self, p: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        handlers::signature_help::run(&self.state, p).await
    }

    async fn inlay_hint(&self, p: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        handlers::inlay_hint::run(&self.state, p).await
    }

    async fn document_symbol(&self, p: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        handlers::document_symbol::run(&self.state, p).await
    }

    async fn formatting(&self, p: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        handlers::formatting::document(&self.state, p).await
    }

    async fn range_formatting(&self, p: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        handlers::formatting::range(&self.state, p).await
    }

    async fn semantic_tokens_full(&self, p: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        handlers::semantic_tokens::full(&self.state, p).await
    }

    async fn semantic_tokens_full_delta(
        &self,
        p: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        handlers::semantic_tokens::delta(&self.state, p).await
    }

    async fn semantic_tokens_range(&self, p: SemanticTokensRangeParams) -> Result<Option<SemanticTokensRangeResult>> {
        handlers::semantic_tokens::range(&self.state, p).await
    }

    async fn folding_range(&self, p: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        handlers::folding_range::run(&self.state, p).await
    }

    async fn selection_range(&self, p: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
        handlers::selection_range::run(&self.state, p).await
    }

    async fn document_highlight(&self, p: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        handlers::document_highlight::run(&self.state, p).await
    }

    async fn symbol(&self, p: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        handlers::workspace_symbol::run(&self.state, p).await
    }

    async fn document_link(&self, p: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        handlers::document_link::run(&self.state, p).await
    }

    async fn code_lens(&self, p: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        handlers::code_lens::run(&self.state, p).await
    }

    async fn execute_command(&self, p: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        handlers::code_lens::execute(&self.state, p).await
    }

    async fn code_action(&self, p: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        handlers::code_action::run(&self.state, p).await
    }

    async fn diagnostic(&self, p: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        handlers::diagnostic::run(&self.state, p).await
    }
}
