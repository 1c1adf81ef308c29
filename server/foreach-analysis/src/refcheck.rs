//! References to things a module does not declare, per module (not per instance: a declaration is missing whoever
//! calls it):
//!
//! - input variables and local values outside `locals` blocks (locals themselves are checked by the evaluator,
//!   which evaluates every one of them);
//! - resources (`aws_vpc.main`, `resource.aws_vpc.main`), data sources (`data.TYPE.NAME`), ephemeral resources
//!   (`ephemeral.TYPE.NAME`) and module calls (`module.NAME`), in every expression OpenTofu evaluates, locals
//!   included, as `tofu validate` does ("Reference to undeclared resource", "Reference to undeclared module");
//! - the target of an `import` block, which must be declared (a `moved` or `removed` block's addresses name what
//!   is no longer declared, and are not references).
//!
//! Attributes of resources are not checked (that needs provider schemas); outputs of called modules are checked
//! in `module_outputs.rs`, which needs the module tree. Each finding names the closest declared name and offers a
//! quick fix to use it.

use std::cell::OnceCell;
use std::collections::HashSet;

use crate::base::FileText;
use crate::diagnostics::{Code, Diagnostic};
use crate::fixes::use_name::use_name;
use crate::model::items::{Arg, BodyRefs, ResourceMode};
use crate::model::module::Module;
use crate::model::refs::{Reference, references};
use crate::suggest::closest;
use crate::{FileId, FileRange};
use foreach_syntax::{TextRange, TextSize};
use rustc_hash::FxHashSet;

/// Where a reference was found, which decides what is checked there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    /// Arguments, meta-arguments, outputs, provider configurations, `check` and `import` blocks.
    Body,
    /// A local value: its `var.`/`local.` references are the evaluator's to check.
    Local,
    /// A module call's `source` or `version`: evaluated at `tofu init`, where a resource reference is already an
    /// error of its own (`module-source-not-static`).
    InitTime,
}

/// One reference of a module, with its file.
#[derive(Debug, Clone)]
pub(crate) struct Site {
    pub file: FileId,
    pub reference: Reference,
    pub context: Context,
}

/// Roots that name no resource type: OpenTofu's other reference roots, and the names it reserves.
const NOT_RESOURCES: &[&str] =
    &["var", "local", "each", "count", "self", "path", "terraform", "tofu", "template", "lazy", "arg"];

/// What a reference refers to, as OpenTofu's reference parser reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    Resource { mode: ResourceMode, ty: &'a str, name: &'a str },
    ModuleCall(&'a str),
}

impl Target<'_> {
    /// How many dotted names the address takes in the reference (`aws_vpc.main` 2, `data.x.y` 3, `module.m` 2).
    fn parts(&self, r: &Reference) -> usize {
        match self {
            Target::Resource { mode: ResourceMode::Managed, .. } if r.root() != "resource" => 2,
            Target::Resource { .. } => 3,
            Target::ModuleCall(_) => 2,
        }
    }
}

/// The resource or module call `r` names, if it names one (`data.x` alone is a malformed reference, which
/// OpenTofu reports differently, and is not a target here).
pub(crate) fn target(r: &Reference) -> Option<Target<'_>> {
    let root = r.root();
    let prefixed = |mode| Some(Target::Resource { mode, ty: r.attr(0)?, name: r.attr(1)? });
    match root {
        "module" => Some(Target::ModuleCall(r.attr(0)?)),
        "data" => prefixed(ResourceMode::Data),
        "ephemeral" => prefixed(ResourceMode::Ephemeral),
        "resource" => prefixed(ResourceMode::Managed),
        _ if NOT_RESOURCES.contains(&root) => None,
        _ => Some(Target::Resource { mode: ResourceMode::Managed, ty: root, name: r.attr(0)? }),
    }
}

fn render(mode: ResourceMode, ty: &str, name: &str) -> String {
    match mode {
        ResourceMode::Managed => format!("{ty}.{name}"),
        m => format!("{}.{ty}.{name}", m.keyword()),
    }
}

