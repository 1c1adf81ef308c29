//! The feature table: every configuration construct whose availability depends on the OpenTofu version, with the
//! first OpenTofu release that accepts it, whether Terraform accepts it (and from which release), and where each
//! of the two is written down. `docs/versions.md` shows this table; a test keeps the two the same.
//!
//! Only constructs of the configuration language are here (no command-line flags), and only rows read from
//! OpenTofu's CHANGELOG files, its docs or its code at the release tags (`../shared/OPENTOFU-VERSIONS.md` records
//! how). The first OpenTofu release is 1.6.0, so a row of 1.6 never makes OpenTofu warn; it is there for
//! Terraform's column.

use crate::versions::releases::Release;

/// A version-dependent construct. Built-in functions are one row each ([`FUNCTIONS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    ProviderForEach,
    TofuFile,
    ModuleSourceVariables,
    BackendVariables,
    Encryption,
    EncryptionVariables,
    ProviderFunction,
    CoreNamespace,
    RemovedBlock,
    RemovedLifecycle,
    RemovedProvisioner,
    ImportForEach,
    ImportIdentity,
    CheckBlock,
    TestFile,
    EphemeralResource,
    EphemeralVariable,
    EphemeralOutput,
    WriteOnlyArgument,
    LifecycleEnabled,
    DynamicPreventDestroy,
    LifecycleDestroy,
    LanguageBlock,
    ConstVariable,
    Deprecated,
    OciModuleSource,
    /// A built-in function added after 1.6, by its index in [`FUNCTIONS`].
    Function(u8),
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub feature: Feature,
    /// What messages call it: "`for_each` in a `provider` block".
    pub name: &'static str,
    /// The first OpenTofu release that accepts it.
    pub opentofu: Release,
    /// The first Terraform release that accepts it, `None` when no Terraform release does.
    pub terraform: Option<Release>,
    /// Where OpenTofu says so (its CHANGELOG, docs or code at a tag).
    pub opentofu_source: &'static str,
    /// Where Terraform's column comes from.
    pub terraform_source: &'static str,
}

const fn v(minor: u16) -> Release {
    Release::new(1, minor, 0)
}

const fn row(
    feature: Feature,
    name: &'static str,
    opentofu: u16,
    terraform: Option<u16>,
    opentofu_source: &'static str,
    terraform_source: &'static str,
) -> Row {
    let terraform = match terraform {
        Some(minor) => Some(v(minor)),
        None => None,
    };
    Row { feature, name, opentofu: v(opentofu), terraform, opentofu_source, terraform_source }
}

const CHANGELOG_1_7_ENCRYPTION: &str =
    "v1.7 CHANGELOG.md, 1.7.0: \"STATE ENCRYPTION: We're introducing optional end-to-end encryption for state files.\"";
const CHANGELOG_1_8_STATIC: &str = "v1.8 CHANGELOG.md, 1.8.0 NEW FEATURES: \"Variables and Locals allowed in module sources and backend configurations (with limitations) (#1718)\"";
const CHANGELOG_1_10_REMOVED: &str = "v1.10 CHANGELOG.md, 1.10.0 ENHANCEMENTS: \"`removed` blocks can now include `lifecycle` and `provisioner` configuration, to configure how OpenTofu should deal with any remaining instances of the resource that has been removed. (#2556)\"";
const CHANGELOG_1_11_EPHEMERAL: &str = "v1.11 CHANGELOG.md, 1.11.0 ENHANCEMENTS: \"Ephemeral values, ephemeral resources, and write-only attributes are now supported. (#2834)\"";

