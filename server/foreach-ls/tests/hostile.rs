//! Hostile workspaces, each checked by the real binary: every case must end in the stated diagnostic, with the
//! exit status of a finished check, within the stated wall-clock time and peak memory. Peak memory is the child's
//! own high-water mark (`VmHWM` in `/proc/<pid>/status`, sampled every 10 ms until it exits; `wait4`'s `ru_maxrss`
//! would count the forking test process too). Bounds are for the debug build on a busy two-core machine, about
//! three to four times what was measured (docs/reliability.md), so that quadratic time or a runaway allocation
//! fails and noise does not. A child that outlives its time bound is killed and the test fails.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

struct Bound {
    secs: u64,
    mb: u64,
}

struct Run {
    code: i32,
    report: Value,
    stderr: String,
}

fn high_water_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `foreach-ls check --format json` in `dir`, held to `bound`.
fn check(dir: &Path, bound: Bound) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_foreach-ls"))
        .args(["check", "--format", "json"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain the pipes while the child runs (a large report would otherwise block it).
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).unwrap();
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).unwrap();
        v
    });
    let start = Instant::now();
    let deadline = start + Duration::from_secs(bound.secs);
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        peak_kib = peak_kib.max(high_water_kib(child.id()).unwrap_or(0));
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    let stdout = out_t.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap()).into_owned();
    let peak_mb = peak_kib / 1024;
    eprintln!("{}: {:.2} s, peak {peak_mb} MB", dir.display(), elapsed.as_secs_f64());
    let Some(status) = status else { panic!("not finished within {} s", bound.secs) };
    assert!(peak_mb <= bound.mb, "peak memory {peak_mb} MB is over the bound of {} MB", bound.mb);
    let code = status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "exit status {code}: {stderr}");
    let report = serde_json::from_slice(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    Run { code, report, stderr }
}

fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn diags(run: &Run) -> Vec<&Value> {
    run.report["diagnostics"].as_array().unwrap().iter().collect()
}

fn codes(run: &Run) -> Vec<String> {
    diags(run).iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
}

fn has(run: &Run, code: &str, message: &str) -> bool {
    diags(run).iter().any(|d| d["code"] == code && d["message"].as_str().unwrap().contains(message))
}

#[test]
fn a_hundred_thousand_nested_parentheses_and_brackets() {
    let n = 100_000;
    let dir = workspace(&[
        ("parens.tf", &format!("locals {{\n  p = {}1{}\n}}\n", "(".repeat(n), ")".repeat(n))),
        ("brackets.tf", &format!("locals {{\n  b = {}1{}\n}}\n", "[".repeat(n), "]".repeat(n))),
        ("blocks.tf", &format!("{}{}", "a {\n".repeat(n), "}\n".repeat(n))),
        ("json.tf.json", &format!("{{\"locals\": {{\"j\": {}1{}}}}}", "[".repeat(n), "]".repeat(n))),
        ("main.tf", "locals {\n  ok = local.nope\n}\n"),
    ]);
    let run = check(dir.path(), Bound { secs: 60, mb: 400 });
    assert_eq!(run.code, 1);
    // One syntax error per file, and the rest of the workspace is still analysed.
    let mut files: Vec<&str> =
        diags(&run).iter().filter(|d| d["code"] == "syntax-error").map(|d| d["file"].as_str().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["blocks.tf", "brackets.tf", "json.tf.json", "parens.tf"], "{:?}", run.report);
    assert!(has(&run, "undefined-reference", "local.nope"));
}

#[test]
fn a_fifty_megabyte_file() {
    let mut big = String::with_capacity(51 << 20);
    let mut i = 0;
    while big.len() < 50 << 20 {
        big.push_str(&format!("resource \"aws_s3_bucket\" \"b{i}\" {{\n  bucket = \"bucket-{i}\"\n}}\n\n"));
        i += 1;
    }
    big.push_str("locals {\n  last = local.nope\n}\n");
    let dir = workspace(&[("big.tf", &big)]);
    drop(big);
    let run = check(dir.path(), Bound { secs: 120, mb: 2_600 });
    assert_eq!(codes(&run), ["undefined-reference"], "{}", run.stderr);
}

