//! In-process protocol tests: the real server on an in-memory pipe, driven with raw JSON-RPC.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::{Value, json};

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or_default().to_string()).collect()
}

fn change(version: i32, uri: &str, range: Option<[u32; 4]>, text: &str) -> Value {
    let mut c = json!({"text": text});
    if let Some([sl, sc, el, ec]) = range {
        c["range"] = json!({"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}});
    }
    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [c]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_negotiates_utf8_and_declares_capabilities() {
    let mut c = TestClient::start();
    let r = c.initialize(None, json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}})).await;
    assert_eq!(r["capabilities"]["positionEncoding"], "utf-8");
    assert_eq!(r["capabilities"]["textDocumentSync"]["change"], 2);
    for cap in
        ["hoverProvider", "completionProvider", "definitionProvider", "documentSymbolProvider", "codeActionProvider"]
    {
        assert!(!r["capabilities"][cap].is_null(), "{cap} missing");
    }
    c.shutdown().await;

    let mut c = TestClient::start();
    let r = c.initialize(None, json!({})).await;
    assert_eq!(r["capabilities"]["positionEncoding"], "utf-16");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_for_files_not_open_appear_and_clear_when_fixed() {
    let ws = workspace(&[("main.tf", "locals {\n  a = local.nope\n}\n"), ("other.tf", "locals {\n  b = 1\n}\n")]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    // Not open: pushed after indexing.
    let d = c.diagnostics_for(&main, |d| !d.is_empty()).await;
    assert_eq!(codes(&d), ["undefined-reference"]);
    assert_eq!(d[0]["range"]["start"], json!({"line": 1, "character": 6}));
    // Open and fix it in the editor: cleared, tagged with the version.
    c.open(&main, "locals {\n  a = local.nope\n}\n").await;
    c.notify("textDocument/didChange", change(1, &main, Some([1, 12, 1, 16]), "b")).await;
    let msg = c
        .wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == main.as_str()
                && m["params"]["diagnostics"].as_array().is_some_and(|d| d.is_empty())
        })
        .await;
    assert_eq!(msg["params"]["version"], 1);
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranges_move_with_the_text() {
    let mut c = TestClient::start();
    c.initialize(None, json!({})).await;
    let doc = "file:///lsp-test/ranges/main.tf";
    c.open(doc, "locals {\n  a = local.nope\n}\n").await;
    let d = c.diagnostics_for(doc, |d| !d.is_empty()).await;
    assert_eq!(d[0]["range"]["start"], json!({"line": 1, "character": 6}));
    // Insert two lines and some indentation above and before the reference.
    c.notify("textDocument/didChange", change(1, doc, Some([0, 0, 0, 0]), "# one\n# two\n")).await;
    c.notify("textDocument/didChange", change(2, doc, Some([3, 2, 3, 2]), "   ")).await;
    let d = c.diagnostics_for(doc, |d| d.first().is_some_and(|x| x["range"]["start"]["line"] == 3)).await;
    assert_eq!(d[0]["range"], json!({"start": {"line": 3, "character": 9}, "end": {"line": 3, "character": 19}}));
    c.shutdown().await;
}

/// A burst of incremental edits, each depending on the previous one's position: the final text is right only if
/// they were applied in order. The text is read back through hover (the evaluated value of a local).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_edits_is_applied_in_order() {
    let mut c = TestClient::start();
    c.initialize(None, json!({})).await;
    let doc = "file:///lsp-test/burst/main.tf";
    c.open(doc, "locals {\n  s = \"\"\n  t = local.s\n}\n").await;
    let mut expected = String::new();
    for i in 0..200u32 {
        let ch = char::from(b'a' + (i % 26) as u8);
        let col = 7 + i;
        c.notify("textDocument/didChange", change(i as i32 + 1, doc, Some([1, col, 1, col]), &ch.to_string())).await;
        expected.push(ch);
    }
    let mut last = Value::Null;
    // Up to 10 s for 200 edits in a debug build on a loaded machine (2 s was once too little in CI's parallel run);
    // a right answer ends the wait at once.
    for _ in 0..500 {
        let h = c
            .request_full(
                "textDocument/hover",
                json!({"textDocument": {"uri": doc}, "position": {"line": 2, "character": 13}}),
            )
            .await;
        last = h["result"]["contents"]["value"].clone();
        if last.as_str().is_some_and(|v| v.contains(&expected)) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(last.as_str().is_some_and(|v| v.contains(&format!("\"{expected}\""))), "{last}");
    c.shutdown().await;
}

/// A burst of edits is published a few times at most (not once per edit), and the last publish is for the last
/// text. (That a lone edit is published at once is tested on the policy itself, in `diagnostics.rs`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_edits_is_published_once_it_stops() {
    let mut c = TestClient::start();
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": {}, "initializationOptions": {"foreachLs": {"debounceMs": 50}}}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    let doc = "file:///lsp-test/debounce/main.tf";
    c.open(doc, "locals {\n  a = local.b0\n}\n").await;
    let names = |d: &[Value]| d.iter().filter_map(|x| x["message"].as_str().map(String::from)).collect::<Vec<_>>();
    c.diagnostics_for(doc, |d| names(d).iter().any(|m| m.contains("local.b0"))).await;

    // A burst: 41 edits 2 ms apart (typing fast: well within the 50 ms), then a last one. Without the debounce,
    // each would be published: computing this file's diagnostics takes far less than 2 ms.
    for v in 1..=41 {
        let digit = (v % 10).to_string();
        c.notify("textDocument/didChange", change(v, doc, Some([1, 13, 1, 14]), &digit)).await;
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    c.notify("textDocument/didChange", change(42, doc, Some([1, 13, 1, 14]), "Z")).await;
    let mut publishes = 0;
    loop {
        let d = c.diagnostics_for(doc, |_| true).await;
        publishes += 1;
        if names(&d).iter().any(|m| m.contains("local.bZ")) {
            break;
        }
    }
    // Without the debounce this is about 42; a loaded machine that stretches a few 2 ms pauses past 50 ms may split
    // the burst into a few, which must not fail the test.
    assert!(publishes <= 10, "{publishes} publishes for a burst of 42 edits");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_definition_completion_symbols_with_astral_characters() {
    let ws = workspace(&[
        ("main.tf", "locals {\n  e = \"😀\" # 😀\n  r = var.region\n}\n"),
        ("variables.tf", "variable \"region\" {\n  default = \"eu-west-1\"\n}\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    c.open(&main, "locals {\n  e = \"😀\" # 😀\n  r = var.region\n}\n").await;
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": main}, "position": {"line": line, "character": character}});
    let mut hover = Value::Null;
    // Indexing runs in the background: retry until the variable's file is loaded.
    for _ in 0..100 {
        hover = c.request("textDocument/hover", at(2, 10)).await;
        if hover["contents"]["value"].as_str().is_some_and(|v| v.contains("eu-west-1")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(hover["contents"]["value"], "```hcl\nvar.region\n```\n\n```hcl\n\"eu-west-1\"\n```\n");
    assert_eq!(hover["range"], json!({"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 16}}));

    let def = c.request("textDocument/definition", at(2, 12)).await;
    assert_eq!(def[0]["uri"], uri(&root.join("variables.tf")).as_str());
    assert_eq!(def[0]["range"]["start"], json!({"line": 0, "character": 9}));

    // Type `each.` after an emoji to check UTF-16 columns in completion edits (the emoji is two units).
    c.notify("textDocument/didChange", change(1, &main, Some([1, 15, 1, 15]), "\n  f = [\"😀\", each.")).await;
    let items = c.request("textDocument/completion", at(2, 18)).await;
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["key", "value"]);
    assert_eq!(items[0]["textEdit"]["range"]["start"], json!({"line": 2, "character": 18}));

    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": main}})).await;
    assert_eq!(symbols[0]["name"], "locals");
    assert_eq!(symbols[0]["children"][0]["name"], "local.e");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn definition_of_an_instance_key_is_its_tfvars_element() {
    let main_text = "variable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = var.regions\n  region   = each.value\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"us-east-1\"]\n}\n";
    let ws = workspace(&[
        ("main.tf", main_text),
        ("terraform.tfvars", "regions = [\n  \"eu-west-1\",\n  \"us-east-1\",\n]\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    c.open(&main, main_text).await;
    let at = json!({"textDocument": {"uri": main}, "position": {"line": 9, "character": 22}});
    let mut def = Value::Null;
    // Indexing runs in the background: retry until the tfvars file is loaded.
    for _ in 0..100 {
        def = c.request("textDocument/definition", at.clone()).await;
        if def[0]["uri"].as_str().is_some_and(|u| u.ends_with("terraform.tfvars")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(def[0]["uri"], uri(&root.join("terraform.tfvars")).as_str(), "{def}");
    assert_eq!(def[0]["range"], json!({"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 13}}));
    assert_eq!(def.as_array().map(Vec::len), Some(1));
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_pulled_per_workspace_folder() {
    let main_text = "variable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"r\"\n  for_each = var.regions\n  region   = each.value\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"us\"]\n}\n";
    let ws = workspace(&[
        ("a/main.tf", main_text),
        ("a/dev.tfvars", "regions = [\"eu\"]\n"),
        ("b/main.tf", main_text),
        ("b/dev.tfvars", "regions = [\"eu\"]\n"),
    ]);
    let root = canonical(&ws);
    let (a, b) = (uri(&root.join("a")), uri(&root.join("b")));
    let mut c = TestClient::start();
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": {"workspace": {"configuration": true}},
               "workspaceFolders": [{"uri": a, "name": "a"}, {"uri": b, "name": "b"}]}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    let pull = c.wait_for(|m| m["method"] == "workspace/configuration").await;
    let items = pull["params"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{pull}");
    assert_eq!(items[0], json!({"section": "foreachLs"}));
    assert_eq!(items[1], json!({"scopeUri": a, "section": "foreachLs"}));
    assert_eq!(items[2], json!({"scopeUri": b, "section": "foreachLs"}));
    // Only folder `a` reads dev.tfvars: its reference to "us" is wrong, `b`'s keys are unknown.
    c.respond(&pull, json!([{}, {"varFiles": ["dev.tfvars"]}, null])).await;
    let in_a = c.diagnostics_for(&uri(&root.join("a/main.tf")), |d| !d.is_empty()).await;
    assert!(codes(&in_a).contains(&"unknown-provider-instance".to_string()), "{in_a:?}");
    let in_b = c.diagnostics_for(&uri(&root.join("b/main.tf")), |_| true).await;
    assert_eq!(codes(&in_b), ["provider-for-each-unresolved"], "{in_b:?}");

    // `didChangeConfiguration` with no settings: the server pulls again; now `b` reads dev.tfvars too.
    c.notify("workspace/didChangeConfiguration", json!({"settings": null})).await;
    let pull = c.wait_for(|m| m["method"] == "workspace/configuration").await;
    c.respond(&pull, json!([{"varFiles": ["dev.tfvars"]}, {"varFiles": ["dev.tfvars"]}, {"varFiles": ["dev.tfvars"]}]))
        .await;
    let in_b = c
        .diagnostics_for(&uri(&root.join("b/main.tf")), |d| d.iter().any(|x| x["code"] == "unknown-provider-instance"))
        .await;
    assert!(!in_b.is_empty());
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ignore_code_action_and_other_hcl_files() {
    let mut c = TestClient::start();
    c.initialize(None, json!({})).await;
    let doc = "file:///lsp-test/actions/main.tf";
    c.open(doc, "resource \"x\" \"y\" {\n  a = local.nope\n}\n").await;
    c.diagnostics_for(doc, |d| !d.is_empty()).await;
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": doc}, "range": {"start": {"line": 1, "character": 8}, "end": {"line": 1, "character": 8}}, "context": {"diagnostics": []}}),
        )
        .await;
    assert_eq!(actions[0]["title"], "Ignore `undefined-reference` for this block");
    let edit = &actions[0]["edit"]["changes"][doc][0];
    assert_eq!(edit["newText"], "# foreach-ls:ignore undefined-reference\n");
    assert_eq!(edit["range"]["start"], json!({"line": 0, "character": 0}));
    // Applying it clears the diagnostic.
    c.notify("textDocument/didChange", change(1, doc, Some([0, 0, 0, 0]), "# foreach-ls:ignore undefined-reference\n"))
        .await;
    c.diagnostics_for(doc, |d| d.is_empty()).await;

    // Helix sends every .hcl file as "terraform": the file name decides, and terragrunt.hcl is left alone.
    let tg = "file:///lsp-test/actions/terragrunt.hcl";
    c.open(tg, "this is { not valid").await;
    let h = c
        .request("textDocument/hover", json!({"textDocument": {"uri": tg}, "position": {"line": 0, "character": 1}}))
        .await;
    assert!(h.is_null());
    let s = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": tg}})).await;
    assert!(s.is_null());
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn convert_aliased_providers_code_action() {
    let mut c = TestClient::start();
    c.initialize(None, json!({})).await;
    let doc = "file:///lsp-test/migrate/main.tf";
    let text = "provider \"aws\" {\n  alias  = \"use1\"\n  region = \"us-east-1\"\n}\n\nprovider \"aws\" {\n  alias  = \"euw1\"\n  region = \"eu-west-1\"\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.euw1\n}\n";
    c.open(doc, text).await;
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": doc}, "range": {"start": {"line": 6, "character": 4}, "end": {"line": 6, "character": 4}}, "context": {"diagnostics": []}}),
        )
        .await;
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "refactor.rewrite")
        .unwrap_or_else(|| panic!("{actions}"));
    assert_eq!(action["title"], "Convert the 2 aliased `aws` configurations into one `for_each` provider");
    let edits = action["edit"]["changes"][doc].as_array().unwrap();
    assert!(edits.iter().any(|e| e["newText"] == "aws.by_region[\"euw1\"]"), "{edits:?}");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provider_hover_references_and_inlay_hints() {
    let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"a\", \"b\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"x\" {\n  for_each = toset([\"a\"])\n  provider = aws.by_region[each.key]\n}\n";
    let mut c = TestClient::start();
    c.initialize(None, json!({})).await;
    let doc = "file:///lsp-test/providers/main.tf";
    c.open(doc, text).await;
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": doc}, "position": {"line": line, "character": character}});
    let hover = c.request("textDocument/hover", at(7, 18)).await;
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("region = \"a\" ← selected") && md.contains("selects \"a\""), "{md}");
    let mut refs = at(1, 17);
    refs["context"] = json!({"includeDeclaration": false});
    let refs = c.request("textDocument/references", refs).await;
    assert_eq!(refs[0]["range"]["start"], json!({"line": 7, "character": 13}));
    let whole = json!({"textDocument": {"uri": doc}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}});
    let hints = c.request("textDocument/inlayHint", whole).await;
    let labels: Vec<&str> = hints.as_array().unwrap().iter().map(|h| h["label"].as_str().unwrap()).collect();
    assert_eq!(labels, [" keys: \"a\", \"b\"", " → \"a\""]);
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_input_is_answered_and_the_server_keeps_serving() {
    let mut c = TestClient::start();
    // Before initialize: ServerNotInitialized.
    let r = c
        .request_full(
            "textDocument/hover",
            json!({"textDocument": {"uri": "file:///x.tf"}, "position": {"line": 0, "character": 0}}),
        )
        .await;
    assert_eq!(r["error"]["code"], -32002);
    c.initialize(None, json!({})).await;
    // Invalid JSON: a parse error response with a null id.
    c.send_raw("{not json").await;
    let r = c.wait_for(|m| m["error"]["code"] == -32700).await;
    assert!(r["id"].is_null());
    // Unknown method.
    let r = c.request_full("foreachLs/nope", json!({})).await;
    assert_eq!(r["error"]["code"], -32601);
    // Invalid params.
    let r = c.request_full("textDocument/hover", json!({"bogus": true})).await;
    assert_eq!(r["error"]["code"], -32602);
    // didChange for a document that was never opened: ignored.
    c.notify("textDocument/didChange", change(1, "file:///lsp-test/never-opened.tf", None, "x")).await;
    // Out-of-range positions: clamped, the document stays intact.
    let doc = "file:///lsp-test/malformed/main.tf";
    c.open(doc, "locals {\n  a = 1\n  b = local.a\n}\n").await;
    let h = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": doc}, "position": {"line": 999, "character": 4294967295u32}}),
        )
        .await;
    assert!(h.is_null());
    c.notify("textDocument/didChange", change(1, doc, Some([99, 99, 0, 0]), "")).await;
    c.notify("textDocument/didChange", change(2, doc, Some([1, 4294967295, 1, 4294967295]), "")).await;
    let h = c
        .request("textDocument/hover", json!({"textDocument": {"uri": doc}, "position": {"line": 2, "character": 13}}))
        .await;
    assert!(h["contents"]["value"].as_str().unwrap().contains("\n1\n"), "{h}");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instance_key_completion_replaces_the_typed_key() {
    let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"b\", \"a\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"x\" {\n  for_each = toset([\"a\"])\n  provider = aws.by_region[\"\"]\n}\n";
    let mut c = TestClient::start();
    c.initialize(None, json!({})).await;
    let doc = "file:///lsp-test/keys/main.tf";
    c.open(doc, text).await;
    c.notify("textDocument/didChange", change(1, doc, Some([7, 28, 7, 28]), "a")).await;
    let at = json!({"textDocument": {"uri": doc}, "position": {"line": 7, "character": 29}});
    // Right after the change: the request must see it.
    let items = c.request("textDocument/completion", at).await;
    let got: Vec<(&str, &str, &str)> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (i["label"].as_str().unwrap(), i["sortText"].as_str().unwrap(), i["textEdit"]["newText"].as_str().unwrap())
        })
        .collect();
    // `b` does not match the typed `a`: the server filters instance keys by what is typed.
    assert_eq!(got, [("each.key", "0000", "each.key"), ("\"a\"", "0001", "\"a\"")]);
    // `"a"` plus the closing quote already there.
    assert_eq!(
        items[1]["textEdit"]["range"],
        json!({"start": {"line": 7, "character": 27}, "end": {"line": 7, "character": 30}})
    );
    assert_eq!(items[1]["filterText"], "\"a\"");
    assert_eq!(items[1]["kind"], 12);
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snippets_only_for_clients_that_support_them() {
    let text = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = toset([\"a\"])\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"x\" {\n  provider = aws.b\n}\n";
    for (capabilities, format, new_text) in [
        (json!({}), 1, "aws.by_region[each.key]"),
        (
            json!({"textDocument": {"completion": {"completionItem": {"snippetSupport": true}}}}),
            2,
            "aws.by_region[${1:each.key}]",
        ),
    ] {
        let mut c = TestClient::start();
        c.initialize(None, capabilities).await;
        let doc = "file:///lsp-test/snippets/main.tf";
        c.open(doc, text).await;
        let at = json!({"textDocument": {"uri": doc}, "position": {"line": 6, "character": 18}});
        let items = c.request("textDocument/completion", at).await;
        let item = items.as_array().unwrap().iter().find(|i| i["label"] == "aws.by_region").unwrap();
        assert_eq!(item["insertTextFormat"], format);
        assert_eq!(item["textEdit"]["newText"], new_text);
        c.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_folders_added_and_removed_at_runtime() {
    let ws = workspace(&[
        ("a/main.tf", "locals {\n  a = local.nope\n}\n"),
        ("b/main.tf", "locals {\n  b = local.gone\n}\n"),
    ]);
    let root = canonical(&ws);
    let (a, b) = (root.join("a"), root.join("b"));
    let (a_main, b_main) = (uri(&a.join("main.tf")), uri(&b.join("main.tf")));
    let mut c = TestClient::start();
    let r = c.initialize(Some(&a), json!({})).await;
    assert_eq!(r["capabilities"]["workspace"]["workspaceFolders"]["changeNotifications"], true);
    assert_eq!(codes(&c.diagnostics_for(&a_main, |d| !d.is_empty()).await), ["undefined-reference"]);
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [{"uri": uri(&b), "name": "b"}], "removed": [{"uri": uri(&a), "name": "ws"}]}}),
    )
    .await;
    // The added folder is indexed and its problems published; the removed one's are cleared.
    assert_eq!(codes(&c.diagnostics_for(&b_main, |d| !d.is_empty()).await), ["undefined-reference"]);
    c.diagnostics_for(&a_main, |d| d.is_empty()).await;
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn var_files_and_variables_per_workspace_folder() {
    let main = "variable \"regions\" {\n  type = set(string)\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.key\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"x\"]\n}\n";
    let ws = workspace(&[
        ("a/main.tf", main),
        ("a/prod.tfvars", "regions = [\"x\"]\n"),
        ("b/main.tf", main),
        ("b/prod.tfvars", "regions = [\"y\"]\n"),
        ("c/main.tf", main),
    ]);
    let root = canonical(&ws);
    let folder = |n: &str| json!({"uri": uri(&root.join(n)), "name": n});
    let settings = json!({"foreachLs": {"folders": {
        uri(&root.join("a")): {"varFiles": ["prod.tfvars"]},
        "b": {"varFiles": ["prod.tfvars"]},
        root.join("c").to_str().unwrap(): {"variables": {"regions": "[\"x\"]"}}
    }}});
    let mut c = TestClient::start();
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": {}, "initializationOptions": settings,
               "workspaceFolders": [folder("a"), folder("b"), folder("c")]}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    // b's own file has no `x`: only b reports it. Each folder's settings apply to its own roots only.
    let b = c.diagnostics_for(&uri(&root.join("b/main.tf")), |d| !d.is_empty()).await;
    assert_eq!(codes(&b), ["unknown-provider-instance"]);
    assert!(b[0]["message"].as_str().unwrap().contains("its instances are `y`"), "{b:?}");
    // a and c are clean: ask for their diagnostics through a hover that shows the instance.
    for n in ["a", "c"] {
        let doc = uri(&root.join(n).join("main.tf"));
        let hover = c
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": doc}, "position": {"line": 9, "character": 20}}),
            )
            .await;
        let md = hover["contents"]["value"].as_str().unwrap_or_default().to_string();
        assert!(md.contains("1 instance:\n- `\"x\"`") && !md.contains("\"y\""), "{n}: {md}");
    }
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn templated_module_source_hover_and_definition() {
    let main_text = "variable \"env\" {}\nmodule \"app\" {\n  source = \"./modules/${var.env}\"\n}\n";
    let ws = workspace(&[
        ("main.tf", main_text),
        ("terraform.tfvars", "env = \"prod\"\n"),
        ("modules/prod/main.tf", "provider \"aws\" {\n  alias    = \"x\"\n  for_each = toset([\"a\"])\n}\n"),
        ("modules/staging/main.tf", "locals {}\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    c.open(&main, main_text).await;
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": main}, "position": {"line": line, "character": character}});
    let mut hover = Value::Null;
    // Indexing runs in the background: retry until the tfvars file and the module are loaded.
    for _ in 0..100 {
        hover = c.request("textDocument/hover", at(2, 14)).await;
        if hover["contents"]["value"].as_str().is_some_and(|v| v.contains("loads")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(
        hover["contents"]["value"],
        "```hcl\nmodule \"app\"  # source\n```\n\n```hcl\n\"./modules/prod\"\n```\n\nloads `modules/prod`\n"
    );
    assert_eq!(hover["range"], json!({"start": {"line": 2, "character": 11}, "end": {"line": 2, "character": 33}}));
    let def = c.request("textDocument/definition", at(2, 14)).await;
    assert_eq!(def[0]["uri"], uri(&root.join("modules/prod/main.tf")).as_str());
    assert_eq!(def[0]["range"]["start"], json!({"line": 0, "character": 0}));
    c.shutdown().await;
}

/// Issue 14 item 14: a document opened while its workspace is still being indexed gets no diagnostic that its
/// module, once loaded, withdraws (its sibling's variable is declared, not undefined). Since issue 35 its directory is
/// loaded at once, and being a plain root, its own instance's provider key is checked before the indexing ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_published_while_indexing_is_what_the_loaded_module_says() {
    let main = "provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.value\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"nope\"]\n}\n";
    let dir = workspace(&[
        ("main.tf", main),
        ("variables.tf", "variable \"regions\" {\n  default = { eu = \"eu-west-1\" }\n}\n"),
        (foreach_lsp::test_hooks::SLOW_INDEX_MARKER, ""),
    ]);
    let root = canonical(&dir);
    let main_uri = uri(&root.join("main.tf"));
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&main_uri, main).await;
    // The indexing ends with a progress `end`.
    c.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end").await;
    let early = c.backlog_matching(|m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(early.len(), 1, "{early:?}");
    assert_eq!(codes(early[0]["params"]["diagnostics"].as_array().unwrap()), ["unknown-provider-instance"]);
    // The index's list is the same, so it is not sent again: ask for it.
    let pulled = c.request("textDocument/diagnostic", json!({"textDocument": {"uri": main_uri}})).await;
    assert_eq!(&pulled["items"], &early[0]["params"]["diagnostics"], "{pulled}");
    c.shutdown().await;
}

/// A file opened outside every workspace folder: its directory is loaded from disk, so its module is complete.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_outside_the_workspace_folders_is_checked_with_its_siblings() {
    let main = "resource \"aws_s3_bucket\" \"b\" {\n  bucket = var.name\n  tags   = { team = var.team }\n}\n";
    let dir = workspace(&[("main.tf", main), ("variables.tf", "variable \"name\" {\n  default = \"b\"\n}\n")]);
    let root = canonical(&dir);
    let main_uri = uri(&root.join("main.tf"));
    let mut c = TestClient::start();
    c.initialize(None, json!({"window": {"workDoneProgress": true}})).await;
    // Opened after the (empty) indexing, so the server must load the directory itself.
    c.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end").await;
    c.open(&main_uri, main).await;
    let diags = c.diagnostics_for(&main_uri, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["undefined-reference"], "only `var.team` is undeclared: {diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("team"), "{diags:?}");
}

/// A client that writes `+` in a path as is (the server would write `%2B`) gets every publication and answer about
/// the documents it opened under the URI it used, not another spelling it would take for another file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_keep_the_uri_the_client_wrote() {
    let main = "locals {\n  a = local.b\n  c = local.nope\n}\n";
    let other = "locals {\n  b = 1\n}\n";
    let dir = workspace(&[("c++/main.tf", main), ("c++/other.tf", other)]);
    let root = canonical(&dir);
    let as_written = |name: &str| format!("file://{}", root.join("c++").join(name).display());
    let (main_uri, other_uri) = (as_written("main.tf"), as_written("other.tf"));
    assert_ne!(main_uri, uri(&root.join("c++/main.tf")), "the server spells it differently");
    let mut c = TestClient::start();
    c.initialize(Some(&root), json!({})).await;
    c.open(&other_uri, other).await;
    c.open(&main_uri, main).await;
    let diags = c.diagnostics_for(&main_uri, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["undefined-reference"], "{diags:?}");
    let at = json!({"textDocument": {"uri": main_uri}, "position": {"line": 1, "character": 13}});
    let def = c.request("textDocument/definition", at).await;
    assert_eq!(def[0]["uri"], other_uri.as_str(), "{def}");
    let refs = c
        .request(
            "textDocument/references",
            json!({"textDocument": {"uri": other_uri}, "position": {"line": 1, "character": 2},
                   "context": {"includeDeclaration": true}}),
        )
        .await;
    let mut ref_uris: Vec<&str> = refs.as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    ref_uris.sort();
    assert_eq!(ref_uris, [main_uri.as_str(), other_uri.as_str()], "{refs}");
    // Fixed in the editor: cleared under the same URI.
    c.notify("textDocument/didChange", change(1, &main_uri, Some([2, 12, 2, 16]), "b")).await;
    c.diagnostics_for(&main_uri, <[Value]>::is_empty).await;
    let other_spelling = c.backlog_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"].as_str().is_some_and(|u| u.contains("%2B"))
    });
    assert!(other_spelling.is_empty(), "published under the server's spelling: {other_spelling:?}");
    c.shutdown().await;
}

/// The text of `modules/app/main.tf` in [`slow_workspace`]: an undefined local, and a key the caller's map lacks.
const SLOW_APP: &str = "resource \"aws_s3_bucket\" \"b\" {\n  bucket = var.name\n  tags   = local.tagz\n}\n\nlocals {\n  region = var.regions[\"nope\"]\n}\n";

/// A workspace of 150 generated modules and `modules/app`, called from the root `main.tf`, whose indexing the test
/// hook slows down, plus `extra` files; the canonical root and the URI of `modules/app/main.tf`.
fn slow_workspace(extra: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf, String) {
    slow_workspace_marked(foreach_lsp::test_hooks::SLOW_INDEX_MARKER, extra)
}

/// [`slow_workspace`] with the test hook's `marker` instead of the one that slows the loading down.
fn slow_workspace_marked(marker: &str, extra: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let variables = "variable \"name\" {\n  type = string\n}\n\nvariable \"regions\" {\n  type = map(string)\n}\n";
    let mut calls = String::new();
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..150 {
        calls.push_str(&format!("module \"m{i}\" {{\n  source = \"./modules/m{i}\"\n  name   = \"n{i}\"\n}}\n\n"));
        files.push((
            format!("modules/m{i}/main.tf"),
            format!("variable \"name\" {{}}\n\nlocals {{\n  n = \"${{var.name}}-{i}\"\n}}\n"),
        ));
    }
    calls.push_str(
        "module \"app\" {\n  source  = \"./modules/app\"\n  name    = \"b\"\n  regions = { eu = \"eu-west-1\" }\n}\n",
    );
    files.push(("main.tf".into(), calls));
    files.push(("modules/app/main.tf".into(), SLOW_APP.into()));
    files.push(("modules/app/variables.tf".into(), variables.into()));
    files.push((marker.into(), String::new()));
    files.extend(extra.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let dir = workspace(&files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect::<Vec<_>>());
    let root = canonical(&dir);
    let app_uri = uri(&root.join("modules/app/main.tf"));
    (dir, root, app_uri)
}

fn indexing_ended(m: &Value) -> bool {
    m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
}

/// A call whose source is not a literal: it could load any directory, so the first look at a module is unsure of its
/// callers (`foreach_load::plain_root`), and what depends on them waits for the index.
const UNSURE_CALLER: (&str, &str) = ("live/main.tf", "module \"x\" {\n  source = var.where\n}\n");

/// A module file opened while a large workspace is being indexed (slowly, through the test hook): its directory's
/// own findings are published before the indexing ends, and the full index withdraws none of them; what depends on
/// the callers (here a key the caller's map lacks) comes only with the index when the callers are not surely known.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_opened_while_indexing_gets_its_own_findings_first_and_keeps_them() {
    let (_dir, root, app_uri) = slow_workspace(&[UNSURE_CALLER]);
    let app = SLOW_APP;
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&app_uri, app).await;
    let first = c.diagnostics_for(&app_uri, |d| !d.is_empty()).await;
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the first diagnostics came after the indexing");
    assert_eq!(codes(&first), ["undefined-reference"], "only what the directory decides: {first:?}");
    assert!(first[0]["message"].as_str().unwrap().contains("tagz"), "{first:?}");
    c.wait_for(indexing_ended).await;
    let full = c.diagnostics_for(&app_uri, |d| d.len() > first.len()).await;
    assert!(codes(&full).contains(&"evaluation-error".to_string()), "the caller's key is checked: {full:?}");
    for d in &first {
        assert!(full.contains(d), "{d} was withdrawn: {full:?}");
    }
    let publications = c.backlog_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == app_uri.as_str()
    });
    for p in publications {
        for d in &first {
            assert!(p["params"]["diagnostics"].as_array().unwrap().contains(d), "{d} was withdrawn: {p}");
        }
    }
    c.shutdown().await;
}

/// A module file opened while the first indexing runs gets what its instances decide (a key the caller's map lacks)
/// once the workspace is loaded, before the rest is evaluated (slowly, through the test hook); the index keeps every
/// finding of every list published before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_module_file_gets_what_its_instances_decide_once_the_workspace_is_loaded() {
    let (_dir, root, app_uri) = slow_workspace_marked(foreach_lsp::test_hooks::SLOW_EVALUATION_MARKER, &[]);
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&app_uri, SLOW_APP).await;
    let loaded = c.diagnostics_for(&app_uri, |d| codes(d).contains(&"evaluation-error".to_string())).await;
    let app_lists =
        |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == app_uri.as_str();
    // Those still queued came before it (the directory's own list).
    let before = c.backlog_matching(app_lists).len();
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the instance's finding came after the indexing");
    assert_eq!(codes(&loaded), ["undefined-reference", "evaluation-error"], "{loaded:?}");
    assert!(loaded[1]["message"].as_str().unwrap().contains("nope"), "{loaded:?}");
    c.wait_for(indexing_ended).await;
    // The index's list for this text may equal the last one, and then is not sent again: a line added at the end
    // shows it, with one finding more.
    let end = SLOW_APP.lines().count() as u32;
    c.notify(
        "textDocument/didChange",
        change(1, &app_uri, Some([end, 0, end, 0]), "output \"o\" {\n  value = local.later\n}\n"),
    )
    .await;
    let full =
        c.diagnostics_for(&app_uri, |d| d.iter().any(|x| x["message"].as_str().unwrap_or("").contains("later"))).await;
    let after: Vec<Value> = c.backlog_matching(app_lists).into_iter().skip(before).collect();
    for p in after.iter().map(|p| &p["params"]["diagnostics"]).chain([&json!(full)]) {
        for d in &loaded {
            assert!(p.as_array().unwrap().contains(d), "{d} was withdrawn: {p}");
        }
    }
    c.shutdown().await;
}

/// A module file opened while the workspace is being loaded, whose only caller is a root that reads no module's
/// outputs (`foreach_load::plain_root::first_look`): what its instances decide (a key the caller's map lacks) is published
/// once that caller is loaded, before the rest of the workspace is (the test hook holds the indexing there until
/// the test lets it go), and nothing published is withdrawn later, by an edit's lists or by the index.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_module_file_gets_what_its_instances_decide_once_its_callers_are_loaded() {
    let (_dir, root, app_uri) = slow_workspace_marked(foreach_lsp::test_hooks::HELD_INDEX_MARKER, &[]);
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&app_uri, SLOW_APP).await;
    let has_instance_finding = |d: &[Value]| codes(d).contains(&"evaluation-error".to_string());
    let early = c.diagnostics_for(&app_uri, has_instance_finding).await;
    assert_eq!(codes(&early), ["undefined-reference", "evaluation-error"], "{early:?}");
    assert!(early[1]["message"].as_str().unwrap().contains("nope"), "{early:?}");
    // An edit meanwhile: evaluated again with the caller, the instance's finding kept.
    let end = SLOW_APP.lines().count() as u32;
    let more = "resource \"aws_s3_bucket\" \"c\" {\n  bucket = local.ownr\n}\n";
    c.notify("textDocument/didChange", change(1, &app_uri, Some([end, 0, end, 0]), more)).await;
    let edited =
        c.diagnostics_for(&app_uri, |d| d.iter().any(|x| x["message"].as_str().unwrap_or("").contains("ownr"))).await;
    assert!(has_instance_finding(&edited), "{edited:?}");
    let app_lists =
        |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == app_uri.as_str();
    let before = c.backlog_matching(app_lists).len();
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the indexing ended while held");
    std::fs::remove_file(root.join(foreach_lsp::test_hooks::HELD_INDEX_MARKER)).unwrap();
    c.wait_for(indexing_ended).await;
    let after: Vec<Value> = c.backlog_matching(app_lists).into_iter().skip(before).collect();
    for p in after.iter().map(|p| &p["params"]["diagnostics"]) {
        for d in &edited {
            assert!(p.as_array().unwrap().contains(d), "{d} was withdrawn: {p}");
        }
    }
    // The index's own answer, asked for directly, holds every finding of the last early list.
    let pulled = c.request("textDocument/diagnostic", json!({"textDocument": {"uri": app_uri}})).await;
    for d in &edited {
        assert!(pulled["items"].as_array().unwrap().contains(d), "{d} is not the index's: {pulled}");
    }
    c.shutdown().await;
}

/// With exclude globs (here the project file's) the search cannot know which roots the index has: a module file's
/// instance findings wait for the loaded workspace, while its directory's own come at once and after an edit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_exclude_globs_a_module_files_instance_findings_wait_for_the_loaded_workspace() {
    let project = ("foreach-ls.toml", "exclude = [\"elsewhere/**\"]\n");
    let (_dir, root, app_uri) =
        slow_workspace_marked(foreach_lsp::test_hooks::HELD_INDEX_MARKER, &[(".git/HEAD", ""), project]);
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&app_uri, SLOW_APP).await;
    let first = c.diagnostics_for(&app_uri, |d| !d.is_empty()).await;
    assert_eq!(codes(&first), ["undefined-reference"], "{first:?}");
    // The edit's list comes after the first computation has ended: by then an instance finding would have come.
    let end = SLOW_APP.lines().count() as u32;
    let more = "resource \"aws_s3_bucket\" \"c\" {\n  bucket = local.ownr\n}\n";
    c.notify("textDocument/didChange", change(1, &app_uri, Some([end, 0, end, 0]), more)).await;
    let edited =
        c.diagnostics_for(&app_uri, |d| d.iter().any(|x| x["message"].as_str().unwrap_or("").contains("ownr"))).await;
    assert_eq!(codes(&edited), ["undefined-reference", "undefined-reference"], "{edited:?}");
    std::fs::remove_file(root.join(foreach_lsp::test_hooks::HELD_INDEX_MARKER)).unwrap();
    let loaded = c.diagnostics_for(&app_uri, |d| codes(d).contains(&"evaluation-error".to_string())).await;
    for d in &edited {
        assert!(loaded.contains(d), "{d} was withdrawn: {loaded:?}");
    }
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_while_indexing_publishes_the_new_texts_own_findings_at_once() {
    let (_dir, root, app_uri) = slow_workspace(&[UNSURE_CALLER]);
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&app_uri, SLOW_APP).await;
    c.diagnostics_for(&app_uri, |d| !d.is_empty()).await;
    // Two edits in a row: an undefined local, then a broken line. Only the newest text's list may come last.
    let ownr = format!("{SLOW_APP}\nresource \"aws_s3_bucket\" \"c\" {{\n  bucket = local.ownr\n}}\n");
    c.notify("textDocument/didChange", change(1, &app_uri, None, &ownr)).await;
    c.notify("textDocument/didChange", change(2, &app_uri, None, &format!("{ownr}broken =\n"))).await;
    let is_v2 = |m: &Value| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == app_uri.as_str()
            && m["params"]["version"] == 2
    };
    let edited = c.wait_for(is_v2).await["params"]["diagnostics"].as_array().cloned().unwrap();
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the edit's diagnostics came after the indexing");
    let mentions = |ds: &[Value], what: &str| ds.iter().any(|d| d["message"].as_str().unwrap().contains(what));
    assert!(mentions(&edited, "ownr") && mentions(&edited, "tagz"), "{edited:?}");
    assert!(codes(&edited).contains(&"syntax-error".to_string()), "{edited:?}");
    c.wait_for(indexing_ended).await;
    let stale = c.backlog_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == app_uri.as_str()
            && m["params"]["version"].as_i64().is_some_and(|v| v < 2)
    });
    assert!(stale.is_empty(), "a list for an older text came after the newest: {stale:?}");
    let full = c.diagnostics_for(&app_uri, |d| d.len() > edited.len()).await;
    assert!(codes(&full).contains(&"evaluation-error".to_string()), "the caller's key is checked: {full:?}");
    for d in &edited {
        assert!(full.contains(d), "{d} was withdrawn: {full:?}");
    }
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_root_opened_while_indexing_gets_its_provider_instance_findings_first_and_keeps_them() {
    let mut main = String::from(
        "variable \"regions\" {\n  type = map(string)\n}\n\nprovider \"aws\" {\n  alias    = \"by_region\"\n  \
         for_each = var.regions\n  region   = each.value\n}\n\n",
    );
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..150 {
        main.push_str(&format!(
            "module \"m{i}\" {{\n  source   = \"./modules/m{i}\"\n  for_each = var.regions\n  providers = {{\n    \
             aws = aws.by_region[each.key]\n  }}\n}}\n\n"
        ));
        files.push((format!("modules/m{i}/main.tf"), "resource \"aws_s3_bucket\" \"b\" {}\n".into()));
    }
    files.push(("main.tf".into(), main.clone()));
    files.push(("terraform.tfvars".into(), "regions = {\n  eu = \"eu-west-1\"\n  us = \"us-east-1\"\n}\n".into()));
    files.push((foreach_lsp::test_hooks::SLOW_INDEX_MARKER.into(), String::new()));
    let dir = workspace(&files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect::<Vec<_>>());
    let root = canonical(&dir);
    let main_uri = uri(&root.join("main.tf"));
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    // As the bench does: a reference to a provider instance that does not exist, appended to the root.
    let text = format!("{main}resource \"aws_s3_bucket\" \"x\" {{\n  provider = aws.by_region[\"nope-1\"]\n}}\n");
    c.open(&main_uri, &text).await;
    let has_unknown = |d: &[Value]| codes(d).contains(&"unknown-provider-instance".to_string());
    let first = c.diagnostics_for(&main_uri, has_unknown).await;
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the instance finding came after the indexing");
    assert_eq!(codes(&first), ["unknown-provider-instance"], "{first:?}");
    let message = first[0]["message"].as_str().unwrap();
    assert!(message.contains("nope-1") && message.contains("`eu`, `us`"), "{first:?}");
    // An edit meanwhile is evaluated again.
    let edited = text.replace("nope-1", "nope-2");
    c.notify("textDocument/didChange", change(1, &main_uri, None, &edited)).await;
    let second =
        c.diagnostics_for(&main_uri, |d| d.iter().any(|d| d["message"].as_str().unwrap().contains("nope-2"))).await;
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the edit's instance finding came after the indexing");
    c.wait_for(indexing_ended).await;
    let first = second;
    // The index publishes again only if its list differs: then it must hold the early one's findings.
    let later = c.backlog_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == main_uri.as_str()
    });
    for p in later {
        for d in &first {
            assert!(p["params"]["diagnostics"].as_array().unwrap().contains(d), "{d} was withdrawn: {p}");
        }
    }
    // The index's own answer, asked for directly, holds it too.
    let pulled = c.request("textDocument/diagnostic", json!({"textDocument": {"uri": main_uri}})).await;
    for d in &first {
        assert!(pulled["items"].as_array().unwrap().contains(d), "{d} is not the index's: {pulled}");
    }
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_document_opened_while_indexing_a_project_with_environments_gets_its_own_findings_first() {
    let project = "[environments.prod]\nworkspace = \"prod\"\n\n[environments.staging]\nworkspace = \"staging\"\n";
    let (_dir, root, app_uri) = slow_workspace(&[(".git/HEAD", ""), ("foreach-ls.toml", project)]);
    let mut c = TestClient::start_with_hooks();
    c.initialize(Some(&root), json!({"window": {"workDoneProgress": true}})).await;
    c.open(&app_uri, SLOW_APP).await;
    let first = c.diagnostics_for(&app_uri, |d| !d.is_empty()).await;
    assert!(c.backlog_matching(indexing_ended).is_empty(), "the first diagnostics came after the indexing");
    assert_eq!(codes(&first), ["undefined-reference"], "only what the directory decides: {first:?}");
    // Untagged, as the merge shows a finding every environment has.
    assert!(first[0]["message"].as_str().unwrap().starts_with("reference to undeclared"), "{first:?}");
    c.wait_for(indexing_ended).await;
    let full = c.diagnostics_for(&app_uri, |d| d.len() > first.len()).await;
    assert!(codes(&full).contains(&"evaluation-error".to_string()), "the caller's key is checked: {full:?}");
    let publications = c.backlog_matching(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == app_uri.as_str()
    });
    for p in publications.iter().map(|p| &p["params"]["diagnostics"]).chain([&json!(full)]) {
        for d in &first {
            assert!(p.as_array().unwrap().contains(d), "{d} was withdrawn: {p}");
        }
    }
    c.shutdown().await;
}
