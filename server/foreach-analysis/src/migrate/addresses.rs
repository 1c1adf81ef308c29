//! The addresses of merged blocks (`foreach-ls migrate --resources`): `aws_vpc.use1` becomes the instance
//! `aws_vpc.this["use1"]`. Every reference to an old address is rewritten by text edits on its prefix, so that
//! `aws_vpc.use1.id` becomes `aws_vpc.this["use1"].id` and nothing else of the expression changes.

use foreach_syntax::TextRange;
use foreach_syntax::ast::{Body, Expr};

use crate::model::refs::{Reference, references};

/// What kind of block was merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Resource,
    Data,
    Module,
}

/// One old block that became an instance of a merged one.
#[derive(Debug, Clone)]
pub(super) struct Rename {
    pub kind: Kind,
    /// The resource type (empty for a module call).
    pub ty: String,
    pub old: String,
    pub new: String,
    /// The instance key: the old alias.
    pub key: String,
}

impl Rename {
    fn address(&self, name: &str) -> String {
        match self.kind {
            Kind::Resource => format!("{}.{name}", self.ty),
            Kind::Data => format!("data.{}.{name}", self.ty),
            Kind::Module => format!("module.{name}"),
        }
    }

    /// `aws_vpc.use1`.
    pub(super) fn old_address(&self) -> String {
        self.address(&self.old)
    }

    /// `aws_vpc.this["use1"]`.
    pub(super) fn new_instance(&self) -> String {
        format!("{}[\"{}\"]", self.address(&self.new), self.key)
    }

    /// The written prefix of `r` that names the old block (`aws_vpc.use1` of `aws_vpc.use1.id`; also
    /// `resource.aws_vpc.use1`), and whether the `resource.` form is used.
    fn prefix_of(&self, r: &Reference) -> Option<String> {
        let hit = match self.kind {
            Kind::Module => r.root() == "module" && r.attr(0) == Some(&self.old),
            Kind::Data => r.root() == "data" && r.attr(0) == Some(&self.ty) && r.attr(1) == Some(&self.old),
            Kind::Resource if r.root() == "resource" => r.attr(0) == Some(&self.ty) && r.attr(1) == Some(&self.old),
            Kind::Resource => r.root() == self.ty && r.attr(0) == Some(&self.old),
        };
        if !hit {
            return None;
        }
        Some(if r.root() == "resource" { format!("resource.{}", self.old_address()) } else { self.old_address() })
    }

    /// The `moved` block from the old address to the new instance, with `\n` line breaks.
    pub(super) fn moved_block(&self) -> String {
        format!("moved {{\n  from = {}\n  to   = {}\n}}", self.old_address(), self.new_instance())
    }
}

/// How a reference to a renamed block is written.
#[derive(Debug, Clone, Copy)]
pub(super) enum KeyStyle<'a> {
    /// Always with the literal key: `aws_vpc.this["use1"]`.
    Literal,
    /// Inside the copy for alias `own`: `aws_vpc.this[each.key]` for the instance of the same key, which makes the
    /// copies' texts alike.
    Own(&'a str),
    /// The whole merged block without a key (`depends_on`, whose entries name whole blocks).
    Whole,
}

/// Adds to `out` the edits that rewrite the references of `expr` to renamed blocks. `Err` holds the range of a
/// reference that cannot be rewritten by its text (written with spaces or comments inside its address).
pub(super) fn rewrite_expr(
    text: &str,
    expr: &Expr,
    renames: &[Rename],
    style: KeyStyle<'_>,
    out: &mut Vec<(TextRange, String)>,
) -> Result<(), TextRange> {
    for r in references(expr, &[]) {
        let Some((rename, prefix)) = renames.iter().find_map(|n| n.prefix_of(&r).map(|p| (n, p))) else {
            continue;
        };
        let start = usize::from(r.range.start());
        if text.get(start..start + prefix.len()) != Some(prefix.as_str()) {
            return Err(r.range);
        }
        let base = if prefix.starts_with("resource.") {
            format!("resource.{}", rename.address(&rename.new))
        } else {
            rename.address(&rename.new)
        };
        let new = match style {
            KeyStyle::Whole => base,
            KeyStyle::Own(own) if own == rename.key => format!("{base}[each.key]"),
            _ => format!("{base}[\"{}\"]", rename.key),
        };
        out.push((TextRange::at(r.range.start(), (prefix.len() as u32).into()), new));
    }
    Ok(())
}

