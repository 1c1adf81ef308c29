//! The one diagnostic type of foreach-ls and the registry of its stable codes.
//!
//! A diagnostic has a kebab-case code that names the problem, a severity, a message in our own words (what is
//! wrong, in lower case, names in backticks), a primary range on a single line, and related ranges that each
//! carry their own message (the hops of a "why not static" chain, the provider block of an unknown key, a hint).

use crate::base::{FileId, FileRange};

/// The marker users write after a comment leader to silence a diagnostic (`# foreach-ls:ignore CODE`). Here, below
/// the database, because summarising a file notes whether its text holds one (`db.rs`) before any check reads it.
pub const SUPPRESSION_MARKER: &str = "foreach-ls:ignore";

/// The read error a host gives for a file that git-crypt has left encrypted (it starts with `\0GITCRYPT\0`): not a
/// mistake of the repository, only a key this checkout lacks, so it is reported as `encrypted-file` (an info) and a
/// `.tfvars` file of this kind makes the variables it may set unknown rather than their defaults.
pub const GIT_CRYPT_ENCRYPTED: &str = "this file is encrypted with git-crypt and not decrypted in this checkout (`git-crypt unlock` decrypts it), so \
     foreach-ls cannot read it";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Hint,
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        Some(match s {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "info" => Severity::Info,
            "hint" => Severity::Hint,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    pub location: FileRange,
    pub message: String,
}

/// Replace `range` in `file` with `new_text`. Edits are computed on the original text, never by re-printing a
/// tree (hcl-edit's printer is not byte-lossless).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub location: FileRange,
    pub new_text: String,
}

/// A quick fix: a titled set of non-overlapping edits that the CLI (`check --fix`) and the language server (code
/// actions) apply the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
    /// Safe to apply without review (`check --fix` applies only these); others are offered in the editor only.
    pub automatic: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub location: FileRange,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, location: FileRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            location,
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_related(mut self, location: FileRange, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related { location, message: message.into() });
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self
    }

    /// Every file the diagnostic points into: its location, its related locations and its fixes' edits.
    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        std::iter::once(self.location.file)
            .chain(self.related.iter().map(|r| r.location.file))
            .chain(self.fixes.iter().flat_map(|f| f.edits.iter().map(|e| e.location.file)))
    }
}

macro_rules! codes {
    ($( $variant:ident = $name:literal, $severity:ident, $summary:literal; )*) => {
        /// Every diagnostic code foreach-ls can report. Codes are stable: never rename one once released.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The kebab-case name users see and write in suppressions.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }

            /// One line for the docs index.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }

            pub fn from_name(name: &str) -> Option<Code> {
                match name { $( $name => Some(Code::$variant), )* _ => None }
            }
        }
    };
}

