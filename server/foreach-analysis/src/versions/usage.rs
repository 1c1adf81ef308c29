//! Finds, in one parsed configuration file, the constructs of the feature table it uses and the version
//! constraints it declares: syntax only, while the file is summarised (`model::lower`), so that no file is parsed
//! again for it.
//!
//! What needs the other files of the module (a `.tofu` file without a `.tf` twin, a test file) is found by the
//! queries (`versions::reading`), not here.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{
    Attribute, Block, Body, Expr, ExprKind, FuncCall, ObjectKey, Structure, Template, TemplatePart,
};
use smol_str::SmolStr;
use thin_vec::ThinVec;

use crate::versions::features::Feature;

/// A construct of the feature table at a place in the file (a single-line range: a keyword, an argument's name, a
/// function's name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureUse {
    pub feature: Feature,
    pub range: TextRange,
}

/// Which declaration a version constraint comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclKind {
    /// `terraform { required_version = "…" }`: OpenTofu's before 1.12 (and in `.tofu` files after), Terraform's
    /// in `.tf` files.
    RequiredVersion,
    /// `language { compatible_with { opentofu = "…" } }` (OpenTofu 1.12).
    CompatibleWithOpenTofu,
    /// `language { compatible_with { terraform = "…" } }`: OpenTofu leaves every argument of `compatible_with` but
    /// `opentofu` to other software; this one is how a module tells foreach-ls it is meant for Terraform too.
    CompatibleWithTerraform,
}

impl DeclKind {
    /// How messages name it.
    pub fn name(self) -> &'static str {
        match self {
            DeclKind::RequiredVersion => "`required_version`",
            DeclKind::CompatibleWithOpenTofu => "`compatible_with.opentofu`",
            DeclKind::CompatibleWithTerraform => "`compatible_with.terraform`",
        }
    }
}

/// The value of a constraint argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclValue {
    /// A string (or a number, which OpenTofu converts to one).
    Text(SmolStr),
    /// `null`: OpenTofu takes it as no constraint.
    Null,
    /// Anything else: OpenTofu refuses it (the value must be known without variables or functions).
    NotConstant,
}

/// One version constraint argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionDecl {
    pub kind: DeclKind,
    /// The argument's name.
    pub key_range: TextRange,
    /// Its value, which a quick fix replaces.
    pub value_range: TextRange,
    pub value: DeclValue,
}

/// What [`scan`] finds in a file. Empty in most files, and then allocation-free.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileVersions {
    pub uses: ThinVec<FeatureUse>,
    pub decls: ThinVec<VersionDecl>,
    /// The type keyword of the file's first block: where a finding about the whole file goes, so that a suppression
    /// comment above that block silences it.
    pub first_block: Option<TextRange>,
}

/// Scans a configuration file's body.
pub fn scan(body: &Body) -> FileVersions {
    let mut out = FileVersions { first_block: body.blocks().next().map(|b| b.ident.range), ..Default::default() };
    for block in body.blocks() {
        scan_block(block, &mut out);
    }
    let mut calls = Vec::new();
    each_call_in_body(body, &mut |c| calls.push(call_use(c)));
    out.uses.extend(calls.into_iter().flatten());
    out.uses.shrink_to_fit();
    out.decls.shrink_to_fit();
    out
}

fn push(out: &mut FileVersions, feature: Feature, range: TextRange) {
    out.uses.push(FeatureUse { feature, range });
}

/// The uses of an argument, if the body has it.
fn if_attr(out: &mut FileVersions, body: &Body, name: &str, feature: Feature) {
    if let Some(a) = body.attribute(name) {
        push(out, feature, a.key.range);
    }
}

