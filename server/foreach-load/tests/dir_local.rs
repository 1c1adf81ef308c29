//! The findings a directory decides by itself (`AnalysisHost::dir_local_diagnostics`, which the language server
//! publishes for a document opened before its workspace is indexed) are all reported, as they are, by the whole
//! workspace: nothing shown early is withdrawn or reworded by the full index (which may add findings of the same
//! codes that need the module tree, such as a called module's missing output). The same holds for what a directory
//! and its module's instances decide in the loaded workspace (`AnalysisHost::dir_diagnostics`, which the language
//! server publishes once the workspace is loaded and before the rest is evaluated), for every code, and for what a
//! root or module's instances decide with only the directories the first look names loaded
//! (`foreach_load::plain_root::first_look`, which the server evaluates while the workspace is still being loaded).
//! Checked on every directory of the repository's test data and, when it is unpacked, of the dev corpus.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use foreach_analysis::checks::{DIR_LOCAL_CODES, MODULE_INSTANCE_CODES, ROOT_INSTANCE_CODES};
use foreach_analysis::{AnalysisHost, Diagnostic};
use foreach_load::plain_root::{Calls, FirstLook};
use foreach_load::{KeepTexts, LoadOptions, directory_change, load};

/// A finding as the user sees it: file, range, code and message.
type Seen = (String, u32, u32, String, String);

fn seen(host: &AnalysisHost, d: &Diagnostic) -> Seen {
    let path = host.file_path(d.location.file).unwrap_or_default();
    let r = d.location.range;
    (path, r.start().into(), r.end().into(), d.code.as_str().to_string(), d.message.clone())
}

fn load_tree(root: &Path) -> foreach_load::Loaded {
    let paths = [root.to_path_buf()];
    let opts = LoadOptions {
        paths: &paths,
        excludes: &[],
        ordered_vars: &[],
        env_vars: Vec::new(),
        workspace_name: None,
        states: &[],
        project_excludes: None,
        texts: KeepTexts::Compressed,
    };
    load(&opts).expect("loads")
}

/// Checks every listed directory under `root`; returns how many findings were compared.
fn check_tree(root: &Path) -> usize {
    let loaded = load_tree(root);
    let full: Vec<Seen> = loaded
        .host
        .diagnostics()
        .iter()
        .filter(|d| DIR_LOCAL_CODES.contains(&d.code))
        .map(|d| seen(&loaded.host, d))
        .collect();
    let mut dirs: Vec<&String> = loaded.listed_dirs.iter().collect();
    dirs.sort();
    let mut compared = 0;
    for dir in dirs {
        let mut host = AnalysisHost::new();
        host.apply_change(directory_change(Path::new(dir), &HashSet::new()));
        let alone: Vec<Seen> = host.dir_local_diagnostics(dir).iter().map(|d| seen(&host, d)).collect();
        let want: Vec<Seen> =
            full.iter().filter(|s| s.0.rsplit_once('/').is_some_and(|(d, _)| d == dir)).cloned().collect();
        for finding in &alone {
            assert!(want.contains(finding), "{dir}: {finding:?} is not reported by the whole workspace: {want:?}");
        }
        compared += alone.len();
    }
    compared
}

/// Checks what each listed directory under `root` and its instances decide in the loaded workspace, asked first
/// (as the language server asks before evaluating the rest), against what the whole workspace reports afterwards,
/// finding by finding (fixes and related locations included); returns how many findings were compared.
fn check_tree_with_instances(root: &Path) -> usize {
    let loaded = load_tree(root);
    let mut dirs: Vec<&String> = loaded.listed_dirs.iter().collect();
    dirs.sort();
    let early: Vec<(&String, Vec<Diagnostic>)> =
        dirs.into_iter().map(|dir| (dir, loaded.host.dir_diagnostics(dir))).collect();
    let full = loaded.host.diagnostics();
    let mut compared = 0;
    for (dir, findings) in early {
        for finding in &findings {
            assert!(
                full.contains(finding),
                "{dir}: {:?} is not reported by the whole workspace as it is: {finding:?}",
                seen(&loaded.host, finding)
            );
        }
        compared += findings.len();
    }
    compared
}