#[test]
fn one_ten_megabyte_line() {
    let line = format!("locals {{ a = \"{}\", b = local.nope }}\n", "x".repeat(10 << 20));
    let unterminated = format!("locals {{\n  c = \"{}\n}}\n", "y".repeat(10 << 20));
    let dir = workspace(&[("line.tf", &line), ("open.tf", &unterminated)]);
    let run = check(dir.path(), Bound { secs: 60, mb: 800 });
    assert!(has(&run, "syntax-error", ""), "{:?}", run.report);
    assert!(diags(&run).iter().any(|d| d["file"] == "open.tf"));
    // The long line is a one-line block with two attributes separated by a comma: not HCL. The error is at the
    // comma, after the 10 MB string, and its column is exact.
    let comma = diags(&run).into_iter().find(|d| d["file"] == "line.tf").unwrap();
    assert_eq!(comma["range"]["start"]["column"], (10 << 20) + 16, "{comma}");
}

#[test]
fn a_ten_megabyte_line_that_is_valid() {
    let line = format!("locals {{\n  a = \"{}\"\n  b = local.nope\n}}\n", "x".repeat(10 << 20));
    let dir = workspace(&[("main.tf", &line)]);
    let run = check(dir.path(), Bound { secs: 60, mb: 800 });
    assert_eq!(codes(&run), ["undefined-reference"]);
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let dir = workspace(&[("main.tf", "locals {\n  a = 1\n}\n")]);
    std::fs::write(dir.path().join("nul.tf"), b"locals {\n  b = \"\0\"\n}\n").unwrap();
    std::fs::write(dir.path().join("latin1.tf"), b"locals {\n  c = \"caf\xe9\"\n}\n").unwrap();
    std::fs::write(dir.path().join("vars.auto.tfvars"), b"x = \"\xff\xfe\"\n").unwrap();
    let run = check(dir.path(), Bound { secs: 30, mb: 300 });
    assert_eq!(codes(&run), ["unreadable-file", "unreadable-file", "unreadable-file"], "{:?}", run.report);
    assert!(has(&run, "unreadable-file", "NUL"));
    assert!(has(&run, "unreadable-file", "UTF-8"));
}

#[test]
fn exploding_for_setproduct_and_range() {
    let dir = workspace(&[(
        "main.tf",
        r#"provider "aws" {
  alias    = "a"
  for_each = toset([for p in setproduct(range(100000), range(100000)) : "${p[0]}-${p[1]}"])
}
provider "aws" {
  alias    = "b"
  for_each = toset([for x in range(1e12) : tostring(x)])
}
provider "aws" {
  alias    = "c"
  for_each = { for x in range(3000) : tostring(x) => [for y in range(3000) : y] }
}
locals {
  s = join("", [for i in range(100000000) : "0123456789"])
}
"#,
    )]);
    let run = check(dir.path(), Bound { secs: 60, mb: 600 });
    let limits = diags(&run).iter().filter(|d| d["code"] == "evaluation-limit").count();
    assert!(limits >= 3, "{:?}", run.report);
}

fn cycle(n: usize) -> String {
    let mut s = String::from("locals {\n");
    for i in 0..n {
        s.push_str(&format!("  l{i} = local.l{}\n", (i + 1) % n));
    }
    s + "}\nprovider \"aws\" {\n  alias    = \"x\"\n  for_each = toset([local.l0])\n}\n"
}

#[test]
fn local_cycles_of_length_one_and_a_thousand() {
    let dir = workspace(&[("main.tf", &cycle(1))]);
    let run = check(dir.path(), Bound { secs: 30, mb: 300 });
    assert!(has(&run, "reference-cycle", "local.l0 -> local.l0"), "{:?}", run.report);

    let dir = workspace(&[("main.tf", &cycle(1000))]);
    let run = check(dir.path(), Bound { secs: 30, mb: 300 });
    assert!(has(&run, "reference-cycle", "local.l999 -> local.l0"), "{:?}", run.report);
}

#[test]
fn a_chain_of_ten_thousand_locals_is_not_a_stack_overflow() {
    let mut s = String::from("locals {\n");
    let n = 10_000;
    for i in 0..n {
        s.push_str(&format!("  l{i} = local.l{}\n", i + 1));
    }
    s.push_str(&format!("  l{n} = [\"a\"]\n}}\nprovider \"aws\" {{\n  alias    = \"x\"\n  for_each = toset(local.l0)\n}}\nresource \"r\" \"y\" {{\n  provider = aws.x[\"nope\"]\n}}\n"));
    let dir = workspace(&[("main.tf", &s)]);
    let run = check(dir.path(), Bound { secs: 60, mb: 400 });
    // Either the chain is followed to its end (then the key is checked) or cut by the depth budget; never a crash.
    assert!(has(&run, "unknown-provider-instance", "nope") || has(&run, "evaluation-limit", ""), "{:?}", run.report);
}