/// Every row but the functions', in the order `docs/versions.md` lists them.
pub const ROWS: &[Row] = &[
    row(
        Feature::ProviderForEach,
        "`for_each` in a `provider` block",
        9,
        None,
        "v1.9 CHANGELOG.md, 1.9.0 ENHANCEMENTS: \"`provider` blocks now support `for_each`. (#2123)\"",
        "reserved in provider blocks: \"Reserved argument name in provider block\" (`internal/configs/provider.go`, v1.15.0)",
    ),
    row(
        Feature::TofuFile,
        "a `.tofu` file with no `.tf` file of the same name",
        8,
        None,
        "v1.8 CHANGELOG.md, 1.8.0 NEW FEATURES: \"Added support to new .tofu extensions to allow tofu-specific overrides of .tf files (#1738)\"",
        "Terraform reads only `.tf` and `.tf.json` files",
    ),
    row(
        Feature::ModuleSourceVariables,
        "a variable or local in a module's `source` or `version`",
        8,
        Some(15),
        CHANGELOG_1_8_STATIC,
        "CHANGELOG.md 1.15.0: \"Terraform now supports variables and locals in module source and version attributes (#38217)\"",
    ),
    row(
        Feature::BackendVariables,
        "a variable or local in a `backend` block",
        8,
        None,
        CHANGELOG_1_8_STATIC,
        "backend arguments are decoded without variables (1.15 added them to module sources only)",
    ),
    row(
        Feature::Encryption,
        "state encryption (`terraform { encryption }`)",
        7,
        None,
        CHANGELOG_1_7_ENCRYPTION,
        "no `encryption` block in `terraform` (`internal/configs/parser_config.go`, v1.15.0)",
    ),
    row(
        Feature::EncryptionVariables,
        "a variable or local in an `encryption` block",
        8,
        None,
        "v1.8 CHANGELOG.md, 1.8.0 ENHANCEMENTS: \"Allow variables and other static values to be used in encryption configuration. (#1728)\"",
        "no `encryption` block",
    ),
    row(
        Feature::ProviderFunction,
        "a provider-defined function (`provider::NAME::FUNCTION`)",
        7,
        Some(8),
        "v1.7 CHANGELOG.md, 1.7.0 NEW FEATURES: \"Provider-defined functions are now available. They may be referenced via `provider::<provider_name>::<funcname>(args)`. (#1439)\"",
        "`internal/lang/functions.go` at v1.8.0 (`provider::%s::%s`), not at v1.7.0",
    ),
    row(
        Feature::CoreNamespace,
        "a function called through `core::`",
        7,
        Some(8),
        "`internal/lang/functions.go` at v1.7.0: \"Copy all stdlib funcs into core:: namespace\" (not at v1.6.0)",
        "`internal/lang/functions.go` at v1.8.0, not at v1.7.0",
    ),
    row(
        Feature::RemovedBlock,
        "a `removed` block",
        7,
        Some(7),
        "v1.7 CHANGELOG.md, 1.7.0 NEW FEATURES: \"Add support for a `removed` block that allows users to remove resources or modules from the state without destroying them. (#1158)\"",
        "`internal/configs/parser_config.go` at v1.7.0 (`case \"removed\"`)",
    ),
    row(
        Feature::RemovedLifecycle,
        "`lifecycle` in a `removed` block",
        10,
        Some(7),
        CHANGELOG_1_10_REMOVED,
        "`internal/configs/removed.go` at v1.7.0",
    ),
    row(
        Feature::RemovedProvisioner,
        "`provisioner` in a `removed` block",
        10,
        Some(9),
        CHANGELOG_1_10_REMOVED,
        "`internal/configs/removed.go` at v1.9.0, not at v1.8.0",
    ),
    row(
        Feature::ImportForEach,
        "`for_each` in an `import` block",
        7,
        Some(7),
        "v1.7 CHANGELOG.md, 1.7.0 NEW FEATURES: \"Add support for using `for_each` in `import` blocks (#1492)\"",
        "`internal/configs/import.go` at v1.7.0",
    ),
    row(
        Feature::ImportIdentity,
        "`identity` in an `import` block",
        12,
        Some(12),
        "v1.12 CHANGELOG.md, 1.12.0 ENHANCEMENTS: \"`import` blocks now allow describing the object to be imported using an object matching the resource type's _identity schema_ using the `identity` argument, instead of just a plain string using the `id` argument. (#3671)\"",
        "`internal/configs/import.go` at v1.12.0",
    ),
    row(
        Feature::CheckBlock,
        "a `check` block",
        6,
        Some(5),
        "in OpenTofu's first release, v1.6.0 (forked from Terraform 1.6)",
        "`internal/configs/parser_config.go` at v1.5.0",
    ),
    row(
        Feature::TestFile,
        "a test file (`.tftest.hcl`)",
        6,
        Some(6),
        "in OpenTofu's first release, v1.6.0 (forked from Terraform 1.6)",
        "`internal/configs/parser_config_dir.go` at v1.6.0",
    ),
    row(
        Feature::EphemeralResource,
        "an ephemeral resource (`ephemeral` block)",
        11,
        Some(10),
        CHANGELOG_1_11_EPHEMERAL,
        "`internal/configs/parser_config.go` at v1.10.0",
    ),
    row(
        Feature::EphemeralVariable,
        "`ephemeral` on a variable",
        11,
        Some(10),
        CHANGELOG_1_11_EPHEMERAL,
        "`internal/configs/named_values.go` at v1.10.0",
    ),
    row(
        Feature::EphemeralOutput,
        "`ephemeral` on an output",
        11,
        Some(10),
        CHANGELOG_1_11_EPHEMERAL,
        "`internal/configs/named_values.go` at v1.10.0",
    ),
    row(
        Feature::WriteOnlyArgument,
        "a write-only argument (named `*_wo` by the providers' convention)",
        11,
        Some(11),
        CHANGELOG_1_11_EPHEMERAL,
        "`WriteOnly` in `internal/configs/configschema/schema.go` at v1.11.0, not at v1.10.0",
    ),
    row(
        Feature::LifecycleEnabled,
        "`enabled` in a `lifecycle` block",
        11,
        None,
        "v1.11 CHANGELOG.md, 1.11.0 ENHANCEMENTS: \"Resources and modules now support an `enabled` meta-argument, in addition to `count` and `for_each`. (#3247)\"",
        "not in the `lifecycle` schema (`internal/configs/resource.go`, v1.15.0)",
    ),
    row(
        Feature::DynamicPreventDestroy,
        "a `prevent_destroy` that refers to other values",
        12,
        None,
        "v1.12 CHANGELOG.md, 1.12.0 ENHANCEMENTS: \"A `prevent_destroy` argument in the `lifecycle` block for managed resources can now refer to other symbols in the same module, such as to the module's input variables. (#3474, #3507)\"",
        "decoded as a constant (`gohcl.DecodeExpression(attr.Expr, nil, …)`, `internal/configs/resource.go`, v1.15.0)",
    ),
    row(
        Feature::LifecycleDestroy,
        "`destroy` in a resource's `lifecycle` block",
        12,
        None,
        "v1.12 CHANGELOG.md, 1.12.0 ENHANCEMENTS: \"New `lifecycle` meta-argument `destroy`: when set to `false` OpenTofu will plan to just remove the affected object from state without asking the provider to destroy it first (#3409)\"",
        "only on Terraform's development branch (1.17.0-dev), in no release",
    ),
    row(
        Feature::LanguageBlock,
        "a `language` block",
        12,
        None,
        "v1.12 CHANGELOG.md, 1.12.0 ENHANCEMENTS: \"A new configuration block type `language` offers a more general way to define version constraints that separates OpenTofu constraints from other software. (#3300)\"; `website/docs/language/settings/index.mdx`: \"Blocks of this type are accepted only in OpenTofu v1.12 and later.\"",
        "not a block type (`internal/configs/parser_config.go`, v1.15.0)",
    ),
    row(
        Feature::ConstVariable,
        "`const` on a variable",
        12,
        Some(15),
        "v1.12 CHANGELOG.md, 1.12.0 ENHANCEMENTS: \"Input variables can now be declared as `const = true` to require that the assigned value is compatible with static evaluation. (#3946)\"",
        "`internal/configs/named_values.go` at v1.15.0",
    ),
    row(
        Feature::Deprecated,
        "`deprecated` on a variable or output",
        10,
        Some(15),
        "v1.10 CHANGELOG.md, 1.10.0 NEW FEATURES: \"Input variables and output values can now be declared as deprecated, causing warnings when they are used by other modules. (#1005)\"",
        "CHANGELOG.md 1.15.0: \"You can set a `deprecated` attribute on variable and output blocks to indicate that they are deprecated. (#38001)\"",
    ),
    row(
        Feature::OciModuleSource,
        "an `oci:` module source",
        10,
        None,
        "v1.10 CHANGELOG.md, 1.10.0 NEW FEATURES: \"OpenTofu can now install module packages from OCI Registries using the new `oci:` source address scheme. (#2540)\"",
        "no `oci:` source addresses",
    ),
];

