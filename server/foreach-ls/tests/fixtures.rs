//! Runs every fixture under `testdata/` and every ```` ```hcl ```` example in `docs/diagnostics/*.md` through the
//! same loading and analysis path as `foreach-ls check`, and compares the diagnostics with the inline annotations
//! (see `testdata/README.md`). Each fixture is its own test, named by its path, so
//! `cargo test --test fixtures -- provider-for-each` filters. Each fixture is also a `fixes/<path>` test: every
//! quick fix offered on it, applied, must leave valid files without the finding (`support/fix_round_trip.rs`).

use std::path::{Path, PathBuf};

#[path = "support/fix_round_trip.rs"]
mod fix_round_trip;

use foreach_analysis::eval::render::compact;
use foreach_analysis::{AnalysisHost, Diagnostic};
use foreach_fixture::{
    ActualDiagnostic, Expectation, Fixture, Position, check_fixture, discover_fixtures, markdown_hcl_blocks,
};
use foreach_load as load;
use foreach_load::OrderedVar;
use foreach_load::{LoadOptions, StateOption, StateSource, load};
use foreach_syntax::{ColumnEncoding, LineIndex, TextSize};
use libtest_mimic::{Arguments, Failed, Trial};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads a fixture directory like `check` would, with its `fixture.toml` settings; returns the host and the codes
/// the fixture disables.
fn load_fixture(dir: &Path) -> Result<(AnalysisHost, Vec<String>), String> {
    let fixture = Fixture::load(dir).map_err(|e| e.to_string())?;
    let config = &fixture.config;
    let mut ordered: Vec<OrderedVar> = config.var_files.iter().map(|f| OrderedVar::File(dir.join(f))).collect();
    ordered.extend(config.vars.iter().map(|(k, v)| OrderedVar::Var(format!("{k}={v}"))));
    let paths = [dir.to_path_buf()];
    let states: Vec<StateOption> =
        config.state.iter().map(|s| StateOption { root: None, source: StateSource::File(dir.join(s)) }).collect();
    // A fixture's own project file: its excludes apply as `check` applies them.
    let project_file = dir.join(load::project::PROJECT_FILE);
    let project = match project_file.exists() {
        true => Some(load::project::Project::read(&project_file).map_err(|e| e.to_string())?),
        false => None,
    };
    let opts = LoadOptions {
        project_excludes: project.as_ref().map(|p| (p.dir.as_path(), p.exclude.as_slice())),
        ordered_vars: &ordered,
        workspace_name: config.workspace.clone(),
        states: &states,
        // As `check` keeps them: the fixtures then cover what it runs (packed summaries, texts read again).
        texts: load::KeepTexts::OnDisk,
        ..LoadOptions::new(&paths)
    };
    let loaded = load(&opts).map_err(|e| e.0)?;
    Ok((loaded.host, config.disabled_codes.clone()))
}

/// Loads and analyses a fixture directory like `check` would. A fixture with a project file `foreach-ls.toml`
/// (its own, not one above it: fixtures are independent) is checked in each of its environments, with its severity
/// overrides; a finding of only some environments has their names before its message, `(prod, staging) ...`.
fn analyse(dir: &Path) -> Result<Vec<ActualDiagnostic>, String> {
    let (mut host, disabled) = load_fixture(dir)?;
    let root = dir.canonicalize().map_err(|e| e.to_string())?;
    let project_file = dir.join(load::project::PROJECT_FILE);
    let findings = if project_file.exists() {
        let project = load::project::Project::read(&project_file).map_err(|e| e.to_string())?;
        let envs = load::environments::selected(&project, None);
        let mut findings = load::environments::check(&mut host, &project, &envs).map_err(|e| e.0)?;
        findings.retain_mut(|f| project.override_severity(&mut f.diagnostic));
        findings
    } else {
        host.diagnostics().into_iter().map(load::environments::Finding::everywhere).collect()
    };
    let files = host.file_table();
    let mut out = Vec::new();
    for f in findings.iter().filter(|f| !disabled.iter().any(|c| c == f.diagnostic.code.as_str())) {
        let mut a = actual(&f.diagnostic, &files, &root)?;
        if !f.environments.is_empty() {
            a.message = format!("({}) {}", f.environments.join(", "), a.message);
        }
        out.push(a);
    }
    Ok(out)
}

/// Every fix offered on the fixture, applied, leaves no new syntax error and no longer has its finding.
fn run_fixes(dir: &Path) -> Result<(), Failed> {
    let (mut host, disabled) = load_fixture(dir)?;
    let (_, failures) = fix_round_trip::check(&mut host, &disabled);
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n").into()) }
}

