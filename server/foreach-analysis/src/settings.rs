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

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Settings {
    pub cli_variables: Vec<CliVariable>,
    /// `TF_VAR_name` values from the environment, by name.
    pub env_variables: Vec<(String, String)>,
    /// `terraform.workspace` / `tofu.workspace`.
    pub workspace_name: String,
    /// `path.cwd`.
    pub cwd: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            cli_variables: Vec::new(),
            env_variables: Vec::new(),
            workspace_name: "default".to_string(),
            cwd: String::new(),
        }
    }
}
