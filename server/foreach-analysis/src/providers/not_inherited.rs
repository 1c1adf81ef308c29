//! A child module that refers to an aliased provider configuration of its caller (`aws.by_region` declared one
//! level up) gets the reason on its `unknown-provider-config` error: aliased configurations are never inherited,
//! the child must declare them in `configuration_aliases` and each call must pass them in its `providers` map.
//! The per-module check that reports the error cannot see callers; this pass over the module tree rewrites the
//! message and attaches the fix (`fixes/pass_alias.rs`).
//!
//! The fix is offered when every call of the module has the configuration to pass, the configuration has no
//! `for_each` (then one instance must be chosen, and the child's keys removed: the message says so instead), and
//! every file to edit is in native syntax. A call without a `providers` map gets one; since a map ends the
//! inheritance of default configurations, it passes on the defaults the child uses, which is only known when the
//! child has no module calls of its own that would inherit them further (else no fix).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use foreach_syntax::ast::{Block, Body};
use foreach_syntax::{FileKind, Parse};

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, SourceFile, Workspace, dir_index, file_index, module, parse};
use crate::diagnostics::{Code, Diagnostic, Related};
use crate::fixes::pass_alias::{Declaration, Pass, declare_and_pass};
use crate::model::module::Module;
use crate::paths::parent;
use crate::providers::config::{ConfigTarget, RefOwner, dir_references, module_references, resolve_config};
use crate::tree::module_tree;

/// Rewrites the `unknown-provider-config` errors in `diags` whose configuration a caller declares, and drops those
/// whose configuration every call passes in its `providers` map.
pub fn refine(db: &dyn Db, ws: Workspace, diags: &mut Vec<Diagnostic>) {
    let targets: HashSet<FileRange> =
        diags.iter().filter(|d| d.code == Code::UnknownProviderConfig).map(|d| d.location).collect();
    if targets.is_empty() {
        return;
    }
    let tree = module_tree(db, ws);
    // Every distinct call of each module directory with a target: (the caller's directory, the call's name);
    // `None` for a root. This runs after every keystroke: the directories come from the targets' files, so the
    // walk over the tree reads nothing from the database.
    let (files, dirs) = (file_index(db, ws), dir_index(db, ws));
    let target_files: HashSet<FileId> = targets.iter().map(|t| t.file).collect();
    let target_dirs: HashSet<ModuleDir> = target_files
        .iter()
        .filter_map(|id| files.get(id))
        .filter_map(|f| dirs.get(parent(f.path(db))).copied())
        .collect();
    let mut calls: HashMap<ModuleDir, Vec<Option<(ModuleDir, String)>>> = HashMap::new();
    for node in &tree.nodes {
        let dir = node.dir;
        if !target_dirs.contains(&dir) {
            continue;
        }
        let call = node.parent.and_then(|p| Some((tree.node(p).dir, node.call_path.last()?.clone())));
        let entry = calls.entry(dir).or_default();
        if !entry.contains(&call) {
            entry.push(call);
        }
    }
    for (dir, callers) in &calls {
        let child = module(db, *dir);
        let refs = dir_references(db, *dir);
        for site in refs.iter() {
            let r = &site.reference;
            let Some((alias, alias_range)) = &r.alias else { continue };
            let location = FileRange::new(r.file, r.name_range.cover(*alias_range));
            if !targets.contains(&location) || resolve_config(&child, &r.name, Some(alias)) != ConfigTarget::Unknown {
                continue;
            }
            // `providers = { aws.core-vpc = aws.core-vpc }` in every call: OpenTofu gives the child that
            // configuration even though it is not in its `configuration_aliases` (it only warns, "Reference to
            // undefined provider", when the child does not declare `aws` at all), so the reference is valid.
            if every_call_passes(db, callers, &r.config_address()) {
                diags.retain(|d| !(d.code == Code::UnknownProviderConfig && d.location == location));
                continue;
            }
            let Some(found) = callers_having(db, callers, &r.name, alias) else { continue };
            let address = r.config_address();
            let keyed = found.with_for_each;
            let how = if keyed {
                format!(
                    "pass one of its instances, as in `providers = {{ {address} = {address}[\"…\"] }}`; inside the \
                     module it is a single configuration, referred to without a key"
                )
            } else {
                format!("pass it, as in `providers = {{ {address} = {address} }}` in the `module` block")
            };
            let message = format!(
                "no provider configuration `{address}` is declared in this module; the calling module has one, but \
                 aliased configurations are not inherited: declare it in `configuration_aliases` and {how}"
            );
            let fix = if keyed || !found.all { None } else { fix(db, *dir, &child, &found, &r.name, alias) };
            for d in diags.iter_mut().filter(|d| d.code == Code::UnknownProviderConfig && d.location == location) {
                d.message = message.clone();
                if let Some(at) = found.declared_at
                    && !d.related.iter().any(|rel| rel.location == at)
                {
                    d.related.push(Related { location: at, message: "declared in the calling module here".into() });
                }
                if let Some(fix) = &fix
                    && !d.fixes.contains(fix)
                {
                    d.fixes.push(fix.clone());
                }
            }
        }
    }
}

