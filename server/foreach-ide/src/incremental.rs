//! Tests that an edit re-runs only what depends on it: salsa events count the query executions.

use std::sync::{Arc, Mutex};

use foreach_analysis::db::RootDatabase;
use foreach_analysis::host::{AnalysisHost, Change};
use foreach_analysis::source_text::SourceText;

fn host_with_log() -> (AnalysisHost, Arc<Mutex<Vec<String>>>) {
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = Arc::clone(&log);
    let db = RootDatabase::with_event_callback(Box::new(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    }));
    (AnalysisHost::with_database(db), log)
}

fn count(log: &[String], query: &str) -> usize {
    log.iter().filter(|e| e.starts_with(&format!("{query}("))).count()
}

/// Asserts how many times each query ran.
fn assert_runs(log: &[String], expected: &[(&str, usize)]) {
    for (query, n) in expected {
        assert_eq!(count(log, query), *n, "`{query}` ran {} times, not {n}: {log:#?}", count(log, query));
    }
}

/// Applies a text to a loaded file. The first change to a loaded file lowers its durability, and salsa does not
/// backdate a result whose durability drops, so everything that reads the file runs again once (see `host.rs`):
/// the tests that count what one edit re-runs make that first change beforehand.
fn edit(host: &mut AnalysisHost, path: &str, text: &str) {
    host.apply_change(Change { files: vec![(path.into(), Ok(SourceText::from(text)))], ..Change::default() });
    crate::Analysis::of(host).diagnostics().unwrap();
}

/// Applies a text to a file and computes the diagnostics, returning them and the queries that ran meanwhile.
fn edit_logged(
    host: &mut AnalysisHost,
    log: &Mutex<Vec<String>>,
    path: &str,
    text: String,
) -> (Arc<Vec<foreach_analysis::diagnostics::Diagnostic>>, Vec<String>) {
    log.lock().unwrap().clear();
    host.apply_change(Change { files: vec![(path.into(), Ok(SourceText::from(text)))], ..Change::default() });
    let diagnostics = crate::Analysis::of(host).diagnostics().unwrap();
    (diagnostics, log.lock().unwrap().clone())
}

/// Loads `files` under the read root `/ws` and computes every diagnostic, then makes the first change to `path`
/// (which lowers its durability, see [`edit`]), so that what a later edit re-runs can be counted.
fn load_then_touch(host: &mut AnalysisHost, files: Vec<(String, Result<SourceText, String>)>, path: &str, text: &str) {
    host.apply_change(Change { files, read_roots: Some(vec!["/ws".into()]), ..Change::default() });
    crate::Analysis::of(host).diagnostics().unwrap();
    edit(host, path, &format!("{text}\n"));
}

fn module_text(bucket: &str) -> String {
    format!(
        "variable \"region\" {{\n  default = \"eu-west-1\"\n}}\nlocals {{\n  name = \"x-${{var.region}}\"\n}}\nresource \"aws_s3_bucket\" \"b\" {{\n  bucket = \"{bucket}\"\n  tags   = {{ name = local.name }}\n}}\n"
    )
}

#[test]
fn an_edit_in_a_resource_body_reruns_only_its_file_and_module() {
    let (mut host, log) = host_with_log();
    let mut files: Vec<(String, Result<SourceText, String>)> = Vec::new();
    for m in ["a", "b", "c"] {
        files.push((format!("/ws/{m}/main.tf"), Ok(SourceText::from(module_text("one")))));
        files.push((format!("/ws/{m}/other.tf"), Ok(SourceText::from("output \"o\" {\n  value = 1\n}\n"))));
    }
    host.apply_change(Change { files, read_roots: Some(vec!["/ws".into()]), ..Change::default() });
    let before = crate::Analysis::of(&host).diagnostics().unwrap();
    assert!(count(&log.lock().unwrap(), "file_summary") == 6);
    edit(&mut host, "/ws/b/main.tf", &(module_text("one") + "\n"));
    log.lock().unwrap().clear();

    host.apply_change(Change {
        files: vec![("/ws/b/main.tf".into(), Ok(SourceText::from(module_text("two"))))],
        ..Change::default()
    });
    let after = crate::Analysis::of(&host).diagnostics().unwrap();
    assert_eq!(before, after);
    // The summary of the edited file is unchanged (a literal in a resource body), so salsa stops there: nothing
    // downstream of it re-runs, and no other file is summarised or parsed again.
    let seen = log.lock().unwrap().clone();
    assert_eq!(count(&seen, "file_summary"), 1, "{seen:#?}");
    assert_eq!(count(&seen, "parse"), 0, "{seen:#?}");
    assert_eq!(count(&seen, "module"), 0, "{seen:#?}");
    assert_eq!(count(&seen, "tree_values"), 0, "{seen:#?}");
    log.lock().unwrap().clear();

    // An edit that changes what the resource refers to: only module `b` is rebuilt, and only its instance is
    // evaluated again (the tree itself re-runs, but is a few lookups per module; the diagnostics are gathered in chunks).
    let edited = module_text("one").replace("tags   = { name = local.name }", "tags   = { name = var.region }");
    host.apply_change(Change {
        files: vec![("/ws/b/main.tf".into(), Ok(SourceText::from(edited)))],
        ..Change::default()
    });
    crate::Analysis::of(&host).diagnostics().unwrap();
    let seen = log.lock().unwrap().clone();
    assert_runs(
        &seen,
        &[("file_summary", 1), ("module", 1), ("module_diagnostics", 1), ("parse", 0), ("instance_values", 1)],
    );
}

