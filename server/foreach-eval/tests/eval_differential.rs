//! Differential test: every expression in `eval_differential/cases.txt` is evaluated by foreach-ls and by
//! `terraform console` in the module `eval_differential/main.tf`: the console renderings (values, collection and
//! structure kinds, number vs string) must agree, and so must the types `type()` prints (element and attribute
//! types, including those of empty and null values). Expressions that fail must fail in both.
//!
//! Lines ending in `#! reason` are deliberate differences: they are evaluated and reported, not asserted.
//! Skips with a printed reason when `terraform` is not installed.

mod eval_support;

use eval_support::scope;
use foreach_eval::render;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/eval_differential");

struct Case {
    expr: String,
    deliberate: Option<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(format!("{DIR}/cases.txt")).expect("cases.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once("#!") {
            Some((e, why)) => Case { expr: e.trim().to_string(), deliberate: Some(why.trim().to_string()) },
            None => Case { expr: l.to_string(), deliberate: None },
        })
        .collect()
}

/// Runs `terraform console` with one input line; `None` if it reported an error.
fn console(dir: &Path, input: &str) -> Option<String> {
    let mut child = Command::new("terraform")
        .arg("console")
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(format!("{input}\n").as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() || stderr.contains("Error") || stdout.contains("Error:") {
        return None;
    }
    Some(stdout.trim_end_matches('\n').to_string())
}

/// Our console rendering, `None` if evaluation reported an error or the value is not wholly known.
fn ours(scope: &foreach_eval::ModuleScope, expr: &str) -> Option<String> {
    let parsed = foreach_syntax::parse_expr(expr).ok()?;
    let ctx = foreach_eval::EvalContext::default();
    let v = scope.eval(eval_support::EXPR_FILE, &parsed, &ctx);
    let d = scope.take_diagnostics();
    if !d.is_empty() || !v.is_wholly_known() {
        return None;
    }
    Some(render::console(&v))
}

#[test]
fn differential_against_terraform_console() {
    if Command::new("terraform").arg("version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
        println!("skipped: `terraform` is not installed, so there is nothing to compare with");
        return;
    }
    let module = std::fs::read_to_string(format!("{DIR}/main.tf")).expect("main.tf");
    let tmp = std::env::temp_dir().join(format!("foreach-ls-eval-diff-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    std::fs::write(tmp.join("main.tf"), &module).expect("write main.tf");
    let scope = scope(&module);
    let module_diags = scope.take_diagnostics();
    assert!(module_diags.is_empty(), "the test module has diagnostics: {module_diags:#?}");

    let cases = cases();
    let mine: Vec<Option<String>> = cases.iter().map(|c| ours(&scope, &c.expr)).collect();
    let mut theirs: Vec<Option<Option<String>>> = vec![None; cases.len()];
    // Batches of the expressions we evaluate: one console run evaluates a tuple of them; if the tuple matches our
    // rendering of the same tuple every element agrees. Otherwise fall back to one run per expression, which is
    // also how the expressions we reject are checked (they must fail in terraform too).
    let ok: Vec<usize> = (0..cases.len()).filter(|&i| mine[i].is_some()).collect();
    for chunk in ok.chunks(20) {
        let input = format!("[{}]", chunk.iter().map(|&i| cases[i].expr.as_str()).collect::<Vec<_>>().join(", "));
        if let Some(t) = console(&tmp, &input)
            && Some(&t) == ours(&scope, &input).as_ref()
        {
            for &i in chunk {
                theirs[i] = Some(mine[i].clone());
            }
            continue;
        }
        for &i in chunk {
            theirs[i] = Some(console(&tmp, &cases[i].expr));
        }
    }
    for i in (0..cases.len()).filter(|&i| mine[i].is_none()) {
        theirs[i] = Some(console(&tmp, &cases[i].expr));
    }
    // Types, for every expression both sides evaluate: `type({e0 = ..., e1 = ...})` per batch, one by one on a
    // mismatch (`type()` only works at the top level of a console input).
    let our_type = |expr: &str| -> Option<String> {
        let parsed = foreach_syntax::parse_expr(expr).ok()?;
        let v = scope.eval(eval_support::EXPR_FILE, &parsed, &foreach_eval::EvalContext::default());
        scope.take_diagnostics();
        Some(render::console_type(&v.type_of()))
    };
    let typed: Vec<usize> =
        (0..cases.len()).filter(|&i| mine[i].is_some() && theirs[i].clone().flatten() == mine[i]).collect();
    let mut type_failures = Vec::new();
    let mut types_checked = 0;
    for chunk in typed.chunks(20) {
        let attrs: Vec<String> = chunk.iter().map(|&i| format!("e{i} = {}", cases[i].expr)).collect();
        let input = format!("{{ {} }}", attrs.join(", "));
        if let (Some(t), Some(o)) = (console(&tmp, &format!("type({input})")), our_type(&input))
            && t == o
        {
            types_checked += chunk.len();
            continue;
        }
        for &i in chunk {
            let t = console(&tmp, &format!("type({})", cases[i].expr));
            let o = our_type(&cases[i].expr);
            types_checked += 1;
            if t != o && cases[i].deliberate.is_none() {
                type_failures.push(format!("type of `{}`\n  terraform: {t:?}\n  foreach-ls: {o:?}", cases[i].expr));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);

    let mut agree = 0;
    let mut deliberate = Vec::new();
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let t = theirs[i].clone().flatten();
        if t == mine[i] {
            agree += 1;
            continue;
        }
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "<error or unknown>".into());
        let line = format!("`{}`\n  terraform: {}\n  foreach-ls: {}", c.expr, show(&t), show(&mine[i]));
        match &c.deliberate {
            Some(why) => deliberate.push(format!("{line}\n  deliberate: {why}")),
            None => failures.push(line),
        }
    }
    let type_failure_count = type_failures.len();
    failures.extend(type_failures);
    println!(
        "differential: {} expressions, {agree} agree, {} deliberate differences, {} failures; types compared for \
         {types_checked} expressions, {type_failure_count} differ",
        cases.len(),
        deliberate.len(),
        failures.len()
    );
    for d in &deliberate {
        println!("{d}");
    }
    assert!(
        failures.is_empty(),
        "{} expressions differ from terraform console:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Inputs of `base64gzip`. Go's and miniz's deflate may pick different matches, so the outputs are compared by
/// decompressing Terraform's with our `base64gunzip` (Terraform has no `base64gunzip`); byte-identical outputs are
/// counted and must include the short inputs, whose framing (header, sync flush, final block) is all that differs.
const GZIP_INPUTS: &[(&str, bool)] = &[
    ("\"\"", true),
    ("\"hello\"", true),
    ("\"é日本😀\"", true),
    ("\"hello hello hello hello hello\"", false),
    ("join(\",\", [for i in range(300) : \"item${i}\"])", false),
    ("join(\"\\n\", [for i in range(1000) : format(\"%x\", i * 7919)])", false),
    ("yamlencode({ a = [1, 2, 3], b = { c = \"d\" } })", false),
];

#[test]
fn base64gzip_against_terraform_console() {
    if Command::new("terraform").arg("version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
        println!("skipped: `terraform` is not installed, so there is nothing to compare with");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("foreach-ls-eval-gzip-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    std::fs::write(tmp.join("main.tf"), "").expect("write main.tf");
    let scope = scope("");
    let eval = |expr: &str| ours(&scope, expr).unwrap_or_else(|| panic!("foreach-ls cannot evaluate `{expr}`"));
    let input =
        format!("[{}]", GZIP_INPUTS.iter().map(|(e, _)| format!("base64gzip({e})")).collect::<Vec<_>>().join(", "));
    let theirs = console(&tmp, &format!("jsonencode({input})")).expect("terraform evaluates base64gzip");
    let _ = std::fs::remove_dir_all(&tmp);
    let theirs: Vec<String> = serde_json::from_str(&serde_json::from_str::<String>(&theirs).expect("a JSON string"))
        .expect("a JSON array of strings");
    let mut identical = 0;
    for ((expr, must_be_identical), t) in GZIP_INPUTS.iter().zip(&theirs) {
        let text = eval(expr);
        assert_eq!(eval(&format!("base64gunzip(\"{t}\")")), text, "terraform's base64gzip({expr}) decompressed");
        assert_eq!(eval(&format!("base64gunzip(base64gzip({expr}))")), text, "our base64gzip({expr}) round trip");
        let mine = eval(&format!("base64gzip({expr})"));
        if mine == format!("\"{t}\"") {
            identical += 1;
        } else {
            assert!(!must_be_identical, "base64gzip({expr}): terraform {t}, foreach-ls {mine}");
        }
    }
    println!("base64gzip: {} inputs decompress alike, {identical} byte-identical", GZIP_INPUTS.len());
}