/// The edits for every expression of `body` at any depth, except the `provider` and `providers` arguments (they
/// name provider configurations) and `moved` and `removed` blocks (their addresses name what is no longer
/// declared). `depends_on` names whole blocks.
pub(super) fn rewrite_body(
    text: &str,
    body: &Body,
    renames: &[Rename],
    out: &mut Vec<(TextRange, String)>,
    errors: &mut Vec<TextRange>,
) {
    for a in body.attributes() {
        let style = match a.key.name.as_str() {
            "provider" | "providers" => continue,
            "depends_on" => KeyStyle::Whole,
            _ => KeyStyle::Literal,
        };
        if let Err(r) = rewrite_expr(text, &a.value, renames, style, out) {
            errors.push(r);
        }
    }
    for b in body.blocks() {
        if !matches!(b.ident.name.as_str(), "moved" | "removed") {
            rewrite_body(text, &b.body, renames, out, errors);
        }
    }
}

/// The text of `range` with the edits inside it applied: the text of one expression after rewriting.
pub(super) fn apply_in(text: &str, range: TextRange, edits: &[(TextRange, String)]) -> String {
    let start = usize::from(range.start());
    let mut out = String::new();
    let mut at = start;
    let mut sorted: Vec<&(TextRange, String)> = edits.iter().collect();
    sorted.sort_by_key(|(r, _)| r.start());
    for (r, new) in sorted {
        let (s, e) = (usize::from(r.start()), usize::from(r.end()));
        if s < at || e > usize::from(range.end()) {
            continue;
        }
        out.push_str(&text[at..s]);
        out.push_str(new);
        at = e;
    }
    out.push_str(&text[at..usize::from(range.end())]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rename(kind: Kind, ty: &str, old: &str) -> Rename {
        Rename { kind, ty: ty.to_string(), old: old.to_string(), new: "this".to_string(), key: "use1".to_string() }
    }

    fn rewritten(src: &str, style: KeyStyle<'_>) -> String {
        let expr = foreach_syntax::parse_expr(src).expect("an expression");
        let renames = [
            rename(Kind::Resource, "aws_vpc", "use1"),
            rename(Kind::Data, "aws_ami", "ami_use1"),
            rename(Kind::Module, "", "net_use1"),
        ];
        let mut edits = Vec::new();
        rewrite_expr(src, &expr, &renames, style, &mut edits).unwrap();
        apply_in(src, expr.range, &edits)
    }

    #[test]
    fn rewrites_the_address_prefix_only() {
        assert_eq!(
            rewritten("\"${aws_vpc.use1.id}-${data.aws_ami.ami_use1.id}\"", KeyStyle::Literal),
            "\"${aws_vpc.this[\"use1\"].id}-${data.aws_ami.this[\"use1\"].id}\""
        );
        assert_eq!(rewritten("module.net_use1.out", KeyStyle::Own("use1")), "module.this[each.key].out");
        assert_eq!(rewritten("[aws_vpc.use1]", KeyStyle::Whole), "[aws_vpc.this]");
        // Another type with the same name, and a longer name, are other blocks.
        assert_eq!(rewritten("aws_subnet.use1.id", KeyStyle::Literal), "aws_subnet.use1.id");
        assert_eq!(rewritten("aws_vpc.use10.id", KeyStyle::Literal), "aws_vpc.use10.id");
    }
}
