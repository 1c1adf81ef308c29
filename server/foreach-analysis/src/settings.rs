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
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Settings {
    pub cli_variables: Vec<CliVariable>,
    /// `TF_VAR_name` values from the environment, by name.
    pub env_variables: Vec<(String, String)>,
    /// The workspace chosen explicitly (`--workspace`, `TF_WORKSPACE`, the editor setting). Without it, a root's
    /// `.terraform/environment` decides, and without that `terraform.workspace` is unknown.
    pub workspace_name: Option<String>,
    /// `path.cwd`.
    pub cwd: String,
}
