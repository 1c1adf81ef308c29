//! The CLI and the language server report identical diagnostics for identical input: every `testdata/cli` case is
//! loaded the way `check` loads it and served to an LSP client, and the two sets are compared.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use common::{TestClient, uri};
use foreach_load::{LoadOptions, load};
use foreach_syntax::{ColumnEncoding, LineIndex};
use serde_json::json;

type Key = (String, u32, u32, u32, u32, String, String);

fn cli_diagnostics(dir: &Path) -> BTreeSet<Key> {
    let paths = [dir.to_path_buf()];
    let opts = LoadOptions::new(&paths);
    let host = load(&opts).unwrap().host;
    let table = host.file_table();
    let mut out = BTreeSet::new();
    for d in host.diagnostics() {
        let Some((path, text)) = table.get(&d.location.file) else { continue };
        let index = LineIndex::new(&text.text());
        let (s, e) = index.range_to_line_cols(d.location.range, ColumnEncoding::Utf16);
        let uri = uri(Path::new(path));
        out.insert((uri, s.line, s.col, e.line, e.col, d.code.as_str().to_string(), d.message.clone()));
    }
    out
}

async fn lsp_diagnostics(dir: &Path) -> BTreeSet<Key> {
    let mut c = TestClient::start();
    c.initialize(Some(dir), json!({})).await;
    let mut latest: std::collections::BTreeMap<String, Vec<serde_json::Value>> = Default::default();
    // Collect until the server has been quiet for a while (indexing then one debounced publish).
    loop {
        let next = tokio::time::timeout(
            Duration::from_millis(1500),
            c.wait_for(|m| m["method"] == "textDocument/publishDiagnostics"),
        )
        .await;
        let Ok(msg) = next else { break };
        let uri = msg["params"]["uri"].as_str().unwrap().to_string();
        latest.insert(uri, msg["params"]["diagnostics"].as_array().cloned().unwrap_or_default());
    }
    c.shutdown().await;
    let mut out = BTreeSet::new();
    for (uri, diags) in latest {
        for d in diags {
            let r = &d["range"];
            let n = |v: &serde_json::Value| v.as_u64().unwrap() as u32;
            out.insert((
                uri.clone(),
                n(&r["start"]["line"]),
                n(&r["start"]["character"]),
                n(&r["end"]["line"]),
                n(&r["end"]["character"]),
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_and_lsp_report_the_same_diagnostics() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cli").canonicalize().unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(&cases).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let cli = cli_diagnostics(&dir);
        let lsp = lsp_diagnostics(&dir).await;
        assert_eq!(cli, lsp, "case {}", dir.display());
        checked += 1;
    }
    assert!(checked >= 3);
}
