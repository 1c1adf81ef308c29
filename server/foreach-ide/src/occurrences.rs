//! Occurrences of a named item: what is under the cursor (a declaration, a reference, a `.tfvars` assignment, a
//! module call argument) and every place that names it: its module's files, the `.tfvars` files that set a root
//! variable (`var_files.rs`: beside it, below it, given by the settings), and the callers that pass a variable or
//! read an output (`module.x.out`). Rename and find references both read this.
//!
//! Every span is checked to hold the name as written, so a caller can replace it without reading it again; a
//! reference whose name is not written plainly is reported in `unplain` rather than silently left out.

use foreach_syntax::ast::{Body, Expr};
use foreach_syntax::{TextRange, TextSize};

use foreach_analysis::base::{FileId, FileRange};
use foreach_analysis::db::{Db, ModuleDir, SourceFile, Workspace, module, parse};
use foreach_analysis::model::items::ResourceMode;
use foreach_analysis::model::refs::references;

use super::calls::{callers, child_dirs};
use super::cursor::reference_at;
use super::var_files::{assignments, root_var_files, var_file_owner};
use super::{FilePosition, dir_of, source_file, touches};

/// A named item of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Symbol {
    Variable(ModuleDir, String),
    Local(ModuleDir, String),
    Output(ModuleDir, String),
    ModuleCall(ModuleDir, String),
    /// `aws_s3_bucket.logs` (`data.…` with `data`); found, never renamed.
    Resource(ModuleDir, ResourceMode, String, String),
}

impl Symbol {
    pub fn name(&self) -> &str {
        match self {
            Symbol::Variable(_, n)
            | Symbol::Local(_, n)
            | Symbol::Output(_, n)
            | Symbol::ModuleCall(_, n)
            | Symbol::Resource(_, _, _, n) => n,
        }
    }

    pub fn dir(&self) -> ModuleDir {
        match self {
            Symbol::Variable(d, _)
            | Symbol::Local(d, _)
            | Symbol::Output(d, _)
            | Symbol::ModuleCall(d, _)
            | Symbol::Resource(d, ..) => *d,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Symbol::Variable(_, n) => format!("variable `{n}`"),
            Symbol::Local(_, n) => format!("local `{n}`"),
            Symbol::Output(_, n) => format!("output `{n}`"),
            Symbol::ModuleCall(_, n) => format!("module call `{n}`"),
            Symbol::Resource(_, ResourceMode::Data, t, n) => format!("data source `data.{t}.{n}`"),
            Symbol::Resource(_, _, t, n) => format!("resource `{t}.{n}`"),
        }
    }
}

/// One place that names a symbol: the span of the name alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub location: FileRange,
    pub declaration: bool,
}

/// Where a symbol is named, and the files where it is named in a way the spans cannot express.
#[derive(Debug, Default)]
pub(crate) struct Occurrences {
    pub sites: Vec<Occurrence>,
    /// Files with a reference whose name is not written plainly (`var . x`), and the directories searched.
    pub unplain: Vec<String>,
    pub dirs: Vec<ModuleDir>,
    /// JSON var files that set the variable (rename does not edit JSON).
    pub json: Vec<String>,
    /// Var files that set the variable for another root module too, with that root's directory.
    pub shared_var_files: Vec<(String, String)>,
}

