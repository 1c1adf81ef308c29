//! Which syntax and role a file has, decided from its name alone (never from an editor's language id).

/// The kinds of file foreach-ls reads. Everything else (`terragrunt.hcl`, `*.pkr.hcl`, `*.nomad`, Terraform Stacks
/// files, …) is not OpenTofu configuration and is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// `*.tf`
    Tf,
    /// `*.tofu` (replaces the `.tf` file of the same base name)
    Tofu,
    /// `*.tf.json`
    TfJson,
    /// `*.tofu.json`
    TofuJson,
    /// `*.tfvars`
    Tfvars,
    /// `*.tfvars.json`
    TfvarsJson,
    /// `*.tftest.hcl`
    TfTest,
    /// `*.tofutest.hcl`
    TofuTest,
    /// `*.tftest.json` / `*.tofutest.json`
    TestJson,
}

impl FileKind {
    /// Classifies a file by its name (the last path component).
    pub fn from_file_name(name: &str) -> Option<FileKind> {
        let kinds = [
            (".tftest.json", FileKind::TestJson),
            (".tofutest.json", FileKind::TestJson),
            (".tftest.hcl", FileKind::TfTest),
            (".tofutest.hcl", FileKind::TofuTest),
            (".tfvars.json", FileKind::TfvarsJson),
            (".tofu.json", FileKind::TofuJson),
            (".tf.json", FileKind::TfJson),
            (".tfvars", FileKind::Tfvars),
            (".tofu", FileKind::Tofu),
            (".tf", FileKind::Tf),
        ];
        // A file named just ".tf" has no base name; OpenTofu ignores hidden/backup files too.
        if name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#')) {
            return None;
        }
        kinds.iter().find(|(suffix, _)| name.len() > suffix.len() && name.ends_with(suffix)).map(|(_, k)| *k)
    }

    pub fn is_json(self) -> bool {
        matches!(self, FileKind::TfJson | FileKind::TofuJson | FileKind::TfvarsJson | FileKind::TestJson)
    }

    /// A configuration file that belongs to a module (`.tf`, `.tofu` and their JSON forms).
    pub fn is_config(self) -> bool {
        matches!(self, FileKind::Tf | FileKind::Tofu | FileKind::TfJson | FileKind::TofuJson)
    }

    pub fn is_tfvars(self) -> bool {
        matches!(self, FileKind::Tfvars | FileKind::TfvarsJson)
    }

    pub fn is_test(self) -> bool {
        matches!(self, FileKind::TfTest | FileKind::TofuTest | FileKind::TestJson)
    }

    /// The `.tofu` flavours, which take precedence over a `.tf` file of the same base name.
    pub fn is_tofu(self) -> bool {
        matches!(self, FileKind::Tofu | FileKind::TofuJson)
    }

    /// The file name without the kind's suffix (`main.tofu.json` -> `main`).
    pub fn base_name(name: &str) -> &str {
        for suffix in [
            ".tftest.json",
            ".tofutest.json",
            ".tftest.hcl",
            ".tofutest.hcl",
            ".tfvars.json",
            ".tofu.json",
            ".tf.json",
            ".tfvars",
            ".tofu",
            ".tf",
        ] {
            if let Some(base) = name.strip_suffix(suffix) {
                return base;
            }
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::FileKind;

    #[test]
    fn classifies_by_name() {
        assert_eq!(FileKind::from_file_name("main.tf"), Some(FileKind::Tf));
        assert_eq!(FileKind::from_file_name("main.tofu"), Some(FileKind::Tofu));
        assert_eq!(FileKind::from_file_name("main.tf.json"), Some(FileKind::TfJson));
        assert_eq!(FileKind::from_file_name("prod.tfvars.json"), Some(FileKind::TfvarsJson));
        assert_eq!(FileKind::from_file_name("a.tofutest.hcl"), Some(FileKind::TofuTest));
        assert_eq!(FileKind::from_file_name("terragrunt.hcl"), None);
        assert_eq!(FileKind::from_file_name("x.pkr.hcl"), None);
        assert_eq!(FileKind::from_file_name(".tf"), None);
        assert_eq!(FileKind::from_file_name("main.tf~"), None);
        assert_eq!(FileKind::base_name("main.tofu.json"), "main");
    }
}
