//! Whether a directory is surely a plain root module, or a module whose instances a few directories decide, told
//! from the files on disk in about the time it takes to read them (only files that may hold a `module` block are
//! parsed, to read their calls' sources): for a first look at the module of a
//! document opened while its workspace is still being loaded. The language server then evaluates that root alone,
//! or the module with those directories (`foreach-lsp`'s `early.rs`), and publishes what the module's own instances
//! decide before the index is built; so this must never answer yes for a directory that the loaded workspace could
//! evaluate otherwise. Whatever it cannot be sure of answers [`FirstLook::Unsure`]:
//!
//! - which module calls load the directory: the `source` of every `module` block in every OpenTofu file under the
//!   workspace folders is read, git-ignored and excluded directories included (in a file with a syntax error, every
//!   `source = "..."` and JSON `"source": "..."`, whatever block holds it). One written with an interpolation or not as a literal string could lead anywhere, and
//!   so could a `modules.json` of `tofu init` (it maps sources to directories), a linked directory (the loader may
//!   walk it) or a call into a directory outside the folders (loading follows that directory's own calls). A
//!   module's instances are decided by every directory on a path of calls from a root (a directory nothing calls)
//!   down to it, and, below those that read a called module's outputs, by everything they call;
//! - its values may come from elsewhere: a state (`terraform.tfstate`, `terraform.tfstate.d`), a `.terraform`
//!   directory (the selected workspace), a wrapper that supplies its inputs (terragrunt, atmos);
//! - the loaded workspace must have the same roots: a root the loader's walk skips (git-ignored) is none, so a module
//!   it calls is unsure (and so, in the language server, is every module while exclude globs are set);
//! - its evaluation may need more than those directories: a file function (`file(...)`, `templatefile(...)`, ...)
//!   in any of them, whose files the first look does not read; and a plain root must not refer to a called module's
//!   outputs (`module.`), since it is loaded alone.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foreach_analysis::paths::{is_local_source, join_normalized};
use foreach_syntax::FileKind;

use crate::path_string;

/// What the first look found a directory to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstLook {
    /// A root module that depends on its own directory alone: no module call can load it.
    PlainRoot,
    /// A module whose instances these directories decide (sorted, the module's own among them): every directory
    /// on a path of calls from a root down to it, and below those that read a called module's outputs, everything
    /// they call. Loaded alone, they give the module the instances and values the whole workspace gives it.
    Module { dirs: Vec<PathBuf> },
    /// Anything else, or anything this could not be sure of.
    Unsure,
}

/// What `dir` surely is in a workspace made of `folders` (both canonical, else [`FirstLook::Unsure`]). `open` gives
/// the texts of files an editor holds (they replace the disk's).
pub fn first_look(folders: &[PathBuf], dir: &Path, open: &HashMap<String, Arc<str>>) -> FirstLook {
    // Before reading the workspace: most directories with a reason to be unsure have it at hand.
    if !values_its_own(folders, dir) {
        return FirstLook::Unsure;
    }
    Calls::read(folders, open).map_or(FirstLook::Unsure, |calls| calls.look(dir))
}

/// Every module call of a workspace, read once, for first looks at any of its directories.
pub struct Calls<'a> {
    folders: &'a [PathBuf],
    open: &'a HashMap<String, Arc<str>>,
    /// Each OpenTofu file and where its `source`s lead.
    calls: Vec<(PathBuf, Vec<Lead>)>,
}

impl<'a> Calls<'a> {
    /// The calls of the workspace made of `folders` (canonical), `open` giving the texts of files an editor holds;
    /// `None` when unsure what the loader walks or maps.
    pub fn read(folders: &'a [PathBuf], open: &'a HashMap<String, Arc<str>>) -> Option<Calls<'a>> {
        if !folders.iter().all(|f| is_canonical(f)) {
            return None;
        }
        // Walked, then read and searched on this thread: rayon's pool is busy with the indexing meanwhile, and a
        // task queued there would wait for it.
        let mut files = Vec::new();
        for folder in folders {
            if !walk(folder, &mut files) {
                return None;
            }
        }
        let calls = files.into_iter().map(|f| {
            let leads = calls_in(&f, folders, open);
            (f, leads)
        });
        Some(Calls { folders, open, calls: calls.collect() })
    }

    /// What `dir` surely is.
    pub fn look(&self, dir: &Path) -> FirstLook {
        if !values_its_own(self.folders, dir) {
            return FirstLook::Unsure;
        }
        let Some(callers) = callers_of(&self.calls, dir) else { return FirstLook::Unsure };
        if callers.is_empty() {
            let reads = reads_of(dir, self.open);
            return if reads.files || reads.outputs { FirstLook::Unsure } else { FirstLook::PlainRoot };
        }
        module_look(self.folders, &self.calls, dir, self.open)
    }
}

