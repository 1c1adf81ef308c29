//! Builds one module (a directory) from the summaries of its files, by OpenTofu's loading rules:
//!
//! - `x.tofu` (or `x.tofu.json`) replaces `x.tf` (or `x.tf.json`) of the same base name; the `.tf` file is ignored;
//! - `override.tf` and `*_override.tf` files (any flavour) are merged into the primary files' blocks afterwards,
//!   in lexical order of file name: an override's attributes replace the base block's, locals are overridden one
//!   by one, and a provider override ignores `for_each` (OpenTofu merges only `version` and the body); an override
//!   of a default provider configuration that no primary file declares adds it;
//! - a name declared twice among the primary files is an error.

use std::collections::HashMap;

use std::sync::Arc;

use foreach_syntax::FileKind;
use rustc_hash::FxHashMap;

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::items::*;
use crate::model::lower::FileSummary;

/// A file of a module directory, as the module builder sees it.
pub struct ModuleFile<'a> {
    pub file: FileId,
    /// The file name (no directory), which decides `.tofu` shadowing and override status.
    pub name: &'a str,
    pub kind: FileKind,
    pub summary: &'a FileSummary,
}

/// The merged configuration of one module directory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Module {
    /// The files OpenTofu reads, primary files first, then overrides (each group in lexical order).
    pub files: Vec<FileId>,
    /// `.tf` files ignored because a `.tofu` file of the same base name exists, with the file that wins.
    pub shadowed: Vec<(FileId, FileId)>,
    pub items: Items,
    /// Problems of the merge itself (duplicates, overrides without a base).
    pub diagnostics: Vec<Diagnostic>,
    /// Resources (`aws_vpc.a`, `data.x.y`) and module calls (`module.m`) that only an override file declares:
    /// OpenTofu refuses them (reported as `override-without-base`), and references to them are not reported again.
    pub override_only: Vec<String>,
}

impl std::ops::Deref for Module {
    type Target = Items;
    fn deref(&self) -> &Items {
        &self.items
    }
}

impl std::ops::DerefMut for Module {
    fn deref_mut(&mut self) -> &mut Items {
        &mut self.items
    }
}

impl Module {
    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.variables.iter().find(|v| v.name == name).map(|v| &**v)
    }

    pub fn local(&self, name: &str) -> Option<&Local> {
        self.locals.iter().find(|l| l.name == name).map(|l| &**l)
    }

    pub fn module_call(&self, name: &str) -> Option<&ModuleCall> {
        self.module_calls.iter().find(|m| m.name == name).map(|m| &**m)
    }
}

/// Whether a file name is an override file's (`override.tf`, `*_override.tofu.json`, …).
pub fn is_override(name: &str) -> bool {
    let base = FileKind::base_name(name);
    base == "override" || base.ends_with("_override")
}

