//! Values OpenTofu needs at `tofu init`, before anything is planned: module `source` and `version`, and the
//! arguments of `terraform { backend "…" {} }` and `terraform { encryption {} }`.
//!
//! OpenTofu 1.8+ evaluates these early, with variables, locals and pure functions only (the static-evaluation RFC).
//! This module decides what such a value is — known, waiting for root variables without a value here, or never
//! known at init — and words the diagnostics with the RFC's reference chains. `tree.rs` applies it to module
//! sources while it builds the module tree (a source decides which module is loaded); `init_settings.rs`
//! applies it to backends and encryption in every root module.

use std::collections::BTreeSet;
use std::sync::Arc;

use foreach_syntax::ast::{Body, Structure};

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::{
    AwaitedInputs, Constraint, DynamicKind, EvalContext, ModuleScope, UnknownCause, UnknownReason, Value, convert,
};

/// What an init-time value turned out to be.
#[derive(Debug, Clone)]
pub enum Outcome {
    Known(Value),
    /// Depends only on variables without a value here (`var.key`, `module.a:var.x`) and files missing here
    /// (`file("keys/a.pub")`); `reason` gives the chain.
    Unresolved {
        names: Vec<String>,
        reason: Arc<UnknownReason>,
        /// Of `names`, the variables whose default may be overridden, which have a value (and must not be said to
        /// have none).
        awaited: AwaitedInputs,
    },
    /// Depends on something OpenTofu never knows at init (a resource, `each.key`, an impure function...).
    NotStatic(Arc<UnknownReason>),
    /// Known, but sensitive: OpenTofu refuses sensitive values in early evaluation (1.9, opentofu#2045).
    Sensitive,
    /// An evaluation error, already reported where it happened.
    Failed,
}

/// Classifies a value. `internal` says which unknowns are not a problem here (references between the blocks of
/// an `encryption` block, which OpenTofu resolves itself). `sensitive_ok`: OpenTofu 1.9+ rejects sensitive values
/// in module sources, versions and backends (opentofu#2045, a security fix), but an encryption passphrase is
/// expected to come from a sensitive variable, as OpenTofu's own encryption docs show.
pub fn classify(v: &Value, internal: &dyn Fn(&UnknownReason) -> bool, sensitive_ok: bool) -> Outcome {
    let reasons: Vec<Arc<UnknownReason>> = v.unknown_reasons().into_iter().filter(|r| !internal(r)).collect();
    if reasons.is_empty() {
        return if v.has_marks() && !sensitive_ok { Outcome::Sensitive } else { Outcome::Known(v.clone()) };
    }
    if reasons.iter().any(|r| {
        matches!(r.cause, UnknownCause::Error { .. } | UnknownCause::Limit { .. } | UnknownCause::Invalid { .. })
    }) {
        return Outcome::Failed;
    }
    // Unlike a provider `for_each`, an impure function is not acceptable here: a source or backend that changes on
    // every run would make every `tofu init` different.
    if let Some(r) = reasons.iter().find(|r| !r.cause.is_missing_input()) {
        return Outcome::NotStatic(r.clone());
    }
    let names: BTreeSet<String> = reasons.iter().map(|r| r.root_name()).collect();
    let awaited = AwaitedInputs::of(reasons.iter().map(|r| &**r));
    Outcome::Unresolved { names: names.into_iter().collect(), reason: reasons[0].clone(), awaited }
}

/// Which init-time value a diagnostic is about.
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    /// `address` is the call's full address, `module.common.module.helper`.
    ModuleSource {
        address: &'a str,
    },
    ModuleVersion {
        address: &'a str,
    },
    /// `path` is the argument inside the block: `key`, `assume_role.role_arn`; `block` is `backend` or `cloud`
    /// (OpenTofu configures the `cloud` block as a backend).
    Backend {
        block: &'a str,
        path: &'a str,
    },
    Encryption {
        path: &'a str,
    },
}

