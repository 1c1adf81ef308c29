//! The commands that write files (`fmt`, `check --fix`, `migrate --write`) never lose data (issue 36): symbolic
//! links are written through and stay links, a target outside the repository is refused, a full disk or a read-only
//! file or directory leaves every file as it was (exit 2, naming the file and the reason), modes are kept, a file
//! changed between the read and the write is not overwritten, and a `migrate` stopped between its renames is found
//! by the next `check` or `migrate` and finished or undone. The crash tests are in `kill.rs`.

mod tools;
#[path = "support/trees.rs"]
mod trees;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use trees::{Entry, Tmpfs, command, leftovers, run, said, snapshot};

const UNFORMATTED: &str = "variable \"regions\" {\n  type = list(string)\n  default   = [\"a\"]\n}\n";
const FORMATTED: &str = "variable \"regions\" {\n  type    = list(string)\n  default = [\"a\"]\n}\n";

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).unwrap().file_type().is_symlink()
}

/// A repository (`.git`) whose roots share `shared/vars.tf` through links, as in the dev corpus.
fn linked_repo(shared: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    trees::write(
        dir.path(),
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("shared/vars.tf", shared),
            ("live/prod/vars.tf", "-> ../../shared/vars.tf"),
            ("live/dev/vars.tf", "-> ../../shared/vars.tf"),
            ("live/prod/main.tf", "output \"r\" {\n  value = var.regions\n}\n"),
            ("live/dev/main.tf", "output \"r\" {\n  value = var.regions\n}\n"),
        ],
    );
    dir
}