/// [`Calls::look`] at a module that has callers.
fn module_look(
    folders: &[PathBuf],
    calls: &[(PathBuf, Vec<Lead>)],
    dir: &Path,
    open: &HashMap<String, Arc<str>>,
) -> FirstLook {
    // Up from the module to every root above it.
    let mut chain = BTreeSet::from([dir.to_path_buf()]);
    let mut up = vec![dir.to_path_buf()];
    let mut roots = 0;
    while let Some(d) = up.pop() {
        let Some(callers) = callers_of(calls, &d) else { return FirstLook::Unsure };
        // A root the loader does not walk (git-ignored) is no root of the loaded workspace: its instances of the
        // module would not be the index's.
        if callers.is_empty() && !walked(folders, &d) {
            return FirstLook::Unsure;
        }
        roots += usize::from(callers.is_empty());
        for caller in callers {
            // A cycle through the module: the trees that reach it are cut where the analysis finds the cycle.
            if caller == dir {
                return FirstLook::Unsure;
            }
            if chain.insert(caller.clone()) {
                up.push(caller);
            }
        }
    }
    // No root above it (a cycle of calls): nothing instantiates it.
    if roots == 0 || !chain.iter().all(|d| values_its_own(folders, d)) {
        return FirstLook::Unsure;
    }
    // Down from those that read their calls' outputs: everything below them.
    let mut decide = chain.clone();
    let mut down: Vec<PathBuf> = Vec::new();
    for d in &chain {
        let reads = reads_of(d, open);
        if reads.files {
            return FirstLook::Unsure;
        }
        if reads.outputs {
            down.extend(called_by(calls, d));
        }
    }
    while let Some(d) = down.pop() {
        if decide.insert(d.clone()) {
            if reads_of(&d, open).files {
                return FirstLook::Unsure;
            }
            down.extend(called_by(calls, &d));
        }
    }
    FirstLook::Module { dirs: decide.into_iter().collect() }
}

/// Whether `dir` is canonical, inside the folders, and has no state, `.terraform` or wrapper: nothing gives its
/// variables values but its own files and its callers.
fn values_its_own(folders: &[PathBuf], dir: &Path) -> bool {
    // Paths spelt through a link would not compare equal to the directories the calls lead to.
    if !is_canonical(dir) || !folders.iter().any(|f| dir.starts_with(f)) {
        return false;
    }
    if dir.components().any(|c| c.as_os_str() == ".terraform") {
        return false;
    }
    if ["terraform.tfstate", "terraform.tfstate.d", ".terraform"].iter().any(|n| dir.join(n).exists()) {
        return false;
    }
    // Looked for up to the boundaries the loader uses: the repositories of the folders (or the folders).
    let boundaries: Vec<PathBuf> = folders.iter().map(|f| crate::read_boundary(f)).collect();
    crate::wrappers::input_wrappers([dir], &boundaries).is_empty()
}

