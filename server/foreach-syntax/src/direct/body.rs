//! Bodies, attributes and blocks (hcl-edit's `grammar/structure.rs`).

use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::{Parser, is_ident_start};
use crate::ast::{Attribute, Block, BlockLabel, Body, SmolStr, Structure};

impl<'a> Parser<'a> {
    /// The whole text as a body: items, then nothing but white space and comments.
    pub(super) fn top_body(&mut self) -> Option<Body> {
        let body = self.body(true)?;
        self.skip_ws()?;
        self.at_end().then_some(body)
    }

    /// Items, each on its own line, up to what cannot start one (the end of the text, or a block's `}`). At the top
    /// (`top`) the last item may end at the end of the text instead of a line ending.
    fn body(&mut self, top: bool) -> Option<Body> {
        let mut structures = Vec::new();
        let mut names = AttributeNames::default();
        loop {
            self.skip_ws()?;
            if !is_ident_start(self.peek()) {
                // A non-ASCII letter may start an item for hcl-edit.
                if self.peek() >= 0x80 {
                    return None;
                }
                break;
            }
            let structure = self.structure()?;
            if let Structure::Attribute(attribute) = &structure
                && !names.insert(attribute.key.name.clone())
            {
                // hcl-edit rejects a redefined attribute; its error says so.
                return None;
            }
            structures.push(structure);
            self.skip_sp()?;
            self.skip_optional_line_comment()?;
            if !self.eat_line_ending() {
                if top && self.at_end() {
                    break;
                }
                return None;
            }
        }
        structures.shrink_to_fit();
        Some(Body { structures })
    }

    /// An attribute or a block, at an identifier.
    fn structure(&mut self) -> Option<Structure> {
        let ident = self.ident()?;
        self.skip_sp()?;
        match self.peek() {
            b'=' => self.attribute(ident).map(Structure::Attribute),
            b'{' | b'"' => self.block(ident).map(Structure::Block),
            b if is_ident_start(b) => self.block(ident).map(Structure::Block),
            _ => None,
        }
    }

    /// An attribute after its key and the spaces that follow it: `= value`.
    fn attribute(&mut self, key: crate::ast::Ident) -> Option<Attribute> {
        self.expect(b'=')?;
        self.skip_sp()?;
        let value = self.root_expr()?;
        let range = key.range.cover(value.range);
        Some(Attribute { key, value: Arc::new(value), range })
    }

    /// A block after its type: labels, then its body in braces.
    fn block(&mut self, ident: crate::ast::Ident) -> Option<Block> {
        let mut labels = Vec::new();
        loop {
            let label_start = self.pos;
            let label = match self.peek() {
                b'"' => {
                    let value = self.plain_string()?;
                    BlockLabel { value, quoted: true, range: self.range(label_start, self.pos) }
                }
                b if is_ident_start(b) => {
                    let ident = self.ident()?;
                    BlockLabel { value: ident.name, quoted: false, range: ident.range }
                }
                b'{' => break,
                _ => return None,
            };
            labels.push(label);
            self.skip_sp()?;
        }
        labels.shrink_to_fit();
        let open = self.pos;
        self.pos += 1;
        self.enter()?;
        let body = self.block_body()?;
        self.leave();
        self.expect(b'}')?;
        let range = ident.range.cover(self.range(open, self.pos));
        Some(Block { ident, labels, body, range, body_range: self.range(open, self.pos) })
    }

    /// What is between a block's braces: items on lines of their own, or at most one attribute on the brace's line.
    fn block_body(&mut self) -> Option<Body> {
        let after_brace = self.pos;
        self.skip_sp()?;
        self.skip_optional_line_comment()?;
        if self.eat_line_ending() {
            let body = self.body(false)?;
            self.skip_ws()?;
            return Some(body);
        }
        self.pos = after_brace;
        self.skip_sp()?;
        let mut structures = Vec::new();
        if is_ident_start(self.peek()) {
            let key = self.ident()?;
            self.skip_sp()?;
            structures.push(Structure::Attribute(self.attribute(key)?));
            self.skip_sp()?;
        }
        Some(Body { structures })
    }

    /// A root expression (an attribute's value): its own operator scope, line breaks not allowed.
    fn root_expr(&mut self) -> Option<crate::ast::Expr> {
        let outer = std::mem::take(&mut self.operator_depth);
        let expr = self.expr_inner(false);
        self.operator_depth = outer.max(self.operator_depth);
        expr
    }
}

/// The attribute names of one body, to find a redefined one: a short list is searched, a long one hashed.
#[derive(Default)]
struct AttributeNames {
    few: Vec<SmolStr>,
    many: Option<FxHashSet<SmolStr>>,
}

impl AttributeNames {
    /// Adds `name`; false when it was there already.
    fn insert(&mut self, name: SmolStr) -> bool {
        const FEW: usize = 16;
        if let Some(many) = &mut self.many {
            return many.insert(name);
        }
        if self.few.contains(&name) {
            return false;
        }
        self.few.push(name);
        if self.few.len() > FEW {
            self.many = Some(self.few.drain(..).collect());
        }
        true
    }
}
