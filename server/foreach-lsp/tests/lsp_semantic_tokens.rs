//! `textDocument/semanticTokens/full`, `/range` and `/full/delta` end to end: the real server on an in-memory pipe.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::{Value, json};

const TEXT: &str = "# 😀\nvariable \"region\" {}\n\nresource \"aws_s3_bucket\" \"b\" {\n  bucket = \"${var.region}\"\n  n      = 2\n}\n";

/// Decodes the relative encoding into `(line, col, len, type name)` using the legend from `initialize`.
fn decode(legend: &Value, data: &Value) -> Vec<(u64, u64, u64, String)> {
    let types = legend["tokenTypes"].as_array().unwrap();
    let ints: Vec<u64> = data.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let (mut line, mut col) = (0, 0);
    ints.chunks(5)
        .map(|c| {
            if c[0] > 0 {
                col = 0;
            }
            line += c[0];
            col += c[1];
            (line, col, c[2], types[c[3] as usize].as_str().unwrap().to_string())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_range_and_delta() {
    let ws = workspace(&[("main.tf", TEXT)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    let init = c.initialize(Some(&root), json!({})).await;
    let provider = &init["capabilities"]["semanticTokensProvider"];
    assert_eq!(provider["range"], true, "{provider}");
    assert_eq!(provider["full"]["delta"], true, "{provider}");
    let legend = provider["legend"].clone();
    c.open(&main, TEXT).await;

    let full = c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": main}})).await;
    let toks = decode(&legend, &full["data"]);
    let has = |toks: &[(u64, u64, u64, String)], t: (u64, u64, u64, &str)| {
        toks.iter().any(|x| (x.0, x.1, x.2, x.3.as_str()) == t)
    };
    // The comment's length is in UTF-16 units: `# ` plus a surrogate pair.
    assert!(has(&toks, (0, 0, 4, "comment")), "{toks:?}");
    assert!(has(&toks, (1, 0, 8, "keyword")), "{toks:?}");
    assert!(has(&toks, (3, 9, 15, "type")), "{toks:?}");
    assert!(has(&toks, (4, 2, 6, "property")), "{toks:?}");
    assert!(has(&toks, (4, 14, 3, "namespace")), "{toks:?}");
    assert!(has(&toks, (4, 18, 6, "variable")), "{toks:?}");
    assert!(has(&toks, (5, 11, 1, "number")), "{toks:?}");
    let first_id = full["resultId"].as_str().unwrap().to_string();

    // A range: only the tokens of line 5.
    let range = json!({"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 20}});
    let part =
        c.request("textDocument/semanticTokens/range", json!({"textDocument": {"uri": main}, "range": range})).await;
    let part = decode(&legend, &part["data"]);
    assert_eq!(part.iter().map(|t| t.3.as_str()).collect::<Vec<_>>(), ["property", "operator", "number"], "{part:?}");
    assert_eq!(part[0].0, 5);

    // An edit on the last attribute: the delta is one edit, applying it gives the new full tokens.
    let changed = TEXT.replace("n      = 2", "n      = 2 + 3");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main, "version": 1}, "contentChanges": [{"text": changed}]}),
    )
    .await;
    let delta = c
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": main}, "previousResultId": first_id}),
        )
        .await;
    let edits = delta["edits"].as_array().unwrap_or_else(|| panic!("{delta}"));
    assert_eq!(edits.len(), 1, "{delta}");
    let mut data: Vec<Value> = full["data"].as_array().unwrap().clone();
    let start = edits[0]["start"].as_u64().unwrap() as usize;
    let delete = edits[0]["deleteCount"].as_u64().unwrap() as usize;
    let insert = edits[0]["data"].as_array().cloned().unwrap_or_default();
    data.splice(start..start + delete, insert);
    let again = c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": main}})).await;
    assert_eq!(Value::from(data), again["data"]);
    assert!(has(&decode(&legend, &again["data"]), (5, 13, 1, "operator")));

    // An unknown previous id: full tokens.
    let stale = c
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": main}, "previousResultId": "nope"}),
        )
        .await;
    assert_eq!(stale["data"], again["data"]);
    c.shutdown().await;
}

/// Every request about a document sees the `didChange` sent before it, although the server handles notifications
/// and requests concurrently: the answer never comes from the text before the change. The test hook delays each
/// change on its way to the analysis, as a loaded machine may.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_sees_the_change_sent_before_it() {
    let text = format!("{TEXT}# {}\n", foreach_lsp::test_hooks::LATE_SYNC_MARKER);
    let ws = workspace(&[("main.tf", &text)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start_with_hooks();
    let init = c.initialize(Some(&root), json!({})).await;
    let legend = init["capabilities"]["semanticTokensProvider"]["legend"].clone();
    c.open(&main, &text).await;
    for version in 1..=5u64 {
        // Each version adds one more `+ 1`: one more operator token on line 5.
        let changed = text.replace("n      = 2", &format!("n      = 2{}", " + 1".repeat(version as usize)));
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": main, "version": version}, "contentChanges": [{"text": changed}]}),
        )
        .await;
        let full = c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": main}})).await;
        let operators = decode(&legend, &full["data"]).iter().filter(|t| t.0 == 5 && t.3 == "operator").count();
        assert_eq!(operators as u64, 1 + version, "version {version}: {full}");
    }
    c.shutdown().await;
}