/// Whether the loader's walk of the folders reaches `dir`: no directory it skips on the way (`.terraform`, `.git`,
/// ...), and none of the directories below the folder down to `dir` matched by an ignore file above it
/// (`.gitignore`, `.ignore`, the repository's `.git/info/exclude`), as the walk matches each directory it enters
/// (the folder itself is always walked). Any match answers no, even one a deeper file re-includes.
fn walked(folders: &[PathBuf], dir: &Path) -> bool {
    let Some(folder) = folders.iter().find(|f| dir.starts_with(f)) else { return false };
    let below = dir.strip_prefix(folder).unwrap_or(dir);
    if below.components().any(|c| crate::SKIPPED_DIRS.iter().any(|s| c.as_os_str() == *s)) {
        return false;
    }
    let boundary = crate::read_boundary(folder);
    let mut ignores: Vec<ignore::gitignore::Gitignore> = Vec::new();
    let exclude = boundary.join(".git/info/exclude");
    if exclude.is_file() {
        let mut builder = ignore::gitignore::GitignoreBuilder::new(&boundary);
        builder.add(&exclude);
        let Ok(gitignore) = builder.build() else { return false };
        ignores.push(gitignore);
    }
    for a in dir.ancestors().skip(1).take_while(|a| a.starts_with(&boundary)) {
        for file in [".gitignore", ".ignore"].iter().map(|n| a.join(n)).filter(|f| f.is_file()) {
            let (gitignore, error) = ignore::gitignore::Gitignore::new(&file);
            if error.is_some() {
                return false;
            }
            ignores.push(gitignore);
        }
    }
    // Each directory the walk enters on its way, with the ignore files of the directories above it.
    let entered = dir.ancestors().take_while(|a| a.starts_with(folder) && *a != folder.as_path());
    entered.into_iter().all(|a| {
        ignores.iter().filter(|g| a != g.path() && a.starts_with(g.path())).all(|g| !g.matched(a, true).is_ignore())
    })
}

/// What the files of a directory read besides themselves.
struct Reads {
    /// A called module's outputs (`module.`).
    outputs: bool,
    /// Files, through a file function (`file(...)`, `templatefile(...)`, ...), which the first look does not read.
    files: bool,
}

/// [`Reads`] of the OpenTofu files of `dir`; an unreadable one could read anything.
fn reads_of(dir: &Path, open: &HashMap<String, Arc<str>>) -> Reads {
    let mut own = Vec::new();
    crate::list_dir(dir, &mut own);
    let mut reads = Reads { outputs: false, files: false };
    for file in &own {
        let Some(text) = text_of(file, open) else { return Reads { outputs: true, files: true } };
        reads.outputs |= reads_outputs(&text);
        reads.files |= reads_files(&text);
    }
    reads
}

fn is_canonical(p: &Path) -> bool {
    p.canonicalize().is_ok_and(|c| c == p)
}

/// The existing directories the files of `dir` call.
fn called_by(calls: &[(PathBuf, Vec<Lead>)], dir: &Path) -> Vec<PathBuf> {
    calls
        .iter()
        .filter(|(file, _)| file.parent() == Some(dir))
        .flat_map(|(_, leads)| leads)
        .filter_map(|lead| match lead {
            Lead::To { canonical: Some(c), .. } => Some(PathBuf::from(c)),
            _ => None,
        })
        .collect()
}

/// The directories whose files surely call `target` (sorted), or `None` when some call could lead there without
/// this being sure.
fn callers_of(calls: &[(PathBuf, Vec<Lead>)], target: &Path) -> Option<Vec<PathBuf>> {
    let target = path_string(target);
    let mut callers = Vec::new();
    for (file, leads) in calls {
        for lead in leads {
            match lead {
                Lead::Anywhere => return None,
                Lead::To { joined, canonical } if *joined == target || canonical.as_deref() == Some(&*target) => {
                    callers.extend(file.parent().map(Path::to_path_buf));
                }
                Lead::To { .. } => {}
            }
        }
    }
    callers.sort();
    callers.dedup();
    Some(callers)
}

/// Lists the OpenTofu files (not variables files) under `dir` into `out`; false when unsure what the loader walks
/// (a linked directory) or maps (a `modules.json`).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return true };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(file_type) = entry.file_type() else { continue };
        let name = entry.file_name();
        let name = name.to_str().unwrap_or_default();
        if file_type.is_symlink() && path.is_dir() {
            return false;
        } else if file_type.is_dir() {
            let sure = match name {
                ".git" => true,
                // Copies of remote modules, reached only through `modules.json`.
                ".terraform" => !path.join("modules/modules.json").exists(),
                _ => walk(&path, out),
            };
            if !sure {
                return false;
            }
        } else if is_configuration(name) {
            out.push(path);
        }
    }
    true
}