/// A root calling three child modules: changing the argument of one call re-evaluates the root and that call's
/// instance only; the other calls' arguments are unchanged, so their instances stay memoised.
#[test]
fn an_argument_edit_reevaluates_only_the_called_instance() {
    let (mut host, log) = host_with_log();
    let root = |region_b: &str| {
        format!(
            "module \"a\" {{\n  source = \"./a\"\n  region = \"eu-west-1\"\n}}\nmodule \"b\" {{\n  source = \"./b\"\n  region = \"{region_b}\"\n}}\nmodule \"c\" {{\n  source = \"./c\"\n  region = \"eu-west-1\"\n}}\n"
        )
    };
    let mut files: Vec<(String, Result<SourceText, String>)> =
        vec![("/ws/main.tf".into(), Ok(SourceText::from(root("eu-west-1"))))];
    for m in ["a", "b", "c"] {
        files.push((format!("/ws/{m}/main.tf"), Ok(SourceText::from(module_text("one")))));
    }
    let dirs = ["/ws", "/ws/a", "/ws/b", "/ws/c"].iter().map(|d| (d.to_string(), true)).collect();
    host.apply_change(Change { files, dirs, read_roots: Some(vec!["/ws".into()]), ..Change::default() });
    crate::Analysis::of(&host).diagnostics().unwrap();
    assert_eq!(count(&log.lock().unwrap(), "instance_values"), 4);
    edit(&mut host, "/ws/main.tf", &(root("eu-west-1") + "\n"));
    log.lock().unwrap().clear();

    host.apply_change(Change {
        files: vec![("/ws/main.tf".into(), Ok(SourceText::from(root("us-east-1"))))],
        ..Change::default()
    });
    crate::Analysis::of(&host).diagnostics().unwrap();
    let seen = log.lock().unwrap().clone();
    assert_eq!(count(&seen, "instance_values"), 2, "the root and module.b: {seen:#?}");
    assert_eq!(count(&seen, "call_arguments"), 3, "{seen:#?}");
}

/// Opening a document in the editor sets its text again, unchanged: nothing re-runs, not even its summary. The
/// loader keeps a text read from disk compressed and the editor sends it as it is; they are still the same text.
#[test]
fn opening_a_loaded_file_re_evaluates_nothing() {
    let (mut host, log) = host_with_log();
    let root = "module \"a\" {\n  source = \"./a\"\n}\n";
    let module = SourceText::compressed(&module_text("one"));
    assert!(module.is_compressed());
    let files = vec![("/ws/main.tf".into(), Ok(SourceText::from(root))), ("/ws/a/main.tf".into(), Ok(module))];
    let dirs = ["/ws", "/ws/a"].iter().map(|d| (d.to_string(), true)).collect();
    host.apply_change(Change { files, dirs, read_roots: Some(vec!["/ws".into()]), ..Change::default() });
    crate::Analysis::of(&host).diagnostics().unwrap();
    log.lock().unwrap().clear();

    edit(&mut host, "/ws/a/main.tf", &module_text("one"));
    let seen = log.lock().unwrap().clone();
    assert_eq!(seen, Vec::<String>::new());
}

/// The first keystroke in a loaded file lowers its durability (see `host.rs`): what reads the file runs again
/// once, but the module tree reads the modules' calls through an input the host updates only when they change,
/// so that stops at the edited module and its instance, not the other modules or the tree.
#[test]
fn the_first_edit_of_a_loaded_file_stops_at_its_module() {
    let (mut host, log) = host_with_log();
    let root = "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  source = \"./b\"\n}\n";
    let mut files: Vec<(String, Result<SourceText, String>)> = vec![("/ws/main.tf".into(), Ok(SourceText::from(root)))];
    for m in ["a", "b"] {
        files.push((format!("/ws/{m}/main.tf"), Ok(SourceText::from(module_text("one")))));
    }
    let dirs = ["/ws", "/ws/a", "/ws/b"].iter().map(|d| (d.to_string(), true)).collect();
    host.apply_change(Change { files, dirs, read_roots: Some(vec!["/ws".into()]), ..Change::default() });
    crate::Analysis::of(&host).diagnostics().unwrap();
    log.lock().unwrap().clear();

    edit(&mut host, "/ws/b/main.tf", &module_text("two"));
    let seen = log.lock().unwrap().clone();
    assert_eq!(count(&seen, "file_summary"), 1, "{seen:#?}");
    assert_eq!(count(&seen, "module"), 1, "{seen:#?}");
    assert_eq!(count(&seen, "instance_values"), 1, "module.b only: {seen:#?}");
    for query in ["module_tree", "tree_node", "parse"] {
        assert_eq!(count(&seen, query), 0, "{query}: {seen:#?}");
    }

    // The tree still sees a call added by an edit (the host copies the changed calls into the tree's input).
    let added = format!("{root}module \"c\" {{\n  source = \"./missing\"\n}}\n");
    host.apply_change(Change { files: vec![("/ws/main.tf".into(), Ok(SourceText::from(added)))], ..Change::default() });
    assert_eq!(host.unloaded_dirs(), ["/ws/missing"]);
}

