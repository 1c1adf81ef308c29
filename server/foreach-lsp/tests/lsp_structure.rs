//! Folding ranges, selection ranges, document highlight, workspace symbols and document links end to end: the real
//! server on an in-memory pipe.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::json;

const MAIN: &str = "# one\n# two\nvariable \"region\" {}\n\nmodule \"net\" {\n  source = \"./modules/net\"\n  r      = var.region\n}\n\nmodule \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  name   = \"${var.region}-x\"\n}\n";
const NET: &str = "variable \"r\" {}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn folding_selection_highlight_symbols_and_links() {
    let ws = workspace(&[("main.tf", MAIN), ("modules/net/a.tf", NET), ("modules/net/main.tf", NET)]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    let init = c.initialize(Some(&root), json!({})).await;
    let caps = &init["capabilities"];
    for cap in
        ["foldingRangeProvider", "selectionRangeProvider", "documentHighlightProvider", "workspaceSymbolProvider"]
    {
        assert_eq!(caps[cap], true, "{cap}: {caps}");
    }
    assert!(caps["documentLinkProvider"].is_object(), "{caps}");
    c.open(&main, MAIN).await;
    let doc = json!({"uri": main});

    let folds = c.request("textDocument/foldingRange", json!({"textDocument": doc})).await;
    let folds: Vec<(u64, u64, &str)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["startLine"].as_u64().unwrap(), f["endLine"].as_u64().unwrap(), f["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(folds, [(0, 1, "comment"), (4, 6, "region"), (9, 11, "region")]);

    // Selection from `region` in `var.region` outwards.
    let sel = c
        .request(
            "textDocument/selectionRange",
            json!({"textDocument": doc, "positions": [{"line": 6, "character": 19}]}),
        )
        .await;
    let mut chain = Vec::new();
    let mut cur = &sel[0];
    while cur.is_object() {
        let r = &cur["range"];
        chain.push((
            r["start"]["line"].as_u64().unwrap(),
            r["start"]["character"].as_u64().unwrap(),
            r["end"]["line"].as_u64().unwrap(),
            r["end"]["character"].as_u64().unwrap(),
        ));
        cur = &cur["parent"];
    }
    assert_eq!(chain, [(6, 15, 6, 21), (6, 11, 6, 21), (6, 2, 6, 21), (4, 13, 7, 1), (4, 0, 7, 1)], "{sel}");

    // Highlight of `var.region`: the label (write) and both uses (read).
    let hl = c
        .request(
            "textDocument/documentHighlight",
            json!({"textDocument": doc, "position": {"line": 6, "character": 16}}),
        )
        .await;
    let hl: Vec<(u64, u64)> = hl
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["range"]["start"]["line"].as_u64().unwrap(), h["kind"].as_u64().unwrap()))
        .collect();
    assert_eq!(hl, [(2, 3), (6, 2), (11, 2)]);

    // Workspace symbols: fuzzy, across files.
    // The module directory is loaded by the first indexing, which runs in the background: ask until it is.
    let mut names = Vec::new();
    for _ in 0..200 {
        let syms = c.request("workspace/symbol", json!({"query": "var.r"})).await;
        names = syms
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    s["name"].as_str().unwrap(),
                    s["location"]["uri"].as_str().unwrap().rsplit('/').next().unwrap()
                )
            })
            .collect();
        if names.len() >= 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    names.sort();
    assert_eq!(names, ["var.r a.tf", "var.r main.tf", "var.region main.tf"]);

    // Links: the local module's main.tf, the registry page.
    let links = c.request("textDocument/documentLink", json!({"textDocument": doc})).await;
    let targets: Vec<&str> = links.as_array().unwrap().iter().map(|l| l["target"].as_str().unwrap()).collect();
    assert_eq!(targets.len(), 2, "{links}");
    assert!(targets[0].ends_with("/modules/net/main.tf"), "{links}");
    assert_eq!(targets[1], "https://search.opentofu.org/module/terraform-aws-modules/vpc/aws");
    assert_eq!(links[0]["range"]["start"], json!({"line": 5, "character": 12}));
    c.shutdown().await;
}
