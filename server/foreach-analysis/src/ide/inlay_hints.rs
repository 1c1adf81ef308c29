//! Inlay hints: the evaluated instance keys after a provider block's `for_each`, and the keys a
//! `provider = aws.by_region[…]` reference resolves to (in the module's first instance).

use foreach_syntax::TextSize;

use crate::base::FileId;
use crate::db::{Db, Workspace};
use crate::providers::expand::Expansion;

use super::provider_info::{key_list, provider_info};
use super::{dir_of, source_file};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    /// Shown after this offset.
    pub offset: TextSize,
    pub label: String,
}

pub(crate) fn inlay_hints(db: &dyn Db, ws: Workspace, file: FileId) -> Vec<InlayHint> {
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    let Some(dir) = dir_of(db, ws, f) else { return Vec::new() };
    let Some(info) = provider_info(db, ws, dir) else { return Vec::new() };
    let mut out = Vec::new();
    for (p, e) in info.module.providers.iter().zip(&info.analysis.expansions) {
        let (Some(fe), Expansion::Keys(instances)) = (&p.for_each, e) else { continue };
        if fe.file != file {
            continue;
        }
        let keys: Vec<&str> = instances.iter().map(|i| i.key.as_str()).collect();
        out.push(InlayHint { offset: fe.range.end(), label: format!(" keys: {}", key_list(&keys, 6)) });
    }
    for (site, used) in info.refs.iter().zip(&info.analysis.uses) {
        if site.reference.file != file || site.reference.key.is_none() {
            continue;
        }
        let mut keys: Vec<&str> = used.keys.iter().filter_map(|k| k.key.as_deref()).collect();
        keys.sort();
        keys.dedup();
        if !keys.is_empty() {
            out.push(InlayHint { offset: site.reference.range.end(), label: format!(" → {}", key_list(&keys, 6)) });
        }
    }
    out.sort_by_key(|h| h.offset);
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    #[test]
    fn keys_after_for_each_and_references() {
        let text = r#"provider "aws" {
  alias    = "by_region"
  for_each = toset(["b", "a"])
  region   = each.key
}
resource "aws_s3_bucket" "x" {
  for_each = toset(["a", "b"])
  provider = aws.by_region[each.key]
}
"#;
        let f = Fixture::parse(text);
        let hints = f.host.analysis().inlay_hints(f.file_id("/ws/main.tf")).unwrap();
        let got: Vec<(String, String)> = hints
            .iter()
            .map(|h| (text[..usize::from(h.offset)].lines().last().unwrap().to_string(), h.label.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("  for_each = toset([\"b\", \"a\"])".to_string(), " keys: \"a\", \"b\"".to_string()),
                ("  provider = aws.by_region[each.key]".to_string(), " → \"a\", \"b\"".to_string()),
            ]
        );
    }
}