impl Field<'_> {
    /// The start of a reference chain, in the RFC's style: `module.common.module.helper.source`,
    /// `terraform.backend.key`.
    pub fn origin(&self) -> String {
        match self {
            Field::ModuleSource { address } => format!("{address}.source"),
            Field::ModuleVersion { address } => format!("{address}.version"),
            Field::Backend { block, path } => format!("terraform.{block}.{path}"),
            Field::Encryption { path } => format!("terraform.encryption.{path}"),
        }
    }

    /// The module call's address, or `""` for backend and encryption arguments.
    pub fn address(&self) -> &str {
        match self {
            Field::ModuleSource { address } | Field::ModuleVersion { address } => address,
            Field::Backend { .. } | Field::Encryption { .. } => "",
        }
    }

    pub fn subject(&self) -> String {
        match self {
            Field::ModuleSource { address } => format!("the `source` of `{address}`"),
            Field::ModuleVersion { address } => format!("the `version` of `{address}`"),
            Field::Backend { block, path } => format!("the {block} argument `{path}`"),
            Field::Encryption { path } => format!("the encryption argument `{path}`"),
        }
    }

    fn codes(&self) -> (Code, Code) {
        match self {
            Field::ModuleSource { .. } | Field::ModuleVersion { .. } => {
                (Code::ModuleSourceNotStatic, Code::ModuleSourceUnresolved)
            }
            Field::Backend { .. } => (Code::BackendConfigNotStatic, Code::BackendConfigUnresolved),
            Field::Encryption { .. } => (Code::EncryptionConfigNotStatic, Code::EncryptionConfigUnresolved),
        }
    }

    fn consequence(&self) -> &'static str {
        match self {
            Field::ModuleSource { .. } => "foreach-ls cannot tell which module it loads and does not check it",
            Field::ModuleVersion { .. } => "foreach-ls cannot tell which version `tofu init` installs",
            Field::Backend { .. } | Field::Encryption { .. } => "`tofu init` needs it",
        }
    }
}

/// The diagnostic for an outcome at `location` (the expression), if it needs one.
pub fn diagnose(field: Field<'_>, location: FileRange, outcome: &Outcome) -> Option<Diagnostic> {
    let (not_static, unresolved) = field.codes();
    match outcome {
        Outcome::Known(_) | Outcome::Failed => None,
        Outcome::Sensitive => Some(Diagnostic::new(
            not_static,
            location,
            format!(
                "{} uses a sensitive value; since 1.9 OpenTofu refuses sensitive values in module sources, versions and \
                 backend settings, so that they never end up in `.terraform/` or in logs",
                field.subject()
            ),
        )),
        Outcome::NotStatic(r) => {
            let why = match &r.cause {
                UnknownCause::DynamicReference { reference, kind: DynamicKind::Each | DynamicKind::Count, .. } => {
                    format!(
                        "`{reference}` differs between the instances of the call, and OpenTofu evaluates this once \
                         for all of them (`for_each` and `count` are forbidden here)"
                    )
                }
                _ => r.explanation(),
            };
            let mut d = Diagnostic::new(
                not_static,
                location,
                format!(
                    "{} must be known when `tofu init` runs, but {why}: {}",
                    field.subject(),
                    r.chain_text(&field.origin())
                ),
            );
            for hop in r.hops.iter().rev() {
                d = d.with_related(hop.declaration, format!("`{}` is on the way", hop.name));
            }
            if r.location() != location {
                d = d.with_related(r.location(), "the value that is not known at `tofu init`");
            }
            Some(d)
        }
        Outcome::Unresolved { names, reason, awaited } => {
            // Variables with a default that may be overridden are named apart: they do have a value.
            let names: Vec<&String> = names.iter().filter(|n| !awaited.overridable.contains(n)).collect();
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let one = names.len() == 1;
            // A child module's variable without a value was not passed by its caller (`module.a:var.x`): OpenTofu
            // requires it in the `module` block, no .tfvars file can set it.
            let workspace = names.iter().any(|n| n.ends_with(".workspace"));
            let fix = if names.is_empty() {
                "give the values with --var-file, or with an environment in foreach-ls.toml"
            } else if !names.iter().any(|n| n.contains("var.") || n.ends_with(".workspace")) {
                "the file does not exist here, but may be created before OpenTofu runs"
            } else if names.iter().any(|n| n.contains(':')) {
                "pass it in the calling `module` block (OpenTofu requires a variable without a default there)"
            } else if workspace && one {
                "select a workspace with --workspace or TF_WORKSPACE (or run `tofu workspace select`)"
            } else if workspace {
                "give the variables a value in a .tfvars file or with --var, and select a workspace with --workspace"
            } else if one {
                "give it a value in a .tfvars file or with --var"
            } else {
                "give them a value in a .tfvars file or with --var"
            };
            let overridable = AwaitedInputs { without_value: Vec::new(), ..awaited.clone() };
            let depends = match (names.is_empty(), overridable.overridable.is_empty()) {
                (true, _) => overridable.phrase(),
                (false, true) => {
                    format!("{}, which {} no value here", list.join(", "), if one { "has" } else { "have" })
                }
                (false, false) => format!(
                    "{}, which {} no value here, and on {}",
                    list.join(", "),
                    if one { "has" } else { "have" },
                    overridable.phrase()
                ),
            };
            Some(Diagnostic::new(
                unresolved,
                location,
                format!(
                    "{} depends on {depends}, so {}; {fix}: {}",
                    field.subject(),
                    field.consequence(),
                    reason.chain_text(&field.origin()),
                ),
            ))
        }
    }
}

