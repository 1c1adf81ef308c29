//! The formatter against the real `terraform fmt`: every `.tf`/`.tfvars` file of the dev corpus
//! (`../shared/corpus/dev-corpus.tar.xz`) that `terraform fmt` accepts must come out byte for byte the same. Skips,
//! saying why, when `terraform` is not installed or the corpus is not beside the repository.
//!
//! `terraform fmt -recursive` runs once on a copy of the files (one process per file would take minutes); a file
//! it could not parse is left unchanged there, and must be refused by our formatter too.

mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;

use foreach_syntax::FileKind;
use tools::{repo, skip, target_dir, unpack_corpus};

#[test]
fn formatting_matches_terraform_fmt_on_the_dev_corpus() {
    let archive = repo().join("../shared/corpus/dev-corpus.tar.xz");
    if !archive.is_file() {
        skip("fmt_corpus", "../shared/corpus/dev-corpus.tar.xz is not beside the repository");
        return;
    }
    if Command::new("terraform").arg("version").output().is_err() {
        skip("fmt_corpus", "`terraform` is not installed (it is the oracle of this test)");
        return;
    }
    let corpus = match unpack_corpus(&archive, &target_dir().join("fmt-corpus/source")) {
        Ok(dir) => dir,
        Err(why) => {
            skip("fmt_corpus", &format!("cannot unpack the dev corpus: {why}"));
            return;
        }
    };
    let mut files = Vec::new();
    collect(&corpus, &corpus, &mut files);
    assert!(files.len() > 1000, "the corpus has {} files", files.len());

    // A fresh copy, formatted in place by terraform.
    let oracle = target_dir().join("fmt-corpus/terraform");
    let _ = std::fs::remove_dir_all(&oracle);
    for rel in &files {
        let to = oracle.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(corpus.join(rel), &to).unwrap();
    }
    let out = Command::new("terraform")
        .args(["fmt", "-recursive", "-list=false"])
        .current_dir(&oracle)
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .output()
        .expect("terraform runs");
    let refused_by_terraform = String::from_utf8_lossy(&out.stderr).to_string();

    let mut mismatches = Vec::new();
    let (mut same, mut refused) = (0, 0);
    for rel in &files {
        let original = std::fs::read(corpus.join(rel)).unwrap();
        let expected = std::fs::read(oracle.join(rel)).unwrap();
        let Ok(text) = String::from_utf8(original.clone()) else { continue };
        let kind = FileKind::from_file_name(&rel.to_string_lossy()).unwrap_or(FileKind::Tf);
        match foreach_syntax::format::format(&text, kind) {
            Ok(ours) if ours.as_bytes() == expected.as_slice() => same += 1,
            Ok(ours) => mismatches.push(format!("{}: {}", rel.display(), first_difference(&ours, &expected))),
            Err(_) if expected == original && refused_by_terraform.contains(&*rel.to_string_lossy()) => refused += 1,
            Err(err) => mismatches.push(format!("{}: we refuse it ({err}), terraform formats it", rel.display())),
        }
    }
    println!("{same} files formatted identically, {refused} refused by both");
    assert!(
        mismatches.is_empty(),
        "{} of {} files differ from `terraform fmt`:\n{}",
        mismatches.len(),
        files.len(),
        mismatches.join("\n")
    );
}

fn first_difference(ours: &str, expected: &[u8]) -> String {
    let expected = String::from_utf8_lossy(expected);
    for (n, (a, b)) in ours.lines().zip(expected.lines()).enumerate() {
        if a != b {
            return format!("line {}: ours {a:?}, terraform {b:?}", n + 1);
        }
    }
    format!("lengths differ: ours {} bytes, terraform {}", ours.len(), expected.len())
}

/// The files `terraform fmt -recursive` visits: `.tf` and `.tfvars`, outside hidden directories.
fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#')) {
            continue;
        }
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            collect(root, &path, out);
        } else if name.ends_with(".tf") || name.ends_with(".tfvars") {
            out.push(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}
