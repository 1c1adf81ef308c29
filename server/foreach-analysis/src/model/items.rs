//! The configuration model's items: what OpenTofu declares in a module, in the spec's nouns.
//!
//! Items keep only what the analysis needs: meta-arguments and declarations as full expressions, everything else
//! in a resource or output body as the list of references it makes. This keeps a summary of a 20 MB workspace
//! small (the parse trees are dropped once summarised) while still answering every check.

use std::sync::Arc;

use foreach_syntax::ast::{Block, Expr, Ident};
use foreach_syntax::{PackedExpr, TextRange};
use smol_str::SmolStr;
use thin_vec::ThinVec;

use crate::base::{FileId, FileRange};
use crate::model::refs::{PackedReferences, Reference};

/// An optional argument. Boxed: most are absent, and an inline `Arg` would make every item several hundred bytes.
pub type OptArg = Option<Box<Arg>>;

/// One attribute (`name = expr`) with the file it came from (after override merging, an item's attributes may
/// come from different files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    pub file: FileId,
    pub name: Ident,
    /// The expression's range, kept beside it so that a packed expression need not be unpacked for it. The whole
    /// attribute runs from the name to the expression's end (as the parsers make an attribute's range), so that is
    /// not kept too: summaries hold tens of thousands of arguments.
    expr_range: TextRange,
    expr: ArgExpr,
}

/// How an argument keeps its expression: a tree, or packed (see [`Items::pack_expressions`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum ArgExpr {
    /// Shared: every instance of the module evaluates the same expression, and its scope holds it without a copy.
    Tree(Arc<Expr>),
    /// Inline rather than boxed: nearly every argument of a file nobody edits is packed, and a box of its own was
    /// 24 bytes more for each.
    Packed(PackedExpr),
}

impl Arg {
    pub fn new(file: FileId, name: Ident, expr: Arc<Expr>) -> Arg {
        Arg { file, name, expr_range: expr.range, expr: ArgExpr::Tree(expr) }
    }

    /// Keeps the expression packed from now on.
    pub fn pack(&mut self) {
        if let ArgExpr::Tree(expr) = &self.expr
            && let Some(packed) = PackedExpr::pack(expr)
        {
            self.expr = ArgExpr::Packed(packed);
        }
    }

    /// The argument's expression: shared when it is kept as a tree, unpacked afresh when it is packed. Read it once
    /// per use and keep the result while walking it.
    pub fn expr(&self) -> Arc<Expr> {
        match &self.expr {
            ArgExpr::Tree(expr) => expr.clone(),
            ArgExpr::Packed(packed) => Arc::new(packed.unpack(self.expr_range)),
        }
    }

    /// Whether the expression is kept packed (see [`Items::pack_expressions`]).
    pub fn is_packed(&self) -> bool {
        matches!(self.expr, ArgExpr::Packed(_))
    }

    /// The range of the expression, without unpacking it.
    pub fn expr_range(&self) -> TextRange {
        self.expr_range
    }

    /// The whole `name = expr` attribute.
    pub fn range(&self) -> TextRange {
        let start = self.name.range.start();
        TextRange::new(start, self.expr_range.end().max(start))
    }

    pub fn location(&self) -> FileRange {
        FileRange::new(self.file, self.range())
    }

    pub fn expr_location(&self) -> FileRange {
        FileRange::new(self.file, self.expr_range())
    }

    pub fn key_location(&self) -> FileRange {
        FileRange::new(self.file, self.name.range)
    }
}

/// The declarations of a file or, merged, of a module: items are shared (`Arc`) between a file's summary and its
/// module, so building a module copies pointers, not declarations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Items {
    pub variables: ThinVec<Arc<Variable>>,
    pub locals: ThinVec<Arc<Local>>,
    pub providers: ThinVec<Arc<ProviderBlock>>,
    pub resources: ThinVec<Arc<Resource>>,
    pub module_calls: ThinVec<Arc<ModuleCall>>,
    pub outputs: ThinVec<Arc<Output>>,
    pub required_providers: ThinVec<Arc<RequiredProvider>>,
    pub backends: ThinVec<Arc<SettingsBlock>>,
    pub encryption: ThinVec<Arc<SettingsBlock>>,
    pub others: ThinVec<Arc<OtherBlock>>,
}