/// What the first look decides for each listed directory under `root`, evaluated with only the directories it
/// names loaded (as the language server does while the workspace loads), against what the whole workspace reports,
/// finding by finding; returns how many directories were a plain root, a module, and how many findings were compared.
fn check_tree_first_looks(root: &Path) -> (usize, usize, usize) {
    let loaded = load_tree(root);
    let full: Vec<Seen> = loaded.host.diagnostics().iter().map(|d| seen(&loaded.host, d)).collect();
    let folders = [root.canonicalize().unwrap()];
    let open = std::collections::HashMap::new();
    let calls = Calls::read(&folders, &open).expect("no linked directory or modules.json");
    let mut dirs: Vec<&String> = loaded.listed_dirs.iter().collect();
    dirs.sort();
    let (mut roots, mut modules, mut compared) = (0, 0, 0);
    for dir in dirs {
        let (load, codes) = match calls.look(Path::new(dir)) {
            FirstLook::Unsure => continue,
            FirstLook::PlainRoot => {
                roots += 1;
                (vec![PathBuf::from(dir)], ROOT_INSTANCE_CODES)
            }
            FirstLook::Module { dirs } => {
                modules += 1;
                (dirs, MODULE_INSTANCE_CODES)
            }
        };
        let mut host = AnalysisHost::new();
        for d in &load {
            host.apply_change(directory_change(d, &HashSet::new()));
        }
        let in_dir = |s: &Seen| s.0.rsplit_once('/').is_some_and(|(d, _)| d == dir);
        let early: Vec<Seen> = host
            .dir_diagnostics(dir)
            .iter()
            .filter(|d| codes.contains(&d.code))
            .map(|d| seen(&host, d))
            .filter(in_dir)
            .collect();
        for finding in &early {
            assert!(full.contains(finding), "{dir} ({load:?}): {finding:?} is not reported by the whole workspace");
        }
        compared += early.len();
    }
    (roots, modules, compared)
}

#[test]
fn what_the_first_look_loads_reports_what_the_whole_workspace_does() {
    let (mut roots, mut modules, mut compared) = (0, 0, 0);
    for tree in test_data_trees() {
        let (r, m, c) = check_tree_first_looks(&tree);
        (roots, modules, compared) = (roots + r, modules + m, compared + c);
    }
    println!("test data: {roots} plain roots, {modules} modules, {compared} findings compared");
    assert!(roots > 20 && modules > 20 && compared > 10, "{roots} roots, {modules} modules, {compared} findings");
    if let Some(corpus) = dev_corpus() {
        let (r, m, c) = check_tree_first_looks(&corpus);
        println!("dev corpus: {r} plain roots, {m} modules, {c} findings compared");
    }
}

fn test_data_trees() -> impl Iterator<Item = PathBuf> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let entries = std::fs::read_dir(repo.join("testdata")).unwrap().flatten();
    entries.map(|e| e.path()).filter(|p| p.is_dir())
}

fn dev_corpus() -> Option<PathBuf> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    Some(repo.join("target/corpus/dev-corpus")).filter(|c| c.is_dir())
}

#[test]
fn a_directory_alone_reports_its_local_findings_as_the_whole_workspace_does() {
    let compared: usize = test_data_trees().map(|t| check_tree(&t)).sum();
    assert!(compared > 50, "findings compared: {compared}");
    if let Some(corpus) = dev_corpus() {
        check_tree(&corpus);
    }
}

#[test]
fn a_directory_and_its_instances_report_what_the_whole_workspace_does() {
    let compared: usize = test_data_trees().map(|t| check_tree_with_instances(&t)).sum();
    assert!(compared > 200, "findings compared: {compared}");
    if let Some(corpus) = dev_corpus() {
        let compared = check_tree_with_instances(&corpus);
        println!("dev corpus: {compared} findings compared");
    }
}
