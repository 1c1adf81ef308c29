//! Provider checks that need evaluated values, per module instance: expanding each provider block's `for_each`
//! into instance keys (or saying precisely why it can't be), and evaluating the instance key that each resource or
//! module call instance selects.
//!
//! Unknown values never produce an error by themselves: a key or `for_each` that depends on something not known
//! statically is left unchecked, and a `for_each` that depends only on root variables without a value is reported
//! as information, because OpenTofu would get their values from a var file at plan time.

use std::collections::BTreeSet;
use std::sync::Arc;

use foreach_syntax::ast::Expr;

use crate::base::{FileId, FileRange, FileText};
use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::eval::provisional::settle_all;
use crate::eval::scope::ModuleScope;
use crate::eval::{AwaitedInputs, EvalContext, NonStatic, Provisional, UnknownCause, UnknownReason, Value};
use crate::fixes::filter_for_each::{CollectionKind, CollectionVariable};
use crate::fixes::key_source::ScopeLookup;
use crate::fixes::wrap_call::wrap_in_call;
use crate::model::items::{Arg, ProviderBlock};
use crate::model::module::Module;
use crate::providers::config::{ConfigTarget, RefOwner, RefSiteInfo, resolve_config};
use crate::providers::unknown_instance::{KeyKind, MissingKey, Site, unknown_instance};
use crate::similar::{SimilarSite, SimilarUser, too_similar, too_similar_diagnostic};

/// One instance of a multi-instance provider configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderInstance {
    pub key: String,
    pub each_value: Value,
    /// The configuration arguments evaluated for this instance (`region = "eu-west-1"`).
    pub args: Vec<(String, Value)>,
}

/// What a provider block's `for_each` expands to in one module instance.
#[derive(Debug, Clone, PartialEq)]
pub enum Expansion {
    /// No `for_each`: one instance, no key.
    Single,
    Keys(Vec<ProviderInstance>),
    /// Depends on root variables that have no value here (or on values nobody can predict): not checked.
    Unresolved(Vec<String>),
    /// Not static, or not a valid `for_each` value: reported, not checked further.
    Invalid,
}

impl Expansion {
    pub fn keys(&self) -> Option<Vec<&str>> {
        match self {
            Expansion::Keys(instances) => Some(instances.iter().map(|i| i.key.as_str()).collect()),
            _ => None,
        }
    }
}

/// The instance key one resource or module-call instance selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectedKey {
    /// The referring block's own instance key (`"us"`, `0`), or `None` for a single-instance block.
    pub instance: Option<String>,
    /// The provider instance key it selects, when statically known and valid.
    pub key: Option<String>,
}

/// A reference whose configuration and keys were resolved in one module instance.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedUse {
    pub owner: RefOwner,
    /// `aws.by_region`.
    pub config: String,
    pub target: ConfigTarget,
    pub keys: Vec<SelectedKey>,
}

/// How a block repeats: the `each.key`/`each.value` or `count.index` contexts of its instances, when known.
enum Repetition {
    Single,
    Instances(Vec<(String, EvalContext)>),
    /// `for_each`/`count` not statically known: only keys that don't depend on it can be checked.
    Unknown,
}

