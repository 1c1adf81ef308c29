//! The writing commands killed with SIGKILL at random moments (issue 36, item 2): `fmt --recursive` over 200
//! files (and 20 links to one more), `check --fix` over 30 roots, `migrate --write --resources` over an 11-file
//! module. After each kill every file is byte for byte its old text or its new one (and `migrate`'s all old or all
//! new unless its journal says otherwise), links are still links, and nothing but our temporary files and the
//! journal is new. Then the next run (for a half-done `migrate`: `check`, which must report it, and `--finish` or
//! `--undo`) must remove every temporary file and end with the tree a complete run gives.
//!
//! Kills are spread uniformly over the time a complete run takes (measured first, narrowed when runs end before
//! their kill), a little past it. `migrate` runs with `FOREACH_LS_TEST_WRITE_DELAY_MS` (a slow disk), so that kills
//! land between its renames too. Only the processes the test started are signalled (`Child::kill`).
//!
//! Bounded for `cargo test` and CI: at most `KILL_RUNS` runs (100) per command and `KILL_SECONDS` (20 s) each (on
//! two cores `cargo test` runs two of the three at a time: about 45 s in all). The long form:
//! `FOREACH_LS_KILL_RUNS=1000 cargo test --release --test kill -- --nocapture` (no time bound then);
//! `FOREACH_LS_KILL_SEED` replays a seed. Figures go to standard error and `target/reliability/kill-<command>.txt`.

mod tools;
#[path = "support/trees.rs"]
mod trees;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use trees::{Entry, Tree, leftovers, run, said, snapshot};

const KILL_RUNS: u64 = 100;
const KILL_SECONDS: u64 = 20;
/// At least this many runs, past the time bound if the machine is loaded: fewer would not mean much.
const MIN_RUNS: u64 = 10;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

struct Case {
    name: &'static str,
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    /// Whether a complete run exits with this status.
    status: i32,
    /// `migrate`: its files change together, and a journal may be left.
    all_or_nothing: bool,
}

/// What the runs of one command did.
#[derive(Default, Debug)]
struct Figures {
    runs: u64,
    /// Kills that landed while the process was still running.
    kills: u64,
    /// Files found with their new text right after a kill.
    files_written: u64,
    bytes_compared: u64,
    leftovers_removed: u64,
    journals: u64,
}

fn unformatted(i: usize) -> String {
    let mut s = String::new();
    for j in 0..12 {
        s.push_str(&format!(
            "variable \"v{i}_{j}\" {{\n  type = string\n  description   = \"variable {j} of file {i}\"\n  default = \"{}\"\n}}\n\n",
            "x".repeat(j * 7)
        ));
    }
    s
}

fn setup_fmt(dir: &Path) {
    let mut files: Vec<(String, String)> = Vec::new();
    for d in 0..20 {
        for f in 0..10 {
            files.push((format!("env{d:02}/f{f}.tf"), unformatted(d * 10 + f)));
        }
        files.push((format!("env{d:02}/common.tf"), "-> ../shared/common.tf".to_string()));
    }
    files.push(("shared/common.tf".to_string(), unformatted(999)));
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    trees::write(dir, &refs);
}

fn setup_fix(dir: &Path) {
    let trap = tools::repo().join("testdata/cli/rfc-removal-trap");
    for r in 0..30 {
        trees::copy(&trap, &dir.join(format!("root{r:03}")));
    }
}