/// Whether the module has callers and each passes `address` (`aws.core-vpc`) in its `providers` map.
fn every_call_passes(db: &dyn Db, callers: &[Option<(ModuleDir, String)>], address: &str) -> bool {
    !callers.is_empty()
        && callers.iter().all(|c| {
            let Some((pdir, call)) = c else { return false };
            let pm = module(db, *pdir);
            dir_references(db, *pdir).iter().any(|site| {
                matches!(&site.owner, RefOwner::ModuleCall(ci, key)
                    if key == address && pm.module_calls.get(*ci).is_some_and(|c| &c.name == call))
            })
        })
}

/// What the callers of a module have for `name.alias`.
struct Callers {
    /// The calls (caller directory, call name) whose caller has the configuration.
    calls: Vec<(ModuleDir, String)>,
    /// Every call has it (and the module is no root).
    all: bool,
    /// One of the callers declares it with `for_each`.
    with_for_each: bool,
    /// The first caller's `provider` block, if a block declares it there (else it was passed in).
    declared_at: Option<FileRange>,
    /// The `source` of the provider in the first caller that requires it.
    source: Option<String>,
}

fn callers_having(db: &dyn Db, callers: &[Option<(ModuleDir, String)>], name: &str, alias: &str) -> Option<Callers> {
    let mut out = Callers { calls: Vec::new(), all: true, with_for_each: false, declared_at: None, source: None };
    for c in callers {
        let Some((pdir, call)) = c else {
            out.all = false;
            continue;
        };
        let pm = module(db, *pdir);
        match resolve_config(&pm, name, Some(alias)) {
            ConfigTarget::Block(i) => {
                let p = &pm.providers[i];
                out.with_for_each |= p.for_each.is_some();
                out.declared_at.get_or_insert(p.site.name_location());
            }
            ConfigTarget::PassedIn => {}
            _ => {
                out.all = false;
                continue;
            }
        }
        if out.source.is_none() {
            out.source = pm.required_providers.iter().find(|rp| rp.local_name == name).and_then(|rp| rp.source.clone());
        }
        out.calls.push((*pdir, call.clone()));
    }
    (!out.calls.is_empty()).then_some(out)
}

/// The texts and trees of the files a fix reads, by id (native syntax only).
struct Files {
    by_id: HashMap<FileId, (SourceFile, Arc<str>, Arc<Parse>)>,
}

impl Files {
    fn of(db: &dyn Db, dirs: &[ModuleDir]) -> Files {
        let mut by_id = HashMap::new();
        for dir in dirs {
            for f in dir.files(db).iter().filter(|f| f.kind(db).is_config() && !f.kind(db).is_json()) {
                by_id.insert(f.id(db), (*f, f.text(db), parse(db, *f)));
            }
        }
        Files { by_id }
    }

