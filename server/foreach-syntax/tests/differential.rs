//! Differential test against Terraform's own parser: for every snippet, we accept it (no syntax error) exactly
//! when `terraform fmt -` does. The expected verdict is also written down next to each snippet, so the test keeps
//! its meaning on machines without `terraform`; with `terraform` installed, the written verdicts are themselves
//! checked against it.

use std::io::Write;
use std::process::{Command, Stdio};

use foreach_syntax::{FileKind, parse};

const ACCEPT: bool = true;
const REJECT: bool = false;

/// (name, snippet, Terraform's verdict)
const CORPUS: &[(&str, &str, bool)] = &[
    // The differences hcl-edit 0.10 has from Terraform, fixed by the fork or by the wrapper.
    ("bom", "\u{feff}a = 1\n", ACCEPT),
    ("bom then block", "\u{feff}locals {\n  a = 1\n}\n", ACCEPT),
    ("duplicate object key", "a = { x = 1, x = 2 }\n", ACCEPT),
    ("duplicate object key multiline", "a = {\n  x = 1\n  y = 2\n  x = 3\n}\n", ACCEPT),
    ("for object conditional newline", "a = { for k, v in x : k => v ? 1 :\n 2 }\n", ACCEPT),
    ("for object key newline", "a = { for k, v in x : k\n => v }\n", ACCEPT),
    ("for object collection newline", "a = {\n for k in\n x : k => 1 }\n", ACCEPT),
    ("for object cond newline", "a = {for k, v in x : k => v if v ?\n true : false}\n", ACCEPT),
    ("for tuple conditional newline", "a = [for k in x : k ?\n 1 : 2]\n", ACCEPT),
    ("for tuple cond newline", "a = [for k, v in x : v if v ?\n true : false]\n", ACCEPT),
    ("func call then newline conditional", "a = f() ?\n 1 : 2\n", REJECT),
    ("func call then newline and", "a = f() &&\n true\n", REJECT),
    ("tuple then newline conditional", "a = [1] ?\n 1 : 2\n", REJECT),
    ("for object then newline conditional", "a = {for k in x : k => k} ?\n 1 : 2\n", REJECT),
    ("object value func newline conditional", "a = { b = f() ?\n 1 : 2 }\n", REJECT),
    ("object value newline after operator", "a = { b = 1 +\n 2 }\n", REJECT),
    ("func call conditional same line", "a = f() ? 1 : 2\n", ACCEPT),
    ("nested call newline inside", "a = f(g(1,\n 2) ? 3 : 4)\n", ACCEPT),
    // Newlines inside brackets.
    ("paren newline", "a = (1 +\n 2)\n", ACCEPT),
    ("call args newline", "a = f(1,\n 2 +\n 3)\n", ACCEPT),
    ("index newline", "a = x[\n 1\n ]\n", ACCEPT),
    ("interpolation newline", "a = \"${1 +\n 2}\"\n", ACCEPT),
    ("tuple newlines", "a = [\n  1,\n  2,\n]\n", ACCEPT),
    ("newline after operator at top level", "a = 1 +\n 2\n", REJECT),
    ("newline before operator at top level", "a = 1\n + 2\n", REJECT),
    // Structure.
    ("empty", "", ACCEPT),
    ("only comments", "# a\n// b\n/* c\n d */\n", ACCEPT),
    ("block with labels", "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\"\n}\n", ACCEPT),
    ("block ident labels", "resource aws_s3_bucket b {\n}\n", ACCEPT),
    ("one line block", "locals { a = 1 }\n", ACCEPT),
    ("one line block two attributes", "locals { a = 1, b = 2 }\n", REJECT),
    ("one line block nested block", "a { b {} }\n", REJECT),
    ("empty one line block", "terraform {}\n", ACCEPT),
    ("nested blocks", "a {\n  b {\n    c = 1\n  }\n}\n", ACCEPT),
    ("duplicate attribute", "a = 1\na = 2\n", REJECT),
    ("duplicate attribute in block", "b {\n  a = 1\n  a = 2\n}\n", REJECT),
    ("same attribute in two blocks", "b {\n  a = 1\n}\nb {\n  a = 2\n}\n", ACCEPT),
    ("unclosed block", "a {\n  b = 1\n", REJECT),
    ("extra closing brace", "a {\n}\n}\n", REJECT),
    ("text after block", "a {\n} b\n", REJECT),
    ("missing value", "a =\n", REJECT),
    ("garbage", "this is not hcl\n", REJECT),
    ("two attributes one line", "a = 1 b = 2\n", REJECT),
    ("no final newline", "a = 1", ACCEPT),
    ("crlf", "a = 1\r\nb {\r\n  c = [1,\r\n 2]\r\n}\r\n", ACCEPT),
    ("tabs and odd spacing", "a\t=\t1\nb   {\n\t\tc =   \"x\"   # trailing\n}\n", ACCEPT),
    ("comment after block brace", "a { # c\n  b = 1\n}\n", ACCEPT),
    // Expressions.
    ("operators", "a = !b && c || d == 1 + 2 * 3 % 4 - 5 / 6 >= 7\n", ACCEPT),
    ("negative number", "a = -1.5e3\n", ACCEPT),
    ("splats", "a = x[*].y.*.z\n", ACCEPT),
    ("legacy index", "a = x.0.y\n", ACCEPT),
    ("namespaced function", "a = provider::aws::arn_parse(\"x\")\n", ACCEPT),
    ("expansion", "a = max(x...)\n", ACCEPT),
    ("grouping", "a = {for v in x : v.k => v...}\n", ACCEPT),
    ("nested for", "a = [for x in y : [for z in x : z if z != null]]\n", ACCEPT),
    ("object colon", "a = { \"k\": 1, (var.x) = 2 }\n", ACCEPT),
    ("unclosed tuple", "a = [1, 2\n", REJECT),
    ("unclosed paren", "a = (1\n", REJECT),
    ("bad token", "a = 1 @ 2\n", REJECT),
    ("half typed traversal", "a = aws.\n", REJECT),
    ("half typed index", "a = aws.by_region[\n", REJECT),
    ("conditional missing else", "a = b ? 1\n", REJECT),
    // Strings and templates.
    ("escapes", "a = \"\\n\\t\\\"\\\\\\u00e9\\U0001F600\"\n", ACCEPT),
    ("bad escape", "a = \"\\q\"\n", REJECT),
    ("escaped markers", "a = \"$${x} %%{y}\"\n", ACCEPT),
    ("template directives", "a = \"%{ if x }y%{ else }z%{ endif }\"\n", ACCEPT),
    ("template for", "a = \"%{ for k, v in m ~}${k}=${v}%{~ endfor }\"\n", ACCEPT),
    ("unterminated string", "a = \"abc\n", REJECT),
    ("unterminated interpolation", "a = \"${x\"\n", REJECT),
    ("unclosed if directive", "a = \"%{ if x }y\"\n", REJECT),
    ("heredoc", "a = <<EOT\nhello ${name}\nEOT\n", ACCEPT),
    ("indented heredoc", "a = <<-EOT\n    hello\n      world\n    EOT\n", ACCEPT),
    ("heredoc crlf", "a = <<EOT\r\nx\r\nEOT\r\n", ACCEPT),
    ("unterminated heredoc", "a = <<EOT\nhello\n", REJECT),
    ("heredoc in tuple", "a = [<<EOT\nx\nEOT\n, 1]\n", ACCEPT),
];

fn terraform_accepts(snippet: &str) -> Option<bool> {
    let mut child = Command::new("terraform")
        .args(["fmt", "-no-color", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(snippet.as_bytes()).ok()?;
    Some(child.wait().ok()?.success())
}

#[test]
fn corpus_is_big_enough() {
    assert!(CORPUS.len() >= 60, "{}", CORPUS.len());
}

#[test]
fn we_agree_with_the_written_verdicts() {
    let mut disagreements = Vec::new();
    for &(name, snippet, expected) in CORPUS {
        let parse = parse(snippet, FileKind::Tf);
        if parse.errors.is_empty() != expected {
            disagreements.push(format!("{name}: expected accept={expected}, got errors {:?}", parse.errors));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn written_verdicts_agree_with_terraform() {
    if terraform_accepts("a = 1\n").is_none() {
        println!("skipped: `terraform` is not installed (the written verdicts are still checked)");
        return;
    }
    let mut disagreements = Vec::new();
    for &(name, snippet, expected) in CORPUS {
        let Some(accepts) = terraform_accepts(snippet) else { continue };
        if accepts != expected {
            disagreements.push(format!("{name}: written verdict accept={expected}, terraform accept={accepts}"));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
