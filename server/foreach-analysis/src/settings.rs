//! What the user tells foreach-ls about evaluation: variable values and files, the workspace name.

/// One `--var` or `--var-file`, kept in the order given because later ones win (OpenTofu's rule).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CliVariable {
    /// `--var-file PATH`: absolute path of a file the host has loaded.
    File(String),
    /// `--var NAME=VALUE`: the raw text after `=`.
    Value { name: String, value: String },
    /// A file or value that applies only to the root modules in the directory `under` or below it (the language
    /// server's settings for one workspace folder). `var` is a `File` or a `Value`.
    Scoped { under: String, var: Box<CliVariable> },
    /// A file or value of an environment of the project file, for the one root module in the directory `root`
    /// (`foreach-ls.toml`; one check pass per environment). Its undeclared names are reported only when `warn`,
    /// which the host sets when the environment applies to a single root (a shared var file usually sets variables
    /// that only some roots declare).
    ForRoot { root: String, warn: bool, var: Box<CliVariable> },
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Settings {
    pub cli_variables: Vec<CliVariable>,
    /// `TF_VAR_name` values from the environment, by name.
    pub env_variables: Vec<(String, String)>,
    /// The workspace chosen explicitly (`--workspace`, `TF_WORKSPACE`, the editor setting). Without it, a root's
    /// `.terraform/environment` decides, and without that `terraform.workspace` is unknown.
    pub workspace_name: Option<String>,
    /// The workspace an environment of the project file selects, by root module directory: after
    /// `workspace_name`, before the root's `.terraform/environment`.
    pub root_workspaces: Vec<(String, String)>,
    /// `path.cwd`.
    pub cwd: String,
}