/// Where a module call may lead.
pub(crate) enum Lead {
    /// The directory a local source names: as written, joined to the calling file's directory, and canonical (when
    /// it exists; a call to a missing directory loads nothing, and the analysis reports it).
    To { joined: String, canonical: Option<String> },
    /// Anywhere: a source that is not a literal string, or one this cannot follow (a subdirectory `//` of a
    /// package, a directory outside the folders, whose own calls loading follows).
    Anywhere,
}

/// Where the `source`s of the file at `path` lead, registry and git addresses left out (only a `modules.json`, which
/// the walk refuses, maps them to directories).
fn calls_in(path: &Path, folders: &[PathBuf], open: &HashMap<String, Arc<str>>) -> Vec<Lead> {
    let on_disk;
    let text: &[u8] = match open.get(&path_string(path)) {
        Some(text) => text.as_bytes(),
        None => {
            // Unreadable: it declares nothing, in the analysis either.
            let Ok(bytes) = std::fs::read(path) else { return Vec::new() };
            on_disk = bytes;
            &on_disk
        }
    };
    // A file without a `module` block makes no call, whatever its `source` attributes hold (an event pattern's
    // `source = ["aws.s3"]`, an archive's `source = local.path`): in a monorepo one of those made every directory
    // unsure.
    if !may_declare_module_blocks(text) {
        return Vec::new();
    }
    let base = path.parent().map(path_string).unwrap_or_default();
    // Every `source = "..."` whatever block holds it: a literal that is not a module's only adds a directory to load.
    let by_text: Vec<Lead> = memchr::memmem::find_iter(text, b"source")
        .filter_map(|at| match source_at(text, at) {
            Source::NotOne => None,
            Source::Unknown => Some(Lead::Anywhere),
            Source::Literal(s) if is_local_source(s) => Some(lead(&base, s, folders)),
            Source::Literal(_) => None,
        })
        .collect();
    if !by_text.iter().any(|l| matches!(l, Lead::Anywhere)) {
        return by_text;
    }
    // One that could lead anywhere: exactly, from the parse, when the file is valid, where a `source` of another
    // block (a firewall rule's `source = { ... }` beside a module call) is none. Parsed only then: while the
    // workspace loads beside it, parsing every file with a module block (a generated root of 500 calls) took the
    // first look from 15 to 180 ms.
    let kind = path.file_name().and_then(|n| FileKind::from_file_name(&n.to_string_lossy()));
    if let (Ok(text), Some(kind)) = (std::str::from_utf8(text), kind) {
        let parsed = foreach_syntax::parse(text, kind);
        if parsed.errors.is_empty() {
            let sources = parsed.body.blocks_named("module").filter_map(|b| b.body.attribute("source"));
            return sources
                .filter_map(|source| match source.value.as_string_literal() {
                    Some(s) if is_local_source(&s) => Some(lead(&base, &s, folders)),
                    Some(_) => None,
                    None => Some(Lead::Anywhere),
                })
                .collect();
        }
    }
    by_text
}

/// Where the local source `source` of a file in `base` leads.
fn lead(base: &str, source: &str, folders: &[PathBuf]) -> Lead {
    if source.contains("//") {
        return Lead::Anywhere;
    }
    let joined = join_normalized(base, source);
    match Path::new(&joined).canonicalize() {
        Ok(canonical) if !folders.iter().any(|f| canonical.starts_with(f)) => Lead::Anywhere,
        Ok(canonical) => Lead::To { joined, canonical: Some(path_string(&canonical)) },
        Err(_) => Lead::To { joined, canonical: None },
    }
}

/// Whether a text may hold a `module` block: the word `module` first on its line (or after a `*/` there), followed
/// by a label (`module "app"`, `module app`), or the JSON key `"module":`. Not `path.module`, `module.app.id`, nor
/// the word in a `#` comment or a description ("this module creates ..."), which would have the file parsed for
/// nothing.
fn may_declare_module_blocks(text: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    memchr::memmem::find_iter(text, b"module").any(|at| {
        let before = at.checked_sub(1).map(|i| text[i]);
        let after = &text[at + "module".len()..];
        if before == Some(b'"') {
            // JSON: `"module"` then a colon.
            return after.first() == Some(&b'"') && after[1..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':');
        }
        let line_start = memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1);
        let prefix = &text[line_start..at];
        let first_on_line =
            prefix.iter().all(|b| *b == b' ' || *b == b'\t') || memchr::memmem::find(prefix, b"*/").is_some();
        let mut label = after.iter().skip_while(|b| **b == b' ' || **b == b'\t');
        first_on_line
            && after.first().is_some_and(|b| *b == b' ' || *b == b'\t')
            && label.next().is_some_and(|b| *b == b'"' || ident(*b))
    })
}