/// A built-in function added after OpenTofu 1.6 (the functions of 1.6 are in every release of both tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FunctionRow {
    pub name: &'static str,
    pub opentofu: Release,
    pub terraform: Option<Release>,
    pub opentofu_source: &'static str,
    pub terraform_source: &'static str,
}

const fn function(
    name: &'static str,
    opentofu: u16,
    terraform: Option<u16>,
    opentofu_source: &'static str,
    terraform_source: &'static str,
) -> FunctionRow {
    let terraform = match terraform {
        Some(minor) => Some(v(minor)),
        None => None,
    };
    FunctionRow { name, opentofu: v(opentofu), terraform, opentofu_source, terraform_source }
}

/// Terraform's function table as of 1.15 lacks these (`internal/lang/functions.go`).
const NOT_IN_TERRAFORM: &str = "not in `internal/lang/functions.go` (v1.15.0)";

/// The built-in functions added after 1.6 (`internal/lang/functions.go` compared tag by tag, v1.6.0 to v1.12.6).
pub const FUNCTIONS: &[FunctionRow] = &[
    function(
        "templatestring",
        7,
        Some(9),
        "v1.7 CHANGELOG.md, 1.7.0 ENHANCEMENTS: \"Added `templatestring` function that takes a string and renders it as a template using a supplied set of template variables. (#1223)\"",
        "`internal/lang/functions.go` at v1.9.0",
    ),
    function(
        "base64gunzip",
        7,
        None,
        "v1.7 CHANGELOG.md, 1.7.0 ENHANCEMENTS: \"Added `base64gunzip` function that takes a base64 encoded gzip string and returns the decompressed data as a string. (#800)\"",
        NOT_IN_TERRAFORM,
    ),
    function(
        "cidrcontains",
        7,
        None,
        "v1.7 CHANGELOG.md, 1.7.0 ENHANCEMENTS: \"Added `cidrcontains` function that determines if an address belongs to a certain prefix. (#366)\"",
        NOT_IN_TERRAFORM,
    ),
    function(
        "urldecode",
        7,
        None,
        "v1.7 CHANGELOG.md, 1.7.0 ENHANCEMENTS: \"Added `urldecode` function that will decode a url-encoded string. (#1234)\"",
        NOT_IN_TERRAFORM,
    ),
    function(
        "issensitive",
        7,
        Some(8),
        "v1.7 CHANGELOG.md, 1.7.0 ENHANCEMENTS: \"Added `issensitive` function that returns whether a value is sensitive. (#1370)\"",
        "`internal/lang/functions.go` at v1.8.0",
    ),
    function(
        "ephemeralasnull",
        11,
        Some(10),
        "`internal/lang/functions.go` at v1.11.0, not at v1.10.0; `website/docs/language/functions/ephemeralasnull.mdx`",
        "`internal/lang/functions.go` at v1.10.0",
    ),
];

