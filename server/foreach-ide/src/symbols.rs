//! Document symbols: the outline of one file, named the way OpenTofu addresses things (`var.region`,
//! `aws_s3_bucket.logs`, `module.network`, `aws.by_region`).

use foreach_syntax::TextRange;
use foreach_syntax::ast::Block;

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace, parse};

use super::source_file;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    Variable,
    Local,
    Output,
    Provider,
    Resource,
    DataSource,
    Module,
    Block,
    Attribute,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The whole block or attribute.
    pub range: TextRange,
    /// The name to select (a label or the key).
    pub selection_range: TextRange,
    pub children: Vec<Symbol>,
}

pub(crate) fn document_symbols(db: &dyn Db, ws: Workspace, file: FileId) -> Vec<Symbol> {
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    let parsed = parse(db, f);
    let mut out = Vec::new();
    for a in parsed.body.attributes() {
        out.push(attribute(&a.key.name, a.range, a.key.range));
    }
    for b in parsed.body.blocks() {
        out.push(block_symbol(b));
    }
    out.sort_by_key(|s| s.range.start());
    out
}

fn attribute(name: &str, range: TextRange, key: TextRange) -> Symbol {
    Symbol { name: name.to_string(), kind: SymbolKind::Attribute, range, selection_range: key, children: Vec::new() }
}

fn block_symbol(b: &Block) -> Symbol {
    let l0 = b.label(0).unwrap_or_default();
    let l1 = b.label(1).unwrap_or_default();
    let (name, kind) = match b.ident.name.as_str() {
        "variable" => (format!("var.{l0}"), SymbolKind::Variable),
        "output" => (format!("output.{l0}"), SymbolKind::Output),
        "module" => (format!("module.{l0}"), SymbolKind::Module),
        "resource" => (format!("{l0}.{l1}"), SymbolKind::Resource),
        "data" => (format!("data.{l0}.{l1}"), SymbolKind::DataSource),
        "ephemeral" => (format!("ephemeral.{l0}.{l1}"), SymbolKind::DataSource),
        "provider" => {
            let alias = b.body.attribute("alias").and_then(|a| a.value.as_string_literal());
            (alias.map_or_else(|| l0.to_string(), |a| format!("{l0}.{a}")), SymbolKind::Provider)
        }
        "locals" => ("locals".to_string(), SymbolKind::Block),
        other => {
            let mut n = other.to_string();
            for l in &b.labels {
                n.push(' ');
                n.push_str(&l.value);
            }
            (n, SymbolKind::Block)
        }
    };
    let selection_range = b.labels.last().map_or(b.ident.range, |l| l.range);
    let children = if b.ident.name == "locals" {
        b.body
            .attributes()
            .map(|a| Symbol {
                name: format!("local.{}", a.key.name),
                kind: SymbolKind::Local,
                range: a.range,
                selection_range: a.key.range,
                children: Vec::new(),
            })
            .collect()
    } else {
        let mut c: Vec<Symbol> = b.body.attributes().map(|a| attribute(&a.key.name, a.range, a.key.range)).collect();
        c.extend(b.body.blocks().map(nested_block));
        c.sort_by_key(|s| s.range.start());
        c
    };
    Symbol { name, kind, range: b.range, selection_range, children }
}

fn nested_block(b: &Block) -> Symbol {
    let mut s = block_symbol(b);
    s.kind = SymbolKind::Block;
    s
}

#[cfg(test)]
mod tests {
    use super::super::test_fixture::Fixture;
    use super::Symbol;

    fn outline(symbols: &[Symbol], depth: usize, out: &mut String) {
        for s in symbols {
            out.push_str(&format!("{}{} {:?}\n", "  ".repeat(depth), s.name, s.kind));
            outline(&s.children, depth + 1, out);
        }
    }

    #[test]
    fn outline_of_a_file() {
        let f = Fixture::parse(
            r#"variable "regions" {
  type = set(string)
}
locals {
  a = 1
}
provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}
resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["x"]
  lifecycle {
    prevent_destroy = true
  }
}
module "net" {
  source = "./net"
}
"#,
        );
        let symbols = crate::Analysis::of(&f.host).document_symbols(f.file_id("/ws/main.tf")).unwrap();
        let mut out = String::new();
        outline(&symbols, 0, &mut out);
        assert_eq!(
            out,
            "var.regions Variable\n  type Attribute\nlocals Block\n  local.a Local\naws.by_region Provider\n  alias Attribute\n  for_each Attribute\n  region Attribute\naws_s3_bucket.logs Resource\n  provider Attribute\n  lifecycle Block\n    prevent_destroy Attribute\nmodule.net Module\n  source Attribute\n"
        );
    }
}
