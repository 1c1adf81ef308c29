//! Provider checks that need only one module's declarations, not evaluated values: the shape of provider blocks,
//! duplicates, `each` outside `for_each`, and whether each reference names a configuration that exists and carries
//! an instance key exactly when the configuration has `for_each`.

use std::collections::HashMap;

use foreach_syntax::ast::ExprKind;

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::module::Module;
use crate::model::refs::{Reference, references};
use crate::providers::config::{ConfigTarget, RefOwner, known_addresses, module_references, resolve_config};
use crate::providers::missing_key;
use crate::suggest::closest;

pub fn module_provider_checks(module: &Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    block_shape(module, &mut out);
    duplicates(module, &mut out);
    each_outside_for_each(module, &mut out);
    reference_targets(module, &mut out);
    out
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

fn block_shape(module: &Module, out: &mut Vec<Diagnostic>) {
    for p in &module.providers {
        if let Some(alias) = &p.alias {
            match alias.expr().as_string_literal() {
                Some(a) if is_identifier(&a) => {}
                Some(a) => out.push(Diagnostic::new(
                    Code::InvalidProviderAlias,
                    alias.expr_location(),
                    format!(
                        "`{a}` is not a valid alias: use letters, digits, `_` and `-`, starting with a letter or `_`"
                    ),
                )),
                None => {
                    let dynamic = matches!(alias.expr().kind, ExprKind::Template(_));
                    let msg = if dynamic {
                        "the alias must be a constant name: it can't use `each.key`, variables or templates, because \
                         references to this configuration must be known before anything is evaluated; give the \
                         block one constant alias and select instances with `name.alias[each.key]`"
                    } else {
                        "the alias must be a constant quoted name, such as `alias = \"by_region\"`"
                    };
                    out.push(Diagnostic::new(Code::InvalidProviderAlias, alias.expr_location(), msg));
                }
            }
        }
        if let Some(fe) = &p.for_each
            && p.alias.is_none()
        {
            out.push(
                Diagnostic::new(
                    Code::ProviderForEachWithoutAlias,
                    fe.key_location(),
                    format!(
                        "provider `{}` uses `for_each` without an `alias`; add one (`alias = \"by_region\"`) and refer \
                         to instances as `{}.by_region[key]`: the default configuration of a provider is always a \
                         single instance",
                        p.name, p.name
                    ),
                )
                .with_related(p.site.name_location(), "this provider block"),
            );
        }
        for (name, loc) in &p.reserved {
            let what = if name == "lifecycle" || name == "locals" { "a block" } else { "an argument" };
            out.push(Diagnostic::new(
                Code::ProviderReservedArgument,
                *loc,
                format!("`{name}` is reserved in provider blocks and can't be used here (as {what})"),
            ));
        }
    }
}

fn duplicates(module: &Module, out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<(String, Option<String>), FileRange> = HashMap::new();
    // A block whose alias is not a constant is reported as such; it is not a second default configuration.
    for p in module.providers.iter().filter(|p| p.alias.is_none() || p.alias_name().is_some()) {
        let key = (p.name.clone(), p.alias_name());
        match seen.get(&key) {
            Some(first) => {
                let what = match &key.1 {
                    Some(a) => format!("provider `{}` with alias `{a}`", key.0),
                    None => format!("the default configuration of provider `{}`", key.0),
                };
                out.push(
                    Diagnostic::new(
                        Code::DuplicateProviderConfig,
                        p.site.name_location(),
                        format!("{what} is declared twice"),
                    )
                    .with_related(*first, "first declared here"),
                );
            }
            None => {
                seen.insert(key, p.site.name_location());
            }
        }
    }
}

fn each_outside_for_each(module: &Module, out: &mut Vec<Diagnostic>) {
    let mut report = |file: FileId, refs: Vec<Reference>, block: &str| {
        for r in refs.iter().filter(|r| r.root() == "each") {
            out.push(Diagnostic::new(
                Code::EachOutsideForEach,
                FileRange::new(file, r.range),
                format!(
                    "`{}` is used in {block}, which has no `for_each`; `each` exists only in blocks with `for_each`",
                    r.display()
                ),
            ));
        }
    };
    for p in module.providers.iter().filter(|p| p.for_each.is_none()) {
        report(p.body_refs.file, p.body_refs.each_references(), &format!("provider `{}`", p.name));
    }
    for r in module.resources.iter().filter(|r| r.for_each().is_none()) {
        report(r.body_refs.file, r.body_refs.each_references(), &format!("`{}`", r.address()));
        if let Some(p) = r.provider() {
            report(p.file, references(&p.expr(), &[]), &format!("`{}`", r.address()));
        }
    }
    for o in &module.outputs {
        report(o.body_refs.file, o.body_refs.each_references(), &format!("output `{}`", o.name));
    }
    for c in module.module_calls.iter().filter(|c| c.for_each.is_none()) {
        for arg in c.inputs.iter().chain(c.providers.as_deref()) {
            report(arg.file, references(&arg.expr(), &[]), &format!("module call `{}`", c.name));
        }
    }
}

fn reference_targets(module: &Module, out: &mut Vec<Diagnostic>) {
    let (refs, diags) = module_references(module);
    out.extend(diags);
    let known = known_addresses(module);
    for site in &refs {
        let r = &site.reference;
        let target = resolve_config(module, &r.name, r.alias_name());
        let key_loc = r.key.as_ref().map(|k| FileRange::new(r.file, k.range));
        match target {
            ConfigTarget::Unknown => {
                let address = r.config_address();
                let mut msg = format!("no provider configuration `{address}` is declared in this module");
                if let Some(s) = closest(&address, known.iter().map(String::as_str)) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                } else {
                    msg.push_str(&format!(
                        "; declare `provider \"{}\" {{ alias = \"{}\" }}` or receive it with `configuration_aliases`",
                        r.name,
                        r.alias_name().unwrap_or_default()
                    ));
                }
                let range = match &r.alias {
                    Some((_, a)) => r.name_range.cover(*a),
                    None => r.name_range,
                };
                out.push(Diagnostic::new(Code::UnknownProviderConfig, FileRange::new(r.file, range), msg));
            }
            ConfigTarget::Block(i) => {
                let p = &module.providers[i];
                match (&p.for_each, key_loc) {
                    (Some(fe), None) if !matches!(site.owner, RefOwner::Import(_)) => {
                        let passed_as = match &site.owner {
                            RefOwner::ModuleCall(_, child) => Some(child.as_str()),
                            _ => None,
                        };
                        // The instance keys need evaluation: `missing_key::name_the_keys` adds them later.
                        let msg = missing_key::message(&r.config_address(), passed_as, None);
                        out.push(
                            Diagnostic::new(Code::MissingProviderInstanceKey, r.location(), msg)
                                .with_related(fe.key_location(), "the configuration's `for_each`"),
                        );
                    }
                    (None, Some(loc)) if !matches!(site.owner, RefOwner::Import(_)) => {
                        out.push(
                            Diagnostic::new(
                                Code::UnexpectedProviderInstanceKey,
                                loc,
                                format!(
                                    "`{}` has no `for_each`, so it has a single instance and takes no instance key; remove `[…]`",
                                    r.config_address()
                                ),
                            )
                            .with_related(p.site.name_location(), "the provider block"),
                        );
                    }
                    _ => {}
                }
            }
            ConfigTarget::PassedIn => {
                if let Some(loc) = key_loc
                    && !matches!(site.owner, RefOwner::Import(_))
                {
                    out.push(Diagnostic::new(
                        Code::UnexpectedProviderInstanceKey,
                        loc,
                        format!(
                            "`{}` is passed in by the calling module and is a single instance here; remove `[…]` and \
                             choose the instance in the caller's `providers` map",
                            r.config_address()
                        ),
                    ));
                }
            }
            ConfigTarget::ImplicitDefault => {}
        }
    }
}
