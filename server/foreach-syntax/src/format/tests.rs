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
}
