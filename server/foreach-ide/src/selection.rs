//! Selection ranges: from the name or literal under the cursor outwards through the enclosing expressions, the
//! attribute, the block body and the block, up to the outermost block.

use foreach_syntax::ast::*;
use foreach_syntax::{TextRange, TextSize};

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace, parse};

use super::{source_file, touches};

pub(crate) fn selection_ranges(db: &dyn Db, ws: Workspace, file: FileId, offsets: &[TextSize]) -> Vec<Vec<TextRange>> {
    let Some(f) = source_file(db, ws, file) else { return offsets.iter().map(|_| Vec::new()).collect() };
    let parsed = parse(db, f);
    offsets.iter().map(|o| selection(&parsed.body, *o)).collect()
}

/// The ranges enclosing `offset`, innermost first, each strictly larger than the one before.
pub fn selection(body: &Body, offset: TextSize) -> Vec<TextRange> {
    let mut chain = Vec::new();
    in_body(body, offset, &mut chain);
    // Collected outermost first; drop repeats (an expression and its attribute value can share a range).
    chain.reverse();
    chain.dedup();
    chain
}

fn in_body(body: &Body, offset: TextSize, chain: &mut Vec<TextRange>) {
    for s in &body.structures {
        match s {
            Structure::Attribute(a) if touches(a.range, offset) => {
                chain.push(a.range);
                if touches(a.key.range, offset) {
                    chain.push(a.key.range);
                } else {
                    in_expr(&a.value, offset, chain);
                }
                return;
            }
            Structure::Block(b) if touches(b.range, offset) => {
                chain.push(b.range);
                if let Some(l) = b.labels.iter().find(|l| touches(l.range, offset)) {
                    chain.push(l.range);
                } else if touches(b.ident.range, offset) {
                    chain.push(b.ident.range);
                } else if touches(b.body_range, offset) {
                    chain.push(b.body_range);
                    in_body(&b.body, offset, chain);
                }
                return;
            }
            _ => {}
        }
    }
}

fn in_expr(e: &Expr, offset: TextSize, chain: &mut Vec<TextRange>) {
    if !touches(e.range, offset) {
        return;
    }
    chain.push(e.range);
    let mut idents: Vec<TextRange> = Vec::new();
    let mut children: Vec<&Expr> = Vec::new();
    match &e.kind {
        ExprKind::Tuple(items) => children.extend(items),
        ExprKind::Object(items) => {
            for i in items {
                match &i.key {
                    ObjectKey::Ident(id) => idents.push(id.range),
                    ObjectKey::Expr(k) => children.push(k),
                }
                children.push(&i.value);
            }
        }
        ExprKind::Variable(id) => idents.push(id.range),
        ExprKind::Traversal { base, steps } => {
            children.push(base);
            for s in steps {
                match &s.op {
                    // `var.a.b` with the cursor on `b`: the prefix up to `b`, then `b`.
                    TraversalOp::GetAttr(id) if touches(id.range, offset) => {
                        chain.push(TextRange::new(e.range.start(), id.range.end()));
                        chain.push(id.range);
                        return;
                    }
                    TraversalOp::Index(i) if touches(s.range, offset) => {
                        chain.push(TextRange::new(e.range.start(), s.range.end()));
                        in_expr(i, offset, chain);
                        return;
                    }
                    _ => {}
                }
            }
        }
        ExprKind::FuncCall(f) => {
            idents.push(TextRange::new(
                f.name.namespace.first().map_or(f.name.name.range.start(), |n| n.range.start()),
                f.name.name.range.end(),
            ));
            children.extend(&f.args);
        }
        ExprKind::Parenthesis(inner) => children.push(inner),
        ExprKind::Conditional { cond, then_expr, else_expr } => children.extend([&**cond, then_expr, else_expr]),
        ExprKind::Unary { operand, .. } => children.push(operand),
        ExprKind::Binary { lhs, rhs, .. } => children.extend([&**lhs, rhs]),
        ExprKind::For(f) => {
            idents.extend(f.key_var.iter().map(|v| v.range));
            idents.push(f.value_var.range);
            children.push(&f.collection);
            children.extend(&f.key_expr);
            children.push(&f.value_expr);
            children.extend(&f.cond);
        }
        ExprKind::Template(t) => {
            for part in &t.parts {
                match part {
                    TemplatePart::Literal { range, .. } if touches(*range, offset) => idents.push(*range),
                    TemplatePart::Interpolation(x) => children.push(x),
                    TemplatePart::If(i) => children.push(&i.cond),
                    TemplatePart::For(f) => children.push(&f.collection),
                    _ => {}
                }
            }
        }
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Invalid => {}
    }
    if let Some(r) = idents.into_iter().find(|r| touches(*r, offset)) {
        chain.push(r);
        return;
    }
    if let Some(c) = children.into_iter().find(|c| touches(c.range, offset)) {
        in_expr(c, offset, chain);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_syntax::FileKind;

    #[test]
    fn from_name_to_block() {
        let text = "module \"m\" {\n  x = upper(var.a.b)\n}\n";
        let parsed = foreach_syntax::parse(text, FileKind::Tf);
        let at = TextSize::from(text.find(".b").unwrap() as u32 + 1);
        let got: Vec<&str> = selection(&parsed.body, at).iter().map(|r| &text[*r]).collect();
        assert_eq!(
            got,
            ["b", "var.a.b", "upper(var.a.b)", "x = upper(var.a.b)", "{\n  x = upper(var.a.b)\n}", text.trim_end()]
        );
    }
}
