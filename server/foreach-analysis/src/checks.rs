//! Collects every diagnostic of the workspace: syntax, loading, module merging, the module tree, and (through the
//! modules that implement them) the semantic checks. One entry point, so the CLI and the language server report
//! exactly the same set.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use foreach_syntax::TextRange;

use crate::base::{FileId, FileRange};
use crate::chunks;
use crate::db::{Db, ModuleDir, Workspace, file_index, file_summary, module, parse};
use crate::diagnostics::{Code, Diagnostic};
use crate::fixes::line_endings;
use crate::init_settings::init_settings_checks;
use crate::module_eval::instance_values;
use crate::module_outputs::module_output_checks;
use crate::providers::checks::module_provider_checks;
use crate::providers::test_files::test_file_checks;
use crate::providers::tree_provider_checks;
use crate::refcheck::undefined_references;
use crate::suppress::{apply as apply_suppressions, file_suppressions};
use crate::tree::module_tree;
use crate::tree_model::NodeId;
use crate::vars::{WarnWhen, is_under, root_assignments};

/// A pass over the whole workspace: a query that reads the module tree and gives its findings.
pub type WorkspacePass = fn(&dyn Db, Workspace) -> Arc<Vec<Diagnostic>>;

/// The passes [`workspace_diagnostics`] gathers after the per-directory, root and instance chunks, in its order.
/// They do not read each other, so the host computes them on all cores before gathering
/// (`AnalysisHost::prime_diagnostics`): one after another they were a tenth of a `check` of the dev corpus.
pub const WORKSPACE_PASSES: &[WorkspacePass] = &[
    init_settings_checks,
    tree_provider_checks,
    test_file_checks,
    module_output_checks,
    crate::test_refs::test_file_references,
    crate::state::checks::state_checks,
    crate::versions::checks::version_checks,
];

#[salsa::tracked(returns(clone))]
pub fn workspace_diagnostics(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let mut out = Vec::new();
    let tree = module_tree(db, ws);
    let gather = |out: &mut Vec<Diagnostic>, part: Part, count: usize| {
        for chunk in chunks::chunks(count) {
            out.extend(chunk_diagnostics(db, ws, part, chunk).iter().cloned());
        }
    };
    gather(&mut out, Part::Dirs, ws.dirs(db).len());
    // In the order they were always gathered: deduplication below keeps the first of equal findings.
    out.extend(crate::tree_locations::tree_diagnostics(db, ws).iter().cloned());
    gather(&mut out, Part::Roots, tree.roots.len());
    gather(&mut out, Part::Instances, tree.nodes.len());
    for pass in WORKSPACE_PASSES {
        out.extend(pass(db, ws).iter().cloned());
    }
    finish(db, ws, &mut out);
    Arc::new(out)
}

/// What [`workspace_diagnostics`] does to the findings once gathered: revisions that need the module tree, the
/// instances or a state, suppression comments, line endings of fixes, order. Each finding is revised on its own (in
/// the context of the workspace, not of the other findings), so a part of the findings comes out as it would among
/// all of them ([`dir_diagnostics`]).
fn finish(db: &dyn Db, ws: Workspace, out: &mut Vec<Diagnostic>) {
    // Needs the module tree: a child's unknown aliased configuration that a caller declares.
    crate::providers::not_inherited::refine(db, ws, out);
    // Needs the instances: the keys a reference without `[…]` could select.
    crate::providers::missing_key::name_the_keys(db, ws, out);
    // With a state: whether removing an element would trap right now.
    crate::state::too_similar::annotate(db, ws, out);
    // Last: suppression comments, so that every code, from every pass, is silenced the same way. Only the files
    // with findings are looked at: this runs after every keystroke, in workspaces of thousands of files.
    let files = file_index(db, ws);
    let with_findings: HashSet<FileId> = out.iter().map(|d| d.location.file).collect();
    let suppressions: HashMap<_, _> = with_findings
        .iter()
        .filter_map(|id| Some((*id, file_suppressions(db, *files.get(id)?))))
        .filter(|(_, s)| !s.is_empty())
        .collect();
    apply_suppressions(out, &suppressions);
    // Fix builders write `\n`; files with CRLF line endings keep theirs. Only the texts of edited files are read.
    let edited: HashSet<FileId> =
        out.iter().flat_map(|d| &d.fixes).flat_map(|f| &f.edits).map(|e| e.location.file).collect();
    if !edited.is_empty() {
        let crlf: HashSet<FileId> = edited
            .into_iter()
            .filter(|id| files.get(id).is_some_and(|f| line_endings::uses_crlf(&f.text(db))))
            .collect();
        line_endings::match_files(out, |file| crlf.contains(&file));
    }
    sort_and_dedup(out);
}