fn scan_block(block: &Block, out: &mut FileVersions) {
    let body = &block.body;
    match block.ident.name.as_str() {
        "terraform" => scan_terraform(block, out),
        "provider" => if_attr(out, body, "for_each", Feature::ProviderForEach),
        "module" => {
            for name in ["source", "version"] {
                let Some(a) = body.attribute(name) else { continue };
                if !is_constant(&a.value) {
                    push(out, Feature::ModuleSourceVariables, a.key.range);
                } else if name == "source"
                    && a.value.as_string_literal().is_some_and(|s| s.trim_start().starts_with("oci://"))
                {
                    push(out, Feature::OciModuleSource, a.key.range);
                }
            }
            for lifecycle in body.blocks_named("lifecycle") {
                if_attr(out, &lifecycle.body, "enabled", Feature::LifecycleEnabled);
            }
        }
        "resource" | "data" => {
            let managed = block.ident.name == "resource";
            for lifecycle in body.blocks_named("lifecycle") {
                let lc = &lifecycle.body;
                if_attr(out, lc, "enabled", Feature::LifecycleEnabled);
                if managed {
                    if let Some(a) = lc.attribute("prevent_destroy")
                        && !is_constant(&a.value)
                    {
                        push(out, Feature::DynamicPreventDestroy, a.key.range);
                    }
                    if_attr(out, lc, "destroy", Feature::LifecycleDestroy);
                }
            }
            if managed {
                write_only_arguments(body, out);
            }
        }
        "ephemeral" => push(out, Feature::EphemeralResource, block.ident.range),
        "removed" => {
            push(out, Feature::RemovedBlock, block.ident.range);
            for b in body.blocks() {
                match b.ident.name.as_str() {
                    "lifecycle" => push(out, Feature::RemovedLifecycle, b.ident.range),
                    "provisioner" => push(out, Feature::RemovedProvisioner, b.ident.range),
                    _ => {}
                }
            }
        }
        "import" => {
            if_attr(out, body, "for_each", Feature::ImportForEach);
            if_attr(out, body, "identity", Feature::ImportIdentity);
        }
        "check" => push(out, Feature::CheckBlock, block.ident.range),
        "variable" => {
            if_attr(out, body, "ephemeral", Feature::EphemeralVariable);
            if_attr(out, body, "const", Feature::ConstVariable);
            if_attr(out, body, "deprecated", Feature::Deprecated);
        }
        "output" => {
            if_attr(out, body, "ephemeral", Feature::EphemeralOutput);
            if_attr(out, body, "deprecated", Feature::Deprecated);
        }
        "language" => {
            push(out, Feature::LanguageBlock, block.ident.range);
            for cw in body.blocks_named("compatible_with") {
                for (name, kind) in
                    [("opentofu", DeclKind::CompatibleWithOpenTofu), ("terraform", DeclKind::CompatibleWithTerraform)]
                {
                    if let Some(a) = cw.body.attribute(name) {
                        out.decls.push(decl(kind, a));
                    }
                }
            }
        }
        _ => {}
    }
}

fn scan_terraform(block: &Block, out: &mut FileVersions) {
    if let Some(a) = block.body.attribute("required_version") {
        out.decls.push(decl(DeclKind::RequiredVersion, a));
    }
    for inner in block.body.blocks() {
        match inner.ident.name.as_str() {
            "backend" => {
                for a in attributes_deep(&inner.body) {
                    if !is_constant(&a.value) {
                        push(out, Feature::BackendVariables, a.key.range);
                    }
                }
            }
            "encryption" => {
                push(out, Feature::Encryption, inner.ident.range);
                for a in attributes_deep(&inner.body) {
                    if !is_constant(&a.value) {
                        push(out, Feature::EncryptionVariables, a.key.range);
                    }
                }
            }
            _ => {}
        }
    }
}

fn decl(kind: DeclKind, a: &Attribute) -> VersionDecl {
    let value = match &a.value.kind {
        ExprKind::Null => DeclValue::Null,
        ExprKind::Number(n) => DeclValue::Text(n.clone()),
        _ => match constant_string(&a.value) {
            Some(s) => DeclValue::Text(s.into()),
            None => DeclValue::NotConstant,
        },
    };
    VersionDecl { kind, key_range: a.key.range, value_range: a.value.range, value }
}