impl Items {
    /// Drops the lists' growth slack: summaries and modules keep them for the whole session.
    pub fn shrink_to_fit(&mut self) {
        let Items {
            variables,
            locals,
            providers,
            resources,
            module_calls,
            outputs,
            required_providers,
            backends,
            encryption,
            others,
        } = self;
        variables.shrink_to_fit();
        locals.shrink_to_fit();
        providers.shrink_to_fit();
        resources.shrink_to_fit();
        module_calls.shrink_to_fit();
        outputs.shrink_to_fit();
        required_providers.shrink_to_fit();
        backends.shrink_to_fit();
        encryption.shrink_to_fit();
        others.shrink_to_fit();
    }

    /// Packs every argument expression the items keep, whatever its size.
    ///
    /// Summaries keep them for the whole session, and as trees they were most of `check`'s memory (about 25 MB on
    /// the dev corpus, more than its 20 MB of text), while they are read about once per module instance. Packed
    /// they take about a fifth of that, and unpack in a fraction of the time parsing them took. Packing the small
    /// ones too (a reference, a literal: each read allocates its tree anew) took `check`'s peak on the dev corpus
    /// down 1.5 MB more, at no time that five runs could tell apart; so did packing the meta-arguments the checks
    /// read most (resources' `for_each` and `provider`, module sources), 1.7 MB more. Every expression of a file
    /// being edited stays a tree: it is summarised again on each keystroke, and packing it would be wasted work.
    pub fn pack_expressions(&mut self) {
        fn pack_all<'a>(args: impl IntoIterator<Item = &'a mut OptArg>) {
            args.into_iter().flatten().for_each(|a| a.pack());
        }
        for local in &mut self.locals {
            Arc::make_mut(local).arg.pack();
        }
        for call in &mut self.module_calls {
            let c = Arc::make_mut(call);
            c.inputs.iter_mut().for_each(Arg::pack);
            pack_all([
                &mut c.source,
                &mut c.version,
                &mut c.for_each,
                &mut c.count,
                &mut c.enabled,
                &mut c.depends_on,
                &mut c.providers,
            ]);
        }
        for variable in &mut self.variables {
            let v = Arc::make_mut(variable);
            pack_all([&mut v.ty, &mut v.default]);
            if let Some(r) = v.rest.as_mut() {
                pack_all([&mut r.nullable, &mut r.sensitive, &mut r.constant, &mut r.ephemeral]);
            }
        }
        for resource in &mut self.resources {
            if let Some(m) = Arc::make_mut(resource).meta.as_mut() {
                pack_all([&mut m.for_each, &mut m.count, &mut m.enabled, &mut m.provider, &mut m.depends_on]);
            }
        }
        for provider in &mut self.providers {
            let p = Arc::make_mut(provider);
            pack_all([&mut p.alias, &mut p.for_each, &mut p.version]);
            p.config.iter_mut().for_each(Arg::pack);
        }
        for other in &mut self.others {
            let o = Arc::make_mut(other);
            pack_all([&mut o.provider, &mut o.target]);
        }
    }
}

/// Where a block is: its file, the whole block, and the label that names it (for diagnostics on one line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSite {
    pub file: FileId,
    pub range: TextRange,
    /// The name label, or the block keyword for unlabelled blocks.
    pub name_range: TextRange,
}

impl BlockSite {
    pub fn name_location(&self) -> FileRange {
        FileRange::new(self.file, self.name_range)
    }
}

