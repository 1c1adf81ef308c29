//! Lowers one parsed file into a [`FileSummary`]: the items it declares, in OpenTofu's terms.
//!
//! This is the only place that knows which top-level block types exist and which arguments are meta-arguments.
//! It reports nothing about cross-item consistency (that needs the whole module) except shape errors local to a
//! block, such as a `variable` without a name.

use smol_str::SmolStr;
use std::sync::Arc;

use foreach_syntax::ast::{Attribute, Block, Body, ExprKind, Structure, TraversalOp};

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::items::*;
use crate::model::refs::{references, traversal_root};

/// Everything one configuration file declares (its [`Items`]), with the problems found reading it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileSummary {
    pub items: Items,
    pub diagnostics: Vec<Diagnostic>,
    pub syntax_errors: Vec<foreach_syntax::SyntaxError>,
}

impl std::ops::Deref for FileSummary {
    type Target = Items;
    fn deref(&self) -> &Items {
        &self.items
    }
}

impl std::ops::DerefMut for FileSummary {
    fn deref_mut(&mut self) -> &mut Items {
        &mut self.items
    }
}

pub fn lower_file(file: FileId, body: &Body) -> FileSummary {
    let mut out = FileSummary::default();
    for structure in &body.structures {
        match structure {
            Structure::Block(block) => lower_block(file, block, &mut out),
            Structure::Attribute(attr) => out.diagnostics.push(Diagnostic::new(
                Code::UnexpectedAttribute,
                FileRange::new(file, attr.key.range),
                format!("`{}` is an attribute at the top level of a file; only blocks can appear here", attr.key.name),
            )),
        }
    }
    out
}

fn arg(file: FileId, attr: &Attribute) -> Arg {
    Arg { file, name: attr.key.clone(), expr: attr.value.clone(), range: attr.range }
}

fn opt_arg(file: FileId, attr: Option<&Attribute>) -> OptArg {
    attr.map(|a| Box::new(arg(file, a)))
}

/// OpenTofu 1.11's `lifecycle { enabled = … }` on resources and module calls.
fn lifecycle_enabled(file: FileId, block: &Block) -> OptArg {
    opt_arg(file, block.body.blocks_named("lifecycle").filter_map(|l| l.body.attribute("enabled")).last())
}

fn site(file: FileId, block: &Block, label: usize) -> BlockSite {
    let name_range = block.labels.get(label).map(|l| l.range).unwrap_or(block.ident.range);
    BlockSite { file, range: block.range, name_range }
}

/// Checks a block has exactly `n` labels; reports and returns false otherwise.
fn expect_labels(file: FileId, block: &Block, n: usize, what: &str, out: &mut FileSummary) -> bool {
    if block.labels.len() == n {
        return true;
    }
    out.diagnostics.push(Diagnostic::new(
        Code::InvalidBlockLabels,
        FileRange::new(file, block.ident.range),
        format!(
            "a `{}` block takes {n} label{} ({what}), but this one has {}",
            block.ident.name,
            if n == 1 { "" } else { "s" },
            block.labels.len()
        ),
    ));
    false
}

fn lower_block(file: FileId, block: &Block, out: &mut FileSummary) {
    match block.ident.name.as_str() {
        "variable" if expect_labels(file, block, 1, "the variable name", out) => {
            out.variables.push(Arc::new(lower_variable(file, block)))
        }
        "locals" => {
            for attr in block.body.attributes() {
                out.locals.push(Arc::new(Local { name: attr.key.name.clone(), arg: arg(file, attr) }));
            }
        }
        "provider" if expect_labels(file, block, 1, "the provider's local name", out) => {
            out.providers.push(Arc::new(lower_provider(file, block)))
        }
        "resource" if expect_labels(file, block, 2, "type and name", out) => {
            out.resources.push(Arc::new(lower_resource(file, block, ResourceMode::Managed)))
        }
        "data" if expect_labels(file, block, 2, "type and name", out) => {
            out.resources.push(Arc::new(lower_resource(file, block, ResourceMode::Data)))
        }
        "ephemeral" if expect_labels(file, block, 2, "type and name", out) => {
            out.resources.push(Arc::new(lower_resource(file, block, ResourceMode::Ephemeral)))
        }
        "module" if expect_labels(file, block, 1, "the module call name", out) => {
            out.module_calls.push(Arc::new(lower_module_call(file, block)))
        }
        "output" if expect_labels(file, block, 1, "the output name", out) => out.outputs.push(Arc::new(Output {
            name: block.labels[0].value.clone(),
            site: site(file, block, 0),
            body_refs: body_refs(file, &block.body, &[]),
        })),
        "terraform" => lower_terraform(file, block, out),
        "check" => lower_check(file, block, out),
        "import" | "moved" | "removed" => out.others.push(Arc::new(OtherBlock {
            kind: block.ident.name.clone(),
            site: site(file, block, 0),
            provider: opt_arg(file, block.body.attribute("provider")),
            body_refs: body_refs(file, &block.body, &["provider"]),
        })),
        // OpenTofu 1.12's module-wide language settings (`compatible_with { opentofu = "…" }`, `edition`): nothing
        // here depends on them.
        "language" => {
            expect_labels(file, block, 0, "none", out);
        }
        "variable" | "provider" | "resource" | "data" | "ephemeral" | "module" | "output" => {
            // Label count was wrong: already reported by `expect_labels`.
        }
        other => out.diagnostics.push(Diagnostic::new(
            Code::UnknownBlockType,
            FileRange::new(file, block.ident.range),
            match terraform_only(other) {
                Some(since) => {
                    format!("`{other}` blocks are Terraform {since}; OpenTofu has none and refuses to load this module")
                }
                None => format!("`{other}` is not a block type OpenTofu knows at the top level of a module"),
            },
        )),
    }
}

