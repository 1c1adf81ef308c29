//! Pull diagnostics (`textDocument/diagnostic`, with `pullDiagnostics: true` and a client that can pull): the answer
//! reflects the change sent before the pull, and a pull by itself never makes the server ask the client to pull
//! again (`workspace/diagnostic/refresh`), which would loop.

mod common;

use std::time::Duration;

use common::{TestClient, canonical, uri, workspace};
use serde_json::{Value, json};

const BROKEN: &str = "locals {\n  a = local.nope\n}\n";
const FIXED: &str = "locals {\n  a = 1\n}\n";

fn codes(report: &Value) -> Vec<String> {
    report["items"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

async fn pull(c: &mut TestClient, document: &str) -> Value {
    c.request("textDocument/diagnostic", json!({"textDocument": {"uri": document}})).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pulls_see_the_latest_change_and_cause_no_refresh() {
    let ws = workspace(&[("main.tf", BROKEN)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    let folders = json!([{"uri": uri(&root), "name": "ws"}]);
    let capabilities =
        json!({"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": true}}});
    let init = c
        .request(
            "initialize",
            json!({"processId": null, "workspaceFolders": folders, "capabilities": capabilities,
                   "initializationOptions": {"foreachLs": {"pullDiagnostics": true}}}),
        )
        .await;
    assert!(init["capabilities"]["diagnosticProvider"].is_object(), "{init}");
    c.notify("initialized", json!({})).await;

    // Indexing ends with a refresh; the pull after it has the file's finding.
    let refresh = c.wait_for(|m| m["method"] == "workspace/diagnostic/refresh").await;
    c.respond(&refresh, Value::Null).await;
    assert_eq!(codes(&pull(&mut c, &main).await), ["undefined-reference"]);

    // The fix, then at once a pull: it answers for the fixed text.
    c.open(&main, BROKEN).await;
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main, "version": 1}, "contentChanges": [{"text": FIXED}]}),
    )
    .await;
    assert!(codes(&pull(&mut c, &main).await).is_empty());

    // Let the change's own refresh arrive, then pull with nothing changed: no further refresh may follow.
    tokio::time::sleep(Duration::from_millis(300)).await;
    pull(&mut c, &main).await;
    let before = c.backlog_matching(|m| m["method"] == "workspace/diagnostic/refresh").len();
    for _ in 0..5 {
        assert!(codes(&pull(&mut c, &main).await).is_empty());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A request drains what the server sent meanwhile into the backlog.
    pull(&mut c, &main).await;
    let after = c.backlog_matching(|m| m["method"] == "workspace/diagnostic/refresh").len();
    assert_eq!(after, before, "pulls with nothing changed made the server ask for another pull");
    c.shutdown().await;
}
