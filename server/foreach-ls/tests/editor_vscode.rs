//! The VS Code extension (`editors/vscode`): `npm ci`, `npm test` (its start-up code against the real binary,
//! through the npm LSP client libraries, and its languages and grammar with vscode-textmate; VS Code itself runs in
//! `editor_vscode_e2e`), and `vsce package`, which runs
//! `npm run build` (strict TypeScript, eslint, esbuild) and must produce a `.vsix`. Skips when Node/npm or the
//! registry are unavailable.

mod tools;

use std::path::Path;
use std::process::Command;

use tools::{npm_ci, path_with_binary, repo, report, skip, target_dir};

const TEST: &str = "editor_vscode";

fn npm(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("npm")
        .arg("--loglevel=error")
        .args(args)
        .current_dir(dir)
        .env("PATH", path_with_binary())
        .output()
        .expect("npm runs");
    let r = report(&out);
    assert!(out.status.success(), "npm {} failed:\n{r}", args.join(" "));
    r
}

#[test]
fn vscode_extension_builds_starts_the_server_and_packages() {
    let dir = repo().join("editors/vscode");
    if Command::new("npm").arg("--version").output().is_err() {
        return skip(TEST, "npm (Node.js) not found on PATH");
    }
    if let Err(reason) = npm_ci(&dir) {
        // Only an unreachable registry is a missing tool; anything else (a lock file out of sync with
        // package.json, a broken package) is a bug in the extension and must fail.
        let offline = ["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "ENETUNREACH"]
            .iter()
            .any(|code| reason.contains(code));
        assert!(offline, "npm ci in editors/vscode failed: {reason}");
        return skip(TEST, &format!("npm ci in editors/vscode cannot reach the npm registry: {reason}"));
    }
    let tests = npm(&dir, &["test"]);
    println!("{tests}");
    assert!(tests.contains("# fail 0") && !tests.contains("# pass 0"), "{tests}");

    let vsix = target_dir().join("foreach-ls.vsix");
    let _ = std::fs::remove_file(&vsix);
    // `vsce package` runs `npm run build` first (vscode:prepublish): strict tsc, eslint, then the esbuild bundle.
    npm(&dir, &["run", "package", "--", "--out", vsix.to_str().unwrap()]);
    // A .vsix is a zip; its central directory names the files uncompressed.
    let bytes = std::fs::read(&vsix).expect("vsce wrote the .vsix");
    let names = String::from_utf8_lossy(&bytes);
    assert!(names.contains("extension/dist/extension.js") && names.contains("extension/package.json"));
    // The languages it contributes need their configuration and grammar inside.
    assert!(names.contains("extension/language-configuration.json"), "the .vsix lacks the language configuration");
    assert!(names.contains("extension/syntaxes/hcl.tmLanguage.json"), "the .vsix lacks the grammar");
    assert!(!names.contains("node_modules/"), "dependencies are bundled, not shipped");
}
