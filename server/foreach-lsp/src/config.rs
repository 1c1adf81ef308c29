//! Server settings, from `initializationOptions` and `workspace/didChangeConfiguration`: extra var files,
//! variable values, severity overrides per code, the `terraform.workspace` value, exclude globs, state files.
//!
//! Settings are accepted either bare or under a `foreachLs` key (what VS Code sends for the `foreachLs.*`
//! section). Unknown keys are ignored; a malformed value keeps the default for that key.

use std::collections::BTreeMap;

use foreach_analysis::Severity;
use serde::Deserialize;

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    /// `.tfvars` files applied after the automatic ones, in order; relative paths are resolved in each root.
    pub var_files: Vec<String>,
    /// `NAME = VALUE` as with `--var` (applied after the var files).
    pub variables: BTreeMap<String, String>,
    /// Code -> `error`, `warning`, `info`, `hint` or `off`.
    pub severity: BTreeMap<String, String>,
    /// The value of `terraform.workspace` (default: `TF_WORKSPACE`, else each root's `.terraform/environment`, else
    /// unknown).
    pub workspace: Option<String>,
    /// Globs (relative to each root) of paths not to index.
    pub exclude: Vec<String>,
    /// Answer `textDocument/diagnostic` instead of pushing diagnostics (when the client supports pulling).
    pub pull_diagnostics: bool,
    /// Quiet time before diagnostics are recomputed after a change, in milliseconds (at most 50).
    pub debounce_ms: Option<u64>,
    /// The state each root module is checked against, instead of its local state file (`state_files.rs`).
    pub state: Option<StateSetting>,
    /// Settings of one workspace folder, keyed by the folder's URI, absolute path or name.
    pub folders: BTreeMap<String, FolderConfig>,
}

/// The `state` setting, as `--state` takes it: a state file for the root module at the workspace folder, or root
/// directories and their state files (`--state ROOT_DIR=FILE`). Relative paths are resolved in each folder.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum StateSetting {
    File(String),
    Roots(BTreeMap<String, String>),
}

impl StateSetting {
    /// Its entries as (root directory, state file); `None` for the folder itself. An empty setting (VS Code's
    /// default `""`) has none.
    pub fn entries(&self) -> Vec<(Option<&str>, &str)> {
        match self {
            StateSetting::File(f) if f.is_empty() => Vec::new(),
            StateSetting::File(f) => vec![(None, f.as_str())],
            StateSetting::Roots(map) => map.iter().map(|(d, f)| (Some(d.as_str()), f.as_str())).collect(),
        }
    }
}

/// What applies only to the root modules of one workspace folder (after the workspace-wide settings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FolderConfig {
    /// `.tfvars` files, in order; relative paths are resolved in the folder.
    pub var_files: Vec<String>,
    /// `NAME = VALUE` as with `--var`.
    pub variables: BTreeMap<String, String>,
    /// Replaces the workspace-wide `state` for this folder.
    pub state: Option<StateSetting>,
}

impl Config {
    pub fn from_json(value: &serde_json::Value) -> Config {
        let inner = value.get("foreachLs").unwrap_or(value);
        serde_json::from_value(inner.clone()).unwrap_or_else(|e| {
            tracing::warn!("ignoring invalid settings: {e}");
            Config::default()
        })
    }

    /// The severity a code is shown with: `None` when turned off.
    pub fn severity_for(&self, code: &str, default: Severity) -> Option<Severity> {
        match self.severity.get(code).map(String::as_str) {
            Some("off") => None,
            Some(s) => Some(Severity::parse(s).unwrap_or(default)),
            None => Some(default),
        }
    }

    pub fn debounce(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.debounce_ms.unwrap_or(DEFAULT_DEBOUNCE_MS).min(50))
    }

    /// Whether a change requires re-reading the workspace (anything but severities).
    pub fn needs_reindex(&self, other: &Config) -> bool {
        self.var_files != other.var_files
            || self.variables != other.variables
            || self.workspace != other.workspace
            || self.exclude != other.exclude
            || self.state != other.state
            || self.folders != other.folders
    }

    /// The settings of the workspace folder at `path` (named `name`), if any.
    pub fn folder(&self, path: &std::path::Path, name: Option<&str>) -> Option<&FolderConfig> {
        self.folders.iter().find_map(|(key, f)| {
            let by_uri = key.starts_with("file:")
                && key
                    .parse::<tower_lsp_server::ls_types::Uri>()
                    .ok()
                    .as_ref()
                    .and_then(crate::convert::uri_to_path)
                    .is_some_and(|p| std::path::Path::new(&p) == path);
            let matches = by_uri || std::path::Path::new(key) == path || name == Some(key.as_str());
            matches.then_some(f)
        })
    }
}

pub const DEFAULT_DEBOUNCE_MS: u64 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_or_bare() {
        let v = serde_json::json!({"foreachLs": {"workspace": "prod", "severity": {"undefined-reference": "off"}}});
        let c = Config::from_json(&v);
        assert_eq!(c.workspace.as_deref(), Some("prod"));
        assert_eq!(c.severity_for("undefined-reference", Severity::Error), None);
        assert_eq!(Config::from_json(&serde_json::json!({"varFiles": ["a.tfvars"]})).var_files, ["a.tfvars"]);
        assert_eq!(Config::from_json(&serde_json::json!({"varFiles": 3})), Config::default());
    }

    #[test]
    fn state_is_a_file_or_a_map_of_root_directories() {
        let file = Config::from_json(&serde_json::json!({"state": "pulled.tfstate"}));
        assert_eq!(file.state.as_ref().unwrap().entries(), [(None, "pulled.tfstate")]);
        let map = Config::from_json(&serde_json::json!({"folders": {"a": {"state": {"envs/prod": "prod.tfstate"}}}}));
        assert_eq!(map.folders["a"].state.as_ref().unwrap().entries(), [(Some("envs/prod"), "prod.tfstate")]);
        assert!(Config::from_json(&serde_json::json!({"state": ""})).state.unwrap().entries().is_empty());
        assert_eq!(Config::from_json(&serde_json::json!({"state": 3})), Config::default());
    }

    #[test]
    fn folder_settings_by_uri_path_or_name() {
        let c = Config::from_json(&serde_json::json!({"folders": {
            "file:///ws/a": {"varFiles": ["a.tfvars"]},
            "/ws/b": {"variables": {"x": "1"}},
            "c": {"varFiles": ["c.tfvars"]}
        }}));
        let at = |p: &str, name: Option<&str>| c.folder(std::path::Path::new(p), name).cloned();
        assert_eq!(at("/ws/a", None).unwrap().var_files, ["a.tfvars"]);
        assert_eq!(at("/ws/b", None).unwrap().variables["x"], "1");
        assert_eq!(at("/elsewhere", Some("c")).unwrap().var_files, ["c.tfvars"]);
        assert_eq!(at("/ws/d", Some("d")), None);
    }
}