/// A known module source or version as text. Numbers and bools convert as OpenTofu converts them to a string;
/// anything else is an error to report.
pub fn known_text(v: &Value) -> Result<String, String> {
    match convert(v, &Constraint::String) {
        Ok(Value::String(s)) => Ok(s.to_string()),
        Ok(Value::Null(_)) => Err("is null".into()),
        Ok(other) => Err(format!("is {}", other.friendly_type())),
        Err(e) => Err(format!("must be a string: {e}")),
    }
}

/// How a value evaluated at init is shown to the user (hover, `inspect`): the text, or why it is not known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaticText {
    Known(String),
    Unknown(String),
}

impl StaticText {
    pub fn known(&self) -> Option<&str> {
        match self {
            StaticText::Known(s) => Some(s),
            StaticText::Unknown(_) => None,
        }
    }
}

/// The text to show for an outcome.
pub fn outcome_text(outcome: &Outcome) -> StaticText {
    match outcome {
        Outcome::Known(v) => match known_text(v) {
            Ok(s) => StaticText::Known(s),
            Err(e) => StaticText::Unknown(format!("the value {e}")),
        },
        Outcome::Unresolved { reason, .. } | Outcome::NotStatic(reason) => StaticText::Unknown(reason.explanation()),
        Outcome::Sensitive => StaticText::Unknown("the value is sensitive".into()),
        Outcome::Failed => StaticText::Unknown("evaluating it failed".into()),
    }
}

/// `key_provider.pbkdf2.main` and `method.aes_gcm.main` inside an `encryption` block refer to its own blocks.
pub fn is_encryption_internal(r: &UnknownReason) -> bool {
    r.hops.is_empty()
        && matches!(&r.cause, UnknownCause::DynamicReference { reference, .. }
            if reference.starts_with("key_provider.") || reference.starts_with("method."))
}

/// One argument of a backend or encryption block, with its path inside the block (`assume_role.role_arn`).
pub struct SettingsArg<'a> {
    pub path: String,
    pub file: FileId,
    pub attr: &'a foreach_syntax::ast::Attribute,
}

/// Every argument of a block body, nested blocks included, in source order.
pub fn settings_args(file: FileId, body: &Body) -> Vec<SettingsArg<'_>> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, &Body)> = vec![(String::new(), body)];
    while let Some((prefix, body)) = stack.pop() {
        let mut nested = Vec::new();
        for s in &body.structures {
            match s {
                Structure::Attribute(a) => {
                    out.push(SettingsArg { path: format!("{prefix}{}", a.key.name), file, attr: a })
                }
                Structure::Block(b) => {
                    let mut p = format!("{prefix}{}", b.ident.name);
                    for l in &b.labels {
                        p.push('.');
                        p.push_str(&l.value);
                    }
                    p.push('.');
                    nested.push((p, &b.body));
                }
            }
        }
        stack.extend(nested.into_iter().rev());
    }
    out
}

/// Which block a settings argument is in: `backend`, `cloud` or `encryption`.
pub fn settings_block_kind(block: &foreach_syntax::ast::Block) -> &str {
    block.ident.name.as_str()
}

/// Evaluates one backend, cloud or encryption argument in a root module's scope; `kind` is the block's name.
pub fn eval_settings_arg(scope: &ModuleScope, arg: &SettingsArg<'_>, kind: &str) -> Outcome {
    let ctx = EvalContext { each: None, count: None, origin: format!("terraform.{kind}.{}", arg.path) };
    let v = scope.eval(arg.file, &arg.attr.value, &ctx);
    if kind == "encryption" { classify(&v, &is_encryption_internal, true) } else { classify(&v, &|_| false, false) }
}
