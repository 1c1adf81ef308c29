//! The state in the editor (`docs/state.md`, `docs/lsp.md`): the `state` setting, watched state files, and hover
//! counting the resource instances the state binds to a provider instance.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::{Value, json};

/// A root module whose provider no longer has the key `eu`.
const CONFIG: &str =
    "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"us\"])\n  region   = each.key\n}\n";

/// A state binding one bucket to `aws.by_region["eu"]`.
const STATE: &str = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
  {"mode": "managed", "type": "aws_s3_bucket", "name": "b", "instances": [
    {"attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region[\"eu\"]"}]}]}"#;

const REMOVED: &str = "provider-instance-removed-with-resources";

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or_default().to_string()).collect()
}

fn has(code: &'static str) -> impl Fn(&[Value]) -> bool {
    move |d: &[Value]| d.iter().any(|x| x["code"] == code)
}

async fn start(folder: &std::path::Path, settings: Value) -> TestClient {
    start_with(folder, json!({}), settings).await
}

/// A client that lets the server register file watchers.
async fn start_watching(folder: &std::path::Path, settings: Value) -> TestClient {
    start_with(folder, watching(), settings).await
}

async fn start_with(folder: &std::path::Path, capabilities: Value, settings: Value) -> TestClient {
    let mut c = TestClient::start();
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": capabilities, "initializationOptions": settings,
               "workspaceFolders": [{"uri": uri(folder), "name": "ws"}]}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_state_setting_gives_a_root_its_state() {
    let ws = workspace(&[("main.tf", CONFIG), ("pulled.tfstate", STATE)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start(&root, json!({"foreachLs": {"state": "pulled.tfstate"}})).await;
    let d = c.diagnostics_for(&main, |d| !d.is_empty()).await;
    assert_eq!(codes(&d), [REMOVED], "{d:?}");
    assert_eq!(d[0]["range"]["start"], json!({"line": 2, "character": 13}));
    // Hover on the `for_each` counts what the state binds to each instance, and to those no longer there.
    let hover = c
        .request("textDocument/hover", json!({"textDocument": {"uri": main}, "position": {"line": 2, "character": 16}}))
        .await;
    let md = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("- `\"us\"`: region = \"us\" · no resource instances in the state\n"), "{md}");
    assert!(md.contains("- `[\"eu\"]`: 1 resource instance\n"), "{md}");
    // Without the setting there is no state (no local file): the finding goes.
    c.notify("workspace/didChangeConfiguration", json!({"settings": {}})).await;
    c.diagnostics_for(&main, |d| d.is_empty()).await;
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn root_directories_mapped_to_states_replace_local_files_and_errors_are_warnings() {
    let ws = workspace(&[
        ("envs/prod/main.tf", CONFIG),
        ("envs/dev/main.tf", CONFIG),
        ("envs/dev/terraform.tfstate", STATE),
        ("states/prod.tfstate", STATE),
    ]);
    let root = canonical(&ws);
    let (prod, dev) = (uri(&root.join("envs/prod/main.tf")), uri(&root.join("envs/dev/main.tf")));
    let settings = json!({"state": {
        "envs/prod": "states/prod.tfstate",
        "envs/dev": "states/missing.tfstate",
        "envs/nowhere": "states/x.tfstate"
    }});
    let mut c = start(&root, settings).await;
    let d = c.diagnostics_for(&prod, |d| !d.is_empty()).await;
    assert_eq!(codes(&d), [REMOVED], "{d:?}");
    // The configured state replaces dev's local one, and cannot be read: a warning, not the local file's finding.
    let d = c.diagnostics_for(&dev, |d| !d.is_empty()).await;
    assert_eq!(codes(&d), ["unreadable-state"], "{d:?}");
    let message = d[0]["message"].as_str().unwrap();
    assert!(message.starts_with("the state `../../states/missing.tfstate` set for this root module"), "{message}");
    assert_eq!(d[0]["severity"], 2);
    // An entry naming no root module has no file to be shown in: a warning message.
    let shown = c.wait_for(|m| m["method"] == "window/showMessage").await;
    assert_eq!(shown["params"]["type"], 2);
    assert!(shown["params"]["message"].as_str().unwrap().contains("`envs/nowhere`"), "{shown}");
    // Without the setting, dev reads its local state.
    c.notify("workspace/didChangeConfiguration", json!({"settings": {}})).await;
    c.diagnostics_for(&dev, has(REMOVED)).await;
    c.diagnostics_for(&prod, |d| d.is_empty()).await;
    c.shutdown().await;
}

/// Client capabilities that let the server register file watchers.
fn watching() -> Value {
    json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true, "relativePatternSupport": true}}})
}