codes! {
    SyntaxError = "syntax-error", Error, "the file is not valid HCL or JSON syntax";
    UnreadableFile = "unreadable-file", Error, "a file could not be read or is not UTF-8 text";
    EncryptedFile = "encrypted-file", Info, "a file is encrypted with git-crypt in this checkout, so its values are unknown";
    FileOutsideRepository = "file-outside-repository", Info, "a file function reads a path outside the repository being checked, which foreach-ls does not read, so its value is unknown";
    DuplicateBlock = "duplicate-block", Error, "a variable, local, output, module call or resource is declared twice";
    ModuleNotFound = "module-not-found", Error, "a local module source points to a directory with no configuration";
    ModuleCycle = "module-cycle", Error, "module calls form a cycle through their local sources";
    InvalidVariableValue = "invalid-variable-value", Error, "a value given for a variable cannot be used";
    UndeclaredVariableValue = "undeclared-variable-value", Warning, "a .tfvars file sets a variable the module does not declare";
    UnexpectedAttribute = "unexpected-attribute", Error, "an attribute appears where OpenTofu only allows blocks";
    UnknownBlockType = "unknown-block-type", Error, "a top-level block type OpenTofu does not know";
    InvalidBlockLabels = "invalid-block-labels", Error, "a block has the wrong number of labels";
    ProviderForEachWithoutAlias = "provider-for-each-without-alias", Error, "a provider block uses for_each without an alias";
    InvalidProviderAlias = "invalid-provider-alias", Error, "a provider alias is not a constant name";
    ProviderReservedArgument = "provider-reserved-argument", Error, "a provider block uses a name reserved for future use (count, depends_on, source, lifecycle, locals)";
    ProviderForEachNotStatic = "provider-for-each-not-static", Error, "a provider for_each depends on something not known before planning";
    ProviderForEachUnresolved = "provider-for-each-unresolved", Info, "a provider for_each depends on root variables without a value here, so its references are not checked";
    ProviderForEachInvalid = "provider-for-each-invalid", Error, "a provider for_each value is not a map, object or set of strings";
    ProviderInExpandedModule = "provider-in-expanded-module", Error, "a module with its own provider configuration is called with count, for_each, enabled or depends_on";
    DuplicateProviderConfig = "duplicate-provider-config", Error, "two provider blocks declare the same configuration";
    EachOutsideForEach = "each-outside-for-each", Error, "each.key or each.value is used in a block without for_each";
    InvalidProviderReference = "invalid-provider-reference", Error, "a provider reference does not have the form name, name.alias or name.alias[key]";
    UnknownProviderConfig = "unknown-provider-config", Error, "a provider reference names a configuration this module does not have";
    ProviderTypeMismatch = "provider-type-mismatch", Error, "a module call passes a configuration of another provider than the module expects under that name";
    UndeclaredProvider = "undeclared-provider", Warning, "a provider reference uses a local name that no required_providers entry, provider block or resource type declares";
    MissingProviderInstanceKey = "missing-provider-instance-key", Error, "a reference to a provider with for_each does not select an instance";
    UnexpectedProviderInstanceKey = "unexpected-provider-instance-key", Error, "an instance key on a provider configuration that has a single instance";
    UnknownProviderInstance = "unknown-provider-instance", Error, "an instance key selects a provider instance that does not exist";
    InvalidProviderInstanceKey = "invalid-provider-instance-key", Error, "an instance key is null or not convertible to a string";
    MissingConfigurationAlias = "missing-configuration-alias", Error, "a module call does not pass a provider configuration the module declares in configuration_aliases";
    QuotedProviderReference = "quoted-provider-reference", Warning, "a provider reference is written as a string (deprecated)";
    TestProviderForEachMismatch = "test-provider-for-each-mismatch", Error, "a test file's provider or mock_provider disagrees with the module about for_each";
    TestProviderInstanceKey = "test-provider-instance-key", Error, "a run block's providers selects an instance key or passes a multi-instance configuration";
    ShadowedByTofuFile = "shadowed-by-tofu-file", Info, "a .tf file is ignored because a .tofu file of the same name exists";
    ModuleTreeTooLarge = "module-tree-too-large", Error, "the module tree has more instances than foreach-ls follows";
    OverrideWithoutBase = "override-without-base", Error, "an override file overrides a block that no other file declares";
    ReferenceCycle = "reference-cycle", Error, "local values refer to each other in a cycle";
    UndefinedReference = "undefined-reference", Error, "a reference names a variable, local value, resource, data source, module call or module output that is not declared";
    EvaluationError = "evaluation-error", Error, "an expression OpenTofu evaluates statically fails: wrong types, bad arguments, missing keys";
    UnknownFunction = "unknown-function", Error, "a call to a function that OpenTofu does not have";
    EvaluationLimit = "evaluation-limit", Error, "evaluating an expression exceeds foreach-ls's depth, size or step limit";
    TooSimilarForEach = "too-similar-for-each", Warning, "a resource or module call iterates over the same collection as the provider instances it uses, so removing an element makes the plan fail";
    ModuleSourceNotStatic = "module-source-not-static", Error, "a module source or version depends on something not known at tofu init";
    ModuleSourceUnresolved = "module-source-unresolved", Info, "a module source or version depends on root variables without a value here, so the module is not loaded";
    BackendConfigNotStatic = "backend-config-not-static", Error, "a backend argument depends on something not known at tofu init";
    BackendConfigUnresolved = "backend-config-unresolved", Info, "a backend argument depends on root variables without a value here";
    EncryptionConfigNotStatic = "encryption-config-not-static", Error, "an encryption argument depends on something not known at tofu init";
    EncryptionConfigUnresolved = "encryption-config-unresolved", Info, "an encryption argument depends on root variables without a value here";
    ProviderInstanceRemovedWithResources = "provider-instance-removed-with-resources", Error, "the state has resources created through a provider instance that the provider's for_each no longer has";
    ProviderConfigRemovedWithResources = "provider-config-removed-with-resources", Error, "the state has resources created through a provider configuration that the module no longer has";
    UnreadableState = "unreadable-state", Warning, "a root module's state file (local, or set in the editor) cannot be read, so it is checked without it";
    FeatureNeedsNewerOpentofu = "feature-needs-newer-opentofu", Warning, "a construct needs a newer OpenTofu than some release the version constraints admit";
    NotInTerraform = "not-in-terraform", Warning, "a module that declares Terraform compatibility uses, in a file Terraform reads, a construct Terraform lacks";
    InvalidVersionConstraint = "invalid-version-constraint", Error, "a required_version or compatible_with constraint is not one OpenTofu accepts: its syntax, a pre-release version, a value that is not a constant string";
}