#[derive(Debug, PartialEq)]
pub struct InstanceProviders {
    pub expansions: Vec<Expansion>,
    /// For each expansion, the root defaults its `for_each` rests on while they may not be what runs
    /// (`eval/provisional.rs`): what is found from its keys is then provisional.
    pub provisional: Vec<Option<Arc<Provisional>>>,
    pub uses: Vec<ResolvedUse>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyse_instance(
    module: &Module,
    scope: &ModuleScope,
    refs: &[RefSiteInfo],
    address: &str,
    file_text: FileText<'_>,
) -> InstanceProviders {
    let mut diagnostics = Vec::new();
    let expansions: Vec<Expansion> =
        module.providers.iter().map(|p| expand(p, scope, address, file_text, &mut diagnostics)).collect();
    let provisional: Vec<Option<Arc<Provisional>>> =
        module.providers.iter().map(|p| p.for_each.as_ref().and_then(|fe| scope.provisional(&fe.expr()))).collect();
    let mut uses = Vec::new();
    for site in refs {
        let r = &site.reference;
        let target = resolve_config(module, &r.name, r.alias_name());
        let mut resolved =
            ResolvedUse { owner: site.owner.clone(), config: r.config_address(), target, keys: Vec::new() };
        let (for_each, count) = match &site.owner {
            RefOwner::Resource(i) => (module.resources[*i].for_each(), module.resources[*i].count()),
            RefOwner::ModuleCall(i, _) => {
                (module.module_calls[*i].for_each.as_deref(), module.module_calls[*i].count.as_deref())
            }
            RefOwner::Import(_) => {
                uses.push(resolved);
                continue;
            }
        };
        if let (ConfigTarget::Block(i), Some(key_expr)) = (target, &r.key) {
            let provider = &module.providers[i];
            if let Some(fe) = &provider.for_each {
                let repetition = repetition(for_each, count, scope);
                // What the selected keys rest on: the key, the block's own `for_each`/`count` (`each.key`) and the
                // provider's `for_each`.
                let resting = [for_each, count]
                    .into_iter()
                    .flatten()
                    .map(|a| scope.provisional(&a.expr()))
                    .fold(scope.provisional(key_expr), |acc, p| Provisional::union(acc, p.as_ref()));
                let resting = Provisional::union(resting, provisional[i].as_ref());
                let first_new = diagnostics.len();
                let (selected, missing) =
                    check_keys(r.file, key_expr, &repetition, &expansions[i], scope, &mut diagnostics);
                resolved.keys = selected;
                if let (Some(known), false) = (expansions[i].keys(), missing.is_empty()) {
                    let config = config_name(provider);
                    let noun = noun(module, &site.owner);
                    let at = Site {
                        file: r.file,
                        key_expr,
                        config: &config,
                        provider_for_each: fe,
                        user_for_each: for_each,
                        noun: &noun,
                    };
                    let lookup = ScopeLookup { module, scope, file_text };
                    diagnostics.push(unknown_instance(&at, &known, &missing, &lookup));
                }
                settle_all(&mut diagnostics[first_new..], resting.as_deref());
                if let Some(d) = removal_trap(module, site, for_each, fe, scope, address, file_text) {
                    diagnostics.push(d);
                }
            }
        }
        uses.push(resolved);
    }
    InstanceProviders { expansions, provisional, uses, diagnostics }
}

/// The "too similar" warning (the RFC's removal trap) for a keyed reference to a multi-instance provider from a
/// managed resource or a module call that has its own `for_each`. Data and ephemeral blocks are exempt: nothing
/// must be destroyed through their provider.
fn removal_trap(
    module: &Module,
    site: &RefSiteInfo,
    for_each: Option<&Arg>,
    provider_for_each: &Arg,
    scope: &ModuleScope,
    address: &str,
    file_text: FileText<'_>,
) -> Option<Diagnostic> {
    let for_each = for_each?;
    let (user, own, entry) = match &site.owner {
        RefOwner::Resource(i) if module.resources[*i].mode == crate::model::items::ResourceMode::Managed => {
            (SimilarUser::Resource, module.resources[*i].address(), None)
        }
        RefOwner::ModuleCall(i, child) => {
            (SimilarUser::Module, format!("module.{}", module.module_calls[*i].name), Some(child.as_str()))
        }
        _ => return None,
    };
    let for_each_expr = for_each.expr();
    if !too_similar(&for_each_expr, &provider_for_each.expr()) {
        return None;
    }
    let (text, file_kind) = file_text(for_each.file)?;
    let value =
        scope.eval(for_each.file, &for_each_expr, &EvalContext { origin: "for_each".into(), ..EvalContext::default() });
    let full_address = if address.is_empty() { own } else { format!("{address}.{own}") };
    let provider = site.reference.config_address();
    let declared = |name: &str| module.variable(name).is_some();
    let var_text = collection_variable(module, &for_each_expr).and_then(|v| Some((v, file_text(v.site.file)?)));
    let var_type = var_text.as_ref().and_then(|(v, _)| v.ty.as_ref()).map(|a| a.expr());
    let variable =
        var_text.as_ref().filter(|(_, (_, kind))| !kind.is_json()).map(|(v, (text, _))| CollectionVariable {
            name: &v.name,
            file: v.site.file,
            text,
            block: v.site.range,
            ty: var_type.as_deref(),
            declared: &declared,
        });
    Some(too_similar_diagnostic(&SimilarSite {
        user,
        file: for_each.file,
        file_kind,
        text: &text,
        for_each: &for_each_expr,
        address: &full_address,
        provider: &provider,
        providers_entry: entry,
        provider_for_each: provider_for_each.expr_location(),
        collection: CollectionKind::of(&value),
        variable,
    }))
}

/// The variable of `module` that a `for_each` value names (`var.x`, possibly parenthesised).
fn collection_variable<'m>(module: &'m Module, e: &Expr) -> Option<&'m crate::model::items::Variable> {
    let foreach_syntax::ast::ExprKind::Traversal { base, steps } = &e.unparenthesized().kind else { return None };
    match (&base.kind, steps.as_slice()) {
        (foreach_syntax::ast::ExprKind::Variable(root), [step]) if root.name == "var" => match &step.op {
            foreach_syntax::ast::TraversalOp::GetAttr(a) => module.variable(&a.name),
            _ => None,
        },
        _ => None,
    }
}