/// JSON files cannot carry annotations, so fixes in JSON files are tests of their own: `files` are written to a
/// fresh directory, the fix whose title contains `title` must write `new_text`, every fix must pass the round trip,
/// and after applying that fix nothing is reported.
fn json_fix(files: &[(&str, &str)], title: &str, new_text: &str) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).map_err(|e| e.to_string())?;
    }
    let (mut host, _) = load_fixture(dir.path())?;
    let diags = host.diagnostics();
    let fix = diags
        .iter()
        .flat_map(|d| &d.fixes)
        .find(|f| f.title.contains(title))
        .ok_or_else(|| format!("no fix {title:?}: {diags:?}"))?;
    let edit = &fix.edits[0];
    if edit.new_text != new_text {
        return Err(format!("the fix writes {}", edit.new_text).into());
    }
    let (tried, failures) = fix_round_trip::check(&mut host, &[]);
    if tried == 0 || !failures.is_empty() {
        return Err(format!("{tried} fixes tried: {}", failures.join("\n")).into());
    }
    let files_by_id = host.file_table();
    let (path, text) = files_by_id.get(&edit.location.file).ok_or("the fix edits an unknown file")?;
    let same_file: Vec<_> = fix.edits.iter().filter(|e| e.location.file == edit.location.file).collect();
    let fixed = foreach_analysis::fixes::apply_edits(&text.text(), &same_file).text;
    std::fs::write(path, fixed).map_err(|e| e.to_string())?;
    let (host, _) = load_fixture(dir.path())?;
    match host.diagnostics().as_slice() {
        [] => Ok(()),
        left => Err(format!("after the fix: {left:?}").into()),
    }
}

/// A `.tf.json` file's constructs and constraints are read as the native syntax's: provider `for_each` (1.9) under
/// `required_version = ">= 1.6"` is reported, and the fix rewrites the JSON string in place.
fn json_raise_required_version() -> Result<(), Failed> {
    let json = r#"{
  "terraform": { "required_version": ">= 1.6" },
  "provider": {
    "aws": { "alias": "by_region", "for_each": "${toset([\"us-east-1\"])}", "region": "${each.value}" }
  }
}
"#;
    json_fix(&[("main.tf", "# JSON below\n"), ("main.tf.json", json)], "Raise `required_version`", "\">= 1.9\"")
}

/// Convert a list to a set: `toset(` goes inside the JSON string that is one interpolation, so the file stays JSON
/// (it used to go outside the string's quotes). A JSON array gets no such fix (`fixes::wrap_call` tests).
fn json_convert_to_set() -> Result<(), Failed> {
    let json = r#"{
  "variable": { "regions": { "default": ["us-east-1", "eu-west-1"] } },
  "provider": {
    "aws": { "alias": "by_region", "for_each": "${var.regions}", "region": "${each.value}" }
  }
}
"#;
    json_fix(&[("main.tf", "# JSON below\n"), ("main.tf.json", json)], "Convert the list to a set", "toset(")
}

const JSON_PROVIDER: &str = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"euw1\", \"use1\"])\n  region   = each.key\n}\n";

/// Use another instance: the key is replaced inside the JSON string, which stays valid JSON and a valid reference.
fn json_use_instance() -> Result<(), Failed> {
    let json = r#"{
  "resource": {
    "aws_s3_bucket": {
      "b": {
        "provider": "aws.by_region[\"euw\"]"
      }
    }
  }
}
"#;
    json_fix(&[("main.tf", JSON_PROVIDER), ("use.tf.json", json)], "euw1", r#""aws.by_region[\"euw1\"]""#)
}

/// Rename an undeclared variable's value: the JSON key stays a JSON string.
fn json_rename_variable() -> Result<(), Failed> {
    let main = "variable \"regions\" {\n  type = list(string)\n}\n";
    let json = "{\n  \"regoins\": [\"euw1\"]\n}\n";
    json_fix(&[("main.tf", main), ("terraform.tfvars.json", json)], "Rename to `regions`", "\"regions\"")
}

/// Use the declared resource closest to an undeclared one referenced from a JSON template string.
fn json_use_resource() -> Result<(), Failed> {
    let main = "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"10.0.0.0/16\"\n}\n";
    let json = r#"{
  "output": {
    "vpc": { "value": "${aws_vpc.maim.id}" }
  }
}
"#;
    json_fix(&[("main.tf", main), ("out.tf.json", json)], "Use `aws_vpc.main`", "aws_vpc.main")
}

fn actual(
    d: &Diagnostic,
    files: &std::collections::HashMap<foreach_analysis::FileId, (String, foreach_analysis::SourceText)>,
    root: &Path,
) -> Result<ActualDiagnostic, String> {
    let (path, text) = files.get(&d.location.file).ok_or("diagnostic in an unknown file")?;
    let rel = Path::new(path).strip_prefix(root).map(Path::to_path_buf).unwrap_or_else(|_| PathBuf::from(path));
    let index = LineIndex::new(&text.text());
    let pos = |o: TextSize| {
        let lc = index.line_col(o, ColumnEncoding::Char);
        Position::new(lc.line, lc.col)
    };
    Ok(ActualDiagnostic {
        file: rel,
        severity: d.severity.as_str().to_string(),
        code: d.code.as_str().to_string(),
        message: d.message.clone(),
        start: pos(d.location.range.start()),
        end: pos(d.location.range.end()),
    })
}

