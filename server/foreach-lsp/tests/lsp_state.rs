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
    let mut c = TestClient::start();
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": {}, "initializationOptions": settings,
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
