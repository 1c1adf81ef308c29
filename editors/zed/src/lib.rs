//! The Zed extension of foreach-ls: it only tells Zed how to start the server. The binary comes from the
//! `lsp.foreach-ls.binary` settings, else from PATH (Zed's login-shell PATH of the worktree); settings under
//! `lsp.foreach-ls.initialization_options` and `.settings` are passed through unchanged (docs/lsp.md#settings).

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

const INSTALL_HINT: &str = "foreach-ls was not found on PATH. Install it with `cargo install --path .` in a checkout \
     of foreach-ls, or set `lsp.foreach-ls.binary.path` in Zed's settings.";

struct ForeachLs;

impl zed::Extension for ForeachLs {
    fn new() -> Self {
        ForeachLs
    }

    fn language_server_command(&mut self, id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(id.as_ref(), worktree).ok().and_then(|s| s.binary);
        let configured = binary.as_ref().and_then(|b| b.path.clone());
        let command = configured.or_else(|| worktree.which("foreach-ls")).ok_or_else(|| INSTALL_HINT.to_string())?;
        let args = binary.and_then(|b| b.arguments).unwrap_or_else(|| vec!["serve".to_string()]);
        Ok(zed::Command { command, args, env: worktree.shell_env() })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree).ok().and_then(|s| s.initialization_options))
    }

    fn language_server_workspace_configuration(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree).ok().and_then(|s| s.settings))
    }
}

zed::register_extension!(ForeachLs);