/// Tells the server a file was created (1), changed (2) or deleted (3).
async fn file_event(c: &mut TestClient, path: &std::path::Path, typ: u8) {
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri(path), "type": typ}]})).await;
}

/// The next `client/registerCapability` whose first registration has this id, answered; its watchers.
async fn registration(c: &mut TestClient, id: &str) -> Vec<Value> {
    let r =
        c.wait_for(|m| m["method"] == "client/registerCapability" && m["params"]["registrations"][0]["id"] == id).await;
    c.respond(&r, Value::Null).await;
    r["params"]["registrations"][0]["registerOptions"]["watchers"].as_array().cloned().unwrap_or_default()
}

/// A file whose diagnostic says the workspace has been indexed.
const MARKER: &str = "locals {\n  a = local.nope\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_state_file_written_or_deleted_is_read_again_without_reindexing() {
    let ws = workspace(&[("main.tf", CONFIG), ("other.tf", MARKER)]);
    let root = canonical(&ws);
    let (main, other) = (uri(&root.join("main.tf")), uri(&root.join("other.tf")));
    let mut c = start_watching(&root, json!({})).await;
    let watchers = registration(&mut c, "foreach-ls/watch").await;
    assert!(watchers.iter().any(|w| w["globPattern"] == "**/*.tfstate"), "{watchers:?}");
    c.diagnostics_for(&other, |d| !d.is_empty()).await;
    // Fixed on disk without telling the server: a re-indexing would clear it.
    std::fs::write(root.join("other.tf"), "locals {\n  a = 1\n}\n").unwrap();

    let state_file = root.join("terraform.tfstate");
    std::fs::write(&state_file, STATE).unwrap();
    file_event(&mut c, &state_file, 1).await;
    c.diagnostics_for(&main, has(REMOVED)).await;
    std::fs::remove_file(&state_file).unwrap();
    file_event(&mut c, &state_file, 3).await;
    c.diagnostics_for(&main, |d| d.is_empty()).await;
    let cleared = c.backlog_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == other.as_str()
            && m["params"]["diagnostics"].as_array().is_some_and(|d| d.is_empty())
    });
    assert!(cleared.is_empty(), "only the state was read again, not the workspace: {cleared:?}");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_selected_workspace_state_and_a_configured_state_are_watched() {
    let ws = workspace(&[("a/main.tf", CONFIG), ("b/main.tf", CONFIG)]);
    let root = canonical(&ws);
    let (a, b) = (uri(&root.join("a/main.tf")), uri(&root.join("b/main.tf")));
    let settings = json!({"workspace": "prod", "state": {"b": "pulled.json"}});
    let mut c = start_watching(&root, settings).await;
    registration(&mut c, "foreach-ls/watch").await;
    // b's configured state does not exist yet.
    let d = c.diagnostics_for(&b, |d| !d.is_empty()).await;
    assert_eq!(codes(&d), ["unreadable-state"], "{d:?}");
    let watchers = registration(&mut c, "foreach-ls/watch-states").await;
    assert_eq!(watchers.len(), 1, "{watchers:?}");
    assert_eq!(watchers[0]["globPattern"]["pattern"], "pulled.json");
    assert_eq!(watchers[0]["globPattern"]["baseUri"], uri(&root));

    let selected = root.join("a/terraform.tfstate.d/prod/terraform.tfstate");
    std::fs::create_dir_all(selected.parent().unwrap()).unwrap();
    std::fs::write(&selected, STATE).unwrap();
    file_event(&mut c, &selected, 1).await;
    c.diagnostics_for(&a, has(REMOVED)).await;

    let pulled = root.join("pulled.json");
    std::fs::write(&pulled, STATE).unwrap();
    file_event(&mut c, &pulled, 1).await;
    let d = c.diagnostics_for(&b, has(REMOVED)).await;
    assert_eq!(codes(&d), [REMOVED], "{d:?}");
    std::fs::remove_file(&pulled).unwrap();
    file_event(&mut c, &pulled, 3).await;
    c.diagnostics_for(&b, has("unreadable-state")).await;
    c.shutdown().await;
}

