//! `foreach-ls migrate`, run as a real process on the cases under `testdata/migrate/` (issue #17 steps 1 and 2).
//!
//! A case is a directory with `before/` (the module; it is also a fixture of `tests/fixtures.rs`, so its expected
//! diagnostics are annotated inline), optional `args` (more command-line arguments, one line), optional `stderr`
//! (lines standard error must contain, for what is left alone) and either `after/`
//! (what `--write` must leave: also a fixture, so it must check clean) or `refused` (lines that standard error must
//! contain; the command must exit 1 and change nothing), and optional `oracle-vars` (`NAME=VALUE` lines: values the
//! comparisons of old and new give variables that have none in the case; migrate itself runs without them). For a migrated case the test also asserts that `check`
//! reports nothing new, that each new provider instance evaluates to the arguments of the old alias it replaces
//! (`inspect`), and that every old resource, data source and module call address still exists or is the `from` of
//! exactly one `moved` block (data sources: named in a note), its instance evaluating to what the old block did.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "support/run.rs"]
mod run;
use run::run_in;

use foreach_load::{LoadOptions, OrderedVar, load, path_string};
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
fn provider_arguments(dir: &Path, name: &str, vars: &[String]) -> (BTreeMap<String, Value>, BTreeMap<String, Value>) {
    let mut args = vec!["inspect", "."];
    for v in vars {
        args.extend(["--var", v.as_str()]);
    }
    let v = json(dir, &args);
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
fn configuration_values(dir: &Path, vars: &[String]) -> BTreeMap<String, foreach_analysis::eval::Value> {
    let paths = [dir.to_path_buf()];
    let vars: Vec<OrderedVar> = vars.iter().map(|v| OrderedVar::Var(v.clone())).collect();
    let loaded = load(&LoadOptions { ordered_vars: &vars, ..LoadOptions::new(&paths) }).expect("loads");
    let root = path_string(&loaded.roots[0]);
    loaded.host.provider_configuration_values(&root, "aws")
}

/// What each resource, data source and module call instance evaluates to, and the `moved` blocks.
#[allow(clippy::type_complexity)]
fn block_values(
    dir: &Path,
    vars: &[String],
) -> (BTreeMap<String, foreach_analysis::eval::Value>, Vec<(String, String)>) {
    let paths = [dir.to_path_buf()];
    let vars: Vec<OrderedVar> = vars.iter().map(|v| OrderedVar::Var(v.clone())).collect();
    let loaded = load(&LoadOptions { ordered_vars: &vars, ..LoadOptions::new(&paths) }).expect("loads");
    let root = path_string(&loaded.roots[0]);
    loaded.host.block_values(&root)
}

/// Every old block address either still exists or is the `from` of exactly one `moved` block (a data source: it is
/// named in a note instead, as it needs none), and the instance it became evaluates to what it did.
fn check_addresses(
    name: &str,
    err: &str,
    old: &BTreeMap<String, foreach_analysis::eval::Value>,
    (new, moved): &(BTreeMap<String, foreach_analysis::eval::Value>, Vec<(String, String)>),
) -> Result<(), String> {
    let mut renamed = Vec::new();
    for address in old.keys() {
        let to = if new.contains_key(address) {
            address.clone()
        } else if address.starts_with("data.") {
            let note = format!("`{address}` is now `");
            let Some(rest) = err.split(&note).nth(1) else {
                return Err(format!("{name}: {address} is gone and no note says what it became:\n{err}"));
            };
            rest.split('`').next().unwrap_or_default().to_string()
        } else {
            let tos: Vec<&String> = moved.iter().filter(|(f, _)| f == address).map(|(_, t)| t).collect();
            match tos.as_slice() {
                [to] => (*to).clone(),
                _ => return Err(format!("{name}: {address} is gone and is the `from` of {} moved blocks", tos.len())),
            }
        };
        renamed.push((address.clone(), to));
    }
    // Unknown values (attributes of other resources) are compared by what they refer to, through the renames.
    let base = |a: &str| a.split('[').next().unwrap_or(a).to_string();
    let renames: BTreeMap<String, String> = renamed.iter().map(|(from, to)| (from.clone(), base(to))).collect();
    for (address, to) in &renamed {
        let (was, is) = (comparable(&old[address], &renames), new.get(to).map(|v| comparable(v, &BTreeMap::new())));
        if is.as_ref() != Some(&was) {
            return Err(format!("{name}: {address} was {was}, {to} is {is:?}"));
        }
    }
    Ok(())
}

/// A value as JSON, with an unknown value shown as the reference it waits for (renamed by `renames`).
fn comparable(v: &foreach_analysis::eval::Value, renames: &BTreeMap<String, String>) -> Value {
    use foreach_analysis::eval::{UnknownCause, Value as V};
    let all = |items: &[V]| Value::Array(items.iter().map(|i| comparable(i, renames)).collect());
    match v {
        V::Null(_) => Value::Null,
        V::Unknown(r) => match &r.cause {
            UnknownCause::DynamicReference { reference, .. } => {
                let r = renames.get(reference).unwrap_or(reference);
                Value::String(format!("(known after apply: {r})"))
            }
            other => Value::String(format!("(unknown: {other:?})")),
        },
        V::Bool(b) => Value::Bool(*b),
        V::Number(n) => Value::String(format!("{n:?}")),
        V::String(s) => Value::String(s.to_string()),
        V::List(_, items) | V::Set(_, items) | V::Tuple(items) => all(items),
        V::Map(_, m) | V::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.to_string(), comparable(v, renames))).collect())
        }
        V::Sensitive(inner) => serde_json::json!({ "sensitive": comparable(inner, renames) }),
    }
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
    // The values the comparisons below give variables that have no value in the case (`NAME=VALUE` lines of
    // `oracle-vars`): migrate runs without them, as a pipeline's module is migrated, and copies what uses them as
    // written; with them, what the old and new configurations evaluate to can be compared.
    let oracle_vars: Vec<String> = std::fs::read_to_string(case.join("oracle-vars"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    let (old_single, _) = provider_arguments(dir, "aws", &oracle_vars);
    let old_values = configuration_values(dir, &oracle_vars);
    let old_blocks = block_values(dir, &oracle_vars).0;
    let old_codes = codes(dir);
    let formatted_before: Vec<String> = native_files(dir).into_iter().filter(|f| fmt_check(dir, f).is_ok()).collect();
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
    // JSON files are still JSON (the fixture harness checks that `after/` checks clean).
    for (p, bytes) in tree(dir).iter().filter(|(p, _)| p.ends_with(".json")) {
        serde_json::from_slice::<Value>(bytes).map_err(|e| format!("{name}: {p} is no longer JSON: {e}"))?;
    }
    // `fmt --check` passes on every file that it passed on before: the blocks migrate writes are formatted, and its
    // edits leave the user's lines as `tofu fmt` wants them.
    for f in &formatted_before {
        fmt_check(dir, f).map_err(|diff| format!("{name}: {f} is no longer formatted:\n{diff}"))?;
    }
    // Nothing new from `check`.
    for (code, n) in codes(dir) {
        if n > old_codes.get(&code).copied().unwrap_or(0) {
            return Err(format!("{name}: check reports {code} more often after the migration"));
        }
    }
    // Each old alias is now an instance with the same evaluated arguments.
    let (new_single, instances) = provider_arguments(dir, "aws", &oracle_vars);
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
    let new_values = configuration_values(dir, &oracle_vars);
    for (alias, value) in &old_values {
        if new_values.get(alias) != Some(value) {
            return Err(format!("{name}: aws.{alias} was {value:?}, its instance is {:?}", new_values.get(alias)));
        }
    }
    // Every old address is still there or moved, and each merged instance evaluates to what its block did.
    check_addresses(&name, &err, &old_blocks, &block_values(dir, &oracle_vars))?;
    // Running again finds nothing left to merge.
    if run_in(dir, &args).status.code() != Some(1) {
        return Err(format!("{name}: a second migration should find nothing to merge"));
    }
    Ok(())
}

/// The native configuration files under `dir` (what `fmt` formats), relative.
fn native_files(dir: &Path) -> Vec<String> {
    let native = |p: &str| [".tf", ".tofu", ".tftest.hcl"].iter().any(|e| p.ends_with(e));
    tree(dir).into_keys().filter(|p| native(p)).collect()
}

/// `foreach-ls fmt --check` on one file: `Err` holds the diff `--diff` shows when it needs formatting.
fn fmt_check(dir: &Path, file: &str) -> Result<(), String> {
    let o = run_in(dir, &["fmt", "--check", "--diff", file]);
    match o.status.code() {
        Some(0) => Ok(()),
        _ => Err(format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))),
    }
}