impl Feature {
    /// The function row of a name, if it is one of [`FUNCTIONS`].
    pub fn function(name: &str) -> Option<Feature> {
        FUNCTIONS.iter().position(|f| f.name == name).map(|i| Feature::Function(i as u8))
    }

    pub fn row(self) -> Row {
        match self {
            Feature::Function(i) => {
                let f = &FUNCTIONS[usize::from(i)];
                Row {
                    feature: self,
                    name: f.name,
                    opentofu: f.opentofu,
                    terraform: f.terraform,
                    opentofu_source: f.opentofu_source,
                    terraform_source: f.terraform_source,
                }
            }
            _ => *ROWS.iter().find(|r| r.feature == self).expect("every feature has a row"),
        }
    }

    /// What messages call it: "`for_each` in a `provider` block", "the `templatestring` function".
    pub fn name(self) -> String {
        match self {
            Feature::Function(i) => format!("the `{}` function", FUNCTIONS[usize::from(i)].name),
            _ => self.row().name.to_string(),
        }
    }

    /// The first OpenTofu release that accepts it.
    pub fn opentofu(self) -> Release {
        self.row().opentofu
    }

    /// The first Terraform release that accepts it, if any does.
    pub fn terraform(self) -> Option<Release> {
        self.row().terraform
    }
}

/// Every feature, functions included, in the table's order.
pub fn all() -> impl Iterator<Item = Feature> {
    ROWS.iter().map(|r| r.feature).chain((0..FUNCTIONS.len()).map(|i| Feature::Function(i as u8)))
}

/// The newest OpenTofu release any row names: a quick fix raises a constraint to no more than this.
pub fn newest_known() -> Release {
    all().map(Feature::opentofu).max().expect("rows")
}

/// Terraform-only block types, with the Terraform release that added them: OpenTofu refuses to load a module with
/// one, so the model reports them as unknown block types and says whose they are.
pub const TERRAFORM_ONLY_BLOCKS: &[(&str, Release, &str)] = &[(
    "action",
    Release::new(1, 14, 0),
    "CHANGELOG.md 1.14.0 NEW FEATURES: \"New top-level Actions block (#37553)\"; behind experiments in v1.13.0",
)];

/// The Terraform release of a Terraform-only top-level block type.
pub fn terraform_only_block(block_type: &str) -> Option<Release> {
    TERRAFORM_ONLY_BLOCKS.iter().find(|(name, ..)| *name == block_type).map(|(_, since, _)| *since)
}

