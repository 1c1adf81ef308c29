//! Real code is the judge: `check` on the dev corpus (`../shared/corpus/dev-corpus.tar.xz`, 25 public repositories)
//! reports exactly the real mistakes listed in `testdata/corpus/real-findings.txt`, each with its reason.
//!
//! It fails on an error or warning not in the list (a false finding of ours, or a real one to review and list) and
//! on a listed one that disappears (a fix that lost a real finding, or a list to update). Skips, saying why, when
//! `../shared` is not beside the repository or the archive cannot be unpacked.

mod tools;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use tools::{repo, skip, target_dir, unpack_corpus};

/// A finding as the list keys it: where, and what. Messages are left out so that rewording one is not a change.
type Key = (String, u64, String);

#[test]
fn check_reports_exactly_the_listed_real_mistakes_on_the_dev_corpus() {
    let archive = repo().join("../shared/corpus/dev-corpus.tar.xz");
    if !archive.is_file() {
        skip("corpus", "../shared/corpus/dev-corpus.tar.xz is not beside the repository");
        return;
    }
    let corpus = match unpack_corpus(&archive, &target_dir().join("corpus")) {
        Ok(dir) => dir,
        Err(why) => {
            skip("corpus", &format!("cannot unpack the dev corpus: {why}"));
            return;
        }
    };
    let out = Command::new(env!("CARGO_BIN_EXE_foreach-ls"))
        .args(["check", ".", "--format", "json"])
        .current_dir(&corpus)
        .env_remove("TF_WORKSPACE")
        .envs(std::env::vars().filter(|(k, _)| k.starts_with("TF_VAR_")).map(|(k, _)| (k, String::new())))
        .output()
        .expect("foreach-ls runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("check printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let mut reported: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for d in report["diagnostics"].as_array().expect("a diagnostics array") {
        let severity = d["severity"].as_str().unwrap_or_default();
        if severity != "error" && severity != "warning" {
            continue;
        }
        let key = (
            d["file"].as_str().unwrap_or_default().to_string(),
            d["range"]["start"]["line"].as_u64().unwrap_or_default(),
            format!("{severity}[{}]", d["code"].as_str().unwrap_or_default()),
        );
        reported.entry(key).or_default().push(d["message"].as_str().unwrap_or_default().to_string());
    }
    let listed = read_list(&repo().join("testdata/corpus/real-findings.txt"));

    let mut problems = Vec::new();
    for (key, messages) in &reported {
        let expected = listed.get(key).map_or(0, |(n, _)| *n);
        for message in messages.iter().skip(expected) {
            problems.push(format!("unexpected: {}:{}: {} {message}", key.0, key.1, key.2));
        }
    }
    for (key, (count, line)) in &listed {
        let got = reported.get(key).map_or(0, Vec::len);
        if got < *count {
            problems.push(format!("listed but not reported ({got} of {count}): {line}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} differences from testdata/corpus/real-findings.txt (a false finding is a bug of ours; a real one is \
         listed with its reason):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `path:line: severity[code] — reason` lines; `#` comments and blank lines are skipped. The same key may be listed
/// more than once (two findings on one line).
fn read_list(path: &Path) -> BTreeMap<Key, (usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: BTreeMap<Key, (usize, String)> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || panic!("{}:{}: expected `path:line: severity[code] — reason`: {line}", path.display(), n + 1);
        let Some((finding, reason)) = line.split_once(" — ") else { bad() };
        if reason.trim().is_empty() {
            bad();
        }
        let mut parts = finding.rsplitn(3, ':');
        let (Some(code), Some(line_no), Some(file)) = (parts.next(), parts.next(), parts.next()) else { bad() };
        let Ok(line_no) = line_no.trim().parse::<u64>() else { bad() };
        let entry = out.entry((file.to_string(), line_no, code.trim().to_string())).or_insert((0, line.to_string()));
        entry.0 += 1;
    }
    out
}