/// The symbol under the cursor and the range of its name there.
pub(crate) fn symbol_at(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<(Symbol, TextRange)> {
    let file = source_file(db, ws, pos.file)?;
    let dir = dir_of(db, ws, file)?;
    let text = file.text(db);
    let text: &str = &text;
    if is_tfvars(file.file_name(db)) {
        let parsed = parse(db, file);
        let a = parsed.body.attributes().find(|a| touches(a.key.range, pos.offset))?;
        // `envs/prod.tfvars` sets the variables of the module above it.
        let owner = var_file_owner(db, ws, dir);
        return Some((Symbol::Variable(owner, a.key.name.to_string()), a.key.range));
    }
    let m = module(db, dir);
    let on = |f: FileId, r: TextRange| f == pos.file && touches(r, pos.offset);
    for v in &m.variables {
        if on(v.site.file, v.site.name_range) {
            return Some((Symbol::Variable(dir, v.name.to_string()), label_inner(text, v.site.name_range)));
        }
    }
    for l in &m.locals {
        if on(l.arg.file, l.arg.name.range) {
            return Some((Symbol::Local(dir, l.name.to_string()), l.arg.name.range));
        }
    }
    for o in &m.outputs {
        if on(o.site.file, o.site.name_range) {
            return Some((Symbol::Output(dir, o.name.clone()), label_inner(text, o.site.name_range)));
        }
    }
    for r in &m.resources {
        if on(r.site.file, r.site.name_range) {
            let symbol = Symbol::Resource(dir, r.mode, r.ty.to_string(), r.name.to_string());
            return Some((symbol, label_inner(text, r.site.name_range)));
        }
    }
    for c in &m.module_calls {
        if on(c.site.file, c.site.name_range) {
            return Some((Symbol::ModuleCall(dir, c.name.clone()), label_inner(text, c.site.name_range)));
        }
        // An argument of a module call names a variable of the child.
        if let Some(a) = c.inputs.iter().find(|a| on(a.file, a.name.range)) {
            let child = child_dirs(db, ws, dir, &c.name).into_iter().next()?;
            return Some((Symbol::Variable(child, a.name.name.to_string()), a.name.range));
        }
    }
    let parsed = parse(db, file);
    let at = reference_at(&parsed.body, pos.offset)?.reference;
    let name = at.attr(0)?.to_string();
    let first = attr_range(text, at.root_range.end(), &name)?;
    match at.root() {
        "var" => Some((Symbol::Variable(dir, name), first)),
        "local" => Some((Symbol::Local(dir, name), first)),
        "module" => {
            if pos.offset <= first.end() {
                return Some((Symbol::ModuleCall(dir, name), first));
            }
            let out = at.attr(1)?.to_string();
            let range = last_attr_range(text, at.range, &out)?;
            let child = child_dirs(db, ws, dir, &name).into_iter().next()?;
            Some((Symbol::Output(child, out), range))
        }
        "data" => {
            let res = at.attr(1)?.to_string();
            let range = last_attr_range(text, at.range, &res)?;
            Some((Symbol::Resource(dir, ResourceMode::Data, name, res), range))
        }
        root => {
            let r = m.resources.iter().find(|r| r.mode != ResourceMode::Data && r.ty == root && r.name == name)?;
            Some((Symbol::Resource(dir, r.mode, root.to_string(), name), first))
        }
    }
}

/// Every place that names `symbol`, sorted by file and position.
pub(crate) fn occurrences(db: &dyn Db, ws: Workspace, symbol: &Symbol) -> Occurrences {
    let mut out = Occurrences { dirs: vec![symbol.dir()], ..Occurrences::default() };
    let decl = |out: &mut Occurrences, location| out.sites.push(Occurrence { location, declaration: true });
    let dir = symbol.dir();
    let m = module(db, dir);
    match symbol {
        Symbol::Variable(_, name) => {
            for v in m.variables.iter().filter(|v| v.name == name) {
                decl(&mut out, label_location(db, ws, v.site.file, v.site.name_range));
            }
            refs_in_dir(db, dir, &mut out, |r| (r.root() == "var" && r.attr(0) == Some(name)).then_some(Step::First));
            // `variables { name = … }` in test files, at the top or in a `run` block.
            for f in config_files(db, dir).into_iter().filter(|f| is_test_file(f.file_name(db))) {
                let parsed = parse(db, f);
                let runs = parsed.body.blocks().filter(|b| b.ident.name == "run").map(|b| &b.body);
                for body in std::iter::once(&parsed.body).chain(runs) {
                    for b in body.blocks().filter(|b| b.ident.name == "variables") {
                        for a in b.body.attributes().filter(|a| a.key.name == name) {
                            let location = FileRange::new(f.id(db), a.key.range);
                            out.sites.push(Occurrence { location, declaration: false });
                        }
                    }
                }
            }
            // A root's var files wherever they are (`envs/prod.tfvars`, `--var-file`); any other module's beside it.
            let var_files = match root_var_files(db, ws, dir, name) {
                Some(v) => {
                    out.shared_var_files
                        .extend(v.shared.iter().map(|(f, other)| (f.path(db).to_string(), other.clone())));
                    v.files
                }
                None => dir.files(db).iter().filter(|f| f.kind(db).is_tfvars()).copied().collect(),
            };
            for f in var_files {
                match assignments(db, f, name) {
                    Ok(keys) => {
                        out.sites.extend(keys.into_iter().map(|location| Occurrence { location, declaration: false }))
                    }
                    Err(path) => out.json.push(path),
                }
            }
            for (caller, call) in callers(db, ws, dir) {
                out.dirs.push(caller);
                let cm = module(db, caller);
                for c in cm.module_calls.iter().filter(|c| c.name == call) {
                    for a in c.inputs.iter().filter(|a| a.name.name == name) {
                        let location = FileRange::new(a.file, a.name.range);
                        out.sites.push(Occurrence { location, declaration: false });
                    }
                }
            }
        }
        Symbol::Local(_, name) => {
            for l in m.locals.iter().filter(|l| l.name == name) {
                decl(&mut out, FileRange::new(l.arg.file, l.arg.name.range));
            }
            refs_in_dir(db, dir, &mut out, |r| (r.root() == "local" && r.attr(0) == Some(name)).then_some(Step::First));
        }
        Symbol::Output(_, name) => {
            for o in m.outputs.iter().filter(|o| &o.name == name) {
                decl(&mut out, label_location(db, ws, o.site.file, o.site.name_range));
            }
            for (caller, call) in callers(db, ws, dir) {
                out.dirs.push(caller);
                refs_in_dir(db, caller, &mut out, |r| {
                    (r.root() == "module" && r.attr(0) == Some(call.as_str()) && r.attr(1) == Some(name))
                        .then_some(Step::Last)
                });
            }
        }
        Symbol::ModuleCall(_, name) => {
            for c in m.module_calls.iter().filter(|c| &c.name == name) {
                decl(&mut out, label_location(db, ws, c.site.file, c.site.name_range));
            }
            refs_in_dir(db, dir, &mut out, |r| {
                (r.root() == "module" && r.attr(0) == Some(name)).then_some(Step::First)
            });
        }
        Symbol::Resource(_, mode, ty, name) => {
            for r in m.resources.iter().filter(|r| r.mode == *mode && r.ty == ty && r.name == *name) {
                decl(&mut out, label_location(db, ws, r.site.file, r.site.name_range));
            }
            refs_in_dir(db, dir, &mut out, |r| match mode {
                ResourceMode::Data => {
                    (r.root() == "data" && r.attr(0) == Some(ty) && r.attr(1) == Some(name)).then_some(Step::Last)
                }
                _ => (r.root() == ty && r.attr(0) == Some(name)).then_some(Step::First),
            });
        }
    }
    out.sites.sort_by_key(|o| (o.location.file, o.location.range.start()));
    out.sites.dedup();
    out
}

/// Which step of a matching reference is the name: the one after the root, or the last kept one.
enum Step {
    First,
    Last,
}

/// The references in every configuration file of `dir` that `matches` accepts: the span of the name.
fn refs_in_dir(
    db: &dyn Db,
    dir: ModuleDir,
    out: &mut Occurrences,
    matches: impl Fn(&foreach_analysis::model::refs::Reference) -> Option<Step>,
) {
    for f in config_files(db, dir) {
        let text = f.text(db);
        let text: &str = &text;
        let parsed = parse(db, f);
        walk(&parsed.body, &mut |expr| {
            for r in references(expr, &[]) {
                let Some(step) = matches(&r) else { continue };
                let range = match step {
                    Step::First => r.attr(0).and_then(|n| attr_range(text, r.root_range.end(), n)),
                    Step::Last => r.attr(1).and_then(|n| last_attr_range(text, r.range, n)),
                };
                match range {
                    Some(range) => {
                        out.sites.push(Occurrence { location: FileRange::new(f.id(db), range), declaration: false })
                    }
                    None => out.unplain.push(f.path(db).to_string()),
                }
            }
        });
    }
}

fn walk(body: &Body, f: &mut impl FnMut(&Expr)) {
    for a in body.attributes() {
        f(&a.value);
    }
    for b in body.blocks() {
        walk(&b.body, f);
    }
}

fn config_files(db: &dyn Db, dir: ModuleDir) -> Vec<SourceFile> {
    dir.files(db)
        .iter()
        .filter(|f| {
            let n = f.file_name(db);
            n.ends_with(".tf") || n.ends_with(".tofu") || is_test_file(n)
        })
        .copied()
        .collect()
}

fn is_test_file(name: &str) -> bool {
    name.ends_with(".tftest.hcl") || name.ends_with(".tofutest.hcl")
}

fn is_tfvars(name: &str) -> bool {
    name.ends_with(".tfvars")
}

/// The span of `.name` right after the root (`var` in `var.name`), when written plainly.
fn attr_range(text: &str, root_end: TextSize, name: &str) -> Option<TextRange> {
    let start = usize::from(root_end) + 1;
    let end = start + name.len();
    (text.get(start - 1..start) == Some(".") && text.get(start..end) == Some(name))
        .then(|| TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)))
}

/// The span of the last step `.name` of a reference's range.
fn last_attr_range(text: &str, range: TextRange, name: &str) -> Option<TextRange> {
    let end = usize::from(range.end());
    let start = end.checked_sub(name.len())?;
    (start > 0 && text.get(start - 1..start) == Some(".") && text.get(start..end) == Some(name))
        .then(|| TextRange::new(TextSize::from(start as u32), range.end()))
}

/// A block label's name without its quotes.
fn label_inner(text: &str, range: TextRange) -> TextRange {
    let s = text.get(std::ops::Range::<usize>::from(range)).unwrap_or_default();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        TextRange::new(range.start() + TextSize::from(1), range.end() - TextSize::from(1))
    } else {
        range
    }
}

fn label_location(db: &dyn Db, ws: Workspace, file: FileId, range: TextRange) -> FileRange {
    let inner = source_file(db, ws, file).map_or(range, |f| label_inner(&f.text(db), range));
    FileRange::new(file, inner)
}
