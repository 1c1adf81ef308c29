//! Every diagnostic code has exactly one page in `docs/diagnostics/`, whose heading and default severity match the
//! registry, and the index `docs/diagnostics/README.md` is generated from the registry (`UPDATE_DOCS=1` rewrites
//! it). The pages' examples are executed by the fixture runner of the `foreach-ls` package.

use std::path::PathBuf;

use foreach_analysis::Code;

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics")
}

#[test]
fn every_code_has_a_matching_page_and_every_page_a_code() {
    for code in Code::ALL {
        let path = docs_dir().join(format!("{}.md", code.as_str()));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("missing {}", path.display()));
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(format!("# {}", code.as_str()).as_str()), "{}", path.display());
        let severity = format!("**Default severity:** {}", code.default_severity().as_str());
        assert!(text.contains(&severity), "{} should say `{severity}`", path.display());
    }
    for entry in std::fs::read_dir(docs_dir()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name == "README.md" {
            continue;
        }
        let code = name.strip_suffix(".md").expect("only markdown pages");
        assert!(Code::from_name(code).is_some(), "docs/diagnostics/{name} documents no registered code");
    }
}

fn index() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n<!-- Generated from the code registry (server/foreach-base/src/diagnostics.rs) by \
         `UPDATE_DOCS=1 cargo test -p foreach-analysis --test docs`. Do not edit. -->\n\n\
         | code | default severity | summary |\n| --- | --- | --- |\n",
    );
    let mut codes: Vec<Code> = Code::ALL.to_vec();
    codes.sort_by_key(|c| c.as_str());
    for c in codes {
        out.push_str(&format!(
            "| [`{0}`]({0}.md) | {1} | {2} |\n",
            c.as_str(),
            c.default_severity().as_str(),
            c.summary()
        ));
    }
    out
}

#[test]
fn index_is_fresh() {
    let path = docs_dir().join("README.md");
    let want = index();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/diagnostics/README.md is stale: run `UPDATE_DOCS=1 cargo test -p foreach-analysis --test docs`"
    );
}