    fn text(&self, id: FileId) -> Option<&str> {
        self.by_id.get(&id).map(|(_, t, _)| &**t)
    }

    fn body(&self, id: FileId) -> Option<&Body> {
        self.by_id.get(&id).map(|(_, _, p)| &p.body)
    }
}

fn fix(
    db: &dyn Db,
    dir: ModuleDir,
    child: &Module,
    found: &Callers,
    name: &str,
    alias: &str,
) -> Option<crate::diagnostics::Fix> {
    let mut dirs = vec![dir];
    dirs.extend(found.calls.iter().map(|(d, _)| *d));
    let files = Files::of(db, &dirs);
    let declaration = declaration(child, &files, name, dir, db)?;
    let defaults = defaults(child);
    let callers: Vec<(Arc<Module>, &String)> = found.calls.iter().map(|(d, c)| (module(db, *d), c)).collect();
    let mut passes = Vec::new();
    for (pm, call_name) in &callers {
        let call = pm.module_call(call_name)?;
        match &call.providers {
            Some(map) => passes.push(Pass::Map { file: map.file, text: files.text(map.file)?, map: map.expr() }),
            None => {
                let source = call.source.as_ref()?;
                passes.push(Pass::NewMap {
                    file: source.file,
                    text: files.text(source.file)?,
                    after: source.expr_range().end(),
                    indent_of: source.name.range.start(),
                    defaults: defaults.as_deref()?,
                });
            }
        }
    }
    let source = found.source.clone().unwrap_or_else(|| format!("hashicorp/{name}"));
    declare_and_pass(name, alias, &source, &declaration, &passes)
}

/// Where the child declares the alias: its `required_providers` entry for `name`, else a `required_providers`
/// block, else a new `terraform` block in the first file of the module.
fn declaration<'a>(
    child: &Module,
    files: &'a Files,
    name: &str,
    dir: ModuleDir,
    db: &dyn Db,
) -> Option<Declaration<'a>> {
    if let Some(rp) = child.required_providers.iter().find(|rp| rp.local_name == name) {
        let file = rp.location.file;
        let value = required_providers_blocks(files.body(file)?)
            .flat_map(|b| b.body.attributes())
            .find(|a| a.key.range == rp.location.range)
            .map(|a| &a.value)?;
        return Some(Declaration::Entry { file, text: files.text(file)?, value });
    }
    let mut ids: Vec<FileId> = dir
        .files(db)
        .iter()
        .filter(|f| f.kind(db) == FileKind::Tf || f.kind(db) == FileKind::Tofu)
        .map(|f| f.id(db))
        .collect();
    ids.sort();
    for id in &ids {
        if let Some(block) = required_providers_blocks(files.body(*id)?).next() {
            return Some(Declaration::Block { file: *id, text: files.text(*id)?, block });
        }
    }
    ids.first().map(|id| Declaration::NewBlock { file: *id })
}

fn required_providers_blocks(body: &Body) -> impl Iterator<Item = &Block> {
    body.blocks()
        .filter(|b| b.ident.name == "terraform")
        .flat_map(|t| t.body.blocks().filter(|b| b.ident.name == "required_providers"))
}

/// The default configurations the child uses (its blocks' implied or explicit `aws`), which a new `providers` map
/// must pass on; `None` when the child has module calls without a map, which would inherit more.
fn defaults(child: &Module) -> Option<Vec<String>> {
    if child.module_calls.iter().any(|c| c.providers.is_none()) {
        return None;
    }
    let (refs, _) = module_references(child);
    let mut names: Vec<String> =
        refs.iter().filter(|s| s.reference.alias.is_none()).map(|s| s.reference.name.clone()).collect();
    for r in child.resources.iter().filter(|r| r.provider().is_none()) {
        names.push(crate::providers::config::implied_provider(&r.ty).to_string());
    }
    names.retain(|n| !matches!(resolve_config(child, n, None), ConfigTarget::Block(_)));
    names.sort();
    names.dedup();
    Some(names)
}
