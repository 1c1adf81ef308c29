//! Lowers one parsed file into a [`FileSummary`]: the items it declares, in OpenTofu's terms.
//!
//! This is the only place that knows which top-level block types exist and which arguments are meta-arguments.
//! It reports nothing about cross-item consistency (that needs the whole module) except shape errors local to a
//! block, such as a `variable` without a name.

use smol_str::SmolStr;
use std::sync::Arc;
use thin_vec::ThinVec;

use foreach_syntax::ast::{Attribute, Block, Body, ExprKind, Structure, TraversalOp};

use crate::base::{FileId, FileRange};
use crate::diagnostics::{Code, Diagnostic};
use crate::model::items::*;
use crate::model::refs::{references, traversal_root};
use crate::versions::features::terraform_only_block;
use crate::versions::usage::{FileVersions, scan};

/// Everything one configuration file declares (its [`Items`]), with the problems found reading it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileSummary {
    pub items: Items,
    pub diagnostics: ThinVec<Diagnostic>,
    pub syntax_errors: ThinVec<foreach_syntax::SyntaxError>,
    /// Whether the text holds the suppression marker (`crate::suppress`), noted while the text is at hand so that
    /// the files without one (nearly all) are not read again to look for suppressions.
    pub has_suppression_marker: bool,
    /// The version-dependent constructs the file uses and the version constraints it declares (`versions::usage`).
    pub versions: FileVersions,
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
    out.items.shrink_to_fit();
    out.versions = scan(body);
    out
}

fn arg(file: FileId, attr: &Attribute) -> Arg {
    let arg = Arg::new(file, attr.key.clone(), attr.value.clone());
    debug_assert_eq!(arg.range(), attr.range, "an attribute runs from its name to its expression's end");
    arg
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
            name: block.labels[0].value.to_string(),
            site: site(file, block, 0),
            body_refs: body_refs(file, &block.body, &[]),
        })),
        "terraform" => lower_terraform(file, block, out),
        "check" => lower_check(file, block, out),
        "import" | "moved" | "removed" => out.others.push(Arc::new(lower_address_block(file, block))),
        // OpenTofu 1.12's module-wide language settings (`compatible_with { opentofu = "…" }`, `edition`): nothing
        // here depends on them.
        "language" => {
            expect_labels(file, block, 0, "none", out);
        }
        "variable" | "provider" | "resource" | "data" | "ephemeral" | "module" | "output" => {
            // Label count was wrong: already reported by `expect_labels`.
        }
        // Terraform's `action` blocks: reported as unknown, and kept (without their body) so that references to them
        // (`action.aws_lambda_invoke.run`) are not reported as undeclared resources on top of that.
        "action" => {
            out.diagnostics.push(unknown_block(file, block));
            out.others.push(Arc::new(OtherBlock {
                kind: "action".to_string(),
                site: site(file, block, 0),
                provider: None,
                target: None,
                body_refs: BodyRefs::empty(file),
            }));
        }
        _ => out.diagnostics.push(unknown_block(file, block)),
    }
}

/// A top-level block type OpenTofu does not know: a Terraform-only one says so rather than suggest a typo.
fn unknown_block(file: FileId, block: &Block) -> Diagnostic {
    let other = block.ident.name.as_str();
    Diagnostic::new(
        Code::UnknownBlockType,
        FileRange::new(file, block.ident.range),
        match terraform_only_block(other) {
            Some(since) => format!(
                "`{other}` blocks are Terraform {}; OpenTofu has none and refuses to load this module",
                since.short()
            ),
            None => format!("`{other}` is not a block type OpenTofu knows at the top level of a module"),
        },
    )
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
        kind: block.ident.name.to_string(),
        site: site(file, block, 0),
        provider: None,
        target: None,
        body_refs: body_refs(file, &rest, &[]),
    }));
}

/// `import`, `moved` and `removed`. Their `to`/`from` are addresses, not references: a `moved` block's `from` and a
/// `removed` block's `from` name what is no longer declared, and `moved`'s `to` is not checked by OpenTofu either.
/// Only the instance keys inside them (`to = aws_instance.web[each.key]`) are expressions, and their references are
/// kept with the rest of the body. The `to` of an `import` must be declared, so it is kept as the block's target.
fn lower_address_block(file: FileId, block: &Block) -> OtherBlock {
    let addresses: &[&str] = match block.ident.name.as_str() {
        "import" => &["to"],
        "moved" => &["from", "to"],
        _ => &["from"],
    };
    let mut skip = vec!["provider"];
    skip.extend_from_slice(addresses);
    let mut refs = Vec::new();
    collect_body_refs(&block.body, &skip, true, &mut Vec::new(), &mut refs);
    for name in addresses {
        if let Some(a) = block.body.attribute(name) {
            refs.extend(address_key_refs(&a.value));
        }
    }
    OtherBlock {
        kind: block.ident.name.to_string(),
        site: site(file, block, 0),
        provider: opt_arg(file, block.body.attribute("provider")),
        target: if block.ident.name == "import" { opt_arg(file, block.body.attribute("to")) } else { None },
        body_refs: BodyRefs::new(file, &refs),
    }
}