/// `tofu workspace select` rewrites `.terraform/environment`: the workspace is loaded again with the new
/// `terraform.workspace` (and, with it, the new workspace's values and state).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selecting_another_workspace_loads_the_workspace_again() {
    let config = "locals {\n  regions = terraform.workspace == \"prod\" ? [\"eu\", \"us\"] : [\"eu\"]\n}\n\
                  provider \"aws\" {\n  alias    = \"r\"\n  for_each = toset(local.regions)\n  region   = each.key\n}\n\
                  resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"us\"]\n}\n";
    let ws = workspace(&[("main.tf", config), (".terraform/environment", "dev")]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start_watching(&root, json!({})).await;
    let watchers = registration(&mut c, "foreach-ls/watch").await;
    assert!(watchers.iter().any(|w| w["globPattern"] == "**/.terraform/environment"), "{watchers:?}");
    c.diagnostics_for(&main, has("unknown-provider-instance")).await;
    let environment = root.join(".terraform/environment");
    std::fs::write(&environment, "prod").unwrap();
    file_event(&mut c, &environment, 2).await;
    c.diagnostics_for(&main, |d| d.is_empty()).await;
    c.shutdown().await;
}

/// Buckets `a` and `c` declared, `a` and `b` in the state: the `for_each` line gets a code lens with the counts, and
/// its command lists the instances in a message. A block whose instances match the state gets none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_lens_counts_what_differs_from_the_state_and_its_command_lists_it() {
    let config = "resource \"aws_s3_bucket\" \"b\" {\n  for_each = toset([\"a\", \"c\"])\n}\n\n\
                  resource \"aws_s3_bucket\" \"same\" {\n  count = 1\n}\n\noutput \"o\" {\n  value = var.nope\n}\n";
    let state = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
      {"mode": "managed", "type": "aws_s3_bucket", "name": "b", "instances": [
        {"index_key": "a", "attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]"},
        {"index_key": "b", "attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]"}]},
      {"mode": "managed", "type": "aws_s3_bucket", "name": "same", "instances": [
        {"index_key": 0, "attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]"}]}]}"#;
    let (_ws, mut c, lenses) = lenses_of(config, state).await;
    assert_eq!(lenses.len(), 1, "{lenses:?}");
    assert_eq!(lenses[0]["range"]["start"], json!({"line": 1, "character": 2}));
    let command = &lenses[0]["command"];
    assert_eq!(command["title"], "2 instances · 1 not in state · 1 would be destroyed", "{command}");
    assert_eq!(command["command"], "foreach-ls.listInstances");
    c.request("workspace/executeCommand", json!({"command": command["command"], "arguments": command["arguments"]}))
        .await;
    let shown = c.wait_for(|m| m["method"] == "window/showMessage").await;
    let message = shown["params"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("would be destroyed: aws_s3_bucket.b[\"b\"]"), "{message}");
    assert!(message.contains("not in state: aws_s3_bucket.b[\"c\"]"), "{message}");
    c.shutdown().await;
}