#[test]
fn fmt_formats_a_linked_file_in_its_target_once_and_keeps_the_links() {
    let repo = linked_repo(UNFORMATTED);
    let o = run(repo.path(), &["fmt", "live/prod", "live/dev"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "live/prod/vars.tf\n", "listed once: {}", said(&o));
    for root in ["prod", "dev"] {
        assert!(is_link(&repo.path().join(format!("live/{root}/vars.tf"))), "live/{root}/vars.tf is still a link");
    }
    assert_eq!(read(&repo.path().join("shared/vars.tf")), FORMATTED);
    assert!(leftovers(repo.path()).is_empty());

    // Recursively, with the target itself in the tree: still once.
    std::fs::write(repo.path().join("shared/vars.tf"), UNFORMATTED).unwrap();
    let o = run(repo.path(), &["fmt", "--recursive"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1, "{}", said(&o));
    assert_eq!(read(&repo.path().join("shared/vars.tf")), FORMATTED);
    assert!(is_link(&repo.path().join("live/prod/vars.tf")) && is_link(&repo.path().join("live/dev/vars.tf")));
}

#[test]
fn a_link_outside_the_repository_is_refused_and_nothing_is_written() {
    let outer = tempfile::tempdir().unwrap();
    trees::write(
        outer.path(),
        &[
            ("elsewhere/vars.tf", UNFORMATTED),
            ("repo/.git/HEAD", "ref: refs/heads/main\n"),
            ("repo/root/vars.tf", "-> ../../elsewhere/vars.tf"),
            ("repo/root/main.tf", "output \"r\" {\n  value = var.regions\n}\n"),
        ],
    );
    let before = snapshot(outer.path());
    let o = run(&outer.path().join("repo"), &["fmt", "root"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("root/vars.tf: not written: it links to") && err.contains("outside the repository"), "{err}");
    assert_eq!(snapshot(outer.path()), before);
}

/// The provider iteration RFC's removal trap in two roots that share their variables through a link: the fix edits
/// the shared declaration (the same edit for both roots) and each root's `for_each`.
#[test]
fn check_fix_writes_a_shared_linked_file_once_for_every_root() {
    let trap = tools::repo().join("testdata/cli/rfc-removal-trap");
    let main = read(&trap.join("main.tf"));
    let (vars_start, vars_end) =
        (main.find("variable \"aws_regions\"").unwrap(), main.find("provider \"aws\"").unwrap());
    let variables = &main[vars_start..vars_end];
    let rest = main[..vars_start].to_string() + &main[vars_end..];
    let tfvars = read(&trap.join("terraform.tfvars"));
    let repo = tempfile::tempdir().unwrap();
    trees::write(
        repo.path(),
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("shared/variables.tf", variables),
            ("live/a/variables.tf", "-> ../../shared/variables.tf"),
            ("live/b/variables.tf", "-> ../../shared/variables.tf"),
            ("live/a/main.tf", &rest),
            ("live/b/main.tf", &rest),
            ("live/a/terraform.tfvars", &tfvars),
            ("live/b/terraform.tfvars", &tfvars),
        ],
    );
    let o = run(repo.path(), &["check", "--fix", "--no-color", "live"], &[]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    for root in ["a", "b"] {
        assert!(
            is_link(&repo.path().join(format!("live/{root}/variables.tf"))),
            "live/{root}/variables.tf: not a link"
        );
    }
    assert!(err.contains("in live/a/variables.tf (also linked as live/b/variables.tf)"), "{err}");
    for root in ["a", "b"] {
        assert!(read(&repo.path().join(format!("live/{root}/main.tf"))).contains("if v.enabled"));
    }
    let shared = read(&repo.path().join("shared/variables.tf"));
    assert_eq!(shared.matches("enabled = optional(bool, true)").count(), 1, "the shared edit once:\n{shared}");
    assert!(leftovers(repo.path()).is_empty());
}

#[test]
fn migrate_writes_through_a_link() {
    let case = tools::repo().join("testdata/migrate/resources-regional");
    let repo = tempfile::tempdir().unwrap();
    trees::copy(&case.join("before"), &repo.path().join("module"));
    trees::write(repo.path(), &[(".git/HEAD", "ref: refs/heads/main\n")]);
    // `outputs.tf` lives elsewhere in the repository and is linked into the module.
    std::fs::create_dir_all(repo.path().join("shared")).unwrap();
    std::fs::rename(repo.path().join("module/outputs.tf"), repo.path().join("shared/outputs.tf")).unwrap();
    std::os::unix::fs::symlink("../shared/outputs.tf", repo.path().join("module/outputs.tf")).unwrap();
    let o = run(repo.path(), &["migrate", "module", "--provider", "aws", "--resources", "--write"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    assert!(is_link(&repo.path().join("module/outputs.tf")), "module/outputs.tf is no longer a link");
    assert!(String::from_utf8_lossy(&o.stderr).contains("module/outputs.tf is a symbolic link"), "{}", said(&o));
    assert_eq!(read(&repo.path().join("shared/outputs.tf")), read(&case.join("after/outputs.tf")));
    assert_eq!(read(&repo.path().join("module/main.tf")), read(&case.join("after/main.tf")));
    assert!(leftovers(repo.path()).is_empty());
    assert!(!repo.path().join("module/.foreach-ls-migrate.json").exists());
}

#[test]
fn a_read_only_file_is_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    trees::write(dir.path(), &[("a.tf", UNFORMATTED), ("b.tf", UNFORMATTED)]);
    std::fs::set_permissions(dir.path().join("a.tf"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let o = run(dir.path(), &["fmt"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a.tf: not written: the file is read-only"), "{}", said(&o));
    assert_eq!(read(&dir.path().join("a.tf")), UNFORMATTED);
    assert_eq!(read(&dir.path().join("b.tf")), FORMATTED, "the others are still formatted");
    assert_eq!(std::fs::metadata(dir.path().join("a.tf")).unwrap().permissions().mode() & 0o777, 0o444);

    // `migrate` writes all files or none.
    let case = tools::repo().join("testdata/migrate/resources-regional/before");
    let module = tempfile::tempdir().unwrap();
    trees::copy(&case, module.path());
    std::fs::set_permissions(module.path().join("outputs.tf"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = snapshot(module.path());
    let o = run(module.path(), &["migrate", "--provider", "aws", "--resources", "--write"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("outputs.tf: the file is read-only"), "{}", said(&o));
    assert_eq!(snapshot(module.path()), before);
}

#[test]
fn modes_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    trees::write(dir.path(), &[("a.tf", UNFORMATTED), ("b.tf", UNFORMATTED)]);
    std::fs::set_permissions(dir.path().join("a.tf"), std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(dir.path().join("b.tf"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = run(dir.path(), &["fmt"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let mode = |n: &str| std::fs::metadata(dir.path().join(n)).unwrap().permissions().mode() & 0o7777;
    assert_eq!((mode("a.tf"), mode("b.tf")), (0o600, 0o755));
    assert_eq!(read(&dir.path().join("a.tf")), FORMATTED);
}

/// A read-only directory: as root, a read-only mount (permissions do not stop root); otherwise mode 555.
#[test]
fn a_read_only_directory_leaves_every_file_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let case = tools::repo().join("testdata/migrate/resources-regional/before");
    let root = trees::is_root();
    let mount = if root {
        match Tmpfs::mount("1m") {
            Ok(m) => Some(m),
            Err(why) => return tools::skip("writes_read_only_directory", &why),
        }
    } else {
        None
    };
    let plain = tempfile::tempdir().unwrap();
    let dir: &Path = mount.as_ref().map_or(plain.path(), |m| m.path());
    trees::copy(&case, dir);
    trees::write(dir, &[("unformatted.tf", UNFORMATTED)]);
    let before = snapshot(dir);
    if let Some(m) = &mount {
        m.remount_read_only();
    } else {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let o = run(dir, &["fmt"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(err.contains("unformatted.tf: not written:"), "{err}");
    let o = run(dir, &["migrate", "--provider", "aws", "--resources", "--write"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nothing was changed"), "{}", said(&o));
    assert_eq!(snapshot(dir), before);
    if mount.is_none() {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// No space left (a small tmpfs, filled): the file is named with the reason, exit 2, and every file is as it was;
/// `migrate` with room for one temporary file but not two changes nothing.
#[test]
fn a_full_disk_leaves_every_file_as_it_was() {
    let disk = match Tmpfs::mount("256k") {
        Ok(m) => m,
        Err(why) => return tools::skip("writes_full_disk", &why),
    };
    let dir = disk.path().join("fmt");
    trees::write(&dir, &[("a.tf", UNFORMATTED)]);
    disk.fill_leaving(0);
    let before = snapshot(&dir);
    let o = run(&dir, &["fmt"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(err.contains("a.tf: not written:") && err.contains("No space left on device"), "{err}");
    assert_eq!(snapshot(&dir), before, "no temporary file left, nothing changed");

    std::fs::remove_file(disk.path().join("filler")).unwrap();
    let module = disk.path().join("module");
    trees::copy(&tools::repo().join("testdata/migrate/resources-regional/before"), &module);
    let before = snapshot(&module);
    disk.fill_leaving(4096);
    let o = run(&module, &["migrate", "--provider", "aws", "--resources", "--write"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(err.contains("nothing was changed") && err.contains("No space left on device"), "{err}");
    assert_eq!(snapshot(&module), before);
}

/// Runs `args` with a file holding the pause marker; while the command waits before its last check, the test
/// edits the file; the edit must survive, and the command must say the file changed.
fn edited_while_writing(dir: &Path, file: &str, args: &[&str]) -> (std::process::Output, String) {
    let path = dir.join(file);
    let flag = dir.join(format!("{file}.paused"));
    let child = command(dir, args, &[]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !flag.exists() {
        assert!(Instant::now() < deadline, "the command never paused before writing {file}");
        std::thread::sleep(Duration::from_millis(5));
    }
    let edited = read(&path) + "# saved by an editor meanwhile\n";
    std::fs::write(&path, &edited).unwrap();
    std::fs::remove_file(&flag).unwrap();
    (child.wait_with_output().unwrap(), edited)
}

#[test]
fn a_file_changed_between_the_read_and_the_write_is_not_overwritten() {
    let marker = foreach_ls::write_hooks::PAUSE_MARKER;
    let dir = tempfile::tempdir().unwrap();
    trees::write(dir.path(), &[("main.tf", &format!("# {marker}\n{UNFORMATTED}"))]);
    let (o, edited) = edited_while_writing(dir.path(), "main.tf", &["fmt"]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("main.tf: not written: the file changed on disk"),
        "{}",
        said(&o)
    );
    assert_eq!(read(&dir.path().join("main.tf")), edited);
    assert!(leftovers(dir.path()).is_empty());

    let dir = tempfile::tempdir().unwrap();
    trees::copy(&tools::repo().join("testdata/cli/rfc-removal-trap"), dir.path());
    let main = read(&dir.path().join("main.tf"));
    std::fs::write(dir.path().join("main.tf"), format!("# {marker}\n{main}")).unwrap();
    let (o, edited) = edited_while_writing(dir.path(), "main.tf", &["check", "--fix", "--no-color"]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not fixing main.tf: not written: the file changed on disk"),
        "{}",
        said(&o)
    );
    assert_eq!(read(&dir.path().join("main.tf")), edited);
}

/// A `migrate --write` killed between its two renames (the test pauses it there): `check` and `migrate` say which
/// files were changed and how to go on; `--finish` and `--undo` end it.
#[test]
fn an_interrupted_migration_is_found_then_finished_or_undone() {
    let case = tools::repo().join("testdata/migrate/resources-regional");
    let marker = foreach_ls::write_hooks::PAUSE_MARKER;
    for undo in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let module = dir.path().join("module");
        trees::copy(&case.join("before"), &module);
        // The second file renamed (`outputs.tf`, after `main.tf`) holds the marker, in a comment migrate keeps.
        let outputs = format!("# {marker}\n{}", read(&module.join("outputs.tf")));
        std::fs::write(module.join("outputs.tf"), &outputs).unwrap();
        let before = snapshot(&module);
        let mut child = command(dir.path(), &["migrate", "module", "--provider", "aws", "--resources", "--write"], &[])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let flag = module.join("outputs.tf.paused");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !flag.exists() {
            assert!(Instant::now() < deadline, "migrate never paused");
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_file(&flag).unwrap();
        assert_eq!(read(&module.join("main.tf")), read(&case.join("after/main.tf")), "main.tf was renamed");
        assert_eq!(read(&module.join("outputs.tf")), outputs, "outputs.tf was not");

        let o = run(dir.path(), &["check", "module", "--no-color"], &[]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{}", said(&o));
        assert!(err.contains("a `migrate --write` in module was interrupted"), "{err}");
        assert!(err.contains("migrated: module/main.tf") && err.contains("not migrated: module/outputs.tf"), "{err}");
        assert!(err.contains("foreach-ls migrate module --finish") && err.contains("--undo"), "{err}");
        let o = run(dir.path(), &["migrate", "module", "--provider", "aws", "--resources", "--write"], &[]);
        assert_eq!(o.status.code(), Some(2), "refused while half migrated: {}", said(&o));
        assert_eq!(read(&module.join("outputs.tf")), outputs);

        let flag = if undo { "--undo" } else { "--finish" };
        let o = run(dir.path(), &["migrate", "module", flag], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", said(&o));
        if undo {
            assert_eq!(snapshot(&module), before);
        } else {
            assert_eq!(read(&module.join("main.tf")), read(&case.join("after/main.tf")));
            assert_eq!(
                read(&module.join("outputs.tf")),
                format!("# {marker}\n{}", read(&case.join("after/outputs.tf")))
            );
        }
        assert!(leftovers(&module).is_empty(), "{:?}", leftovers(&module));
        assert!(!module.join(".foreach-ls-migrate.json").exists());
        let o = run(dir.path(), &["check", "module", "--no-color"], &[]);
        assert!(o.status.code() != Some(2) && o.stderr.is_empty(), "{}", said(&o));
    }
}

/// The dev corpus's symlinked-variables layout (`common-variables.tf` linked into every root of
/// binbashar/le-tf-infra-aws): formatted, fixed and migrated on a copy, every link is still a link to the same
/// place, and every linked file's target is the only file that changed behind it.
#[test]
fn the_symlinked_variables_layout_of_the_dev_corpus_keeps_its_links() {
    let corpus = match std::env::var_os("FOREACH_LS_DEV_CORPUS") {
        Some(dir) => std::path::PathBuf::from(dir),
        None => {
            let archive = tools::repo().join("../shared/corpus/dev-corpus.tar.xz");
            if !archive.is_file() {
                return tools::skip(
                    "writes_corpus_links",
                    "../shared/corpus/dev-corpus.tar.xz is not beside the repository",
                );
            }
            match tools::unpack_corpus(&archive, &tools::target_dir().join("writes-corpus/source")) {
                Ok(dir) => dir,
                Err(why) => return tools::skip("writes_corpus_links", &format!("cannot unpack the dev corpus: {why}")),
            }
        }
    };
    let repo = tempfile::tempdir().unwrap();
    trees::copy(&corpus.join("binbashar+le-tf-infra-aws"), repo.path());
    trees::write(repo.path(), &[(".git/HEAD", "ref: refs/heads/main\n")]);
    let links = |t: &trees::Tree| -> Vec<(std::path::PathBuf, std::path::PathBuf)> {
        t.iter()
            .filter_map(|(p, e)| match e {
                Entry::Link(to) => Some((p.clone(), to.clone())),
                _ => None,
            })
            .collect()
    };
    let before = snapshot(repo.path());
    let linked = links(&before);
    assert!(linked.len() >= 150, "the layout has {} links", linked.len());
    // The shared file is unformatted, so that formatting it goes through every link.
    let shared = repo.path().join("config/common-variables.tf");
    std::fs::write(&shared, read(&shared).replacen(" = ", "     = ", 1)).unwrap();

    let o = run(repo.path(), &["fmt", "--recursive"], &[]);
    assert!(o.status.code() == Some(0) || o.status.code() == Some(2), "{}", said(&o));
    let o = run(repo.path(), &["check", "--fix", "--format", "json"], &[]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", said(&o));
    // Roots that have aliased providers and a linked `common-variables.tf`.
    for module in
        ["shared/us-east-1/base-network", "network/us-east-2/transit-gateway", "shared/us-east-1/base-tf-backend"]
    {
        let o = run(repo.path(), &["migrate", module, "--provider", "aws", "--write"], &[]);
        assert_eq!(o.status.code(), Some(0), "{}", said(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains("migrated "), "{}", said(&o));
    }
    let after = snapshot(repo.path());
    assert_eq!(links(&after), linked, "every link is still a link to the same place");
    assert!(leftovers(repo.path()).is_empty());
    let o = run(repo.path(), &["fmt", "--check", "config/common-variables.tf"], &[]);
    assert_eq!(o.status.code(), Some(0), "the shared file was formatted through its links: {}", said(&o));
    let changed = after.iter().filter(|(p, e)| before.get(*p) != Some(e)).count();
    eprintln!("{} links kept; {changed} files changed by fmt, check --fix and migrate", linked.len());
}
