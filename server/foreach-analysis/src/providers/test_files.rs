//! The RFC's rules for test files (`.tftest.hcl`, `.tofutest.hcl`), which OpenTofu accepts but does not enforce:
//!
//! - a test `provider` or `mock_provider` block standing in for a provider block of the module under test has
//!   `for_each` exactly when that block has it;
//! - one standing in for a `configuration_aliases` entry, or used only by the test, has no `for_each` (collections
//!   of provider instances can't be passed between modules yet);
//! - `run { providers = { … } }` neither selects instance keys nor passes a multi-instance configuration.
//!
//! The module under test is the test file's directory, or its parent when the file sits in a `tests/` directory.

use foreach_syntax::ast::{Block, ExprKind, ObjectKey};

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, SourceFile, Workspace, module, parse};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::module::Module;
use crate::paths::parent;
use crate::providers::reference::{RefSite, parse_provider_ref};

struct TestProvider<'a> {
    block: &'a Block,
    name: String,
    alias: Option<String>,
    has_for_each: bool,
}

/// Diagnostics for every test file in the workspace.
#[salsa::tracked(returns(clone))]
pub fn test_file_checks(db: &dyn Db, ws: Workspace) -> std::sync::Arc<Vec<Diagnostic>> {
    let dirs: std::collections::HashMap<&str, ModuleDir> =
        ws.dirs(db).iter().map(|d| (d.path(db).as_str(), *d)).collect();
    let mut out = Vec::new();
    for dir in ws.dirs(db).iter() {
        for file in dir.files(db).iter().filter(|f| f.kind(db).is_test()) {
            let under_test = module_under_test(db, *dir, &dirs).map(|d| module(db, d));
            check_test_file(db, *file, under_test.as_deref(), &mut out);
        }
    }
    std::sync::Arc::new(out)
}

fn has_config(db: &dyn Db, dir: ModuleDir) -> bool {
    dir.files(db).iter().any(|f| f.kind(db).is_config())
}

pub fn module_under_test(
    db: &dyn Db,
    dir: ModuleDir,
    dirs: &std::collections::HashMap<&str, ModuleDir>,
) -> Option<ModuleDir> {
    if has_config(db, dir) {
        return Some(dir);
    }
    dirs.get(parent(dir.path(db))).copied().filter(|d| has_config(db, *d))
}

fn check_test_file(db: &dyn Db, file: SourceFile, under_test: Option<&Module>, out: &mut Vec<Diagnostic>) {
    let id = file.id(db);
    let parsed = parse(db, file);
    let mut providers: Vec<TestProvider> = Vec::new();
    for block in parsed.body.blocks().filter(|b| b.ident.name == "provider" || b.ident.name == "mock_provider") {
        let Some(name) = block.label(0) else { continue };
        let alias = block.body.attribute("alias").and_then(|a| a.value.as_string_literal());
        let for_each = block.body.attribute("for_each");
        if let Some(fe) = for_each
            && alias.is_none()
        {
            out.push(Diagnostic::new(
                Code::ProviderForEachWithoutAlias,
                FileRange::new(id, fe.key.range),
                format!("this `{}` block uses `for_each` without an `alias`; add the alias of the configuration it stands in for", block.ident.name),
            ));
        }
        providers.push(TestProvider { block, name: name.to_string(), alias, has_for_each: for_each.is_some() });
    }
    if let Some(m) = under_test {
        // A `for_each` without alias is already reported; what it stands in for can't be told.
        for p in providers.iter().filter(|p| !(p.has_for_each && p.alias.is_none())) {
            check_substitute(id, p, m, out);
        }
    }
    for run in parsed.body.blocks().filter(|b| b.ident.name == "run") {
        check_run_providers(id, run, &providers, out);
    }
}