/// The reference findings of `module`. `file_text` gives the texts the quick fixes are checked against;
/// `complete` is false when a file of the module could not be read or parsed completely, so that a block lost to
/// a syntax error is not reported as missing.
pub fn undefined_references(module: &Module, file_text: FileText<'_>, complete: bool) -> Vec<Diagnostic> {
    let vars: Vec<&str> = module.variables.iter().map(|v| v.name.as_str()).collect();
    let locals: Vec<&str> = module.locals.iter().map(|l| l.name.as_str()).collect();
    // Sets for membership (a generated module has thousands of names), built only if a reference needs one; the
    // vectors keep declaration order, which decides between equally close suggestions.
    let (var_set, local_set) = (OnceCell::new(), OnceCell::new());
    let declared = Declared::of(module);
    let mut out = Vec::new();
    for site in module_references(module) {
        let r = &site.reference;
        match r.root() {
            // Locals' own `var.`/`local.` references are not collected (`module_references`).
            "var" | "local" => {
                let (names, set, kind) = if r.root() == "var" {
                    (&vars, &var_set, "input variable")
                } else {
                    (&locals, &local_set, "local value")
                };
                let Some(name) = r.attr(0) else { continue };
                if set.get_or_init(|| names.iter().copied().collect::<FxHashSet<&str>>()).contains(name) {
                    continue;
                }
                let suggestion = closest(name, names.iter().copied()).map(|s| format!("{}.{s}", r.root()));
                let written = format!("{}.{name}", r.root());
                let msg = format!("reference to undeclared {kind} `{written}`");
                out.push(finding(site.file, r, 1, &written, msg, suggestion, file_text));
            }
            _ if !complete || site.context == Context::InitTime => {}
            _ => out.extend(declared.check(site.file, r, "", file_text)),
        }
    }
    if complete {
        import_targets(module, &declared, file_text, &mut out);
    }
    out
}

/// The references of an expression evaluated in the module of `dir` (the `eval` command, whose text is `text` in
/// [`EXPRESSION_FILE`](crate::db::EXPRESSION_FILE)) to resources, data sources and module calls it does not declare;
/// with no module there (`None`), it declares nothing. Nothing for a module whose files could not all be read or
/// parsed: a block lost to a syntax error must not look undeclared.
pub(crate) fn undeclared_in_expression(
    db: &dyn crate::db::Db,
    dir: Option<crate::db::ModuleDir>,
    text: &str,
    expr: &foreach_syntax::ast::Expr,
) -> Vec<Diagnostic> {
    let module = match dir {
        Some(dir) if !complete(db, dir) => return Vec::new(),
        Some(dir) => crate::db::module(db, dir),
        None => std::sync::Arc::new(Module::default()),
    };
    let declared = Declared::of(&module);
    let text: std::sync::Arc<str> = text.into();
    let file_text =
        |id: FileId| (id == crate::db::EXPRESSION_FILE).then(|| (text.clone(), foreach_syntax::FileKind::Tf));
    references(expr, &[]).iter().filter_map(|r| declared.check(crate::db::EXPRESSION_FILE, r, "", &file_text)).collect()
}

/// `aws_vpc.main`, `resource.aws_vpc.main`, `data.x.y`, `module.m`, as written.
fn written_address(r: &Reference, t: &Target) -> String {
    let mut s = r.root().to_string();
    for i in 0..t.parts(r) - 1 {
        s.push('.');
        s.push_str(r.attr(i).unwrap_or_default());
    }
    s
}

/// An `import` block's `to` must name a declared resource (or a declared module call, for a resource inside it).
fn import_targets(module: &Module, declared: &Declared, file_text: FileText<'_>, out: &mut Vec<Diagnostic>) {
    for o in module.others.iter().filter(|o| o.kind == "import") {
        let Some(to) = &o.target else { continue };
        // The address itself, not the references in its instance keys.
        let Some(r) = references(&to.expr(), &[]).into_iter().find(|r| r.range.start() == to.expr_range().start())
        else {
            continue;
        };
        let Some(t) = target(&r) else { continue };
        if declared.has(&t) {
            continue;
        }
        let written = written_address(&r, &t);
        let msg = match t {
            Target::ModuleCall(_) => {
                format!("this `import` targets `{written}`, a module call this module does not declare")
            }
            _ => format!(
                "this `import` targets `{written}`, which this module does not declare; OpenTofu imports only into \
                 declared resources (unless `tofu plan -generate-config-out` writes the block)"
            ),
        };
        let suggestion = declared.suggest(&t, r.root() == "resource");
        out.push(finding(to.file, &r, t.parts(&r) - 1, &written, msg, suggestion, file_text));
    }
}

