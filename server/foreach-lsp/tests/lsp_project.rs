//! The project file `foreach-ls.toml` in the editor (`docs/configuration.md`, `docs/lsp.md`): diagnostics merged
//! across its environments as `check` merges them, its excludes and severities, a broken file shown as an error on
//! the file, and the file read again when it changes on disk.

mod common;

use common::{TestClient, canonical, uri, workspace};
use serde_json::{Value, json};

const ROOT: &str = "variable \"regions\" {\n  type = set(string)\n}\n\n\
provider \"aws\" {\n  alias    = \"by_region\"\n  for_each = var.regions\n  region   = each.key\n}\n\n\
resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.by_region[\"eu-west-1\"]\n}\n\n\
variable \"dup\" {}\nvariable \"dup\" {}\n";

const PROJECT: &str = "exclude = [\"examples/**\"]\n\n[severity]\nduplicate-block = \"info\"\n\n\
[environments.prod]\nvar_files = [\"envs/prod.tfvars\"]\n\n\
[environments.staging]\nvar_files = [\"envs/staging.tfvars\"]\n";

fn messages(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["message"].as_str().unwrap_or_default().to_string()).collect()
}

async fn start(folder: &std::path::Path) -> TestClient {
    let mut c = TestClient::start();
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true, "relativePatternSupport": true}}});
    c.initialize(Some(folder), capabilities).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_are_merged_across_environments_with_the_files_excludes_and_severities() {
    let ws = workspace(&[
        (".git/HEAD", ""),
        ("foreach-ls.toml", PROJECT),
        ("envs/prod.tfvars", "regions = [\"eu-west-1\", \"us-east-1\"]\n"),
        ("envs/staging.tfvars", "regions = [\"us-east-1\"]\n"),
        ("main.tf", ROOT),
        ("examples/broken/main.tf", "variable \"x\" {}\nvariable \"x\" {}\n"),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start(&root).await;
    let d = c.diagnostics_for(&main, |d| d.len() == 2).await;
    let m = messages(&d);
    assert!(m.iter().any(|m| m.starts_with("(staging) no provider instance `eu-west-1`")), "{m:?}");
    let dup = d.iter().find(|x| x["code"] == "duplicate-block").expect("the duplicate");
    assert_eq!(dup["severity"], 3, "the project file makes it an info: {dup}");
    assert!(!dup["message"].as_str().unwrap().starts_with('('), "every environment has it: {dup}");
    // Nothing is published for the excluded example.
    let excluded = uri(&root.join("examples/broken/main.tf"));
    assert!(c.backlog_matching(|m| m["params"]["uri"] == excluded.as_str()).is_empty());
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_project_file_is_an_error_on_the_file_until_it_is_fixed_on_disk() {
    let ws = workspace(&[
        (".git/HEAD", ""),
        ("foreach-ls.toml", "[environments.prod]\nvar_file = [\"envs/prod.tfvars\"]\n"),
        ("envs/prod.tfvars", "regions = [\"us-east-1\"]\n"),
        ("main.tf", ROOT),
    ]);
    let root = canonical(&ws);
    let project = root.join("foreach-ls.toml");
    let mut c = start(&root).await;
    let d = c.diagnostics_for(&uri(&project), |d| !d.is_empty()).await;
    assert_eq!(d[0]["range"]["start"], json!({"line": 1, "character": 0}), "{d:?}");
    assert!(d[0]["message"].as_str().unwrap().contains("unknown key `var_file`; did you mean `var_files`?"), "{d:?}");
    std::fs::write(&project, "[environments.prod]\nvar_files = [\"envs/prod.tfvars\"]\n").unwrap();
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri(&project), "type": 2}]})).await;
    c.diagnostics_for(&uri(&project), |d| d.is_empty()).await;
    // With the environment's values the key is checked: `eu-west-1` is not an instance.
    let main = uri(&root.join("main.tf"));
    let d = c.diagnostics_for(&main, |d| d.iter().any(|x| x["code"] == "unknown-provider-instance")).await;
    assert!(messages(&d).iter().all(|m| !m.starts_with('(')), "one environment names none: {d:?}");
    c.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_answers_per_environment_and_completion_offers_the_union() {
    let ws = workspace(&[
        (".git/HEAD", ""),
        ("foreach-ls.toml", PROJECT),
        ("envs/prod.tfvars", "regions = [\"eu-west-1\", \"us-east-1\"]\n"),
        ("envs/staging.tfvars", "regions = [\"us-east-1\"]\n"),
        ("main.tf", ROOT),
    ]);
    let root = canonical(&ws);
    let main = uri(&root.join("main.tf"));
    let mut c = start(&root).await;
    c.diagnostics_for(&main, |d| d.len() == 2).await;
    let hover = c
        .request("textDocument/hover", json!({"textDocument": {"uri": main}, "position": {"line": 6, "character": 16}}))
        .await;
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("**prod**") && text.contains("**staging**"), "{hover}");
    let prod = &text[text.find("**prod**").unwrap()..text.find("**staging**").unwrap()];
    assert!(prod.contains("eu-west-1") && prod.contains("us-east-1"), "{text}");
    assert!(!text[text.find("**staging**").unwrap()..].contains("eu-west-1"), "{text}");

    let items = c
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": main}, "position": {"line": 11, "character": 28}}),
        )
        .await;
    let items = items.as_array().cloned().or_else(|| items["items"].as_array().cloned()).unwrap_or_default();
    let detail = |key: &str| {
        let item = items.iter().find(|i| i["label"].as_str().unwrap_or_default().contains(key));
        item.map(|i| i["detail"].as_str().unwrap_or_default().to_string())
    };
    assert!(detail("eu-west-1").is_some_and(|d| d.contains("only in prod")), "{items:?}");
    assert!(detail("us-east-1").is_some_and(|d| !d.contains("only in")), "{items:?}");
    c.shutdown().await;
}
