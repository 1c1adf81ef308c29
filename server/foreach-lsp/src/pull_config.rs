//! Settings pulled from the client with `workspace/configuration`, for clients that declare it (VS Code, Neovim,
//! pytest-lsp). Editors keep settings per workspace folder (VS Code's resource scope): one item without `scopeUri`
//! asks for the workspace-wide `foreachLs` section, one item per folder asks for that folder's view of it.
//!
//! What comes back is merged into the pushed settings (initializationOptions, `didChangeConfiguration`): a `null`
//! item (the client has nothing for the section) keeps what was pushed. A folder's answer includes what it inherits
//! from the workspace-wide settings, so only what differs from them becomes that folder's own settings
//! (`Config::folders`, keyed by the folder's URI); otherwise a var file would be applied twice.

use std::time::Duration;

use serde_json::Value;
use tower_lsp_server::ls_types::ConfigurationItem;

use crate::config::{Config, FolderConfig};
use crate::convert::path_to_uri;
use crate::state::{Root, State};

/// The settings section the clients keep our settings under.
pub const SECTION: &str = "foreachLs";

/// A client that never answers must not stall indexing: after this long the pushed settings are used.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(2);

/// Asks the client for its settings (when it supports `workspace/configuration`) and installs them. Returns whether
/// the settings changed in a way that needs the workspace re-read.
pub async fn pull(state: &State) -> bool {
    if !state.caps().configuration {
        return false;
    }
    let roots = state.roots.read().unwrap_or_else(|e| e.into_inner()).clone();
    let folder_uris: Vec<_> = roots.iter().map(|r: &Root| path_to_uri(&foreach_load::path_string(&r.path))).collect();
    let mut items = vec![ConfigurationItem { scope_uri: None, section: Some(SECTION.to_string()) }];
    items.extend(
        folder_uris
            .iter()
            .flatten()
            .map(|u| ConfigurationItem { scope_uri: Some(u.clone()), section: Some(SECTION.to_string()) }),
    );
    let answers = match tokio::time::timeout(ANSWER_TIMEOUT, state.client.configuration(items)).await {
        Ok(Ok(answers)) => answers,
        Ok(Err(e)) => {
            tracing::warn!("workspace/configuration failed, keeping the pushed settings: {e}");
            return false;
        }
        Err(_) => {
            tracing::warn!(
                "no answer to workspace/configuration within {ANSWER_TIMEOUT:?}, keeping the pushed settings"
            );
            return false;
        }
    };
    let mut config = state.config.write().unwrap_or_else(|e| e.into_inner());
    let folders: Vec<String> = folder_uris.iter().flatten().map(|u| u.as_str().to_string()).collect();
    let merged = merge(&config, &answers, &folders);
    let changed = config.needs_reindex(&merged);
    *config = merged;
    changed
}

/// `pushed` with the client's answers applied: `answers[0]` is the workspace-wide section, `answers[1..]` belong to
/// `folders` (URIs) in order.
fn merge(pushed: &Config, answers: &[Value], folders: &[String]) -> Config {
    let mut config = match answers.first() {
        Some(v) if v.is_object() => {
            let mut c = Config::from_json(v);
            // Folder settings given in the pushed settings stay unless the client answers for that folder.
            for (k, f) in &pushed.folders {
                c.folders.entry(k.clone()).or_insert_with(|| f.clone());
            }
            c
        }
        _ => pushed.clone(),
    };
    for (uri, answer) in folders.iter().zip(answers.iter().skip(1)) {
        if !answer.is_object() {
            continue;
        }
        let seen = Config::from_json(answer);
        let own = FolderConfig {
            var_files: seen.var_files.into_iter().filter(|f| !config.var_files.contains(f)).collect(),
            variables: seen.variables.into_iter().filter(|(k, v)| config.variables.get(k) != Some(v)).collect(),
            // A folder's `state` replaces the workspace-wide one: its own only when it differs.
            state: seen.state.filter(|s| config.state.as_ref() != Some(s)),
        };
        if own == FolderConfig::default() {
            config.folders.remove(uri);
        } else {
            config.folders.insert(uri.clone(), own);
        }
    }
    config
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn folder_answers_keep_only_what_differs_from_the_workspace() {
        let answers = [
            json!({"varFiles": ["common.tfvars"], "variables": {"env": "dev"}}),
            json!({"varFiles": ["common.tfvars", "a.tfvars"], "variables": {"env": "dev", "x": "1"}}),
            json!({"varFiles": ["common.tfvars"], "variables": {"env": "dev"}}),
        ];
        let c = merge(&Config::default(), &answers, &["file:///a".into(), "file:///b".into()]);
        assert_eq!(c.var_files, ["common.tfvars"]);
        assert_eq!(c.folders["file:///a"].var_files, ["a.tfvars"]);
        assert_eq!(c.folders["file:///a"].variables.len(), 1);
        assert_eq!(c.folders["file:///a"].variables["x"], "1");
        assert!(!c.folders.contains_key("file:///b"));
    }

    #[test]
    fn a_folder_state_differing_from_the_workspace_one_is_its_own() {
        let answers =
            [json!({"state": "all.tfstate"}), json!({"state": "all.tfstate"}), json!({"state": {"x": "x.tfstate"}})];
        let c = merge(&Config::default(), &answers, &["file:///a".into(), "file:///b".into()]);
        assert!(!c.folders.contains_key("file:///a"));
        assert_eq!(c.folders["file:///b"].state.as_ref().unwrap().entries(), [(Some("x"), "x.tfstate")]);
    }

    #[test]
    fn null_answers_keep_the_pushed_settings() {
        let pushed = Config::from_json(&json!({"workspace": "prod", "folders": {"b": {"varFiles": ["b.tfvars"]}}}));
        let c = merge(&pushed, &[Value::Null, Value::Null], &["file:///a".into()]);
        assert_eq!(c, pushed);
        let c = merge(&pushed, &[json!({"severity": {"x": "off"}})], &[]);
        assert_eq!(c.workspace, None, "the client's workspace-wide answer replaces the pushed settings");
        assert_eq!(c.folders["b"].var_files, ["b.tfvars"], "pushed folder settings stay");
    }
}