#[test]
fn a_module_that_calls_itself_and_a_symlink_loop() {
    let dir = workspace(&[("main.tf", "module \"me\" {\n  source = \"./\"\n}\n")]);
    let run = check(dir.path(), Bound { secs: 30, mb: 300 });
    assert_eq!(codes(&run), ["module-cycle"], "{:?}", run.report);

    let dir = workspace(&[
        ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\n"),
        ("a/main.tf", "module \"again\" {\n  source = \"./loop/loop/loop\"\n}\n"),
    ]);
    std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("a/loop")).unwrap();
    // And two files linked to each other.
    std::os::unix::fs::symlink("y.tf", dir.path().join("x.tf")).unwrap();
    std::os::unix::fs::symlink("x.tf", dir.path().join("y.tf")).unwrap();
    let run = check(dir.path(), Bound { secs: 30, mb: 300 });
    assert!(codes(&run).contains(&"module-cycle".to_string()), "{:?}", run.report);
}

#[test]
fn file_functions_are_refused_outside_the_workspace() {
    let outer = tempfile::tempdir().unwrap();
    std::fs::write(outer.path().join("secret.txt"), "secret").unwrap();
    let ws = outer.path().join("ws/inner");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(
        ws.join("main.tf"),
        r#"provider "aws" {
  alias    = "p"
  for_each = toset([file("/etc/passwd")])
}
provider "aws" {
  alias    = "q"
  for_each = toset([file("../../secret.txt")])
}
provider "aws" {
  alias    = "l"
  for_each = toset([file("link.txt")])
}
"#,
    )
    .unwrap();
    // A link inside the workspace to a file outside it must not be a way out either.
    std::os::unix::fs::symlink(outer.path().join("secret.txt"), ws.join("link.txt")).unwrap();
    let run = check(&ws, Bound { secs: 30, mb: 300 });
    // Not read, and no error either (OpenTofu reads them): each value is unknown, with a note saying why.
    let refused: Vec<&Value> = diags(&run).into_iter().filter(|d| d["code"] == "file-outside-repository").collect();
    assert_eq!(refused.len(), 3, "{:?}", run.report);
    let link = refused.iter().filter(|d| d["message"].as_str().unwrap().contains("it links to a file outside")).count();
    assert_eq!(link, 1, "{:?}", run.report);
    assert!(diags(&run).iter().all(|d| d["severity"] == "info"), "{:?}", run.report);
    assert!(!run.report.to_string().contains("secret\""), "the secret leaked: {:?}", run.report);
    assert!(!run.report.to_string().contains("root:"), "/etc/passwd leaked");
}

#[test]
fn templatefile_recursion_is_refused() {
    let dir = workspace(&[
        (
            "main.tf",
            "provider \"aws\" {\n  alias    = \"t\"\n  for_each = toset([templatefile(\"self.tpl\", {})])\n}\n",
        ),
        ("self.tpl", "again: ${templatefile(\"self.tpl\", {})}\n"),
    ]);
    let run = check(dir.path(), Bound { secs: 30, mb: 300 });
    assert!(has(&run, "evaluation-error", "templatefile"), "{:?}", run.report);
}

#[test]
fn a_tfvars_file_of_a_hundred_thousand_entries() {
    let mut vars = String::new();
    for i in 0..100_000 {
        vars.push_str(&format!("v{i} = \"value-{i}\"\n"));
    }
    vars.push_str("regions = [\"a\", \"b\"]\n");
    let dir = workspace(&[
        (
            "main.tf",
            "variable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = var.regions\n}\nresource \"x\" \"y\" {\n  provider = aws.r[\"c\"]\n}\n",
        ),
        ("terraform.tfvars", &vars),
    ]);
    let run = check(dir.path(), Bound { secs: 60, mb: 1_500 });
    // The declared variable's value is used, and the undeclared ones are each reported once.
    assert!(has(&run, "unknown-provider-instance", "\"c\"") || has(&run, "unknown-provider-instance", "`c`"));
    let undeclared = diags(&run).iter().filter(|d| d["code"] == "undeclared-variable-value").count();
    assert_eq!(undeclared, 100_000);
}
