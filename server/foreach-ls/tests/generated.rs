//! A generated realistic workspace (`../shared/tools/gen-workspace.py`) with planted instance-key mistakes reports
//! exactly those mistakes and nothing else. Skips, saying why, when the generator or python3 is not available.

use std::path::PathBuf;
use std::process::Command;

fn generator() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/gen-workspace.py");
    p.is_file().then_some(p)
}

#[test]
fn planted_mistakes_are_reported_exactly() {
    let Some(script) = generator() else {
        println!("SKIPPED: ../shared/tools/gen-workspace.py is not beside the repository");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let status = Command::new("python3")
        .arg(&script)
        .arg(&ws)
        .args(["--modules", "150", "--mb", "2", "--mistakes", "3", "--seed", "7"])
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => {
            println!("SKIPPED: python3 could not run the generator: {other:?}");
            return;
        }
    }
    let planted: Vec<String> =
        std::fs::read_to_string(ws.join("MISTAKES.txt")).unwrap().lines().map(String::from).collect();
    assert!(!planted.is_empty(), "the generator planted mistakes");
    let out =
        Command::new(env!("CARGO_BIN_EXE_foreach-ls")).args(["check", "--format", "json"]).arg(&ws).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), planted.len(), "exactly the planted mistakes: {v}");
    let main = std::fs::read_to_string(ws.join("main.tf")).unwrap();
    let lines: Vec<&str> = main.lines().collect();
    for (d, line) in diags.iter().zip(&planted) {
        assert_eq!(d["code"], "unknown-provider-instance");
        // "main.tf: module m00002 passes aws.by_region["mars_north_1"] (...)": the diagnostic is in that call.
        let module = line.split_whitespace().nth(2).unwrap();
        let at = d["range"]["start"]["line"].as_u64().unwrap() as usize;
        let call_line = lines[..at].iter().rposition(|l| l.starts_with("module ")).unwrap();
        assert!(lines[call_line].contains(&format!("\"{module}\"")), "{} is in module {module}", lines[at - 1]);
        assert!(lines[at - 1].contains("\"mars_north_1\""));
    }
}

/// The generator copy in `server/bench/` with `--templated-sources`: module sources from locals, `format()` and a
/// `.tfvars` variable, a nested module whose source comes down from the caller, backend and encryption from
/// variables. `check` must be clean, and every local module must really be loaded through its evaluated source
/// (otherwise the children would be analysed as roots and "clean" would prove nothing).
#[test]
fn templated_sources_workspace_is_clean_and_fully_loaded() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("server/bench/gen-workspace.py");
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let status = Command::new("python3")
        .arg(&script)
        .arg(&ws)
        .args(["--modules", "30", "--mb", "0.5", "--seed", "11", "--templated-sources"])
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => {
            println!("SKIPPED: python3 could not run the generator: {other:?}");
            return;
        }
    }
    let bin = env!("CARGO_BIN_EXE_foreach-ls");
    // The generated backend key names the workspace; without one selected it would be unresolved (an info).
    let out = Command::new(bin)
        .args(["check", "--format", "json", "--workspace", "default"])
        .arg(&ws)
        .env_remove("TF_WORKSPACE")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["diagnostics"], serde_json::json!([]), "clean");
    assert_eq!(out.status.code(), Some(0));

    let out = Command::new(bin).arg("inspect").arg(&ws).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let modules = v["modules"].as_array().unwrap();
    let local: Vec<&serde_json::Value> =
        modules.iter().filter(|m| !m["address"].as_str().unwrap().ends_with(".logs")).collect();
    // 30 root calls and one `labels` call in each child.
    assert_eq!(local.len(), 60);
    for m in &local {
        assert_eq!(m["status"], "loaded", "{m}");
    }
    let first = local.iter().find(|m| m["address"] == "module.m00001").unwrap();
    assert_eq!(first["source"], "./modules/m00001", "format(\"%s/m%05d\", …)");
    let labels = local.iter().find(|m| m["address"] == "module.m00002.module.labels").unwrap();
    assert_eq!(labels["source"], "../shared/labels");
    assert!(labels["dir"].as_str().unwrap().ends_with("modules/shared/labels"), "{labels}");
    // The registry module's version comes from a local.
    let logs = modules.iter().find(|m| m["address"] == "module.m00000.module.logs").unwrap();
    assert_eq!(logs["version"], "~> 4.1");
}