/// The table as `docs/versions.md` shows it (between its markers), generated so that the two cannot drift.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| construct | first OpenTofu | OpenTofu source | Terraform | Terraform source |\n| --- | --- | --- | --- | --- |\n",
    );
    for f in all() {
        let r = f.row();
        let name = match f {
            Feature::Function(_) => format!("the `{}` function", r.name),
            _ => r.name.to_string(),
        };
        let terraform = r.terraform.map_or("no".to_string(), |t| t.short());
        out.push_str(&format!(
            "| {name} | {} | {} | {terraform} | {} |\n",
            r.opentofu.short(),
            r.opentofu_source.replace('|', "\\|"),
            r.terraform_source.replace('|', "\\|")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenTofu 1.6.0's built-in functions (`makeBaseFunctionTable` in `internal/lang/functions.go` at v1.6.0, the
    /// table inherited from Terraform 1.6, plus `plantimestamp` and the console's `type`).
    const OPENTOFU_1_6: &[&str] = &[
        "abs",
        "abspath",
        "alltrue",
        "anytrue",
        "base64decode",
        "base64encode",
        "base64gzip",
        "base64sha256",
        "base64sha512",
        "basename",
        "bcrypt",
        "can",
        "ceil",
        "chomp",
        "chunklist",
        "cidrhost",
        "cidrnetmask",
        "cidrsubnet",
        "cidrsubnets",
        "coalesce",
        "coalescelist",
        "compact",
        "concat",
        "contains",
        "csvdecode",
        "dirname",
        "distinct",
        "element",
        "endswith",
        "file",
        "filebase64",
        "filebase64sha256",
        "filebase64sha512",
        "fileexists",
        "filemd5",
        "fileset",
        "filesha1",
        "filesha256",
        "filesha512",
        "flatten",
        "floor",
        "format",
        "formatdate",
        "formatlist",
        "indent",
        "index",
        "join",
        "jsondecode",
        "jsonencode",
        "keys",
        "length",
        "list",
        "log",
        "lookup",
        "lower",
        "map",
        "matchkeys",
        "max",
        "md5",
        "merge",
        "min",
        "nonsensitive",
        "one",
        "parseint",
        "pathexpand",
        "plantimestamp",
        "pow",
        "range",
        "regex",
        "regexall",
        "replace",
        "reverse",
        "rsadecrypt",
        "sensitive",
        "setintersection",
        "setproduct",
        "setsubtract",
        "setunion",
        "sha1",
        "sha256",
        "sha512",
        "signum",
        "slice",
        "sort",
        "split",
        "startswith",
        "strcontains",
        "strrev",
        "substr",
        "sum",
        "templatefile",
        "textdecodebase64",
        "textencodebase64",
        "timeadd",
        "timecmp",
        "timestamp",
        "title",
        "tobool",
        "tolist",
        "tomap",
        "tonumber",
        "toset",
        "tostring",
        "transpose",
        "trim",
        "trimprefix",
        "trimspace",
        "trimsuffix",
        "try",
        "type",
        "upper",
        "urlencode",
        "uuid",
        "uuidv5",
        "values",
        "yamldecode",
        "yamlencode",
        "zipmap",
    ];

    /// Names in the evaluator's table whose first OpenTofu release is not established, so that no row claims one.
    const UNDATED: &[&str] = &["uuidv4"];

    #[test]
    fn every_builtin_the_evaluator_knows_is_from_1_6_or_has_a_row() {
        for name in crate::eval::functions::names() {
            let dated = OPENTOFU_1_6.contains(&name) || UNDATED.contains(&name);
            assert!(
                dated != Feature::function(name).is_some(),
                "`{name}`: a function is either in OpenTofu 1.6.0 or a row of FUNCTIONS, not both or neither"
            );
        }
        for f in FUNCTIONS {
            assert!(f.opentofu > v(6), "{} is listed as added after 1.6", f.name);
        }
    }

    #[test]
    fn docs_versions_md_shows_the_table() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/versions.md");
        let text = std::fs::read_to_string(&path).expect("docs/versions.md");
        let (start, end) = ("<!-- feature table: start -->\n", "<!-- feature table: end -->");
        let (a, b) = (text.find(start).expect("start marker") + start.len(), text.find(end).expect("end marker"));
        let want = markdown_table();
        if std::env::var_os("UPDATE_DOCS").is_some() && text[a..b] != want {
            std::fs::write(&path, format!("{}{want}{}", &text[..a], &text[b..])).unwrap();
            return;
        }
        assert!(
            text[a..b] == want,
            "docs/versions.md's table is stale: run `UPDATE_DOCS=1 cargo test -p foreach-analysis docs_versions_md`"
        );
    }

    #[test]
    fn the_newest_known_release_is_the_newest_row() {
        assert_eq!(newest_known(), Release::new(1, 12, 0));
        assert!(ROWS.iter().all(|r| r.opentofu >= v(6)));
    }
}