/// A block the state has none of, among more than ten such instances of its module instance (the diff keeps them as
/// one set, `declared_set.rs`): its `count` line still counts each of its own instances as not in the state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_lens_counts_each_instance_of_blocks_created_together() {
    let config = "resource \"aws_vpc\" \"keep\" {\n}\n\nresource \"aws_s3_bucket\" \"logs\" {\n  count = 12\n}\n\n\
                  output \"o\" {\n  value = var.nope\n}\n";
    let state = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
      {"mode": "managed", "type": "aws_vpc", "name": "keep", "instances": [
        {"attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]"}]}]}"#;
    let (_ws, mut c, lenses) = lenses_of(config, state).await;
    assert_eq!(lenses.len(), 1, "{lenses:?}");
    assert_eq!(lenses[0]["range"]["start"], json!({"line": 4, "character": 2}));
    assert_eq!(lenses[0]["command"]["title"], "12 instances · 12 not in state", "{lenses:?}");
    c.shutdown().await;
}

/// A client without code lenses gets the lens as an inlay hint at the end of the `for_each`; one with code lenses
/// does not get it twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_code_lens_support_the_lens_is_an_inlay_hint() {
    let config =
        "resource \"aws_s3_bucket\" \"b\" {\n  for_each = toset([\"a\"])\n}\n\noutput \"o\" {\n  value = var.nope\n}\n";
    let state = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
      {"mode": "managed", "type": "aws_s3_bucket", "name": "b", "instances": [
        {"index_key": "z", "attributes": {}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]"}]}]}"#;
    let ws = workspace(&[("main.tf", config), ("terraform.tfstate", state)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 8, "character": 0}});
    for (capabilities, expected) in [
        (json!({}), json!([" 1 instance · 1 not in state · 1 would be destroyed"])),
        (json!({"textDocument": {"codeLens": {}}}), json!([])),
    ] {
        let mut c = start_with(&root, capabilities, json!({})).await;
        c.diagnostics_for(&main, |d| !d.is_empty()).await;
        let hints = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": main}, "range": range})).await;
        let labels: Vec<Value> =
            hints.as_array().cloned().unwrap_or_default().iter().map(|h| h["label"].clone()).collect();
        assert_eq!(json!(labels), expected, "{hints}");
        c.shutdown().await;
    }
}

/// Without a state, no lens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_state_no_code_lens() {
    let config =
        "resource \"aws_s3_bucket\" \"b\" {\n  for_each = toset([\"a\"])\n}\n\noutput \"o\" {\n  value = var.nope\n}\n";
    let ws = workspace(&[("main.tf", config)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start(&root, json!({})).await;
    // The undeclared variable's finding: the workspace is loaded.
    c.diagnostics_for(&main, |d| !d.is_empty()).await;
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": main}})).await;
    assert_eq!(lenses, json!([]), "{lenses}");
    c.shutdown().await;
}

/// A state holding the instances of bucket `b` with these keys.
fn bucket_state(keys: &[&str]) -> String {
    let instances: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(r#"{{"index_key": "{k}", "attributes": {{}}, "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]"}}"#)
        })
        .collect();
    format!(
        r#"{{"version": 4, "serial": 1, "lineage": "l", "resources": [
      {{"mode": "managed", "type": "aws_s3_bucket", "name": "b", "instances": [{}]}}]}}"#,
        instances.join(", ")
    )
}

/// A `for_each` over `keys`, and an undeclared variable whose finding says the workspace is loaded.
fn bucket_config(keys: &str) -> String {
    format!(
        "resource \"aws_s3_bucket\" \"b\" {{\n  for_each = toset({keys})\n}}\n\noutput \"o\" {{\n  value = var.nope\n}}\n"
    )
}