/// A finding on the address `written` (the root and `steps` names of `r`), with the suggestion and, when the text
/// at the reference is exactly `written`, the quick fix replacing it.
fn finding(
    file: FileId,
    r: &Reference,
    steps: usize,
    written: &str,
    mut msg: String,
    suggestion: Option<String>,
    file_text: FileText<'_>,
) -> Diagnostic {
    let exact = TextRange::at(r.root_range.start(), TextSize::of(written));
    let text = file_text(file).map(|(t, _)| t);
    let is_exact = text.as_deref().and_then(|t| t.get(std::ops::Range::<usize>::from(exact))) == Some(written);
    let range = if is_exact {
        exact
    } else {
        // Spaces, comments or JSON escapes inside the reference: underline what the reference covers, on one line.
        let mut end = r.root_range.end();
        for i in 0..steps {
            end += TextSize::of(".") + TextSize::of(r.attr(i).unwrap_or_default());
        }
        let covered = TextRange::new(r.root_range.start(), end.min(r.range.end()).max(r.root_range.end()));
        let spans_lines = text.as_deref().and_then(|t| t.get(std::ops::Range::<usize>::from(covered)));
        if spans_lines.is_some_and(|t| t.contains('\n')) { r.root_range } else { covered }
    };
    if let Some(s) = &suggestion {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    let mut d = Diagnostic::new(Code::UndefinedReference, FileRange::new(file, range), msg);
    if let Some(s) = suggestion.filter(|_| is_exact) {
        d = d.with_fix(use_name(FileRange::new(file, exact), &s));
    }
    d
}

/// What a module declares, for lookups and suggestions.
pub(crate) struct Declared<'a> {
    resources: HashSet<(ResourceMode, &'a str, &'a str)>,
    calls: HashSet<&'a str>,
    /// Blocks only an override file adds (already reported): `aws_vpc.a`, `data.x.y`, `module.m`.
    override_only: HashSet<&'a str>,
    /// The module has Terraform `action` blocks, which OpenTofu refuses (`unknown-block-type` says so): references
    /// to them (`action.aws_lambda_invoke.run`) add nothing to that.
    has_actions: bool,
    module: &'a Module,
}

impl<'a> Declared<'a> {
    pub(crate) fn of(module: &'a Module) -> Declared<'a> {
        Declared {
            resources: module.resources.iter().map(|r| (r.mode, r.ty.as_str(), r.name.as_str())).collect(),
            calls: module.module_calls.iter().map(|c| c.name.as_str()).collect(),
            override_only: module.override_only.iter().map(String::as_str).collect(),
            has_actions: module.others.iter().any(|o| o.kind == "action"),
            module,
        }
    }

    /// The finding for `r` (in `file`) when it names a resource or module call the module does not declare;
    /// `whose` qualifies the message (`" of the module under test"`).
    pub(crate) fn check(
        &self,
        file: FileId,
        r: &Reference,
        whose: &str,
        file_text: FileText<'_>,
    ) -> Option<Diagnostic> {
        let t = target(r)?;
        if self.has(&t) || (self.has_actions && r.root() == "action") {
            return None;
        }
        let written = written_address(r, &t);
        let msg = format!("reference to undeclared {} `{written}`{whose}", self.kind(&t));
        let suggestion = self.suggest(&t, r.root() == "resource");
        Some(finding(file, r, t.parts(r) - 1, &written, msg, suggestion, file_text))
    }

    fn has(&self, t: &Target) -> bool {
        match *t {
            Target::Resource { mode, ty, name } => {
                self.resources.contains(&(mode, ty, name))
                    || (!self.override_only.is_empty() && self.override_only.contains(render(mode, ty, name).as_str()))
            }
            Target::ModuleCall(name) => {
                self.calls.contains(name)
                    || (!self.override_only.is_empty()
                        && self.override_only.contains(format!("module.{name}").as_str()))
            }
        }
    }

    fn kind(&self, t: &Target) -> &'static str {
        match t {
            Target::Resource { mode: ResourceMode::Managed, .. } => "resource",
            Target::Resource { mode: ResourceMode::Data, .. } => "data source",
            Target::Resource { mode: ResourceMode::Ephemeral, .. } => "ephemeral resource",
            Target::ModuleCall(_) => "module call",
        }
    }