fn origin(p: &ProviderBlock) -> String {
    match p.alias_name() {
        Some(a) => format!("provider \"{}\" ({a}) for_each", p.name),
        None => format!("provider \"{}\" for_each", p.name),
    }
}

fn config_name(p: &ProviderBlock) -> String {
    match p.alias_name() {
        Some(a) => format!("{}.{a}", p.name),
        None => p.name.clone(),
    }
}

fn expand(
    p: &ProviderBlock,
    scope: &ModuleScope,
    address: &str,
    file_text: FileText<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Expansion {
    let Some(fe) = &p.for_each else { return Expansion::Single };
    if p.alias.is_none() {
        // Reported by the shape checks; without an alias no reference can select an instance anyway.
        return Expansion::Invalid;
    }
    let ctx = EvalContext { origin: origin(p), ..EvalContext::default() };
    let value = scope.eval(fe.file, &fe.expr(), &ctx);
    let reasons = value.unknown_reasons();
    // The keys of a map or an object are known even where values inside it are not: when those are only inputs
    // missing here (OpenTofu will have them), the instances are known and references to them can be checked (what
    // `migrate` writes for a variable with no value here: `{ primary = { region = var.primary_region } }`).
    let keys_known =
        matches!(value, Value::Map(..) | Value::Object(..)) && reasons.iter().all(|r| resolvable_later(&r.cause));
    if !reasons.is_empty() && !keys_known {
        return explain_unknown(p, fe, &reasons, address, diags);
    }
    match instance_keys(&value) {
        Ok(keys) => Expansion::Keys(
            keys.into_iter()
                .map(|(key, each_value)| {
                    let ctx = EvalContext {
                        each: Some((Value::string(key.as_str()), each_value.clone())),
                        origin: format!("provider `{}` instance `{key}`", config_name(p)),
                        ..EvalContext::default()
                    };
                    let args = p
                        .config
                        .iter()
                        .map(|a| (a.name.name.to_string(), scope.eval(a.file, &a.expr(), &ctx)))
                        .collect();
                    ProviderInstance { key, each_value, args }
                })
                .collect(),
        ),
        Err(problem) => {
            let mut d = Diagnostic::new(
                Code::ProviderForEachInvalid,
                fe.expr_location(),
                format!("the `for_each` of provider `{}` {problem}", config_name(p)),
            );
            if matches!(value.unmarked(), Value::Tuple(_) | Value::List(..))
                && let Some((text, kind)) = file_text(fe.file)
                && let Some(edits) = wrap_in_call(fe.file, kind, &text, fe.expr_range(), "toset")
            {
                d = d.with_fix(Fix {
                    title: "Convert the list to a set with `toset(...)`".to_string(),
                    edits,
                    automatic: false,
                });
            }
            if let Some(p) = scope.provisional(&fe.expr()) {
                p.settle(&mut d);
            }
            diags.push(d);
            Expansion::Invalid
        }
    }
}

/// The instance keys of a `for_each` value, with each instance's `each.value`, or what is wrong with the value.
pub fn instance_keys(value: &Value) -> Result<Vec<(String, Value)>, String> {
    if let Value::Sensitive(_) = value {
        return Err("is sensitive; instance keys become part of addresses and can't be secret".to_string());
    }
    match value {
        Value::Null(_) => Err("is null; it must be a map, an object or a set of strings".to_string()),
        Value::Map(_, attrs) | Value::Object(attrs) => {
            Ok(attrs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
        }
        Value::Set(_, items) => {
            let mut out = Vec::new();
            for item in items.iter() {
                match item.unmarked() {
                    Value::String(s) => out.push((s.to_string(), item.clone())),
                    Value::Null(_) => {
                        return Err("contains a null element; every element of the set must be a string".into());
                    }
                    other => {
                        return Err(format!(
                            "is a set of {}; only sets of strings can be used as instance keys",
                            other.friendly_type()
                        ));
                    }
                }
            }
            Ok(out)
        }
        Value::Tuple(_) | Value::List(..) => Err(format!(
            "is a {}; it must be a map, an object or a set of strings: convert it with `toset(...)`",
            value.friendly_type()
        )),
        other => Err(format!("is {}; it must be a map, an object or a set of strings", other.friendly_type())),
    }
}

/// Whether an unknown cause means "not known yet, but OpenTofu will know it at plan time" (a root variable with no
/// value here, an impure function OpenTofu evaluates early) rather than "OpenTofu refuses this".
fn resolvable_later(cause: &UnknownCause) -> bool {
    match cause {
        cause if cause.is_missing_input() => true,
        // OpenTofu evaluates these in its static scope (with an unpredictable value), except plantimestamp().
        UnknownCause::ImpureFunction { name, .. } => name != "plantimestamp",
        _ => false,
    }
}

fn explain_unknown(
    p: &ProviderBlock,
    fe: &Arg,
    reasons: &[std::sync::Arc<UnknownReason>],
    address: &str,
    diags: &mut Vec<Diagnostic>,
) -> Expansion {
    let name = config_name(p);
    let in_module = if address.is_empty() { String::new() } else { format!(" (in `{address}`)") };
    // Evaluation errors were reported where they happened.
    if reasons.iter().any(|r| {
        matches!(r.cause, UnknownCause::Error { .. } | UnknownCause::Limit { .. } | UnknownCause::Invalid { .. })
    }) {
        return Expansion::Invalid;
    }
    if let Some(r) = reasons.iter().find(|r| !resolvable_later(&r.cause)) {
        let chain = r.chain_text("for_each");
        let mut d = Diagnostic::new(
            Code::ProviderForEachNotStatic,
            fe.expr_location(),
            format!(
                "the `for_each` of provider `{name}`{in_module} must be known before planning, but {}: {chain}",
                r.explanation()
            ),
        );
        for hop in r.hops.iter().rev() {
            d = d.with_related(hop.declaration, format!("`{}` is on the way", hop.name));
        }
        if r.location() != fe.expr_location() {
            d = d.with_related(r.location(), "the value that is not known before planning");
        }
        if let UnknownCause::NonStaticVariable { declaration, why, .. } = &r.cause {
            let how = match why {
                NonStatic::Ephemeral => "declared `ephemeral = true` here",
                NonStatic::NotConst => "declared `const = false` here",
            };
            d = d.with_related(*declaration, how);
        }
        diags.push(d);
        return Expansion::Invalid;
    }
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut files: BTreeSet<String> = BTreeSet::new();
    let mut outside: BTreeSet<String> = BTreeSet::new();
    for r in reasons {
        match &r.cause {
            UnknownCause::VariableWithoutValue { name, .. } => {
                names.insert(format!("var.{name}"));
            }
            UnknownCause::ImpureFunction { name, .. } => {
                names.insert(format!("{name}()"));
            }
            UnknownCause::WorkspaceNotSelected { reference, .. } => {
                names.insert(reference.clone());
            }
            UnknownCause::EncryptedValue { name, .. } | UnknownCause::DefaultNotFinal { name, .. } => {
                names.insert(format!("var.{name}"));
            }
            UnknownCause::MissingFile { .. } => {
                files.insert(r.root_name());
            }
            UnknownCause::FileOutsideRepository { .. } => {
                outside.insert(r.root_name());
            }
            _ => {}
        }
    }
    let is_input = |n: &String| !n.ends_with("()");
    let vars: Vec<String> = names.iter().filter(|n| is_input(n)).map(|n| format!("`{n}`")).collect();
    let fns: Vec<String> = names.iter().filter(|n| !is_input(n)).map(|n| format!("`{n}`")).collect();
    let workspace = reasons.iter().any(|r| matches!(r.cause, UnknownCause::WorkspaceNotSelected { .. }));
    let awaited = AwaitedInputs::of(reasons.iter().map(|r| &**r));
    let message = if !outside.is_empty() && vars.is_empty() && fns.is_empty() {
        let files: Vec<String> = outside.iter().chain(&files).map(|n| format!("`{n}`")).collect();
        format!(
            "the instances of provider `{name}`{in_module} depend on {}, a file outside the repository being checked \
             (foreach-ls reads no file there), so references to its instances are not checked",
            files.join(", ")
        )
    } else if !files.is_empty() && vars.is_empty() && fns.is_empty() {
        let files: Vec<String> = files.iter().map(|n| format!("`{n}`")).collect();
        format!(
            "the instances of provider `{name}`{in_module} depend on {}, a file that does not exist here (it may be \
             created before OpenTofu runs), so references to its instances are not checked",
            files.join(", ")
        )
    } else if vars.is_empty() {
        format!(
            "the instances of provider `{name}`{in_module} depend on {}, whose value OpenTofu computes when it runs \
             and nobody can predict, so references to its instances are not checked",
            fns.join(", ")
        )
    } else if workspace && vars.len() == 1 {
        format!(
            "the instances of provider `{name}`{in_module} depend on {}, but no workspace selected: set TF_WORKSPACE \
             or --workspace (or run `tofu workspace select`) to check references to its instances",
            vars.join(", "),
        )
    } else if awaited.overridable.is_empty() {
        format!(
            "the instances of provider `{name}`{in_module} depend on {}, which {} no value here, so references to \
             its instances are not checked; give {} a value in a .tfvars file or with --var{} to check them",
            vars.join(", "),
            if vars.len() == 1 { "has" } else { "have" },
            if vars.len() == 1 { "it" } else { "them" },
            if workspace { " (the workspace with --workspace)" } else { "" },
        )
    } else {
        // Some have a default that may be overridden: they must not be said to have no value.
        format!(
            "the instances of provider `{name}`{in_module} depend on {}, so references to its instances are not \
             checked; give the values with --var-file or with an environment in foreach-ls.toml{} to check them",
            awaited.phrase(),
            if workspace { " (the workspace with --workspace)" } else { "" },
        )
    };
    diags.push(Diagnostic::new(Code::ProviderForEachUnresolved, fe.expr_location(), message));
    Expansion::Unresolved(names.into_iter().collect())
}

fn repetition(for_each: Option<&Arg>, count: Option<&Arg>, scope: &ModuleScope) -> Repetition {
    if let Some(fe) = for_each {
        let v = scope.eval(fe.file, &fe.expr(), &EvalContext { origin: "for_each".into(), ..EvalContext::default() });
        if v.first_unknown().is_some() {
            return Repetition::Unknown;
        }
        return match instance_keys(&v) {
            Ok(keys) => Repetition::Instances(
                keys.into_iter()
                    .map(|(k, ev)| {
                        let ctx = EvalContext {
                            each: Some((Value::string(k.as_str()), ev)),
                            origin: "provider instance key".into(),
                            ..EvalContext::default()
                        };
                        (format!("[\"{k}\"]"), ctx)
                    })
                    .collect(),
            ),
            Err(_) => Repetition::Unknown,
        };
    }
    if let Some(c) = count {
        let v = scope.eval(c.file, &c.expr(), &EvalContext { origin: "count".into(), ..EvalContext::default() });
        return match v.as_number().and_then(|n| n.to_i64()) {
            Some(n) if (0..=100_000).contains(&n) => Repetition::Instances(
                (0..n)
                    .map(|i| {
                        let ctx = EvalContext {
                            count: Some(Value::int(i)),
                            origin: "provider instance key".into(),
                            ..EvalContext::default()
                        };
                        (format!("[{i}]"), ctx)
                    })
                    .collect(),
            ),
            _ => Repetition::Unknown,
        };
    }
    Repetition::Single
}

/// The string a key value selects: strings as they are, numbers and bools converted (OpenTofu 1.10+).
fn key_string(v: &Value) -> Result<Option<String>, String> {
    if v.first_unknown().is_some() {
        return Ok(None);
    }
    match v {
        Value::Sensitive(_) => Err("is sensitive; an instance key can't be secret".into()),
        Value::Null(_) => Err("is null".into()),
        Value::String(s) => Ok(Some(s.to_string())),
        Value::Number(n) => Ok(Some(n.to_text())),
        Value::Bool(b) => Ok(Some(b.to_string())),
        other => Err(format!("is {}, which can't be converted to a string", other.friendly_type())),
    }
}

/// The key each instance of the referring block selects, and the keys that the provider has no instance for.
fn check_keys(
    file: FileId,
    key_expr: &Expr,
    repetition: &Repetition,
    expansion: &Expansion,
    scope: &ModuleScope,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<SelectedKey>, Vec<MissingKey>) {
    let single = [(String::new(), EvalContext { origin: "provider instance key".into(), ..EvalContext::default() })];
    let (contexts, per_instance): (&[(String, EvalContext)], bool) = match repetition {
        Repetition::Single | Repetition::Unknown => (&single, false),
        Repetition::Instances(v) => (v.as_slice(), true),
    };
    let known = expansion.keys();
    let mut selected = Vec::new();
    let mut missing: Vec<MissingKey> = Vec::new();
    for (instance, ctx) in contexts {
        let v = scope.eval(file, key_expr, ctx);
        let instance = per_instance.then(|| instance.clone());
        match key_string(&v) {
            Ok(Some(key)) => {
                if let Some(known) = &known
                    && !known.contains(&key.as_str())
                    && !missing.iter().any(|m| m.key == key)
                {
                    let kind = match v.unmarked() {
                        Value::Number(_) => KeyKind::Number,
                        Value::Bool(_) => KeyKind::Bool,
                        _ => KeyKind::String,
                    };
                    missing.push(MissingKey { key: key.clone(), instance: instance.clone(), kind });
                }
                selected.push(SelectedKey { instance, key: Some(key) });
            }
            Ok(None) => selected.push(SelectedKey { instance, key: None }),
            Err(problem) => {
                let at = instance.as_ref().map(|i| format!(" (for instance `{i}`)")).unwrap_or_default();
                diags.push(Diagnostic::new(
                    Code::InvalidProviderInstanceKey,
                    FileRange::new(file, key_expr.range),
                    format!("the instance key{at} {problem}; a key must be a string (numbers and bools are converted)"),
                ));
                selected.push(SelectedKey { instance, key: None });
                break;
            }
        }
    }
    (selected, missing)
}

/// What moves when a reference selects another configuration.
fn noun(module: &Module, owner: &RefOwner) -> String {
    match owner {
        RefOwner::Resource(i) => match module.resources[*i].mode {
            crate::model::items::ResourceMode::Managed => "this resource".to_string(),
            crate::model::items::ResourceMode::Data => "this data source".to_string(),
            crate::model::items::ResourceMode::Ephemeral => "this ephemeral resource".to_string(),
        },
        RefOwner::ModuleCall(i, _) => format!("the resources of module `{}`", module.module_calls[*i].name),
        RefOwner::Import(_) => "this import".to_string(),
    }
}