/// The findings in the files of directory `path` that need neither a pass over the whole workspace nor every
/// instance: the directory's own ([`module_diagnostics`]) and those of its module's instances, revised as
/// [`workspace_diagnostics`] revises them, so each is one it reports too. Evaluates only those instances and their
/// callers. For a document opened while its workspace is indexed: its list once the workspace is loaded, before
/// the rest is evaluated (`foreach-lsp`'s `early.rs`).
pub fn dir_diagnostics(db: &dyn Db, ws: Workspace, path: &str) -> Vec<Diagnostic> {
    let Some(dir) = crate::db::dir_index(db, ws).get(path).copied() else { return Vec::new() };
    let files: HashSet<FileId> = dir.files(db).iter().map(|f| f.id(db)).collect();
    let mut out: Vec<Diagnostic> = module_diagnostics(db, dir).to_vec();
    let tree = module_tree(db, ws);
    for (index, node) in tree.nodes.iter().enumerate() {
        if node.dir == dir {
            out.extend(instance_values(db, ws, NodeId(index as u32)).diagnostics.iter().cloned());
        }
    }
    out.retain(|d| files.contains(&d.location.file));
    finish(db, ws, &mut out);
    out
}

/// The codes whose findings in a directory are decided by that directory's files alone: [`module_diagnostics`]
/// reports them, and no pass over the module tree adds, removes or rewords one (unlike the provider checks, which
/// `not_inherited::refine` and `missing_key::name_the_keys` revise with the callers in view).
pub const DIR_LOCAL_CODES: &[Code] = &[
    Code::SyntaxError,
    Code::UnreadableFile,
    Code::EncryptedFile,
    Code::DuplicateBlock,
    Code::UnexpectedAttribute,
    Code::UnknownBlockType,
    Code::InvalidBlockLabels,
    Code::ShadowedByTofuFile,
    Code::OverrideWithoutBase,
    Code::UndefinedReference,
];

/// The codes whose findings in a root module's own files its root instance decides by itself, when the root refers
/// to no called module's outputs and reads no files: which provider instance each reference selects (the keys come
/// from the root's variables, `.tfvars` files and locals). The language server publishes them for a plain root
/// loaded alone, before the workspace is indexed (`foreach-lsp`'s `early.rs`, `foreach_load::plain_root`).
pub const ROOT_INSTANCE_CODES: &[Code] = &[
    Code::UnknownProviderInstance,
    Code::MissingProviderInstanceKey,
    Code::UnexpectedProviderInstanceKey,
    Code::InvalidProviderInstanceKey,
];

/// The codes whose findings in a module's own files its instances decide, once every directory on a path of calls
/// from a root down to it is loaded (and what those that read a called module's outputs call), none of them reading
/// files: the provider instances its references select, and what evaluating its variables and locals with its
/// callers' arguments reports. The language server publishes them for such a module, loaded with those directories,
/// before the workspace is indexed (`foreach-lsp`'s `early.rs`, `foreach_load::plain_root::first_look`).
pub const MODULE_INSTANCE_CODES: &[Code] = &[
    Code::UnknownProviderInstance,
    Code::MissingProviderInstanceKey,
    Code::UnexpectedProviderInstanceKey,
    Code::InvalidProviderInstanceKey,
    Code::EvaluationError,
];

/// The findings of the directory `path` whose codes are in [`DIR_LOCAL_CODES`], with its files' suppression
/// comments applied: exactly those [`workspace_diagnostics`] reports for them in any workspace that holds the
/// directory with the same files. For a first look at a document's directory before its workspace is loaded.
pub fn dir_local_diagnostics(db: &dyn Db, ws: Workspace, path: &str) -> Vec<Diagnostic> {
    let Some(dir) = ws.dirs(db).iter().find(|d| d.path(db) == path).copied() else { return Vec::new() };
    let mut out: Vec<Diagnostic> =
        module_diagnostics(db, dir).iter().filter(|d| DIR_LOCAL_CODES.contains(&d.code)).cloned().collect();
    let suppressions: HashMap<_, _> =
        dir.files(db).iter().map(|f| (f.id(db), file_suppressions(db, *f))).filter(|(_, s)| !s.is_empty()).collect();
    apply_suppressions(&mut out, &suppressions);
    sort_and_dedup(&mut out);
    out
}

/// What a chunk gathers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Part {
    /// Each directory's own diagnostics ([`module_diagnostics`]).
    Dirs,
    /// Each root's variable assignments (`.tfvars`, `-var`).
    Roots,
    /// Each module instance's evaluation.
    Instances,
}