    /// The declared address to suggest: the same type and name in another mode (a missing or extra `data.`, as
    /// OpenTofu suggests), else the closest name of the same type, else the only name of that type (with one
    /// `data.aws_ami` declared, `data.aws_ami.x` means it, however its name is spelt), else the closest type with
    /// the same name.
    fn suggest(&self, t: &Target, resource_prefix: bool) -> Option<String> {
        match *t {
            Target::Resource { mode, ty, name } => {
                let others = [ResourceMode::Managed, ResourceMode::Data, ResourceMode::Ephemeral];
                if let Some(m) = others.into_iter().find(|m| *m != mode && self.resources.contains(&(*m, ty, name))) {
                    return Some(render(m, ty, name));
                }
                let same_mode = || self.module.resources.iter().filter(move |r| r.mode == mode);
                let same_type = || same_mode().filter(|r| r.ty == ty).map(|r| r.name.as_str());
                let only = || {
                    let mut names = same_type();
                    let first = names.next()?;
                    // A block repeated (in an override file, or by mistake) is still one name.
                    names.all(|n| n == first).then_some(first)
                };
                let (ty, name) = match closest(name, same_type()).or_else(only) {
                    Some(n) => (ty, n),
                    None => (closest(ty, same_mode().filter(|r| r.name == name).map(|r| r.ty.as_str()))?, name),
                };
                let s = render(mode, ty, name);
                Some(if resource_prefix && mode == ResourceMode::Managed { format!("resource.{s}") } else { s })
            }
            Target::ModuleCall(name) => closest(name, self.calls.iter().copied()).map(|c| format!("module.{c}")),
        }
    }
}

/// Every reference of `module` that OpenTofu evaluates, with its file and context, except the `var.` and
/// `local.` references of locals: evaluating the local reports those (per instance, with its values), and
/// leaving them out spares building thousands of references on every keystroke in a generated module.
pub(crate) fn module_references(module: &Module) -> Vec<Site> {
    let mut out: Vec<Site> = Vec::new();
    let mut body = |b: &BodyRefs| {
        out.extend(b.refs.iter().map(|reference| Site { file: b.file, reference, context: Context::Body }))
    };
    for r in &module.resources {
        body(r.effective_body_refs());
    }
    for o in &module.outputs {
        body(&o.body_refs);
    }
    for v in &module.variables {
        if let Some(refs) = v.validation_refs() {
            body(refs);
        }
    }
    for p in &module.providers {
        body(&p.body_refs);
    }
    for o in &module.others {
        body(&o.body_refs);
    }
    let mut args: Vec<(&Arg, Context)> = Vec::new();
    for r in &module.resources {
        let meta = [r.for_each(), r.count(), r.enabled(), r.depends_on()];
        args.extend(meta.into_iter().flatten().map(|a| (a, Context::Body)));
    }
    args.extend(module.providers.iter().filter_map(|p| p.for_each.as_deref()).map(|a| (a, Context::Body)));
    for c in &module.module_calls {
        args.extend([&c.source, &c.version].into_iter().flatten().map(|b| (&**b, Context::InitTime)));
        let meta = [&c.for_each, &c.count, &c.enabled, &c.depends_on];
        args.extend(meta.into_iter().flatten().map(|b| (&**b, Context::Body)));
        args.extend(c.inputs.iter().map(|a| (a, Context::Body)));
    }
    args.extend(module.locals.iter().map(|l| (&l.arg, Context::Local)));
    for (a, context) in args {
        let skipped: &[&str] = if context == Context::Local { &["var", "local"] } else { &[] };
        out.extend(references(&a.expr(), skipped).into_iter().map(|r| Site { file: a.file, reference: r, context }));
    }
    out
}

/// A module read without syntax errors or unreadable files: an output lost to an error must not look undeclared.
pub(crate) fn complete(db: &dyn crate::db::Db, dir: crate::db::ModuleDir) -> bool {
    dir.files(db)
        .iter()
        .filter(|f| f.kind(db).is_config())
        .all(|f| f.load_error(db).is_none() && crate::db::file_summary(db, *f).syntax_errors.is_empty())
}