/// References made by an item body, with the file they are in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyRefs {
    pub file: FileId,
    pub refs: PackedReferences,
    /// Whether one of them is an `each.` reference: the check for `each` outside `for_each` reads only the bodies
    /// that have one (nearly none), instead of decoding every body of the module.
    has_each: bool,
}

impl BodyRefs {
    pub fn new(file: FileId, refs: &[Reference]) -> BodyRefs {
        BodyRefs { file, refs: PackedReferences::new(refs), has_each: refs.iter().any(|r| r.root() == "each") }
    }

    pub fn empty(file: FileId) -> BodyRefs {
        BodyRefs { file, refs: PackedReferences::default(), has_each: false }
    }

    /// Its `each.` references.
    pub fn each_references(&self) -> Vec<Reference> {
        if !self.has_each {
            return Vec::new();
        }
        self.refs.with_root("each").collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: SmolStr,
    pub site: BlockSite,
    pub ty: OptArg,
    pub default: OptArg,
    /// The rest, boxed together: most variables have none of it, and inline it made every variable 40 bytes
    /// larger (a module's worth of variables is in every summary, often hundreds).
    pub rest: Option<Box<VariableRest>>,
}

/// A variable's less common arguments and its validations' references.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VariableRest {
    pub nullable: OptArg,
    pub sensitive: OptArg,
    /// OpenTofu 1.12 `const = true|false`.
    pub constant: OptArg,
    /// OpenTofu 1.11 `ephemeral = true|false`.
    pub ephemeral: OptArg,
    /// The references in its `validation` blocks (conditions and error messages), which OpenTofu validates like
    /// any other; none when they make none.
    pub validation_refs: Option<BodyRefs>,
}

impl Variable {
    pub fn nullable(&self) -> Option<&Arg> {
        self.rest.as_ref().and_then(|r| r.nullable.as_deref())
    }

    pub fn sensitive(&self) -> Option<&Arg> {
        self.rest.as_ref().and_then(|r| r.sensitive.as_deref())
    }

    pub fn constant(&self) -> Option<&Arg> {
        self.rest.as_ref().and_then(|r| r.constant.as_deref())
    }

    pub fn ephemeral(&self) -> Option<&Arg> {
        self.rest.as_ref().and_then(|r| r.ephemeral.as_deref())
    }

