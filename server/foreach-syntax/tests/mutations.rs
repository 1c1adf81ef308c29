//! Every one-character edit of a realistic file (what an editor sends while someone types): parsing never panics,
//! reports an error exactly when hcl-edit rejects the text, and every error range is a valid single-line range.

use foreach_syntax::{FileKind, LineIndex, parse};

const SAMPLE: &str = r#"provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
  region   = each.value
}

locals {
  tags = { Name = "x", Env = var.env } # trailing
  names = [for r in var.regions : upper(r) if r != ""]
  doc = <<-EOT
    region ${var.regions[0]} %{ if var.env == "prod" ~}prod%{ endif }
  EOT
}

resource "aws_s3_bucket" "b" {
  for_each = var.regions
  provider = aws.by_region[each.key]
  bucket   = "logs-${each.key}"
  /* block
     comment */
  dynamic "rule" {
    for_each = { for k, v in var.rules : k => v... }
    content {
      id = rule.key
    }
  }
}
"#;

const INSERTS: &[&str] = &["{", "}", "[", "]", "(", ")", "\"", "\n", "=", "<<EOT\n", "${", "#", "/*", "é"];

fn check(text: &str) {
    let p = parse(text, FileKind::Tf);
    let valid = hcl_edit::parser::parse_body(text).is_ok();
    assert_eq!(p.errors.is_empty(), valid, "{text:?}\n{:?}", p.errors);
    let index = LineIndex::new(text);
    for e in &p.errors {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        assert!(end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end), "{e:?}");
        assert!(!text[start..end].contains('\n'), "multi-line error range {e:?} in {text:?}");
        let token = &text[start..end];
        let is_name = token.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        assert!(token.chars().count() <= 1 || is_name, "error range longer than one token: {e:?}");
        let _ = index.line_col(e.range.start(), foreach_syntax::ColumnEncoding::Utf16);
    }
}

#[test]
fn deletions() {
    for (i, c) in SAMPLE.char_indices() {
        check(&format!("{}{}", &SAMPLE[..i], &SAMPLE[i + c.len_utf8()..]));
    }
}

#[test]
fn insertions() {
    for (i, _) in SAMPLE.char_indices().step_by(3) {
        for insert in INSERTS {
            check(&format!("{}{insert}{}", &SAMPLE[..i], &SAMPLE[i..]));
        }
    }
}

const JSON_SAMPLE: &str = r#"{
  "//": "generated",
  "provider": {"aws": [{"alias": "by_region", "for_each": "${toset(var.regions)}", "region": "${each.value}"}]},
  "resource": {"aws_s3_bucket": {"b": {"provider": "aws.by_region[each.key]", "bucket": "logs-\u00e9-${each.key}",
    "depends_on": ["aws_s3_bucket.a"], "lifecycle": {"ignore_changes": ["tags"]}}}},
  "variable": {"regions": {"type": "set(string)", "default": ["us-east-1", 2, true, null, {"k": -1.5e3}]}}
}"#;

fn check_json(text: &str) {
    let p = parse(text, FileKind::TfJson);
    for e in &p.errors {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        assert!(end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end), "{e:?}");
        assert!(!text[start..end].contains('\n'), "multi-line error range {e:?} in {text:?}");
    }
}

#[test]
fn json_deletions_and_insertions() {
    assert!(parse(JSON_SAMPLE, FileKind::TfJson).errors.is_empty());
    for (i, c) in JSON_SAMPLE.char_indices() {
        check_json(&format!("{}{}", &JSON_SAMPLE[..i], &JSON_SAMPLE[i + c.len_utf8()..]));
        for insert in ["{", "]", "\"", "\\", ",", "${", "é"] {
            check_json(&format!("{}{insert}{}", &JSON_SAMPLE[..i], &JSON_SAMPLE[i..]));
        }
    }
}
