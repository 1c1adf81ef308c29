use super::format;
use crate::FileKind;

fn fmt(text: &str) -> String {
    format(text, FileKind::Tf).unwrap()
}

#[test]
fn aligns_equals_and_indents() {
    assert_eq!(fmt("a=1\nbbb = 2\nc {\nd=[\n1,\n2]\n}\n"), "a   = 1\nbbb = 2\nc {\n  d = [\n    1,\n  2]\n}\n");
}

#[test]
fn rewrites_labels_interpolations_and_types() {
    assert_eq!(fmt("resource foo \"b\" {\n  x = \"${var.y}\"\n}\n"), "resource \"foo\" \"b\" {\n  x = var.y\n}\n");
    assert_eq!(fmt("variable \"v\" {\n  type = \"list\"\n}\n"), "variable \"v\" {\n  type = list(string)\n}\n");
}

#[test]
fn keeps_heredocs_and_refuses_broken_files() {
    let heredoc = "a = <<EOT\n   x  =  1\n  EOT\n";
    assert_eq!(fmt(heredoc), heredoc);
    assert!(format("a = [\n", FileKind::Tf).is_err());
    // Terraform rejects a file ending right after a heredoc's closing marker; hcl-edit alone would accept it.
    assert!(format("a = <<EOT\nx\nEOT", FileKind::Tf).is_err());
}

fn apply(text: &str, edits: &[super::Edit]) -> String {
    let mut out = text.to_owned();
    for e in edits.iter().rev() {
        out.replace_range(usize::from(e.range.start())..usize::from(e.range.end()), &e.text);
    }
    out
}

#[test]
fn edits_are_small_and_give_the_formatted_text() {
    let text = "a=1\nbb = 2\n\nc {\nx=[\n1]\n}\n";
    let edits = super::edits(text, FileKind::Tf).unwrap();
    assert_eq!(apply(text, &edits), fmt(text));
    // One per changed line, only the bytes that change: `a=1` → `a  = 1` replaces the `=`.
    assert_eq!(edits.len(), 3, "{edits:?}");
    assert_eq!((edits[0].range, edits[0].text.as_str()), (crate::TextRange::new(1.into(), 2.into()), "  = "));
    let unwrapped = "a = \"${\nx\n}\"\n";
    assert_eq!(apply(unwrapped, &super::edits(unwrapped, FileKind::Tf).unwrap()), "a = x\n");
}

#[test]
fn range_edits_cover_the_whole_items_the_range_touches() {
    let text = "a=1\n\nb {\nx=1\ny=2\n}\n\nc=3\n";
    // A range inside `b`'s body formats all of `b` and nothing else.
    let at = text.find("y=2").unwrap() as u32;
    let range = crate::TextRange::new(at.into(), (at + 1).into());
    let edits = super::range_edits(text, FileKind::Tf, range).unwrap();
    assert_eq!(apply(text, &edits), "a=1\n\nb {\n  x = 1\n  y = 2\n}\n\nc=3\n");
}

#[test]
fn never_panics_and_is_idempotent_on_every_one_character_deletion() {
    let sample = "resource aws_x \"y\" { # c\n  a = \"${x}\"\n  b={for k,v in m: k=>v...}\n  c = <<-EOT\n  t ${1} %{if 1}x%{endif}\n  EOT\n  d = -1 * f(a...) // e\n  /* f */ g = { h = \"$${i}\\\" \" }\n}\nvariable v { type = \"list\" }\n";
    let mut cut = 0;
    for (at, c) in sample.char_indices() {
        let text = format!("{}{}", &sample[..at], &sample[at + c.len_utf8()..]);
        if let Ok(once) = format(&text, FileKind::Tf) {
            cut += 1;
            assert_eq!(format(&once, FileKind::Tf).as_ref(), Ok(&once), "after deleting byte {at}:\n{text}");
        }
    }
    assert!(cut > 10);
}

#[test]
fn finds_comments_but_not_hashes_in_strings_or_heredocs() {
    let text = "\u{feff}# one\na = \"#no\" // two\nb = <<EOT\n# no\nEOT\n/* three\n*/ c = 1\n";
    let found: Vec<&str> =
        super::comments(text).into_iter().map(|r| &text[std::ops::Range::<usize>::from(r)]).collect();
    assert_eq!(found, ["# one\n", "// two\n", "/* three\n*/"]);
}
