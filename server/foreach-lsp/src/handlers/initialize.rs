//! `initialize`: negotiates the position encoding, reads settings and workspace folders, declares capabilities.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use crate::config::Config;
use crate::convert::{PositionEncoding, uri_to_path};
use crate::state::{ClientCaps, Root, State};

pub async fn run(state: &Arc<State>, params: InitializeParams) -> Result<InitializeResult> {
    let encoding = PositionEncoding::negotiate(&params.capabilities);
    *state.encoding.write().unwrap_or_else(|e| e.into_inner()) = encoding;
    if let Some(options) = &params.initialization_options {
        *state.config.write().unwrap_or_else(|e| e.into_inner()) = Config::from_json(options);
    }
    let mut roots: Vec<Root> = params.workspace_folders.iter().flatten().filter_map(Root::of_folder).collect();
    #[allow(deprecated)] // Older clients send only `rootUri`.
    if roots.is_empty()
        && let Some(p) = params.root_uri.as_ref().and_then(uri_to_path)
    {
        roots.push(Root { path: p.into(), name: None });
    }
    *state.roots.write().unwrap_or_else(|e| e.into_inner()) = roots;
    let caps = &params.capabilities;
    let client = ClientCaps {
        work_done_progress: caps.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
        pull_diagnostics: caps.text_document.as_ref().is_some_and(|t| t.diagnostic.is_some()),
        watch_files: caps
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false),
        relative_patterns: caps
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.relative_pattern_support)
            .unwrap_or(false),
        snippets: caps
            .text_document
            .as_ref()
            .and_then(|t| t.completion.as_ref())
            .and_then(|c| c.completion_item.as_ref())
            .and_then(|i| i.snippet_support)
            .unwrap_or(false),
        configuration: caps.workspace.as_ref().and_then(|w| w.configuration).unwrap_or(false),
        code_lens: caps.text_document.as_ref().is_some_and(|t| t.code_lens.is_some()),
    };
    *state.caps.write().unwrap_or_else(|e| e.into_inner()) = client;
    let pull = client.pull_diagnostics && state.config().pull_diagnostics;
    Ok(InitializeResult {
        server_info: Some(ServerInfo {
            name: "foreach-ls".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
        capabilities: ServerCapabilities {
            position_encoding: Some(encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..Default::default()
            })),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![".".to_string(), "[".to_string(), "\"".to_string()]),
                ..Default::default()
            }),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            signature_help_provider: Some(SignatureHelpOptions {
                trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
                ..Default::default()
            }),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            })),
            inlay_hint_provider: Some(OneOf::Left(true)),
            code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![super::code_lens::LIST_INSTANCES.to_string()],
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }),
            document_symbol_provider: Some(OneOf::Left(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            document_range_formatting_provider: Some(OneOf::Left(true)),
            semantic_tokens_provider: Some(super::semantic_tokens::capability()),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
            document_highlight_provider: Some(OneOf::Left(true)),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            document_link_provider: Some(DocumentLinkOptions {
                resolve_provider: Some(false),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::REFACTOR_REWRITE]),
                ..Default::default()
            })),
            diagnostic_provider: pull.then(|| {
                DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("foreach-ls".to_string()),
                    inter_file_dependencies: true,
                    workspace_diagnostics: false,
                    work_done_progress_options: WorkDoneProgressOptions::default(),
                })
            }),
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            ..ServerCapabilities::default()
        },
        offset_encoding: None,
    })
}