/// The diagnostics of one chunk of a [`Part`] (`chunks.rs`: a keystroke re-runs the chunk that holds the edited
/// module, not a gathering over every directory and instance).
#[salsa::tracked(returns(clone))]
fn chunk_diagnostics(db: &dyn Db, ws: Workspace, part: Part, chunk: u32) -> Arc<Vec<Diagnostic>> {
    let range = |len: usize| chunks::items(chunk, len);
    let mut out = Vec::new();
    match part {
        Part::Dirs => {
            let dirs = ws.dirs(db);
            for dir in &dirs[range(dirs.len())] {
                out.extend(module_diagnostics(db, *dir).iter().cloned());
            }
        }
        Part::Roots => {
            let tree = module_tree(db, ws);
            for root in &tree.roots[range(tree.roots.len())] {
                out.extend(root_assignment_diagnostics(db, ws, tree.node(*root).dir));
            }
        }
        Part::Instances => {
            for index in range(module_tree(db, ws).nodes.len()) {
                out.extend(instance_values(db, ws, NodeId(index as u32)).diagnostics.iter().cloned());
            }
        }
    }
    Arc::new(out)
}

/// The diagnostics of one directory on its own: syntax and read errors of its files, merging, undefined
/// references, shadowed files. Keyed by directory, so an edit re-runs this only for the edited module.
#[salsa::tracked(returns(clone))]
pub fn module_diagnostics(db: &dyn Db, dir: ModuleDir) -> Arc<Vec<Diagnostic>> {
    let mut out = Vec::new();
    for file in dir.files(db).iter() {
        let id = file.id(db);
        if let Some(err) = file.load_error(db) {
            let code =
                if err == crate::diagnostics::GIT_CRYPT_ENCRYPTED { Code::EncryptedFile } else { Code::UnreadableFile };
            out.push(Diagnostic::new(code, FileRange::new(id, TextRange::default()), err.clone()));
            continue;
        }
        let errors = if file.kind(db).is_config() {
            file_summary(db, *file).syntax_errors.to_vec()
        } else {
            parse(db, *file).errors.clone()
        };
        for e in errors {
            out.push(Diagnostic::new(Code::SyntaxError, FileRange::new(id, e.range), e.message));
        }
    }
    if dir.files(db).iter().any(|f| f.kind(db).is_config()) {
        let m = module(db, dir);
        out.extend(m.diagnostics.iter().cloned());
        let file_text = |id| dir.files(db).iter().find(|f| f.id(db) == id).map(|f| (f.text(db), f.kind(db)));
        // A block lost to a syntax error or an unreadable file must not make references to it look undeclared.
        let complete = crate::refcheck::complete(db, dir);
        out.extend(undefined_references(&m, &file_text, complete));
        let mut provider_diags = module_provider_checks(&m);
        let alias_for = |name: &str| crate::providers::config::suggested_alias(&m, name);
        crate::fixes::add_alias::attach(&m, &mut provider_diags, &file_text, &alias_for);
        out.extend(provider_diags);
        for (shadowed, winner) in &m.shadowed {
            let winner_name = dir
                .files(db)
                .iter()
                .find(|f| f.id(db) == *winner)
                .map(|f| f.file_name(db).to_string())
                .unwrap_or_default();
            out.push(Diagnostic::new(
                Code::ShadowedByTofuFile,
                FileRange::new(*shadowed, TextRange::default()),
                format!("OpenTofu ignores this file because `{winner_name}` exists next to it"),
            ));
        }
    }
    Arc::new(out)
}

/// Stable order (file, position, code) and no exact duplicates (a shared module can report the same problem from
/// several instances).
pub fn sort_and_dedup(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| {
        (a.location.file, a.location.range.start(), a.location.range.end(), a.code, &a.message).cmp(&(
            b.location.file,
            b.location.range.start(),
            b.location.range.end(),
            b.code,
            &b.message,
        ))
    });
    let mut seen = HashSet::new();
    diags.retain(|d| seen.insert((d.location, d.code, d.message.clone())));
}

/// The diagnostics of a root's assignments, including the undeclared-value warnings that apply.
pub fn root_assignment_diagnostics(db: &dyn Db, ws: Workspace, dir: ModuleDir) -> Vec<Diagnostic> {
    let a = root_assignments(db, ws, dir);
    let mut out = a.diagnostics.clone();
    if a.undeclared.is_empty() {
        return out;
    }
    let tree = module_tree(db, ws);
    for (when, d) in &a.undeclared {
        let applies = match when {
            WarnWhen::SingleRoot => tree.roots.len() <= 1,
            WarnWhen::SingleRootUnder(under) => {
                tree.roots.iter().filter(|r| is_under(tree.node(**r).dir.path(db), under)).count() <= 1
            }
            WarnWhen::Never => false,
        };
        if applies {
            out.push(d.clone());
        }
    }
    out
}
