//! `foreach-ls migrate`, run as a real process on the cases under `testdata/migrate/` (issue #17 step 1).
//!
//! A case is a directory with `before/` (the module; it is also a fixture of `tests/fixtures.rs`, so its expected
//! diagnostics are annotated inline), optional `args` (more command-line arguments, one line), optional `stderr`
//! (lines standard error must contain, for what is left alone) and either `after/`
//! (what `--write` must leave: also a fixture, so it must check clean) or `refused` (lines that standard error must
//! contain; the command must exit 1 and change nothing). For a migrated case the test also asserts that `check`
//! reports nothing new and that each new provider instance evaluates to the arguments of the old alias it replaces
//! (`inspect`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "support/run.rs"]
mod run;
use run::run_in;

use foreach_load::{LoadOptions, load, path_string};
use serde_json::Value;

fn cases() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/migrate")
}

/// Every file under `dir`, by relative path.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn copy(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

fn json(dir: &Path, args: &[&str]) -> Value {
    let o = run_in(dir, args);
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stdout)))
}

/// The codes `check` reports, with their counts.
fn codes(dir: &Path) -> BTreeMap<String, usize> {
    let v = json(dir, &["check", ".", "--format", "json"]);
    let mut out = BTreeMap::new();
    for d in v["diagnostics"].as_array().unwrap() {
        *out.entry(d["code"].as_str().unwrap().to_string()).or_default() += 1;
    }
    out
}

/// The root module's provider configurations of `name`: per alias (or instance key of an expanded one), the
/// evaluated arguments.
fn provider_arguments(dir: &Path, name: &str) -> (BTreeMap<String, Value>, BTreeMap<String, Value>) {
    let v = json(dir, &["inspect", "."]);
    let (mut single, mut instances) = (BTreeMap::new(), BTreeMap::new());
    for p in v["providers"].as_array().unwrap() {
        if p["module"] != "" || p["name"] != name {
            continue;
        }
        let alias = p["alias"].as_str().unwrap_or("").to_string();
        match p["instances"].as_array() {
            Some(list) => {
                for i in list {
                    instances.insert(i["key"].as_str().unwrap().to_string(), without_nulls(&i["arguments"]));
                }
            }
            None => {
                single.insert(alias, without_nulls(&p["arguments"]));
            }
        }
    }
    (single, instances)
}

/// Per alias or instance key, what each aliased `aws` configuration evaluates to, nested blocks included.
fn configuration_values(dir: &Path) -> BTreeMap<String, foreach_analysis::eval::Value> {
    let paths = [dir.to_path_buf()];
    let loaded = load(&LoadOptions::new(&paths)).expect("loads");
    let root = path_string(&loaded.roots[0]);
    loaded.host.provider_configuration_values(&root, "aws")
}

/// Arguments set to `null` are not set: the migration writes `null` for an argument only some aliases set.
fn without_nulls(args: &Value) -> Value {
    match args.as_object() {
        Some(m) => Value::Object(m.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), v.clone())).collect()),
        None => args.clone(),
    }
}