/// A client with code lenses, file watchers and the test hooks (`foreach-ls/lensComputations`).
async fn start_counting(folder: &std::path::Path) -> TestClient {
    let mut c = TestClient::start_with_hooks();
    let mut capabilities = watching();
    capabilities["textDocument"] = json!({"codeLens": {}});
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": capabilities, "initializationOptions": {},
               "workspaceFolders": [{"uri": uri(folder), "name": "ws"}]}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    c
}

/// The code lenses of `main.tf` in a workspace of it and a state, once it is loaded (`config` has an output of an
/// undeclared variable, whose finding says so); the workspace lives as long as the returned directory.
async fn lenses_of(config: &str, state: &str) -> (tempfile::TempDir, TestClient, Vec<Value>) {
    let ws = workspace(&[("main.tf", config), ("terraform.tfstate", state)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start(&root, json!({})).await;
    c.diagnostics_for(&main, |d| !d.is_empty()).await;
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": main}})).await;
    (ws, c, lenses.as_array().cloned().unwrap_or_default())
}

async fn lens_titles(c: &mut TestClient, main: &str) -> Vec<String> {
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": main}})).await;
    lenses.as_array().into_iter().flatten().map(|l| l["command"]["title"].as_str().unwrap_or("").to_string()).collect()
}

/// The lenses of `main` once their titles are `expected` (a file event reaches the analysis a little later).
async fn lenses_become(c: &mut TestClient, main: &str, expected: &[&str]) {
    let mut titles = Vec::new();
    for _ in 0..100 {
        titles = lens_titles(c, main).await;
        if titles == expected {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the lenses stayed {titles:?}, expected {expected:?}");
}

async fn computations(c: &mut TestClient, root: &std::path::Path) -> u64 {
    let n = c.request("foreach-ls/lensComputations", json!({"root": uri(root)})).await;
    n.as_u64().unwrap_or_else(|| panic!("a count: {n}"))
}

/// The editor asks for the lenses again after every scroll: without a change in between, the root's instances are
/// not expanded and compared with the state again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_code_lens_request_without_a_change_reuses_the_first_ones_instances() {
    let ws =
        workspace(&[("main.tf", &bucket_config(r#"["a", "c"]"#)), ("terraform.tfstate", &bucket_state(&["a", "b"]))]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start_counting(&root).await;
    c.diagnostics_for(&main, |d| !d.is_empty()).await;
    assert_eq!(lens_titles(&mut c, &main).await, ["2 instances · 1 not in state · 1 would be destroyed"]);
    let first = computations(&mut c, &root).await;
    assert!(first >= 1, "the first request computes the lenses");
    assert_eq!(lens_titles(&mut c, &main).await, ["2 instances · 1 not in state · 1 would be destroyed"]);
    assert_eq!(computations(&mut c, &root).await, first, "the second request computed the instances again");
    c.shutdown().await;
}

/// The reused answer goes when what it was computed from changes: an edit of the `for_each`, then the state file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_code_lens_follows_an_edit_of_the_for_each_and_a_new_state() {
    let ws =
        workspace(&[("main.tf", &bucket_config(r#"["a", "c"]"#)), ("terraform.tfstate", &bucket_state(&["a", "b"]))]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start_counting(&root).await;
    registration(&mut c, "foreach-ls/watch").await;
    c.diagnostics_for(&main, |d| !d.is_empty()).await;
    c.open(&main, &bucket_config(r#"["a", "c"]"#)).await;
    assert_eq!(lens_titles(&mut c, &main).await, ["2 instances · 1 not in state · 1 would be destroyed"]);

    let edited = bucket_config(r#"["a", "b", "c", "d"]"#);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main, "version": 1}, "contentChanges": [{"text": edited}]}),
    )
    .await;
    assert_eq!(lens_titles(&mut c, &main).await, ["4 instances · 2 not in state"]);

    let state_file = root.join("terraform.tfstate");
    std::fs::write(&state_file, bucket_state(&["a"])).unwrap();
    file_event(&mut c, &state_file, 2).await;
    lenses_become(&mut c, &main, &["4 instances · 3 not in state"]).await;
    c.shutdown().await;
}
