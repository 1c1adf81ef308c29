//! References to outputs that a called module does not declare (`module.net.vpc_idd`), which OpenTofu reports as
//! "Unsupported attribute": a call's value is an object with exactly the outputs of the module it loads.
//!
//! Only calls whose module is loaded are checked (a registry or git source that `tofu init` has not installed here
//! is not), and only through the form the call's value has: `module.m.out` for a call without `count` and
//! `for_each`, `module.m[key].out` or `module.m[*].out` for one with them. With `for_each`, `module.m.name` selects
//! the instance `name`, not an output, so it is not checked. Each (calling directory, call, called directory) is
//! checked once, however many instances the tree has.

use std::collections::HashSet;
use std::sync::Arc;

use foreach_syntax::{TextRange, TextSize};

use crate::base::{FileId, FileRange, FileText};
use crate::chunks;
use crate::db::{Db, ModuleDir, Workspace, module};
use crate::diagnostics::{Code, Diagnostic};
use crate::fixes::use_name::use_name;
use crate::model::items::ModuleCall;
use crate::model::module::Module;
use crate::model::refs::Reference;
use crate::refcheck::{complete, module_references};
use crate::suggest::closest;
use crate::tree::{CallTarget, module_tree};

#[salsa::tracked(returns(clone))]
pub fn module_output_checks(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let tree = module_tree(db, ws);
    let mut out = Vec::new();
    let mut done: HashSet<CallKey> = HashSet::new();
    for chunk in chunks::chunks(tree.nodes.len()) {
        for (key, diags) in chunk_output_checks(db, ws, chunk).iter() {
            if done.insert(key.clone()) {
                out.extend(diags.iter().cloned());
            }
        }
    }
    Arc::new(out)
}

/// A call that loads a module: the calling directory, the call's name and the called directory. A module called
/// from many instances of its caller is checked once per key.
type CallKey = (ModuleDir, String, ModuleDir);

/// The output checks of the calls of one chunk of tree nodes, by call, with the calls whose checks find nothing
/// left out (`chunks.rs`: a keystroke re-runs one chunk, not a gathering over every call of the workspace).
#[salsa::tracked(returns(clone))]
fn chunk_output_checks(db: &dyn Db, ws: Workspace, chunk: u32) -> Arc<Vec<(CallKey, Arc<Vec<Diagnostic>>)>> {
    let tree = module_tree(db, ws);
    let mut out = Vec::new();
    let mut done: HashSet<(ModuleDir, &str, ModuleDir)> = HashSet::new();
    for node in &tree.nodes[chunks::items(chunk, tree.nodes.len())] {
        for child in &node.children {
            let CallTarget::Node(id) = child.target else { continue };
            let child_dir = tree.node(id).dir;
            if done.insert((node.dir, child.call.as_str(), child_dir)) {
                let diags = call_output_checks(db, node.dir, child.call.clone(), child_dir);
                if !diags.is_empty() {
                    out.push(((node.dir, child.call.clone(), child_dir), diags));
                }
            }
        }
    }
    Arc::new(out)
}

/// The checks of one call from `parent` that loads `child`: a query of its own, so that an edit re-checks only the
/// calls of the edited module and the calls that load it.
#[salsa::tracked(returns(clone))]
fn call_output_checks(db: &dyn Db, parent: ModuleDir, call: String, child: ModuleDir) -> Arc<Vec<Diagnostic>> {
    let mut out = Vec::new();
    if !complete(db, child) {
        return Arc::new(out);
    }
    let parent_module = module(db, parent);
    let Some(call) = parent_module.module_call(&call) else { return Arc::new(out) };
    let refs = output_references(db, parent);
    let file_text = |id| file_text(db, parent, id);
    let sites = refs.iter().filter(|(_, r)| r.attr(0) == Some(call.name.as_str())).map(|(file, r)| (*file, r));
    check_outputs(call, &module(db, child), sites, &file_text, &mut out);
    Arc::new(out)
}

/// The references of a module to outputs of its calls (`module.m.out`, `module.m[0].out`). A query of its own, so
/// that an edit re-collects them only for the edited module.
#[salsa::tracked(returns(clone))]
fn output_references(db: &dyn Db, dir: ModuleDir) -> Arc<Vec<(FileId, Reference)>> {
    let m = module(db, dir);
    let refs =
        module_references(&m).into_iter().filter(|s| s.reference.root() == "module" && s.reference.attr(1).is_some());
    let mut refs: Vec<(FileId, Reference)> = refs.map(|s| (s.file, s.reference)).collect();
    // Collected in place, the list would keep the buffer of every reference of the module (3 MB on the dev corpus)
    // for the few that read an output.
    refs.shrink_to_fit();
    Arc::new(refs)
}

pub(crate) fn file_text(db: &dyn Db, dir: ModuleDir, id: FileId) -> Option<(Arc<str>, foreach_syntax::FileKind)> {
    dir.files(db).iter().find(|f| f.id(db) == id).map(|f| (f.text(db), f.kind(db)))
}

/// Reports the references among `refs` to outputs of `call` that `child`, the module it loads, does not declare.
pub(crate) fn check_outputs<'a>(
    call: &ModuleCall,
    child: &Module,
    refs: impl Iterator<Item = (FileId, &'a Reference)>,
    file_text: FileText<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let repeated = call.count.is_some() || call.for_each.is_some();
    let outputs: Vec<&str> = child.outputs.iter().map(|o| o.name.as_str()).collect();
    for (file, r) in refs {
        if r.root() != "module" || r.attr(0) != Some(call.name.as_str()) || r.selects_instance() != repeated {
            continue;
        }
        let Some(name) = r.attr(1) else { continue };
        if outputs.contains(&name) {
            continue;
        }
        // The output name ends the reference's range.
        let at = TextRange::new(r.range.end().checked_sub(TextSize::of(name)).unwrap_or_default(), r.range.end());
        let text = file_text(file).map(|(t, _)| t);
        let exact = text.as_deref().and_then(|t| t.get(std::ops::Range::<usize>::from(at))) == Some(name);
        let range = if exact { at } else { r.root_range };
        let suggestion = closest(name, outputs.iter().copied());
        let mut msg =
            format!("reference to output `{name}` of module call `{}`, which its module does not declare", call.name);
        if let Some(s) = suggestion {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        let mut d = Diagnostic::new(Code::UndefinedReference, FileRange::new(file, range), msg)
            .with_related(call.site.name_location(), format!("`module.{}` is declared here", call.name));
        if let Some(s) = suggestion.filter(|_| exact) {
            d = d.with_fix(use_name(FileRange::new(file, at), s));
        }
        out.push(d);
    }
}