fn check_case(case: &Path) -> Result<(), String> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let extra = std::fs::read_to_string(case.join("args")).unwrap_or_default();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    copy(&case.join("before"), dir);
    let before = tree(dir);
    let mut args = vec!["migrate", ".", "--provider", "aws"];
    args.extend(extra.split_whitespace());
    let preview = run_in(dir, &args);
    let err = String::from_utf8_lossy(&preview.stderr).into_owned();
    if tree(dir) != before {
        return Err(format!("{name}: the preview changed files"));
    }
    let mut write_args = args.clone();
    write_args.push("--write");

    if let Ok(refused) = std::fs::read_to_string(case.join("refused")) {
        if preview.status.code() != Some(1) {
            return Err(format!("{name}: expected exit 1, got {:?}; stderr:\n{err}", preview.status.code()));
        }
        for line in refused.lines().filter(|l| !l.trim().is_empty()) {
            if !err.contains(line.trim()) {
                return Err(format!("{name}: stderr lacks {line:?}:\n{err}"));
            }
        }
        let written = run_in(dir, &write_args);
        if written.status.code() != Some(1) || tree(dir) != before {
            return Err(format!("{name}: --write of a refused migration must exit 1 and change nothing"));
        }
        return Ok(());
    }

    if preview.status.code() != Some(0) {
        return Err(format!("{name}: expected exit 0, got {:?}; stderr:\n{err}", preview.status.code()));
    }
    for line in std::fs::read_to_string(case.join("stderr")).unwrap_or_default().lines().filter(|l| !l.is_empty()) {
        if !err.contains(line) {
            return Err(format!("{name}: stderr lacks {line:?}:\n{err}"));
        }
    }
    if !String::from_utf8_lossy(&preview.stdout).contains("+++ b/") {
        return Err(format!("{name}: the preview is not a unified diff"));
    }
    let (old_single, _) = provider_arguments(dir, "aws");
    let old_values = configuration_values(dir);
    let old_codes = codes(dir);
    let written = run_in(dir, &write_args);
    if written.status.code() != Some(0) {
        return Err(format!("{name}: --write failed: {}", String::from_utf8_lossy(&written.stderr)));
    }
    let expected = tree(&case.join("after"));
    let got = tree(dir);
    if got != expected {
        let mut msg = format!("{name}: the result differs from after/\n");
        for (p, bytes) in &got {
            if expected.get(p) != Some(bytes) {
                msg.push_str(&format!("--- {p}\n{}\n", String::from_utf8_lossy(bytes)));
            }
        }
        return Err(msg);
    }
    // Nothing new from `check`.
    for (code, n) in codes(dir) {
        if n > old_codes.get(&code).copied().unwrap_or(0) {
            return Err(format!("{name}: check reports {code} more often after the migration"));
        }
    }
    // Each old alias is now an instance with the same evaluated arguments.
    let (new_single, instances) = provider_arguments(dir, "aws");
    for (alias, args) in &old_single {
        if new_single.contains_key(alias) {
            continue;
        }
        match instances.get(alias) {
            Some(now) if now == args => {}
            other => return Err(format!("{name}: aws.{alias} had {args}, its instance has {other:?}")),
        }
    }
    // The same, nested blocks (`assume_role`) included, through the analysis.
    let new_values = configuration_values(dir);
    for (alias, value) in &old_values {
        if new_values.get(alias) != Some(value) {
            return Err(format!("{name}: aws.{alias} was {value:?}, its instance is {:?}", new_values.get(alias)));
        }
    }
    // Running again finds nothing left to merge.
    if run_in(dir, &args).status.code() != Some(1) {
        return Err(format!("{name}: a second migration should find nothing to merge"));
    }
    Ok(())
}

#[test]
fn migrate_cases() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases()).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    let failures: Vec<String> = dirs.iter().filter(|d| d.is_dir()).filter_map(|d| check_case(d).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn bad_usage_exits_2() {
    let dir = cases().join("rfc-opening/before");
    assert_eq!(run_in(&dir, &["migrate", ".", "--provider", "aws", "--alias", "no good"]).status.code(), Some(2));
    assert_eq!(run_in(&dir, &["migrate", ".", "--alias", "x"]).status.code(), Some(2));
    assert_eq!(run_in(&dir, &["migrate", "does-not-exist", "--provider", "aws"]).status.code(), Some(2));
}

/// Every fixture under `testdata/` (hostile and broken ones included) is planned without a panic, and a plan's
/// edits fit their file.
#[test]
fn planning_never_panics_on_the_fixtures() {
    fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
        if dir.join("main.tf").is_file() {
            out.push(dir.to_path_buf());
            return;
        }
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() && !p.file_name().unwrap().to_string_lossy().starts_with('.') {
                fixtures(&p, out);
            }
        }
    }
    let mut dirs = Vec::new();
    fixtures(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata"), &mut dirs);
    assert!(dirs.len() > 100);
    let mut planned = 0;
    for dir in dirs {
        let paths = [dir.clone()];
        let Ok(loaded) = load(&LoadOptions::new(&paths)) else { continue };
        let root = path_string(&loaded.roots[0]);
        let opts = foreach_analysis::migrate::Options { provider: "aws".to_string(), alias: None };
        if let Ok(plan) = loaded.host.migrate_providers(&root, &opts) {
            planned += 1;
            for f in &plan.files {
                for e in &f.edits {
                    let r = std::ops::Range::<usize>::from(e.location.range);
                    assert!(f.original.get(r).is_some(), "{}: an edit outside the text", f.path);
                }
            }
        }
    }
    assert!(planned > 0);
}