/// The references in the instance keys of an address (`module.a[each.key].aws_instance.b[count.index]`).
fn address_key_refs(e: &foreach_syntax::ast::Expr) -> Vec<crate::model::refs::Reference> {
    let mut out = Vec::new();
    if let ExprKind::Traversal { base, steps } = &e.kind {
        if !matches!(base.kind, ExprKind::Variable(_)) {
            out.extend(address_key_refs(base));
        }
        for step in steps {
            if let TraversalOp::Index(k) = &step.op {
                out.extend(references(k, &[]));
            }
        }
    }
    out
}

fn lower_variable(file: FileId, block: &Block) -> Variable {
    let get = |name: &str| opt_arg(file, block.body.attribute(name));
    let rest = VariableRest {
        nullable: get("nullable"),
        sensitive: get("sensitive"),
        constant: get("const"),
        ephemeral: get("ephemeral"),
        validation_refs: Some(body_refs(file, &block.body, VARIABLE_ARGUMENTS)).filter(|b| !b.refs.is_empty()),
    };
    Variable {
        name: block.labels[0].value.clone(),
        site: site(file, block, 0),
        ty: get("type"),
        default: get("default"),
        rest: (rest != VariableRest::default()).then(|| Box::new(rest)),
    }
}

/// A variable's arguments other than its `validation` blocks: none of them holds references.
const VARIABLE_ARGUMENTS: &[&str] = &["type", "default", "description", "nullable", "sensitive", "const", "ephemeral"];

const PROVIDER_RESERVED_ATTRS: &[&str] = &["count", "depends_on", "source"];
const PROVIDER_RESERVED_BLOCKS: &[&str] = &["lifecycle", "locals"];

fn lower_provider(file: FileId, block: &Block) -> ProviderBlock {
    let mut refs = Vec::new();
    let mut p = ProviderBlock {
        name: block.labels[0].value.to_string(),
        site: site(file, block, 0),
        alias: None,
        for_each: None,
        version: None,
        config: Vec::new(),
        config_blocks: Vec::new(),
        reserved: Vec::new(),
        body_refs: BodyRefs::empty(file),
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
                    refs.extend(references(&a.value, &[]));
                    p.config.push(arg(file, a));
                }
            },
            Structure::Block(b) if PROVIDER_RESERVED_BLOCKS.contains(&b.ident.name.as_str()) => {
                p.reserved.push((b.ident.name.to_string(), FileRange::new(file, b.ident.range)))
            }
            Structure::Block(b) => {
                // Through the structure, so that a `dynamic` block binds its iterator.
                collect_structure_refs(s, &[], false, &mut Vec::new(), &mut refs);
                p.config_blocks.push((b.ident.name.to_string(), FileRange::new(file, b.ident.range)));
            }
        }
    }
    p.config.shrink_to_fit();
    p.body_refs = BodyRefs::new(file, &refs);
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
                body_override: None,
            };
            (meta != ResourceMeta::default()).then(|| Box::new(meta))
        },
        body_refs: body_refs(file, &block.body, RESOURCE_META),
        has_body: block.body.structures.iter().any(|s| match s {
            Structure::Attribute(a) => !RESOURCE_META.contains(&a.key.name.as_str()),
            Structure::Block(b) => b.ident.name != "lifecycle" || lifecycle_has_body(b),
        }),
    }
}

const RESOURCE_META: &[&str] = &["for_each", "count", "provider", "depends_on"];

/// A `lifecycle` block with more than `enabled` (which is a meta-argument, merged on its own).
fn lifecycle_has_body(b: &Block) -> bool {
    b.body.structures.iter().any(|s| !matches!(s, Structure::Attribute(a) if a.key.name == "enabled"))
}

const MODULE_META: &[&str] = &["source", "version", "for_each", "count", "depends_on", "providers"];

