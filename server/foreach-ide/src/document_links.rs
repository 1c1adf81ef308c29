//! Document links on module `source` strings: a local path links to the module directory's `main.tf` (or its
//! first configuration file by name); a registry address links to the module's registry page.
//!
//! Registry pages: a source without a host (`ns/name/provider`) is resolved by OpenTofu on `registry.opentofu.org`,
//! whose human-readable pages are on `search.opentofu.org` (`/module/<ns>/<name>/<provider>`, the newest version;
//! a version is `/v1.2.3`, and `/latest` is a provider page's form, not a module's); an explicit
//! `registry.terraform.io/...` source links to that registry's page (`/modules/<ns>/<name>/<provider>`). Other hosts
//! have no known page layout and get no link. The forms were checked against links published by module authors
//! (README badges) in 2026-11.

use foreach_syntax::TextRange;

use foreach_analysis::db::{Db, Workspace, dir_index, parse};
use foreach_analysis::paths::{is_local_source, join_normalized, parent};

use super::source_file;

/// Where a link goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A loaded file, by absolute path.
    File(String),
    Url(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLink {
    /// The string's content, without the quotes.
    pub range: TextRange,
    pub target: LinkTarget,
}

pub(crate) fn document_links(db: &dyn Db, ws: Workspace, file: foreach_analysis::base::FileId) -> Vec<DocumentLink> {
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    let dir = parent(f.path(db)).to_string();
    let parsed = parse(db, f);
    let dirs = dir_index(db, ws);
    let mut out = Vec::new();
    for b in parsed.body.blocks_named("module") {
        let Some(attr) = b.body.attribute("source") else { continue };
        let Some(source) = attr.value.as_string_literal() else { continue };
        // The content between the quotes (a plain literal has exactly one part).
        let range = match &attr.value.kind {
            foreach_syntax::ast::ExprKind::Template(t) => match t.parts.first() {
                Some(foreach_syntax::ast::TemplatePart::Literal { range, .. }) => *range,
                _ => continue,
            },
            _ => continue,
        };
        let target = if is_local_source(&source) {
            let target_dir = join_normalized(&dir, &source);
            let Some(d) = dirs.get(&target_dir) else { continue };
            let mut names: Vec<&str> =
                d.files(db).iter().map(|f| &**f.path(db)).filter(|p| p.ends_with(".tf")).collect();
            names.sort();
            let main = names.iter().find(|p| p.ends_with("/main.tf")).or(names.first());
            let Some(main) = main else { continue };
            LinkTarget::File((*main).to_string())
        } else {
            let Some(url) = registry_url(&source) else { continue };
            LinkTarget::Url(url)
        };
        out.push(DocumentLink { range, target });
    }
    out
}

/// The registry page of a module registry address (`ns/name/provider`, optionally with a host and a `//subdir`).
pub fn registry_url(source: &str) -> Option<String> {
    let address = source.split("//").next()?;
    let parts: Vec<&str> = address.split('/').collect();
    let valid = |s: &&str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let (host, rest) = match parts.as_slice() {
        [ns, name, provider] => (None, [*ns, *name, *provider]),
        [host, ns, name, provider] if host.contains('.') => (Some(host.to_ascii_lowercase()), [*ns, *name, *provider]),
        _ => return None,
    };
    if !rest.iter().all(valid) {
        return None;
    }
    let [ns, name, provider] = rest;
    match host.as_deref() {
        None | Some("registry.opentofu.org") => {
            Some(format!("https://search.opentofu.org/module/{ns}/{name}/{provider}"))
        }
        Some("registry.terraform.io") => Some(format!("https://registry.terraform.io/modules/{ns}/{name}/{provider}")),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::registry_url;

    #[test]
    fn registry_addresses() {
        assert_eq!(
            registry_url("terraform-aws-modules/vpc/aws").as_deref(),
            Some("https://search.opentofu.org/module/terraform-aws-modules/vpc/aws")
        );
        assert_eq!(
            registry_url("registry.terraform.io/hashicorp/consul/aws//modules/x").as_deref(),
            Some("https://registry.terraform.io/modules/hashicorp/consul/aws")
        );
        assert_eq!(registry_url("git::https://example.com/x.git"), None);
        assert_eq!(registry_url("example.com/a/b/c"), None);
        assert_eq!(registry_url("a/b"), None);
    }
}