/// A string without interpolation (quoted or heredoc).
fn constant_string(e: &Expr) -> Option<String> {
    match &e.unparenthesized().kind {
        ExprKind::Template(t) => t.as_literal(),
        _ => None,
    }
}

/// Every attribute of a body and of its nested blocks.
fn attributes_deep(body: &Body) -> Vec<&Attribute> {
    let mut out = Vec::new();
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => out.push(a),
            Structure::Block(b) => out.extend(attributes_deep(&b.body)),
        }
    }
    out
}

/// Arguments named `*_wo`: the providers' convention for write-only attributes (`password_wo`,
/// `secret_string_wo`), which OpenTofu 1.11 added. Nested blocks count; the meta-blocks do not.
fn write_only_arguments(body: &Body, out: &mut FileVersions) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) if a.key.name.ends_with("_wo") && a.key.name.len() > 3 => {
                push(out, Feature::WriteOnlyArgument, a.key.range)
            }
            Structure::Attribute(_) => {}
            Structure::Block(b) if matches!(b.ident.name.as_str(), "lifecycle" | "provisioner" | "connection") => {}
            Structure::Block(b) => write_only_arguments(&b.body, out),
        }
    }
}

/// Whether OpenTofu 1.6 could evaluate it before variables existed: no reference and no function call.
pub fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Variable(_) | ExprKind::FuncCall(_) | ExprKind::For(_) => false,
        ExprKind::Traversal { base, steps } => {
            is_constant(base)
                && steps.iter().all(|s| match &s.op {
                    foreach_syntax::ast::TraversalOp::Index(k) => is_constant(k),
                    _ => true,
                })
        }
        ExprKind::Template(t) => template_constant(t),
        ExprKind::Tuple(items) => items.iter().all(is_constant),
        ExprKind::Object(items) => items.iter().all(|i| {
            is_constant(&i.value)
                && match &i.key {
                    ObjectKey::Ident(_) => true,
                    ObjectKey::Expr(k) => is_constant(k),
                }
        }),
        ExprKind::Parenthesis(inner) => is_constant(inner),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            is_constant(cond) && is_constant(then_expr) && is_constant(else_expr)
        }
        ExprKind::Unary { operand, .. } => is_constant(operand),
        ExprKind::Binary { lhs, rhs, .. } => is_constant(lhs) && is_constant(rhs),
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid => true,
    }
}

fn template_constant(t: &Template) -> bool {
    t.parts.iter().all(|p| match p {
        TemplatePart::Literal { .. } => true,
        TemplatePart::Interpolation(e) => is_constant(e),
        TemplatePart::If(i) => {
            is_constant(&i.cond)
                && template_constant(&i.then_part)
                && i.else_part.as_ref().is_none_or(template_constant)
        }
        TemplatePart::For(_) => false,
    })
}

/// The construct a function call uses, if it is one of the table's: a provider function, the `core::` namespace,
/// or a built-in added after 1.6 (possibly both of the last two).
fn call_use(c: &FuncCall) -> Vec<FeatureUse> {
    let name = &c.name;
    let start = name.namespace.first().map(|n| n.range.start()).unwrap_or(name.name.range.start());
    let whole = TextRange::new(start, name.name.range.end());
    let mut out = Vec::new();
    match name.namespace.as_slice() {
        [p, _] if p.name == "provider" => out.push(FeatureUse { feature: Feature::ProviderFunction, range: whole }),
        [core] if core.name == "core" => out.push(FeatureUse { feature: Feature::CoreNamespace, range: whole }),
        _ => {}
    }
    let builtin = name.namespace.is_empty() || matches!(name.namespace.as_slice(), [c] if c.name == "core");
    if builtin && let Some(f) = Feature::function(&name.name.name) {
        out.push(FeatureUse { feature: f, range: whole });
    }
    out
}

/// Calls `f` on every function call in the body's expressions, nested blocks included.
fn each_call_in_body(body: &Body, f: &mut impl FnMut(&FuncCall)) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => each_call(&a.value, f),
            Structure::Block(b) => each_call_in_body(&b.body, f),
        }
    }
}