/// A keystroke above a `module` block, or in a call's arguments, changes nothing the tree reads: the tree is not
/// built again (so the memos of the instances below it stay valid without a walk), and its findings move with the
/// calls.
#[test]
fn moving_module_blocks_keeps_the_tree_and_moves_its_findings() {
    let (mut host, log) = host_with_log();
    let root =
        |above: &str, x: &str| format!("{above}module \"gone\" {{\n  x      = {x}\n  source = \"./missing\"\n}}\n");
    let files: Vec<(String, Result<SourceText, String>)> =
        vec![("/ws/main.tf".into(), Ok(SourceText::from(root("", "1"))))];
    let dirs = [("/ws", true), ("/ws/missing", false)].iter().map(|(d, e)| (d.to_string(), *e)).collect();
    host.apply_change(Change { files, dirs, read_roots: Some(vec!["/ws".into()]), ..Change::default() });
    let at = |host: &AnalysisHost| {
        let d = host.diagnostics();
        let d = d.iter().find(|d| d.code.as_str() == "module-not-found").expect("the missing module").clone();
        usize::from(d.location.range.start())
    };
    let source_at = |text: &str| text.find("\"./missing\"").unwrap();
    assert_eq!(at(&host), source_at(&root("", "1")));
    edit(&mut host, "/ws/main.tf", &root("\n", "1"));

    for text in [root("# the calls move down\n\n", "1"), root("# the calls move down\n\n", "12345")] {
        log.lock().unwrap().clear();
        edit(&mut host, "/ws/main.tf", &text);
        assert_eq!(count(&log.lock().unwrap(), "module_tree"), 0, "{:#?}", log.lock().unwrap());
        assert_eq!(at(&host), source_at(&text));
    }

    // A changed source is read again.
    log.lock().unwrap().clear();
    edit(&mut host, "/ws/main.tf", &root("", "1").replace("./missing", "./other"));
    assert_eq!(count(&log.lock().unwrap(), "module_tree"), 1);
    assert_eq!(host.unloaded_dirs(), ["/ws/other"]);
}

/// In a workspace of many roots, the diagnostics are gathered in chunks: an edit of one module re-runs only the
/// chunks whose diagnostics it changes, not one gathering over every directory and instance.
#[test]
fn an_edit_among_many_roots_regathers_only_its_chunks() {
    let (mut host, log) = host_with_log();
    let files = (0..200).map(|i| (format!("/ws/r{i:03}/main.tf"), Ok(SourceText::from(module_text("one"))))).collect();
    load_then_touch(&mut host, files, "/ws/r100/main.tf", &module_text("one"));

    let edited = module_text("one").replace("tags   = { name = local.name }", "tags   = { name = local.nam }");
    let (after, seen) = edit_logged(&mut host, &log, "/ws/r100/main.tf", edited);
    assert!(after.iter().any(|d| d.message.contains("local.nam")), "the edit's finding is reported: {after:#?}");
    // Four chunks each of directories, roots and instances. Only the edited directory's chunk runs again: the
    // instance is evaluated again but reports the same (a resource body is not evaluated), so its chunk is
    // confirmed without running, like the other ten.
    assert_runs(&seen, &[("module_diagnostics", 1), ("instance_values", 1), ("chunk_diagnostics", 1)]);
}

/// Two hundred roots call one shared module and read its output: an edit of one root's output reference re-checks
/// that call in its chunk of nodes only, not every call of the workspace.
#[test]
fn an_edit_of_one_call_among_many_rechecks_one_chunk_of_calls() {
    let (mut host, log) = host_with_log();
    let root = |out: &str| {
        format!("module \"s\" {{\n  source = \"../shared\"\n}}\noutput \"o\" {{\n  value = module.s.{out}\n}}\n")
    };
    let mut files: Vec<(String, Result<SourceText, String>)> =
        (0..200).map(|i| (format!("/ws/r{i:03}/main.tf"), Ok(SourceText::from(root("id"))))).collect();
    files.push(("/ws/shared/main.tf".into(), Ok(SourceText::from("output \"id\" {\n  value = 1\n}\n"))));
    load_then_touch(&mut host, files, "/ws/r100/main.tf", &root("id"));

    let (after, seen) = edit_logged(&mut host, &log, "/ws/r100/main.tf", root("idd"));
    assert!(after.iter().any(|d| d.message.contains("idd")), "the misspelt output is reported: {after:#?}");
    assert_runs(&seen, &[("call_output_checks", 1), ("chunk_output_checks", 1)]);
}