/// What follows an occurrence of `source` at `at`.
enum Source<'t> {
    /// Not an attribute named `source` (`source_arn`, a word in a comment).
    NotOne,
    /// An attribute whose value is not a literal string.
    Unknown,
    Literal(&'t str),
}

fn source_at(bytes: &[u8], at: usize) -> Source<'_> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    if at > 0 && ident(bytes[at - 1]) {
        return Source::NotOne;
    }
    let mut i = at + "source".len();
    if bytes.get(i) == Some(&b'"') {
        i += 1;
    }
    while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'=') if bytes.get(i + 1) != Some(&b'=') => {}
        Some(b':') => {}
        _ => return Source::NotOne,
    }
    i += 1;
    while bytes.get(i).is_some_and(|b| *b == b' ' || *b == b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'"') {
        return Source::Unknown;
    }
    let rest = &bytes[i + 1..];
    let Some(end) = memchr::memchr(b'"', rest) else { return Source::Unknown };
    let Ok(value) = std::str::from_utf8(&rest[..end]) else { return Source::Unknown };
    if value.contains(['\\', '\n']) || value.contains("${") || value.contains("%{") {
        return Source::Unknown;
    }
    Source::Literal(value)
}

/// Whether a text refers to a called module's outputs (not `path.module`, `submodule.x`).
fn reads_outputs(text: &str) -> bool {
    let bytes = text.as_bytes();
    let word_start =
        |i: usize| i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'_' | b'.'));
    text.match_indices("module.").any(|(i, _)| word_start(i))
}

/// Whether a text calls a function whose name holds `file`: `file(`, `templatefile(`, `filebase64sha256(`, ...
fn reads_files(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices("file").any(|(i, _)| {
        let rest = &bytes[i + 4..];
        let name_end = rest.iter().position(|b| !(b.is_ascii_alphanumeric() || *b == b'_')).unwrap_or(rest.len());
        rest.get(name_end) == Some(&b'(')
    })
}

fn is_configuration(name: &str) -> bool {
    FileKind::from_file_name(name).is_some_and(|k| !k.is_tfvars())
}