pub fn build_module(files: &[ModuleFile<'_>]) -> Module {
    let mut module = Module::default();
    let config: Vec<&ModuleFile> = files.iter().filter(|f| f.kind.is_config()).collect();

    // `.tofu` shadowing: keyed by base name and syntax (native vs JSON), as OpenTofu does.
    let mut tofu_by_base: HashMap<(&str, bool), FileId> = HashMap::new();
    for f in config.iter().filter(|f| f.kind.is_tofu()) {
        tofu_by_base.insert((FileKind::base_name(f.name), f.kind.is_json()), f.file);
    }
    let mut live: Vec<&ModuleFile> = Vec::new();
    for f in &config {
        if !f.kind.is_tofu()
            && let Some(winner) = tofu_by_base.get(&(FileKind::base_name(f.name), f.kind.is_json()))
        {
            module.shadowed.push((f.file, *winner));
            continue;
        }
        live.push(f);
    }
    live.sort_by(|a, b| a.name.cmp(b.name));
    let (overrides, primaries): (Vec<&ModuleFile>, Vec<&ModuleFile>) =
        live.into_iter().partition(|f| is_override(f.name));

    for f in &primaries {
        module.files.push(f.file);
        add_primary(&mut module, f.summary);
    }
    for f in &overrides {
        module.files.push(f.file);
        apply_override(&mut module, f.summary);
    }
    report_duplicates(&mut module);
    module.items.shrink_to_fit();
    module
}

fn add_primary(m: &mut Module, s: &FileSummary) {
    m.variables.extend(s.variables.iter().cloned());
    m.locals.extend(s.locals.iter().cloned());
    m.providers.extend(s.providers.iter().cloned());
    m.resources.extend(s.resources.iter().cloned());
    m.module_calls.extend(s.module_calls.iter().cloned());
    m.outputs.extend(s.outputs.iter().cloned());
    m.required_providers.extend(s.required_providers.iter().cloned());
    m.backends.extend(s.backends.iter().cloned());
    m.encryption.extend(s.encryption.iter().cloned());
    m.others.extend(s.others.iter().cloned());
    m.diagnostics.extend(s.diagnostics.iter().cloned());
}

fn replace<T>(target: &mut Option<T>, with: &Option<T>)
where
    T: Clone,
{
    if with.is_some() {
        *target = with.clone();
    }
}

fn missing_base(m: &mut Module, what: &str, location: FileRange) {
    m.diagnostics.push(Diagnostic::new(
        Code::OverrideWithoutBase,
        location,
        format!("this override file overrides {what}, which no primary file of the module declares"),
    ));
}

fn apply_override(m: &mut Module, s: &FileSummary) {
    m.diagnostics.extend(s.diagnostics.iter().cloned());
    for o in &s.variables {
        match m.variables.iter_mut().find(|v| v.name == o.name) {
            Some(v) => {
                let v = Arc::make_mut(v);
                replace(&mut v.ty, &o.ty);
                replace(&mut v.default, &o.default);
                if let Some(o) = &o.rest {
                    let rest = v.rest.get_or_insert_with(Default::default);
                    replace(&mut rest.nullable, &o.nullable);
                    replace(&mut rest.sensitive, &o.sensitive);
                    replace(&mut rest.constant, &o.constant);
                    replace(&mut rest.ephemeral, &o.ephemeral);
                }
            }
            None => missing_base(m, &format!("variable `{}`", o.name), o.site.name_location()),
        }
    }
    for o in &s.locals {
        match m.locals.iter_mut().find(|l| l.name == o.name) {
            Some(l) => Arc::make_mut(l).arg = o.arg.clone(),
            None => missing_base(m, &format!("local value `{}`", o.name), o.arg.key_location()),
        }
    }
    for o in &s.providers {
        let alias = o.alias_name();
        match m.providers.iter_mut().find(|p| p.name == o.name && p.alias_name() == alias) {
            Some(p) => {
                let p = Arc::make_mut(p);
                // OpenTofu merges only `version` and the configuration body; an override's `for_each` is ignored.
                replace(&mut p.version, &o.version);
                for arg in &o.config {
                    p.config.retain(|a| a.name.name != arg.name.name);
                    p.config.push(arg.clone());
                }
                for (name, loc) in &o.config_blocks {
                    p.config_blocks.retain(|(n, _)| n != name);
                    p.config_blocks.push((name.clone(), *loc));
                }
                let merged: Vec<_> = p.body_refs.refs.iter().chain(o.body_refs.refs.iter()).collect();
                p.body_refs = BodyRefs::new(p.body_refs.file, &merged);
            }
            // A default configuration needs no base: an absent one is an empty configuration, which the override
            // then sets (OpenTofu adds the override's block). Only an aliased one must exist in a primary file.
            None if o.alias.is_none() => m.providers.push(o.clone()),
            None => missing_base(
                m,
                &format!("provider `{}.{}`", o.name, alias.as_deref().unwrap_or("…")),
                o.site.name_location(),
            ),
        }
    }
    for o in &s.resources {
        match m.resources.iter_mut().find(|r| r.mode == o.mode && r.ty == o.ty && r.name == o.name) {
            Some(r) => {
                if let Some(o) = &o.meta {
                    let r = Arc::make_mut(r).meta.get_or_insert_with(Default::default);
                    replace(&mut r.for_each, &o.for_each);
                    replace(&mut r.count, &o.count);
                    replace(&mut r.enabled, &o.enabled);
                    replace(&mut r.provider, &o.provider);
                    replace(&mut r.depends_on, &o.depends_on);
                }
                if o.has_body {
                    let meta = Arc::make_mut(r).meta.get_or_insert_with(Default::default);
                    meta.body_override = Some(o.body_refs.clone());
                }
            }
            None => {
                missing_base(m, &format!("`{}`", o.address()), o.site.name_location());
                m.override_only.push(o.address());
            }
        }
    }
    for o in &s.module_calls {
        match m.module_calls.iter_mut().find(|c| c.name == o.name) {
            Some(c) => {
                let c = Arc::make_mut(c);
                replace(&mut c.source, &o.source);
                replace(&mut c.version, &o.version);
                replace(&mut c.for_each, &o.for_each);
                replace(&mut c.count, &o.count);
                replace(&mut c.enabled, &o.enabled);
                replace(&mut c.depends_on, &o.depends_on);
                replace(&mut c.providers, &o.providers);
                for input in &o.inputs {
                    c.inputs.retain(|a| a.name.name != input.name.name);
                    c.inputs.push(input.clone());
                }
            }
            None => {
                missing_base(m, &format!("module call `{}`", o.name), o.site.name_location());
                m.override_only.push(format!("module.{}", o.name));
            }
        }
    }
    for o in &s.outputs {
        match m.outputs.iter_mut().find(|out| out.name == o.name) {
            Some(out) => Arc::make_mut(out).body_refs = o.body_refs.clone(),
            None => missing_base(m, &format!("output `{}`", o.name), o.site.name_location()),
        }
    }
    for o in &s.required_providers {
        m.required_providers.retain(|r| r.local_name != o.local_name);
        m.required_providers.push(o.clone());
    }
    if !s.backends.is_empty() {
        m.backends = s.backends.clone();
    }
    if !s.encryption.is_empty() {
        m.encryption = s.encryption.clone();
    }
    m.others.extend(s.others.iter().cloned());
}

fn report_duplicates(m: &mut Module) {
    let mut diags = Vec::new();
    dup(&mut diags, "variable", m.variables.iter().map(|v| (v.name.as_str(), v.site.name_location())));
    dup(&mut diags, "local value", m.locals.iter().map(|l| (l.name.as_str(), l.arg.key_location())));
    dup(&mut diags, "output", m.outputs.iter().map(|o| (o.name.as_str(), o.site.name_location())));
    dup(&mut diags, "module call", m.module_calls.iter().map(|c| (c.name.as_str(), c.site.name_location())));
    dup(&mut diags, "resource", m.resources.iter().map(|r| (r.address(), r.site.name_location())));
    m.diagnostics.extend(diags);
}

/// Reports every name declared again after its first declaration. Names are borrowed where they can be: a
/// generated module declares thousands of variables, and this runs again after each keystroke in the module.
fn dup<K: AsRef<str> + Eq + std::hash::Hash>(
    diags: &mut Vec<Diagnostic>,
    what: &str,
    items: impl ExactSizeIterator<Item = (K, FileRange)>,
) {
    // Fx, not SipHash: the names come from the user's own files, and hashing them was most of this function.
    let mut seen: FxHashMap<K, FileRange> = FxHashMap::with_capacity_and_hasher(items.len(), Default::default());
    for (name, loc) in items {
        match seen.get(&name) {
            Some(first) => diags.push(
                Diagnostic::new(
                    Code::DuplicateBlock,
                    loc,
                    format!("{what} `{}` is declared more than once", name.as_ref()),
                )
                .with_related(*first, format!("`{}` is first declared here", name.as_ref())),
            ),
            None => {
                seen.insert(name, loc);
            }
        }
    }
}
