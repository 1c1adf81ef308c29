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