/// The same, with the real `terraform fmt` as the judge, on the expected results (`migrate_cases` asserts that the
/// migration writes exactly those): every file of an `after/` directory whose `before/` form `terraform fmt`
/// accepts as it is must be accepted too. Skips, saying why, when `terraform` is not installed.
#[test]
fn expected_results_pass_terraform_fmt() {
    if std::process::Command::new("terraform").arg("version").output().is_err() {
        let line = "SKIPPED expected_results_pass_terraform_fmt: `terraform` is not installed (it is the judge)";
        println!("{line}");
        eprintln!("{line}");
        return;
    }
    // `terraform fmt -` formats standard input whatever the file's name (it refuses `.tofu` names as arguments).
    let terraform_formats = |bytes: &[u8]| -> bool {
        let mut child = std::process::Command::new("terraform")
            .args(["fmt", "-"])
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("terraform runs");
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), bytes).unwrap();
        let out = child.wait_with_output().unwrap();
        out.status.success() && out.stdout == bytes
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in std::fs::read_dir(cases()).unwrap().map(|e| e.unwrap().path()) {
        let after = case.join("after");
        if !after.is_dir() {
            continue;
        }
        let before = tree(&case.join("before"));
        for f in native_files(&after) {
            let was = before.get(&f);
            if was.is_none_or(|b| !terraform_formats(b)) {
                continue;
            }
            checked += 1;
            if !terraform_formats(&std::fs::read(after.join(&f)).unwrap()) {
                failures.push(format!("{}/after/{f}", case.file_name().unwrap().to_string_lossy()));
            }
        }
    }
    assert!(checked > 10, "only {checked} files were checked");
    assert!(failures.is_empty(), "`terraform fmt` would change: {failures:?}");
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
        let opts = foreach_analysis::migrate::Options { provider: "aws".to_string(), alias: None, resources: true };
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