fn each_call(e: &Expr, f: &mut impl FnMut(&FuncCall)) {
    match &e.kind {
        ExprKind::FuncCall(c) => {
            f(c);
            c.args.iter().for_each(|a| each_call(a, f));
        }
        ExprKind::Template(t) => each_call_in_template(t, f),
        ExprKind::Tuple(items) => items.iter().for_each(|i| each_call(i, f)),
        ExprKind::Object(items) => {
            for i in items {
                if let ObjectKey::Expr(k) = &i.key {
                    each_call(k, f);
                }
                each_call(&i.value, f);
            }
        }
        ExprKind::Traversal { base, steps } => {
            each_call(base, f);
            for s in steps {
                if let foreach_syntax::ast::TraversalOp::Index(k) = &s.op {
                    each_call(k, f);
                }
            }
        }
        ExprKind::Parenthesis(inner) => each_call(inner, f),
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            each_call(cond, f);
            each_call(then_expr, f);
            each_call(else_expr, f);
        }
        ExprKind::Unary { operand, .. } => each_call(operand, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            each_call(lhs, f);
            each_call(rhs, f);
        }
        ExprKind::For(fe) => {
            each_call(&fe.collection, f);
            if let Some(k) = &fe.key_expr {
                each_call(k, f);
            }
            each_call(&fe.value_expr, f);
            if let Some(c) = &fe.cond {
                each_call(c, f);
            }
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Variable(_) | ExprKind::Invalid => {}
    }
}

fn each_call_in_template(t: &Template, f: &mut impl FnMut(&FuncCall)) {
    for p in &t.parts {
        match p {
            TemplatePart::Literal { .. } => {}
            TemplatePart::Interpolation(e) => each_call(e, f),
            TemplatePart::If(i) => {
                each_call(&i.cond, f);
                each_call_in_template(&i.then_part, f);
                if let Some(e) = &i.else_part {
                    each_call_in_template(e, f);
                }
            }
            TemplatePart::For(fr) => {
                each_call(&fr.collection, f);
                each_call_in_template(&fr.body, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use foreach_syntax::FileKind;

    use super::*;
    use crate::versions::features::{Feature, all};

    /// The constructs the files of `testdata/versions/at-1.MINOR` use (a `.tofu` file without a `.tf` twin and a
    /// test file count as theirs).
    fn fixture_features(minor: u16) -> BTreeSet<Feature> {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../testdata/versions/at-1.{minor}"));
        let mut out = BTreeSet::new();
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let Some(kind) = FileKind::from_file_name(&name) else { continue };
            if name.ends_with(".tftest.hcl") {
                out.insert(Feature::TestFile);
            }
            if !kind.is_config() {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            out.extend(scan(&foreach_syntax::parse(&text, kind).body).uses.iter().map(|u| u.feature));
            names.push((name, kind));
        }
        for (name, kind) in &names {
            let twin = names.iter().any(|(n, k)| !k.is_tofu() && FileKind::base_name(n) == FileKind::base_name(name));
            if kind.is_tofu() && !twin {
                out.insert(Feature::TofuFile);
            }
        }
        out
    }

    /// Every row of the table has a fixture where it is below its release (`at-1.(N-1)`, whose annotations expect the
    /// warning) and one at its release (`at-1.N`, which expects none).
    #[test]
    fn every_row_is_in_the_fixtures_below_and_at_its_release() {
        let fixtures: Vec<(u16, BTreeSet<Feature>)> = (6..=12).map(|m| (m, fixture_features(m))).collect();
        let used = |minor: u16| &fixtures.iter().find(|(m, _)| *m == minor).expect("a fixture").1;
        for f in all() {
            let minor = f.opentofu().minor;
            assert!(used(minor).contains(&f), "{} is not used in testdata/versions/at-1.{minor}", f.name());
            if minor > 6 {
                assert!(
                    used(minor - 1).contains(&f),
                    "{} is not used in testdata/versions/at-1.{}",
                    f.name(),
                    minor - 1
                );
            }
        }
    }
}