fn check_substitute(file: FileId, p: &TestProvider, m: &Module, out: &mut Vec<Diagnostic>) {
    let address = match &p.alias {
        Some(a) => format!("{}.{a}", p.name),
        None => p.name.clone(),
    };
    let at = p
        .block
        .body
        .attribute("for_each")
        .map(|a| a.key.range)
        .or(p.block.body.attribute("alias").map(|a| a.value.range))
        .or(p.block.labels.first().map(|l| l.range))
        .unwrap_or(p.block.ident.range);
    let at = FileRange::new(file, at);
    let kind = &p.block.ident.name;
    if let Some(target) = m.providers.iter().find(|b| b.name == p.name && b.alias_name() == p.alias) {
        match (target.for_each.is_some(), p.has_for_each) {
            (true, false) => out.push(
                Diagnostic::new(
                    Code::TestProviderForEachMismatch,
                    at,
                    format!(
                        "the module's provider `{address}` uses `for_each`, so this `{kind}` that stands in for it \
                         must use `for_each` too (with the same or test-specific keys)"
                    ),
                )
                .with_related(target.site.name_location(), "the module's provider block"),
            ),
            (false, true) => out.push(
                Diagnostic::new(
                    Code::TestProviderForEachMismatch,
                    at,
                    format!(
                        "the module's provider `{address}` has no `for_each`, so this `{kind}` that stands in for it \
                         must not have one either"
                    ),
                )
                .with_related(target.site.name_location(), "the module's provider block"),
            ),
            _ => {}
        }
        return;
    }
    if !p.has_for_each {
        return;
    }
    let passed_in = m
        .required_providers
        .iter()
        .flat_map(|rp| rp.configuration_aliases.iter())
        .find(|ca| Some(&ca.alias) == p.alias.as_ref() && ca.provider == p.name);
    let (message, related) = match passed_in {
        Some(ca) => (
            format!(
                "`{address}` is passed into the module under test (`configuration_aliases`), and a passed-in \
                 configuration is a single instance: remove `for_each` from this `{kind}`"
            ),
            Some((ca.location, "declared in `configuration_aliases` here")),
        ),
        None => (
            format!(
                "`{address}` exists only in this test, and test-only provider configurations can't use `for_each` \
                 yet: remove it, or declare `{address}` with `for_each` in the module"
            ),
            None,
        ),
    };
    let mut d = Diagnostic::new(Code::TestProviderForEachMismatch, at, message);
    if let Some((loc, msg)) = related {
        d = d.with_related(loc, msg);
    }
    out.push(d);
}

fn check_run_providers(file: FileId, run: &Block, providers: &[TestProvider], out: &mut Vec<Diagnostic>) {
    let Some(attr) = run.body.attribute("providers") else { return };
    let ExprKind::Object(items) = &attr.value.unparenthesized().kind else { return };
    for item in items {
        if let ObjectKey::Expr(k) = &item.key
            && let (Some(r), _) = parse_provider_ref(file, k, RefSite::ProvidersKey)
            && r.key.is_some()
        {
            continue; // reported below through the value's rules would be confusing; keys on the left are parse errors
        }
        let (parsed, _) = parse_provider_ref(file, &item.value, RefSite::ProvidersValue);
        let Some(r) = parsed else { continue };
        if let Some(k) = &r.key {
            out.push(Diagnostic::new(
                Code::TestProviderInstanceKey,
                FileRange::new(file, k.range),
                "a `run` block's `providers` can't select provider instances yet: map to a single-instance \
                 configuration of the test file",
            ));
            continue;
        }
        let multi =
            providers.iter().any(|p| p.has_for_each && p.name == r.name && p.alias.as_deref() == r.alias_name());
        if multi {
            out.push(Diagnostic::new(
                Code::TestProviderInstanceKey,
                r.location(),
                format!(
                    "`{}` has `for_each`, and a `run` block's `providers` can't pass a collection of provider \
                     instances; map to a single-instance configuration",
                    r.config_address()
                ),
            ));
        }
    }
}