fn run_dir(dir: &Path) -> Result<(), Failed> {
    let actual = analyse(dir)?;
    check_fixture(dir, &actual).map_err(|f| Failed::from(f.to_string()))?;
    check_values(dir)
}

/// `# ^^^ value: RENDERED` annotations: the underlined expression, evaluated in the static scope of the fixture's
/// root module, renders (compactly) as RENDERED; `unknown` matches any value that is not statically known.
fn check_values(dir: &Path) -> Result<(), Failed> {
    let fixture = Fixture::load(dir).map_err(|e| e.to_string())?;
    let expectations = fixture.expectations().map_err(|e| e.to_string())?;
    let values: Vec<_> = expectations
        .iter()
        .filter_map(|e| match e {
            Expectation::Value { file, range, rendered, .. } => Some((file, range, rendered)),
            _ => None,
        })
        .collect();
    if values.is_empty() {
        return Ok(());
    }
    let (host, _) = load_fixture(dir)?;
    let root = load::path_string(&dir.canonicalize().map_err(|e| e.to_string())?);
    let mut failures = Vec::new();
    for (file, range, want) in values {
        let text = fixture.file(file).map(|f| f.text().into_owned()).unwrap_or_default();
        let Some(bytes) = range.to_byte_range(&text) else { continue };
        let expr = &text[bytes];
        let evaluation = host.evaluate_in(&root, expr);
        let got =
            if evaluation.value.first_unknown().is_some() { "unknown".to_string() } else { compact(&evaluation.value) };
        if got != *want {
            failures.push(format!("{}:{}: `{expr}` is {got}, expected {want}", file.display(), range.start.line + 1));
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n").into()) }
}

/// A docs example: its files written to a fresh directory and checked like a fixture.
fn run_doc_example(files: &[(String, String)]) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    for (path, text) in files {
        let target = dir.path().join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(target, text).map_err(|e| e.to_string())?;
    }
    let actual = analyse(dir.path())?;
    // Never rewrite a temporary copy: report instead, so the docs page gets fixed by hand.
    foreach_fixture::check_fixture_in(dir.path(), &actual, foreach_fixture::Mode::Check)
        .map_err(|f| Failed::from(f.to_string()))?;
    run_fixes(dir.path())
}

/// The examples of a docs page. A ```` ```hcl ```` block is a new example's `main.tf`; a block whose first line is
/// `# file: PATH` adds that file to the example before it (so multi-file cases, such as a `.tfvars` file or a
/// child module, are executable too).
fn doc_examples(md: &str) -> Vec<(usize, Vec<(String, String)>)> {
    let mut examples: Vec<(usize, Vec<(String, String)>)> = Vec::new();
    for (line, block) in markdown_hcl_blocks(md) {
        let first = block.lines().next().unwrap_or_default();
        match (first.strip_prefix("# file: "), examples.last_mut()) {
            (Some(path), Some((_, files))) => files.push((path.trim().to_string(), block)),
            _ => examples.push((line, vec![("main.tf".to_string(), block)])),
        }
    }
    examples
}

fn main() {
    let args = Arguments::from_args();
    let root = repo();
    let mut trials = Vec::new();
    for dir in discover_fixtures(&root.join("testdata")) {
        let name = dir.strip_prefix(&root).unwrap_or(&dir).display().to_string();
        let fixes = dir.clone();
        trials.push(Trial::test(format!("fixes/{name}"), move || run_fixes(&fixes)));
        trials.push(Trial::test(name, move || run_dir(&dir)));
    }
    trials.push(Trial::test("fixes/json-use-instance", json_use_instance));
    trials.push(Trial::test("fixes/json-rename-variable", json_rename_variable));
    trials.push(Trial::test("fixes/json-use-resource", json_use_resource));
    trials.push(Trial::test("fixes/json-raise-required-version", json_raise_required_version));
    trials.push(Trial::test("fixes/json-convert-to-set", json_convert_to_set));
    let docs = root.join("docs/diagnostics");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&docs)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect())
        .unwrap_or_default();
    pages.sort();
    for page in pages {
        let md = std::fs::read_to_string(&page).unwrap_or_default();
        let stem = page.file_stem().unwrap_or_default().to_string_lossy().to_string();
        for (line, files) in doc_examples(&md) {
            trials
                .push(Trial::test(format!("docs/diagnostics/{stem}.md:{}", line + 1), move || run_doc_example(&files)));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