fn lower_module_call(file: FileId, block: &Block) -> ModuleCall {
    let get = |name: &str| opt_arg(file, block.body.attribute(name));
    let enabled = lifecycle_enabled(file, block);
    let mut inputs: Vec<Arg> =
        block.body.attributes().filter(|a| !MODULE_META.contains(&a.key.name.as_str())).map(|a| arg(file, a)).collect();
    // Kept for the whole session: without the growth slack (a call of five arguments would keep room for eight).
    inputs.shrink_to_fit();
    ModuleCall {
        name: block.labels[0].value.to_string(),
        site: site(file, block, 0),
        source: get("source"),
        version: get("version"),
        for_each: get("for_each"),
        count: get("count"),
        enabled,
        depends_on: get("depends_on"),
        providers: get("providers"),
        inputs,
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
        local_name: attr.key.name.to_string(),
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
                    foreach_syntax::ast::ObjectKey::Ident(i) => i.name.to_string(),
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
            TraversalOp::GetAttr(a) => Some((root.name.to_string(), a.name.to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// References of a body's attributes (recursively into nested blocks), except the named meta-arguments.
/// A `dynamic "x"` block binds `x` (or its `iterator` name) inside its `content` and its `labels`. The
/// `ignore_changes` of a top-level `lifecycle` block names attributes of the resource itself (`[tags.Name]`), not
/// objects, so it makes no references.
fn body_refs(file: FileId, body: &Body, skip: &[&str]) -> BodyRefs {
    let mut refs = Vec::new();
    collect_body_refs(body, skip, true, &mut Vec::new(), &mut refs);
    BodyRefs::new(file, &refs)
}

fn collect_body_refs(
    body: &Body,
    skip: &[&str],
    top: bool,
    bound: &mut Vec<String>,
    out: &mut Vec<crate::model::refs::Reference>,
) {
    for s in &body.structures {
        collect_structure_refs(s, skip, top, bound, out);
    }
}

/// [`collect_body_refs`] for one attribute or block of a body.
fn collect_structure_refs(
    s: &Structure,
    skip: &[&str],
    top: bool,
    bound: &mut Vec<String>,
    out: &mut Vec<crate::model::refs::Reference>,
) {
    match s {
        Structure::Attribute(a) => {
            if skip.contains(&a.key.name.as_str()) {
                return;
            }
            let b: Vec<&str> = bound.iter().map(String::as_str).collect();
            out.extend(references(&a.value, &b));
        }
        Structure::Block(b) if b.ident.name == "dynamic" => {
            let iterator = b
                .body
                .attribute("iterator")
                .and_then(|a| match &a.value.kind {
                    ExprKind::Variable(i) => Some(i.name.to_string()),
                    // JSON syntax writes the name as a string.
                    _ => a.value.as_string_literal(),
                })
                .or_else(|| b.label(0).map(str::to_string));
            let pushed = iterator.is_some();
            for a in b.body.attributes() {
                if a.key.name == "iterator" {
                    continue;
                }
                // `labels` is evaluated per element, with the iterator in scope; `for_each` is not.
                let mut bb: Vec<&str> = bound.iter().map(String::as_str).collect();
                if a.key.name == "labels"
                    && let Some(it) = &iterator
                {
                    bb.push(it);
                }
                out.extend(references(&a.value, &bb));
            }
            if let Some(it) = iterator {
                bound.push(it.to_string());
            }
            for content in b.body.blocks_named("content") {
                collect_body_refs(&content.body, &[], false, bound, out);
            }
            if pushed {
                bound.pop();
            }
        }
        Structure::Block(b) if top && b.ident.name == "lifecycle" => {
            collect_body_refs(&b.body, &["ignore_changes"], false, bound, out)
        }
        Structure::Block(b) => collect_body_refs(&b.body, &[], false, bound, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_syntax::FileKind;

    fn lowered(text: &str) -> FileSummary {
        lower_file(FileId(0), &foreach_syntax::parse(text, FileKind::Tf).body)
    }

    fn shown(refs: &BodyRefs) -> Vec<String> {
        refs.refs.iter().map(|r| r.display().to_string()).collect()
    }

    #[test]
    fn dynamic_iterators_bind_in_content_and_labels_only() {
        let s = lowered(
            r#"resource "x" "y" {
  dynamic "setting" {
    for_each = setting.all
    labels   = [setting.key]
    content { v = setting.value }
  }
  dynamic "rule" {
    for_each = var.rules
    iterator = r
    content {
      v = r.value
      w = rule.value
    }
  }
}
provider "helm" {
  dynamic "registry" {
    for_each = var.registries
    content { url = registry.value.url }
  }
}"#,
        );
        assert_eq!(shown(&s.resources[0].body_refs), ["setting.all", "var.rules", "rule.value"]);
        assert_eq!(shown(&s.providers[0].body_refs), ["var.registries"]);
    }

    #[test]
    fn ignore_changes_names_attributes_not_objects() {
        let s = lowered(
            "resource \"x\" \"y\" {\n  lifecycle {\n    ignore_changes = [tags.Name]\n    replace_triggered_by = [aws_vpc.a]\n  }\n}",
        );
        assert_eq!(shown(&s.resources[0].body_refs), ["aws_vpc.a"]);
    }

    #[test]
    fn addresses_of_import_moved_removed_are_not_references() {
        let s = lowered(
            r#"import {
  for_each = var.ids
  to       = aws_instance.web[each.key]
  id       = each.value
}
moved {
  from = aws_instance.old[local.k]
  to   = aws_instance.web
}
removed {
  from = module.gone
}"#,
        );
        let kinds: Vec<(&str, Vec<String>)> = s.others.iter().map(|o| (o.kind.as_str(), shown(&o.body_refs))).collect();
        let expected: [(&str, &[&str]); 3] =
            [("import", &["var.ids", "each.value", "each.key"]), ("moved", &["local.k"]), ("removed", &[])];
        assert_eq!(kinds.len(), expected.len());
        for ((kind, refs), (want_kind, want_refs)) in kinds.iter().zip(expected) {
            assert_eq!(*kind, want_kind);
            assert_eq!(refs, want_refs);
        }
        assert!(s.others[0].target.is_some() && s.others[1].target.is_none());
    }
}