fn setup_migrate(dir: &Path) {
    let mut providers = String::new();
    for (alias, region) in [("use1", "us-east-1"), ("euw1", "eu-west-1"), ("aps1", "ap-south-1")] {
        providers.push_str(&format!("provider \"aws\" {{\n  alias  = \"{alias}\"\n  region = \"{region}\"\n}}\n\n"));
    }
    let mut files = vec![("providers.tf".to_string(), providers)];
    for i in 1..=10 {
        let mut s = String::new();
        for a in ["use1", "euw1", "aps1"] {
            s.push_str(&format!(
                "resource \"aws_s3_bucket\" \"logs{i}_{a}\" {{\n  provider = aws.{a}\n  bucket   = \"logs-{i}-{a}\"\n}}\n\n"
            ));
        }
        s.push_str(&format!("output \"logs{i}\" {{\n  value = aws_s3_bucket.logs{i}_use1.id\n}}\n"));
        files.push((format!("r{i:02}.tf"), s));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    trees::write(dir, &refs);
}

fn reset(work: &Path, template: &Path) {
    let _ = std::fs::remove_dir_all(work);
    trees::copy(template, work);
}

fn is_ours(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    foreach_ls::leftovers::is_leftover(name) || name == foreach_ls::journal::NAME
}

/// After a kill: each file old or new (`migrate` without journal: all old or all new), links kept, nothing else new.
/// Returns (files with the new text, bytes compared, whether a journal is there).
fn check_after_kill(case: &Case, now: &Tree, before: &Tree, after: &Tree, run: u64) -> (u64, u64, bool) {
    let (mut new, mut old, mut bytes) = (0, 0, 0);
    for (path, entry) in now {
        if is_ours(path) {
            continue;
        }
        let (b, a) = (before.get(path), after.get(path));
        match entry {
            Entry::File { bytes: got, .. } => {
                bytes += got.len() as u64;
                let is = |e: Option<&Entry>| matches!(e, Some(Entry::File { bytes: want, .. }) if want == got);
                if is(b) && is(a) {
                    continue;
                }
                if is(b) {
                    old += 1;
                } else if is(a) {
                    new += 1;
                } else {
                    panic!("{}: run {run}: {} is neither its old nor its new text", case.name, path.display());
                }
            }
            other => assert!(
                Some(other) == b && Some(other) == a,
                "{}: run {run}: {} changed kind: {other:?}",
                case.name,
                path.display()
            ),
        }
    }
    for path in before.keys() {
        assert!(now.contains_key(path), "{}: run {run}: {} is gone", case.name, path.display());
    }
    let journal = now.keys().any(|p| p.file_name().is_some_and(|n| n == foreach_ls::journal::NAME));
    if case.all_or_nothing && !journal {
        assert!(new == 0 || old == 0, "{}: run {run}: {new} files migrated and {old} not, and no journal", case.name);
    }
    (new, bytes, journal)
}

fn kill_test(case: Case, setup: fn(&Path)) {
    let base = tempfile::tempdir().unwrap();
    let template = base.path().join("template");
    setup(&template);
    let before = snapshot(&template);
    let work = base.path().join("work");

    // A complete run: the tree every run must end with, and how long it takes.
    reset(&work, &template);
    let started = Instant::now();
    let o = run(&work, case.args, case.env);
    let full = started.elapsed();
    assert_eq!(o.status.code(), Some(case.status), "{}", said(&o));
    let after = snapshot(&work);
    assert_ne!(after, before, "{}: a complete run changes files", case.name);
    assert!(leftovers(&work).is_empty());

    let long = std::env::var("FOREACH_LS_KILL_RUNS").ok().and_then(|v| v.parse::<u64>().ok());
    let runs = long.unwrap_or(KILL_RUNS);
    let budget = if long.is_some() { Duration::MAX } else { Duration::from_secs(KILL_SECONDS) };
    let seed = std::env::var("FOREACH_LS_KILL_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x36_0000_1ced_u64);
    let mut rng = Rng(seed ^ case.name.len() as u64);
    let mut window = full.as_micros() as u64 * 12 / 10 + 1;
    let mut fig = Figures::default();
    let start = Instant::now();
    while fig.runs < runs && (start.elapsed() < budget || fig.runs < MIN_RUNS) {
        let i = fig.runs;
        fig.runs += 1;
        reset(&work, &template);
        let mut child =
            trees::command(&work, case.args, case.env).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(Duration::from_micros(rng.next() % window));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            fig.kills += 1;
        } else {
            // Runs got faster than the first (warm caches, a machine less loaded): aim earlier.
            window = window * 9 / 10 + 1;
        }
        child.wait().unwrap();
        let (new, bytes, journal) = check_after_kill(&case, &snapshot(&work), &before, &after, i);
        fig.files_written += new;
        fig.bytes_compared += bytes;
        let left = leftovers(&work).len() as u64;

        // The next run cleans up and finishes.
        if journal {
            fig.journals += 1;
            let o = run(&work, &["check", "--no-color"], &[]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("`migrate --write` in . was interrupted"), "{}: run {i}: {}", case.name, said(&o));
            let undo = i % 2 == 1;
            let o = run(&work, &["migrate", if undo { "--undo" } else { "--finish" }], &[]);
            assert_eq!(o.status.code(), Some(0), "{}: run {i}: {}", case.name, said(&o));
            if undo {
                assert!(leftovers(&work).is_empty(), "{}: run {i}: {:?}", case.name, leftovers(&work));
                assert_eq!(snapshot(&work), before, "{}: run {i}: undone", case.name);
                fig.leftovers_removed += left;
                continue;
            }
        } else if !(case.all_or_nothing && snapshot(&work) == after) {
            // (A `migrate` that completed before the kill has nothing left to do, and would say so with status 1.)
            let o = run(&work, case.args, case.env);
            assert_eq!(o.status.code(), Some(case.status), "{}: run {i}: {}", case.name, said(&o));
        }
        assert!(leftovers(&work).is_empty(), "{}: run {i}: left {:?}", case.name, leftovers(&work));
        let now = snapshot(&work);
        assert!(
            now == after,
            "{}: run {i}: the run after the kill did not end with the complete run's tree",
            case.name
        );
        fig.leftovers_removed += left;
    }
    let line = format!(
        "kill {}: {} runs in {:.1} s (a complete run {:.0} ms), {} killed while running, {} files found rewritten \
         after a kill, {} bytes compared, {} temporary files left and removed by the next run, {} journals \
         finished or undone; nothing lost (seed {seed:#x})",
        case.name,
        fig.runs,
        start.elapsed().as_secs_f64(),
        full.as_secs_f64() * 1000.0,
        fig.kills,
        fig.files_written,
        fig.bytes_compared,
        fig.leftovers_removed,
        fig.journals
    );
    eprintln!("{line}");
    let dir = tools::target_dir().join("reliability");
    let _ = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(dir.join(format!("kill-{}.txt", case.name.replace(' ', "-"))), line + "\n"));
    assert!(fig.kills * 2 >= fig.runs, "{}: most kills came too late ({fig:?})", case.name);
}

#[test]
fn fmt_killed_at_random_moments_loses_nothing() {
    kill_test(
        Case { name: "fmt", args: &["fmt", "--recursive"], env: &[], status: 0, all_or_nothing: false },
        setup_fmt,
    );
}

#[test]
fn check_fix_killed_at_random_moments_loses_nothing() {
    kill_test(
        Case {
            name: "check --fix",
            args: &["check", "--fix", "--no-color"],
            env: &[],
            status: 0,
            all_or_nothing: false,
        },
        setup_fix,
    );
}

#[test]
fn migrate_killed_at_random_moments_loses_nothing() {
    kill_test(
        Case {
            name: "migrate",
            args: &["migrate", "--provider", "aws", "--resources", "--write"],
            env: &[("FOREACH_LS_TEST_WRITE_DELAY_MS", "2")],
            status: 0,
            all_or_nothing: true,
        },
        setup_migrate,
    );
}