/// A `check` block. Its nested `data` block (OpenTofu allows one) is a data source of the module like any other:
/// OpenTofu keeps it among the module's data resources (same names, same provider rules), so it is lowered as one;
/// the check block keeps the references of its `assert`s.
fn lower_check(file: FileId, block: &Block, out: &mut FileSummary) {
    let mut rest = Body::default();
    for s in &block.body.structures {
        match s {
            Structure::Block(b) if b.ident.name == "data" => {
                if expect_labels(file, b, 2, "type and name", out) {
                    out.resources.push(Arc::new(lower_resource(file, b, ResourceMode::Data)));
                }
            }
            other => rest.structures.push(other.clone()),
        }
    }
    out.others.push(Arc::new(OtherBlock {
        kind: block.ident.name.clone(),
        site: site(file, block, 0),
        provider: None,
        body_refs: body_refs(file, &rest, &[]),
    }));
}

/// Top-level block types that only Terraform has, with the Terraform version that added them: a module that uses
/// them was written for Terraform, and the message should say so rather than suggest a typo.
fn terraform_only(block_type: &str) -> Option<&'static str> {
    match block_type {
        "action" => Some("1.14"),
        _ => None,
    }
}

fn lower_variable(file: FileId, block: &Block) -> Variable {
    let get = |name: &str| opt_arg(file, block.body.attribute(name));
    Variable {
        name: block.labels[0].value.clone(),
        site: site(file, block, 0),
        ty: get("type"),
        default: get("default"),
        nullable: get("nullable"),
        sensitive: get("sensitive"),
        constant: get("const"),
        ephemeral: get("ephemeral"),
    }
}

const PROVIDER_RESERVED_ATTRS: &[&str] = &["count", "depends_on", "source"];
const PROVIDER_RESERVED_BLOCKS: &[&str] = &["lifecycle", "locals"];

fn lower_provider(file: FileId, block: &Block) -> ProviderBlock {
    let mut p = ProviderBlock {
        name: block.labels[0].value.clone(),
        site: site(file, block, 0),
        alias: None,
        for_each: None,
        version: None,
        config: Vec::new(),
        config_blocks: Vec::new(),
        reserved: Vec::new(),
        body_refs: BodyRefs { file, refs: Vec::new() },
    };
    for s in &block.body.structures {
        match s {
            Structure::Attribute(a) => match a.key.name.as_str() {
                "alias" => p.alias = opt_arg(file, Some(a)),
                "for_each" => p.for_each = opt_arg(file, Some(a)),
                "version" => p.version = opt_arg(file, Some(a)),
                name if PROVIDER_RESERVED_ATTRS.contains(&name) => {
                    p.reserved.push((name.to_string(), FileRange::new(file, a.key.range)))
                }
                _ => {
                    p.body_refs.refs.extend(references(&a.value, &[]));
                    p.config.push(arg(file, a));
                }
            },
            Structure::Block(b) if PROVIDER_RESERVED_BLOCKS.contains(&b.ident.name.as_str()) => {
                p.reserved.push((b.ident.name.clone(), FileRange::new(file, b.ident.range)))
            }
            Structure::Block(b) => {
                p.body_refs.refs.extend(body_refs(file, &b.body, &[]).refs);
                p.config_blocks.push((b.ident.name.clone(), FileRange::new(file, b.ident.range)));
            }
        }
    }
    p
}

fn lower_resource(file: FileId, block: &Block, mode: ResourceMode) -> Resource {
    let get = |name: &str| opt_arg(file, block.body.attribute(name));
    let enabled = lifecycle_enabled(file, block);
    Resource {
        mode,
        ty: SmolStr::new(&block.labels[0].value),
        name: SmolStr::new(&block.labels[1].value),
        site: site(file, block, 1),
        meta: {
            let meta = ResourceMeta {
                for_each: get("for_each"),
                count: get("count"),
                enabled,
                provider: get("provider"),
                depends_on: get("depends_on"),
            };
            (meta != ResourceMeta::default()).then(|| Box::new(meta))
        },
        body_refs: body_refs(file, &block.body, &["for_each", "count", "provider", "depends_on"]),
    }
}