fn text_of(path: &Path, open: &HashMap<String, Arc<str>>) -> Option<Arc<str>> {
    if let Some(text) = open.get(&path_string(path)) {
        return Some(Arc::clone(text));
    }
    std::fs::read_to_string(path).ok().map(Arc::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        for (p, t) in files {
            let path = dir.path().join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, t).unwrap();
        }
        let root = dir.path().canonicalize().unwrap();
        (dir, root)
    }

    fn plain(root: &Path, dir: &str) -> bool {
        let dir = if dir == "." { root.to_path_buf() } else { root.join(dir) };
        first_look(&[root.to_path_buf()], &dir, &HashMap::new()) == FirstLook::PlainRoot
    }

    const CALLS_APP: &str = "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n\
        module \"app\" {\n  source = \"./modules/app\"\n}\n";

    #[test]
    fn a_directory_no_source_reaches_is_a_plain_root() {
        let (_d, root) = ws(&[
            ("main.tf", CALLS_APP),
            ("modules/app/main.tf", "resource \"x\" \"y\" {\n  source_arn = var.z\n}\n"),
            ("live/main.tf", "locals {\n  # where the source of things is\n  p = path.module\n}\n"),
            ("live/terraform.tfvars", "source = 1\n"),
        ]);
        assert!(plain(&root, "."));
        assert!(plain(&root, "live"));
        assert!(!plain(&root, "modules/app"), "called");
    }

    #[test]
    fn anything_unsure_answers_no() {
        for (extra, why) in [
            (("other/main.tf", "module \"m\" {\n  source = \"./${var.x}\"\n}\n"), "interpolated"),
            (("other/main.tf", "module \"m\" {\n  source = var.x\n}\n"), "not a literal"),
            (("other/main.tf", "{\"module\": {\"m\": {\"source\": \"../live\"}}}"), "called from JSON"),
            (("other/x.tf", "module \"m\" {\n  source = \"../live/\"\n}\n"), "called with a trailing slash"),
            (("other/.terraform/modules/modules.json", "{}"), "a manifest"),
            (("live/terraform.tfstate", "{}"), "a state"),
            (("live/terragrunt.hcl", ""), "a wrapper"),
            (("terragrunt.hcl", ""), "a wrapper above it, in the folder"),
            (("live/outputs.tf", "output \"o\" {\n  value = module.app.id\n}\n"), "a module output"),
            (("live/x.tf", "locals {\n  j = jsondecode(file(\"${path.module}/a.json\"))\n}\n"), "a file function"),
        ] {
            let (_d, root) = ws(&[("live/main.tf", "locals {\n  profile = \"p\"\n}\n"), extra]);
            assert!(!plain(&root, "live"), "{why}");
        }
        let (_d, root) = ws(&[("live/main.tf", "module \"up\" {\n  source = \"../../elsewhere\"\n}\n")]);
        assert!(plain(&root, "live"), "a call to a missing directory loads nothing");
    }

    #[test]
    fn an_open_documents_text_replaces_the_disks() {
        let (_d, root) = ws(&[("main.tf", "locals {}\n"), ("live/main.tf", "locals {}\n")]);
        let open = HashMap::from([(
            path_string(&root.join("main.tf")),
            Arc::from("module \"l\" {\n  source = \"./live\"\n}\n"),
        )]);
        assert!(plain(&root, "live"));
        assert_ne!(first_look(std::slice::from_ref(&root), &root.join("live"), &open), FirstLook::PlainRoot);
    }

    fn look(root: &Path, dir: &str) -> FirstLook {
        first_look(&[root.to_path_buf()], &root.join(dir), &HashMap::new())
    }

    const CALLS_TWICE: &str = "module \"a\" {\n  source = \"../modules/app\"\n}\n\nmodule \"b\" {\n  source = \"../modules/app/\"\n  count  = 2\n}\n";

    fn module(root: &Path, dirs: &[&str]) -> FirstLook {
        FirstLook::Module { dirs: dirs.iter().map(|d| root.join(d)).collect() }
    }

    #[test]
    fn a_modules_instances_are_decided_by_the_directories_from_its_roots_down_to_it() {
        let (_d, root) = ws(&[
            ("live/main.tf", CALLS_TWICE),
            ("staging/main.tf", "module \"app\" {\n  source = \"../modules/app\"\n  name   = \"s\"\n}\n"),
            ("staging/terraform.tfvars", "region = \"eu\"\n"),
            ("modules/app/main.tf", "variable \"name\" {\n  default = \"x\"\n}\n"),
            // Calls elsewhere do not matter.
            ("other/main.tf", "module \"o\" {\n  source = \"../modules/other\"\n}\n"),
            ("modules/other/main.tf", "locals {}\n"),
        ]);
        assert_eq!(look(&root, "modules/app"), module(&root, &["live", "modules/app", "staging"]));
        assert_eq!(look(&root, "modules/other"), module(&root, &["modules/other", "other"]));
        assert_eq!(look(&root, "live"), FirstLook::PlainRoot);
    }

    #[test]
    fn what_reads_outputs_brings_what_it_calls() {
        let (_d, root) = ws(&[
            // The root passes a sibling's output to the module: the sibling (and what it calls) decides it too.
            (
                "live/main.tf",
                "module \"net\" {\n  source = \"../modules/net\"\n}\n\nmodule \"app\" {\n  source = \"../modules/app\"\n  \
                 vpc    = module.net.id\n}\n",
            ),
            ("modules/net/main.tf", "module \"sub\" {\n  source = \"../sub\"\n}\n"),
            ("modules/sub/main.tf", "output \"id\" {\n  value = \"x\"\n}\n"),
            ("modules/app/main.tf", "module \"leaf\" {\n  source = \"../leaf\"\n}\n"),
            ("modules/leaf/main.tf", "locals {}\n"),
        ]);
        assert_eq!(look(&root, "modules/app"), module(&root, &["live", "modules/app", "modules/net", "modules/sub"]));
        // Through a module in the middle: its chain up to the root, and what the root reads.
        assert_eq!(
            look(&root, "modules/leaf"),
            module(&root, &["live", "modules/app", "modules/leaf", "modules/net", "modules/sub"])
        );
        // A root reading outputs is not plain: its own instance needs its calls.
        assert_eq!(look(&root, "live"), FirstLook::Unsure);
    }

    #[test]
    fn a_module_is_unsure_when_anything_above_it_is() {
        let app = ("modules/app/main.tf", "locals {}\n");
        let live = ("live/main.tf", "module \"app\" {\n  source = \"../modules/app\"\n}\n");
        for (extra, why) in [
            (("live/terraform.tfstate", "{}"), "a caller with a state"),
            (("live/terragrunt.hcl", ""), "a caller with a wrapper"),
            (("live/x.tf", "locals {\n  t = file(\"a.txt\")\n}\n"), "a caller reading files"),
            (("modules/app/x.tf", "locals {\n  t = file(\"a.txt\")\n}\n"), "a module reading files"),
            (("modules/app/self.tf", "module \"again\" {\n  source = \"./\"\n}\n"), "a module calling itself"),
            (("other/main.tf", "module \"m\" {\n  source = var.where\n}\n"), "a source anywhere not known"),
        ] {
            let (_d, root) = ws(&[app, live, extra]);
            assert_eq!(look(&root, "modules/app"), FirstLook::Unsure, "{why}");
        }
        // A cycle above the module, with no root: unsure.
        let (_d, root) = ws(&[
            app,
            (
                "modules/a/main.tf",
                "module \"b\" {\n  source = \"../b\"\n}\n\nmodule \"app\" {\n  source = \"../app\"\n}\n",
            ),
            ("modules/b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n"),
        ]);
        assert_eq!(look(&root, "modules/app"), FirstLook::Unsure);
    }

    #[test]
    fn sources_outside_module_blocks_are_not_calls() {
        let (_d, root) = ws(&[
            ("live/main.tf", "module \"app\" {\n  source = \"../modules/app\"\n}\n"),
            ("modules/app/main.tf", "locals {\n  p = path.module\n}\n"),
            // Not module calls: an event pattern, an archive's source, in files without a module block.
            ("events/main.tf", "locals {\n  pattern = { source = [\"aws.s3\"] }\n}\n"),
            ("archive/main.tf", "data \"archive_file\" \"a\" {\n  source = local.path\n}\n"),
            // Prose about a module is no block either.
            (
                "prose/main.tf",
                "# This module manages\nlocals {\n  d = \"the module creates\"\n  s = { source = var.x }\n}\n",
            ),
        ]);
        assert_eq!(look(&root, "modules/app"), module(&root, &["live", "modules/app"]));
        for text in [
            "module \"m\" {\n  source = var.x\n}\n",
            "/* c */ module m {\n  source = var.x\n}\n",
            "{\"module\" : {\"m\": {\"source\": 1}}}",
        ] {
            let (_d, root) = ws(&[
                ("live/main.tf", "module \"app\" {\n  source = \"../modules/app\"\n}\n"),
                ("modules/app/main.tf", "locals {}\n"),
                ("other/main.tf", text),
            ]);
            assert_eq!(look(&root, "modules/app"), FirstLook::Unsure, "{text}");
        }
    }

    #[test]
    fn a_root_the_loader_does_not_walk_decides_nothing() {
        let app = ("modules/app/main.tf", "locals {}\n");
        let live = ("live/main.tf", "module \"app\" {\n  source = \"../modules/app\"\n}\n");
        for ignore in [(".gitignore", "live/\n"), (".ignore", "/live\n"), ("live/../.gitignore", "*/\n!modules/\n")] {
            let (_d, root) = ws(&[app, live, ignore]);
            assert_eq!(look(&root, "modules/app"), FirstLook::Unsure, "{ignore:?}");
        }
        let (_d, root) = ws(&[app, live, (".gitignore", ".terraform/\nother/\n")]);
        assert_eq!(look(&root, "modules/app"), module(&root, &["live", "modules/app"]));
    }
}
