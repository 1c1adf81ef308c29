//! Hover: what a reference evaluates to.
//!
//! On `var.x` and `local.y` it shows the statically evaluated value in every instance of the module (a module
//! called twice can have two values), or why the value is unknown. Short Markdown; no LSP types.

use foreach_syntax::TextRange;

use crate::db::{Db, Workspace, module, parse};
use crate::eval::Value;
use crate::eval::render::console;
use crate::module_eval::tree_values;
use crate::tree::module_tree;

use super::cursor::reference_at;
use super::{FilePosition, dir_of, source_file};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    /// What the hover is about (the reference), for the editor to highlight.
    pub range: TextRange,
    pub markdown: String,
}

/// At most this many module instances are listed; the rest are counted.
const MAX_INSTANCES: usize = 5;

pub(crate) fn hover(db: &dyn Db, ws: Workspace, pos: FilePosition) -> Option<HoverResult> {
    let file = source_file(db, ws, pos.file)?;
    let parsed = parse(db, file);
    let at = reference_at(&parsed.body, pos.offset)?;
    let r = &at.reference;
    let name = r.attr(0)?;
    let kind = match r.root.as_str() {
        "var" => Kind::Variable,
        "local" => Kind::Local,
        _ => return None,
    };
    let dir = dir_of(db, ws, file)?;
    let m = module(db, dir);
    let declared = match kind {
        Kind::Variable => m.variable(name).is_some(),
        Kind::Local => m.local(name).is_some(),
    };
    let title = format!("{}.{name}", r.root);
    if !declared {
        return Some(HoverResult { range: r.range, markdown: format!("`{title}` is not declared in this module") });
    }
    let tree = module_tree(db, ws);
    let values = tree_values(db, ws);
    let mut shown: Vec<(String, Value)> = Vec::new();
    for (index, node) in tree.nodes.iter().enumerate() {
        if node.dir != dir {
            continue;
        }
        let Some(instance) = values.instances.get(index) else { continue };
        let value = match kind {
            Kind::Variable => instance.variable(name),
            Kind::Local => instance.local(name),
        };
        if let Some(v) = value {
            shown.push((node.address(), v.clone()));
        }
    }
    let mut md = format!("```hcl\n{title}\n```\n");
    match shown.len() {
        0 => md.push_str("\nnot evaluated: this module is not part of any root module's tree\n"),
        1 => md.push_str(&render(&shown[0].1)),
        n => {
            for (address, v) in shown.iter().take(MAX_INSTANCES) {
                let label = if address.is_empty() { "root module".to_string() } else { format!("`{address}`") };
                md.push_str(&format!("\nin {label}:\n"));
                md.push_str(&render(v));
            }
            if n > MAX_INSTANCES {
                md.push_str(&format!("\n…and {} more instances\n", n - MAX_INSTANCES));
            }
        }
    }
    Some(HoverResult { range: r.range, markdown: md })
}

enum Kind {
    Variable,
    Local,
}

fn render(v: &Value) -> String {
    match v {
        Value::Unknown(reason) => format!("\nunknown: {}\n", reason.explanation()),
        v => format!("\n```hcl\n{}\n```\n", console(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;

    fn check(text: &str) -> String {
        let f = Fixture::parse(text);
        let a = f.host.analysis();
        a.hover(f.position()).unwrap().map(|h| h.markdown).unwrap_or_else(|| "<none>".to_string())
    }

    #[test]
    fn local_value() {
        let md = check(
            r#"
locals {
  regions = toset(["us-east-1", "eu-west-1"])
  n       = length(local.reg$0ions)
}
"#,
        );
        assert_eq!(md, "```hcl\nlocal.regions\n```\n\n```hcl\ntoset([\n  \"eu-west-1\",\n  \"us-east-1\",\n])\n```\n");
    }

    #[test]
    fn variable_without_value() {
        let md = check(
            r#"
variable "region" {}
locals {
  r = var.reg$0ion
}
"#,
        );
        assert!(md.contains("unknown: `var.region` has no value"), "{md}");
    }

    #[test]
    fn undeclared() {
        let md = check("locals {\n  a = local.nope$0\n}\n");
        assert_eq!(md, "`local.nope` is not declared in this module");
    }

    #[test]
    fn not_on_a_reference() {
        assert_eq!(check("locals {\n  a = \"x$0\"\n}\n"), "<none>");
    }
}
