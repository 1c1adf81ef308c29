//! The formatter on the tricky cases of `testdata/fmt/` (before/after pairs written by `terraform fmt`), and the
//! `foreach-ls fmt` command.

mod tools;

use foreach_syntax::FileKind;
use tools::repo;

#[test]
fn fixtures_format_as_terraform_fmt_does() {
    let dir = repo().join("testdata/fmt");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for before in entries {
        let name = before.file_name().unwrap().to_string_lossy().to_string();
        let Some((stem, ext)) = name.split_once(".before.") else { continue };
        let after = dir.join(format!("{stem}.after.{ext}"));
        let text = std::fs::read_to_string(&before).unwrap();
        let expected = std::fs::read_to_string(&after).unwrap();
        let kind = FileKind::from_file_name(&name).unwrap();
        let got = foreach_syntax::format::format(&text, kind).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, expected, "{name}");
        // Formatting is idempotent.
        assert_eq!(foreach_syntax::format::format(&got, kind).unwrap(), expected, "{name} formatted twice");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} fixtures");
}

fn fmt_command(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(tools::binary()).arg("fmt").args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const UGLY: &str = "a=1\nbb = 2\n";
const PRETTY: &str = "a  = 1\nbb = 2\n";

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), UGLY).unwrap();
    std::fs::write(dir.path().join("ok.tf"), PRETTY).unwrap();
    std::fs::write(dir.path().join("notes.txt"), UGLY).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/vars.tfvars"), UGLY).unwrap();
    dir
}

fn read(dir: &tempfile::TempDir, name: &str) -> String {
    std::fs::read_to_string(dir.path().join(name)).unwrap()
}

#[test]
fn fmt_rewrites_the_files_of_a_directory_and_lists_them() {
    let dir = workspace();
    let (code, stdout, stderr) = fmt_command(dir.path(), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "./main.tf");
    assert_eq!(read(&dir, "main.tf"), PRETTY);
    assert_eq!(read(&dir, "notes.txt"), UGLY, "not a configuration file");
    assert_eq!(read(&dir, "sub/vars.tfvars"), UGLY, "subdirectories only with --recursive");
    let (code, stdout, _) = fmt_command(dir.path(), &["--recursive"]);
    assert_eq!((code, stdout.trim()), (0, "./sub/vars.tfvars"));
    assert_eq!(read(&dir, "sub/vars.tfvars"), PRETTY);
}

#[test]
fn fmt_check_writes_nothing_and_exits_3() {
    let dir = workspace();
    let (code, stdout, _) = fmt_command(dir.path(), &["--check", "--recursive"]);
    assert_eq!(code, 3);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), ["./main.tf", "./sub/vars.tfvars"]);
    assert_eq!(read(&dir, "main.tf"), UGLY);
    let (code, stdout, _) = fmt_command(dir.path(), &["--check", "ok.tf"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn fmt_diff_prints_a_unified_diff() {
    let dir = workspace();
    let (code, stdout, _) = fmt_command(dir.path(), &["--diff", "--check", "main.tf"]);
    assert_eq!(code, 3);
    assert!(stdout.contains("--- a/main.tf\n+++ b/main.tf\n"), "{stdout}");
    assert!(stdout.contains("-a=1\n+a  = 1\n"), "{stdout}");
    assert_eq!(read(&dir, "main.tf"), UGLY);
}

#[test]
fn fmt_leaves_a_file_with_a_syntax_error_alone_and_names_it() {
    let dir = workspace();
    std::fs::write(dir.path().join("broken.tf"), "a = [\n").unwrap();
    let (code, stdout, stderr) = fmt_command(dir.path(), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("./broken.tf:1:"), "{stderr}");
    assert_eq!(read(&dir, "broken.tf"), "a = [\n");
    assert_eq!(stdout.trim(), "./main.tf", "the other files are still formatted");
    assert_eq!(read(&dir, "main.tf"), PRETTY);
}

#[test]
fn fmt_dash_formats_standard_input() {
    let mut child = std::process::Command::new(tools::binary())
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), UGLY.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), PRETTY);
}