    /// The references of its `validation` blocks.
    pub fn validation_refs(&self) -> Option<&BodyRefs> {
        self.rest.as_ref().and_then(|r| r.validation_refs.as_ref())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Local {
    pub name: SmolStr,
    pub arg: Arg,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderBlock {
    /// The provider's local name (`aws`).
    pub name: String,
    pub site: BlockSite,
    pub alias: OptArg,
    pub for_each: OptArg,
    pub version: OptArg,
    /// Everything that is not a meta-argument: what makes the block "configured".
    pub config: Vec<Arg>,
    /// Nested blocks other than reserved ones (`assume_role { … }`), also configuration.
    pub config_blocks: Vec<(String, FileRange)>,
    /// Reserved names used anyway (`count`, `depends_on`, `source`, `lifecycle`, `locals`), with their ranges.
    pub reserved: Vec<(String, FileRange)>,
    /// References in the configuration body (for `each.*` checks).
    pub body_refs: BodyRefs,
}

impl ProviderBlock {
    pub fn alias_name(&self) -> Option<String> {
        self.alias.as_ref().and_then(|a| a.expr().as_string_literal())
    }

    /// A block with anything besides `alias`, `for_each` and `version` configures the provider; an empty one is
    /// only a proxy (OpenTofu's distinction, which decides where provider blocks may live).
    pub fn is_configured(&self) -> bool {
        !self.config.is_empty() || !self.config_blocks.is_empty()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceMode {
    Managed,
    Data,
    Ephemeral,
}

impl ResourceMode {
    pub fn keyword(self) -> &'static str {
        match self {
            ResourceMode::Managed => "resource",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    pub mode: ResourceMode,
    pub ty: SmolStr,
    pub name: SmolStr,
    pub site: BlockSite,
    /// The meta-arguments, boxed together: most resources have none, and five inline options cost 32 bytes more
    /// per resource (4 MB on a workspace of 125,000 resources).
    pub meta: Option<Box<ResourceMeta>>,
    pub body_refs: BodyRefs,
    /// Whether the block sets anything besides its meta-arguments (for overrides: such an override replaces some of
    /// the base block's arguments or nested blocks).
    pub has_body: bool,
}

/// A resource's meta-arguments.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResourceMeta {
    pub for_each: OptArg,
    pub count: OptArg,
    /// OpenTofu 1.11 `lifecycle { enabled = … }`.
    pub enabled: OptArg,
    pub provider: OptArg,
    pub depends_on: OptArg,
    /// The references of the last override file's block that set arguments or nested blocks. OpenTofu replaces
    /// the base block's arguments (and blocks of a type) by the override's, and only references are kept here, so
    /// which base references survive is not known: with an override, only the override's are checked.
    pub body_override: Option<BodyRefs>,
}

impl Resource {
    pub fn for_each(&self) -> Option<&Arg> {
        self.meta.as_ref().and_then(|m| m.for_each.as_deref())
    }

    pub fn count(&self) -> Option<&Arg> {
        self.meta.as_ref().and_then(|m| m.count.as_deref())
    }

    pub fn enabled(&self) -> Option<&Arg> {
        self.meta.as_ref().and_then(|m| m.enabled.as_deref())
    }

    pub fn provider(&self) -> Option<&Arg> {
        self.meta.as_ref().and_then(|m| m.provider.as_deref())
    }

    pub fn depends_on(&self) -> Option<&Arg> {
        self.meta.as_ref().and_then(|m| m.depends_on.as_deref())
    }

    /// The references of the body OpenTofu evaluates: the base block's, or the last body override's.
    pub fn effective_body_refs(&self) -> &BodyRefs {
        self.meta.as_ref().and_then(|m| m.body_override.as_ref()).unwrap_or(&self.body_refs)
    }

    /// `aws_s3_bucket.logs` / `data.aws_region.current`.
    pub fn address(&self) -> String {
        match self.mode {
            ResourceMode::Managed => format!("{}.{}", self.ty, self.name),
            m => format!("{}.{}.{}", m.keyword(), self.ty, self.name),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCall {
    pub name: String,
    pub site: BlockSite,
    pub source: OptArg,
    pub version: OptArg,
    pub for_each: OptArg,
    pub count: OptArg,
    pub enabled: OptArg,
    pub depends_on: OptArg,
    pub providers: OptArg,
    /// The arguments passed to the child's variables.
    pub inputs: Vec<Arg>,
}

impl ModuleCall {
    pub fn input(&self, name: &str) -> Option<&Arg> {
        self.inputs.iter().rev().find(|a| a.name.name == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub name: String,
    pub site: BlockSite,
    pub body_refs: BodyRefs,
}

/// An entry of `terraform { required_providers { … } }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequiredProvider {
    pub local_name: String,
    pub location: FileRange,
    pub source: Option<String>,
    pub configuration_aliases: Vec<ConfigurationAlias>,
}

/// `aws.src` in `configuration_aliases = [aws.src]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigurationAlias {
    pub provider: String,
    pub alias: String,
    pub location: FileRange,
}

/// `check`, `import`, `moved`, `removed` and any block type we do not model in detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherBlock {
    pub kind: String,
    pub site: BlockSite,
    pub provider: OptArg,
    /// An `import` block's `to`: the resource (or `module.NAME.…` path) that must be declared.
    pub target: OptArg,
    pub body_refs: BodyRefs,
}

/// A `terraform { backend "x" { … } }` or `terraform { encryption { … } }` block, kept whole (it is small and
/// evaluated argument by argument).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsBlock {
    pub file: FileId,
    pub block: Block,
}