const MODULE_META: &[&str] = &["source", "version", "for_each", "count", "depends_on", "providers"];

fn lower_module_call(file: FileId, block: &Block) -> ModuleCall {
    let get = |name: &str| opt_arg(file, block.body.attribute(name));
    let enabled = lifecycle_enabled(file, block);
    ModuleCall {
        name: block.labels[0].value.clone(),
        site: site(file, block, 0),
        source: get("source"),
        version: get("version"),
        for_each: get("for_each"),
        count: get("count"),
        enabled,
        depends_on: get("depends_on"),
        providers: get("providers"),
        inputs: block
            .body
            .attributes()
            .filter(|a| !MODULE_META.contains(&a.key.name.as_str()))
            .map(|a| arg(file, a))
            .collect(),
    }
}

fn lower_terraform(file: FileId, block: &Block, out: &mut FileSummary) {
    for inner in block.body.blocks() {
        match inner.ident.name.as_str() {
            "required_providers" => {
                for attr in inner.body.attributes() {
                    out.required_providers.push(Arc::new(lower_required_provider(file, attr)));
                }
            }
            "backend" | "cloud" => out.backends.push(Arc::new(SettingsBlock { file, block: inner.clone() })),
            "encryption" => out.encryption.push(Arc::new(SettingsBlock { file, block: inner.clone() })),
            _ => {}
        }
    }
}

fn lower_required_provider(file: FileId, attr: &Attribute) -> RequiredProvider {
    let mut rp = RequiredProvider {
        local_name: attr.key.name.clone(),
        location: FileRange::new(file, attr.key.range),
        source: None,
        configuration_aliases: Vec::new(),
    };
    match &attr.value.kind {
        // Legacy form: `aws = "~> 5.0"` is only a version constraint.
        ExprKind::Template(_) => {}
        ExprKind::Object(items) => {
            for item in items {
                let key = match &item.key {
                    foreach_syntax::ast::ObjectKey::Ident(i) => i.name.clone(),
                    foreach_syntax::ast::ObjectKey::Expr(e) => e.as_string_literal().unwrap_or_default(),
                };
                match key.as_str() {
                    "source" => rp.source = item.value.as_string_literal(),
                    "configuration_aliases" => {
                        if let ExprKind::Tuple(elems) = &item.value.kind {
                            for e in elems {
                                if let Some((provider, alias)) = provider_alias_traversal(e) {
                                    rp.configuration_aliases.push(ConfigurationAlias {
                                        provider,
                                        alias,
                                        location: FileRange::new(file, e.range),
                                    });
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    rp
}

/// `aws.src` as a (name, alias) pair.
fn provider_alias_traversal(e: &foreach_syntax::ast::Expr) -> Option<(String, String)> {
    let ExprKind::Traversal { base, steps } = &e.kind else { return None };
    let root = traversal_root(base)?;
    match steps.as_slice() {
        [step] => match &step.op {
            TraversalOp::GetAttr(a) => Some((root.name, a.name.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// References of a body's attributes (recursively into nested blocks), except the named meta-arguments.
/// A `dynamic "x"` block binds `x` (or its `iterator` name) inside its `content`.
fn body_refs(file: FileId, body: &Body, skip: &[&str]) -> BodyRefs {
    let mut refs = Vec::new();
    collect_body_refs(body, skip, &mut Vec::new(), &mut refs);
    // Summaries live as long as the workspace: drop the growth slack (often half the vector).
    refs.shrink_to_fit();
    BodyRefs { file, refs }
}

fn collect_body_refs(
    body: &Body,
    skip: &[&str],
    bound: &mut Vec<String>,
    out: &mut Vec<crate::model::refs::Reference>,
) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) => {
                if skip.contains(&a.key.name.as_str()) {
                    continue;
                }
                let b: Vec<&str> = bound.iter().map(String::as_str).collect();
                out.extend(references(&a.value, &b));
            }
            Structure::Block(b) if b.ident.name == "dynamic" => {
                let iterator = b
                    .body
                    .attribute("iterator")
                    .and_then(|a| match &a.value.kind {
                        ExprKind::Variable(i) => Some(i.name.clone()),
                        _ => None,
                    })
                    .or_else(|| b.label(0).map(str::to_string));
                for a in b.body.attributes() {
                    if a.key.name == "iterator" {
                        continue;
                    }
                    let bb: Vec<&str> = bound.iter().map(String::as_str).collect();
                    out.extend(references(&a.value, &bb));
                }
                let pushed = iterator.is_some();
                if let Some(it) = iterator {
                    bound.push(it);
                }
                for content in b.body.blocks_named("content") {
                    collect_body_refs(&content.body, &[], bound, out);
                }
                if pushed {
                    bound.pop();
                }
            }
            Structure::Block(b) => collect_body_refs(&b.body, &[], bound, out),
        }
    }
}
