//! `textDocument/prepareRename` and `textDocument/rename` through the real server: a workspace edit across the
//! module's files and its `.tfvars`, and a refusal answered as an error with the reason.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rename_a_variable_across_files_and_refuse_what_is_unsafe() {
    let main_text = "variable \"region\" {}\nlocals {\n  a = var.region\n}\n";
    let ws = workspace(&[
        ("main.tf", main_text),
        ("terraform.tfvars", "region = \"eu\"\n"),
        // Not open: its diagnostic tells the test that the workspace is indexed.
        ("other.tf", "locals {\n  b = local.nope\n}\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let tfvars = uri(&root.join("terraform.tfvars"));
    let other = uri(&root.join("other.tf"));
    let mut c = TestClient::start();
    let init = c.initialize(Some(&root), json!({})).await;
    assert_eq!(init["capabilities"]["renameProvider"]["prepareProvider"], true);
    c.diagnostics_for(&other, |d| !d.is_empty()).await;
    c.open(&main, main_text).await;
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": main}, "position": {"line": line, "character": character}});

    let prepared = c.request("textDocument/prepareRename", at(2, 11)).await;
    assert_eq!(prepared, json!({"start": {"line": 2, "character": 10}, "end": {"line": 2, "character": 16}}));

    let mut params = at(2, 11);
    params["newName"] = json!("zone");
    let edit = c.request("textDocument/rename", params).await;
    let changes = &edit["changes"];
    let main_edits: Vec<_> =
        changes[main.as_str()].as_array().unwrap().iter().map(|e| e["range"]["start"].clone()).collect();
    assert_eq!(main_edits.len(), 2, "{edit}");
    assert!(main_edits.contains(&json!({"line": 0, "character": 10})), "{edit}");
    assert_eq!(changes[tfvars.as_str()][0]["range"]["start"], json!({"line": 0, "character": 0}));
    assert_eq!(changes[tfvars.as_str()][0]["newText"], "zone");

    // A block keyword cannot be renamed: an error with the reason.
    let r = c.request_full("textDocument/prepareRename", at(0, 2)).await;
    assert!(r["error"]["message"].as_str().unwrap().contains("nothing to rename"), "{r}");
    let mut bad = at(2, 11);
    bad["newName"] = json!("9x");
    let r = c.request_full("textDocument/rename", bad).await;
    assert!(r["error"]["message"].as_str().unwrap().contains("not a valid name"), "{r}");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signature_help_and_function_hover() {
    let mut c = TestClient::start();
    let init = c.initialize(None, json!({})).await;
    assert!(!init["capabilities"]["signatureHelpProvider"].is_null());
    let doc = "file:///lsp-test/signature/main.tf";
    c.open(doc, "locals {\n  a = cidrsubnet(\"10.0.0.0/16\", 8, 1)\n}\n").await;
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": doc}, "position": {"line": line, "character": character}});
    let h = c.request("textDocument/signatureHelp", at(1, 32)).await;
    assert_eq!(h["signatures"][0]["label"], "cidrsubnet(prefix string, newbits number, netnum number) string");
    assert_eq!(h["activeParameter"], 1);
    let hover = c.request("textDocument/hover", at(1, 8)).await;
    assert!(hover["contents"]["value"].as_str().unwrap().contains("cidrsubnet(prefix string"), "{hover}");
    c.shutdown().await;
}

/// A root module's variable is renamed in the project file's `-var` names too, in the environments that apply to
/// its root, by span (the rest of the file, comments and alignment, untouched).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rename_a_root_variable_in_the_project_files_environments() {
    let main_text = "variable \"region\" {}\nlocals {\n  a = var.region\n}\n";
    let project = "# pipelines\n[environments.prod]\nvariables = { region = \"eu\", size = \"2\" }\n\n\
                   [environments.dev.variables]\n\"region\" = \"us\"\n\n\
                   [environments.elsewhere]\nroots = [\"other\"]\nvariables = { region = \"x\" }\n";
    let ws = workspace(&[
        (".git/HEAD", ""),
        ("foreach-ls.toml", project),
        ("main.tf", main_text),
        ("other.tf", "locals {\n  b = local.nope\n}\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let other = uri(&root.join("other.tf"));
    let toml = uri(&root.join("foreach-ls.toml"));
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    c.diagnostics_for(&other, |d| !d.is_empty()).await;
    c.open(&main, main_text).await;
    let params = json!({"textDocument": {"uri": main}, "position": {"line": 2, "character": 11}, "newName": "zone"});
    let edit = c.request("textDocument/rename", params).await;
    let mut got: Vec<_> = edit["changes"][toml.as_str()]
        .as_array()
        .unwrap_or_else(|| panic!("no edit of the project file: {edit}"))
        .iter()
        .map(|e| (e["range"].clone(), e["newText"].clone()))
        .collect();
    got.sort_by_key(|(r, _)| r["start"]["line"].as_u64());
    let at = |line: u32, from: u32, to: u32| json!({"start": {"line": line, "character": from}, "end": {"line": line, "character": to}});
    assert_eq!(got, vec![(at(2, 14, 20), json!("zone")), (at(5, 1, 7), json!("zone"))], "{edit}");
    assert_eq!(edit["changes"][main.as_str()].as_array().map(Vec::len), Some(2), "{edit}");
    c.shutdown().await;
}

/// A root module's variable is renamed in every var file that sets it: one below the root that no setting names
/// (`live/envs/staging.tfvars`) and an environment's var file elsewhere (`config/prod.tfvars`), and with the cursor
/// on `var.region` inside a provider instance key it is the variable that is renamed, not the alias.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rename_a_root_variable_in_every_var_file_that_sets_it() {
    let main_text = "variable \"region\" {}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"eu\", \"us\"])\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[var.region]\n}\n";
    let project = "[environments.prod]\nvar_files = [\"config/prod.tfvars\"]\nroots = [\"live\"]\n";
    let ws = workspace(&[
        (".git/HEAD", ""),
        ("foreach-ls.toml", project),
        ("live/main.tf", main_text),
        ("live/envs/staging.tfvars", "region = \"us\"\n"),
        ("config/prod.tfvars", "# prod\nregion = \"eu\"\n"),
        ("live/other.tf", "locals {\n  b = local.nope\n}\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("live/main.tf"));
    let other = uri(&root.join("live/other.tf"));
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    c.diagnostics_for(&other, |d| !d.is_empty()).await;
    c.open(&main, main_text).await;
    let at = json!({"textDocument": {"uri": main}, "position": {"line": 6, "character": 32}});
    let prepared = c.request("textDocument/prepareRename", at.clone()).await;
    assert_eq!(prepared, json!({"start": {"line": 6, "character": 31}, "end": {"line": 6, "character": 37}}));
    let mut params = at;
    params["newName"] = json!("zone");
    let edit = c.request("textDocument/rename", params).await;
    let changes = &edit["changes"];
    let starts = |path: &str| -> Vec<serde_json::Value> {
        let edits = changes[uri(&root.join(path)).as_str()].as_array().unwrap_or_else(|| panic!("{path}: {edit}"));
        assert!(edits.iter().all(|e| e["newText"] == "zone"), "{edit}");
        edits.iter().map(|e| e["range"]["start"].clone()).collect()
    };
    let mut in_main = starts("live/main.tf");
    in_main.sort_by_key(|p| p["line"].as_u64());
    assert_eq!(in_main, [json!({"line": 0, "character": 10}), json!({"line": 6, "character": 31})], "{edit}");
    assert_eq!(starts("live/envs/staging.tfvars"), [json!({"line": 0, "character": 0})]);
    assert_eq!(starts("config/prod.tfvars"), [json!({"line": 1, "character": 0})]);
    assert_eq!(changes.as_object().unwrap().len(), 3, "nothing else, the project file included: {edit}");
    c.shutdown().await;
}
