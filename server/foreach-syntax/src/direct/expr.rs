//! Expressions (hcl-edit's `grammar/expr.rs`, `number.rs` and the operator precedence of `pratt.rs`).
//!
//! `newlines` says whether line breaks may separate tokens here: inside `(`, `[`, a function call's parentheses,
//! `${ }` and a `for` expression's brackets they may, in an attribute's value or an object item they end it.

use super::{MAX_OPERATOR_DEPTH, Parser, is_ident_start};
use crate::ast::{
    BinaryOp, Expr, ExprKind, ForExpr, FuncCall, FuncName, Ident, ObjectItem, ObjectKey, TraversalOp, TraversalStep,
    UnaryOp,
};

impl<'a> Parser<'a> {
    /// An expression nested in another: one level deeper, in an operator scope of its own.
    pub(super) fn expr(&mut self, newlines: bool) -> Option<Expr> {
        self.enter()?;
        let outer = std::mem::take(&mut self.operator_depth);
        let expr = self.expr_inner(newlines);
        self.operator_depth = outer.max(self.operator_depth);
        self.leave();
        expr
    }

    /// An expression inside brackets, with the white space, line breaks and comments around it.
    pub(super) fn spaced_expr(&mut self) -> Option<Expr> {
        self.skip_ws()?;
        let expr = self.expr(true)?;
        self.skip_ws()?;
        Some(expr)
    }

    /// A term, then any binary operators and at most one conditional.
    pub(super) fn expr_inner(&mut self, newlines: bool) -> Option<Expr> {
        let mut expr = self.term(newlines)?;
        loop {
            let before = self.pos;
            self.skip_trivia(newlines)?;
            match (self.peek(), self.peek_at(1)) {
                (b'?', _) => {
                    self.pos += 1;
                    self.skip_trivia(newlines)?;
                    let then_expr = self.expr(newlines)?;
                    self.skip_trivia(newlines)?;
                    self.expect(b':')?;
                    self.skip_trivia(newlines)?;
                    let else_expr = self.expr(newlines)?;
                    let range = expr.range.cover(else_expr.range);
                    let kind = ExprKind::Conditional {
                        cond: Box::new(expr),
                        then_expr: Box::new(then_expr),
                        else_expr: Box::new(else_expr),
                    };
                    return Some(Expr::new(kind, range));
                }
                // `//` and `/*` start comments; a single `=` is an object item's or `for`'s, not an operator.
                (b'/', b'/' | b'*') => {}
                (b'=', b'=') | (b'!' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|', _) => {
                    self.pos = before;
                    expr = self.binary_chain(expr, newlines)?;
                    continue;
                }
                _ => {}
            }
            self.pos = before;
            return Some(expr);
        }
    }

    /// `first op term op term ...`, folded by precedence, every operator left-associative.
    fn binary_chain(&mut self, first: Expr, newlines: bool) -> Option<Expr> {
        let mut terms = vec![first];
        let mut ops = Vec::new();
        loop {
            let before = self.pos;
            self.skip_trivia(newlines)?;
            let Some((op, len)) = self.binary_operator() else {
                // The first operator was seen by the caller and must parse; a later miss ends the chain.
                if ops.is_empty() {
                    return None;
                }
                self.pos = before;
                break;
            };
            self.pos += len;
            self.skip_trivia(newlines)?;
            terms.push(self.term(newlines)?);
            ops.push(op);
            if self.operator_depth + ops.len() > MAX_OPERATOR_DEPTH {
                return None;
            }
        }
        self.operator_depth += ops.len();
        Some(fold_by_precedence(terms, ops))
    }

    /// The binary operator at `pos` and its length.
    fn binary_operator(&self) -> Option<(BinaryOp, usize)> {
        let op = match (self.peek(), self.peek_at(1)) {
            (b'=', b'=') => (BinaryOp::Eq, 2),
            (b'!', b'=') => (BinaryOp::NotEq, 2),
            (b'<', b'=') => (BinaryOp::LtEq, 2),
            (b'>', b'=') => (BinaryOp::GtEq, 2),
            (b'<', _) => (BinaryOp::Lt, 1),
            (b'>', _) => (BinaryOp::Gt, 1),
            (b'+', _) => (BinaryOp::Add, 1),
            (b'-', _) => (BinaryOp::Sub, 1),
            (b'*', _) => (BinaryOp::Mul, 1),
            (b'/', b'/' | b'*') => return None,
            (b'/', _) => (BinaryOp::Div, 1),
            (b'%', _) => (BinaryOp::Mod, 1),
            (b'&', b'&') => (BinaryOp::And, 2),
            (b'|', b'|') => (BinaryOp::Or, 2),
            _ => return None,
        };
        Some(op)
    }

    /// A term and its traversal (`a.b[0].*`), without operators.
    fn term(&mut self, newlines: bool) -> Option<Expr> {
        let start = self.pos;
        let base = match self.peek() {
            b'"' => self.quoted()?,
            b'[' => self.tuple()?,
            b'{' => self.object()?,
            b'0'..=b'9' => {
                self.number()?;
                Expr::new(ExprKind::Number(self.src[start..self.pos].into()), self.range(start, self.pos))
            }
            b'<' => self.heredoc()?,
            b'-' | b'!' => self.unary(newlines)?,
            b'(' => {
                self.pos += 1;
                let inner = self.spaced_expr()?;
                self.expect(b')')?;
                Expr::new(ExprKind::Parenthesis(Box::new(inner)), self.range(start, self.pos))
            }
            b if is_ident_start(b) => self.identlike(newlines)?,
            _ => return None,
        };
        let expr = if self.at_traversal() { self.traversal(base)? } else { base };
        // hcl-edit reads a traversal after white space too (`a .b`, `a\n[0]` inside brackets); left to it.
        let after = self.pos;
        self.skip_trivia(newlines)?;
        if self.pos != after && self.at_traversal() {
            return None;
        }
        self.pos = after;
        Some(expr)
    }

    /// Whether a traversal step starts at `pos` (`..` is the start of `...`, not a step).
    fn at_traversal(&self) -> bool {
        match self.peek() {
            b'[' => true,
            b'.' => self.peek_at(1) != b'.',
            _ => false,
        }
    }

    fn traversal(&mut self, base: Expr) -> Option<Expr> {
        let mut steps = Vec::new();
        while self.at_traversal() {
            let start = self.pos;
            self.pos += 1;
            let op = if self.bytes[start] == b'.' {
                match self.peek() {
                    b'*' => {
                        self.pos += 1;
                        TraversalOp::AttrSplat
                    }
                    b'0'..=b'9' => {
                        let digits = self.pos;
                        while self.peek().is_ascii_digit() {
                            self.pos += 1;
                        }
                        TraversalOp::LegacyIndex(self.src[digits..self.pos].parse().ok()?)
                    }
                    // White space after the `.` and non-ASCII names are left to hcl-edit.
                    _ => TraversalOp::GetAttr(self.ident()?),
                }
            } else {
                self.skip_ws()?;
                let op = if self.eat(b'*') {
                    TraversalOp::FullSplat
                } else {
                    TraversalOp::Index(Box::new(self.expr(true)?))
                };
                self.skip_ws()?;
                self.expect(b']')?;
                op
            };
            steps.push(TraversalStep { op, range: self.range(start, self.pos) });
        }
        steps.shrink_to_fit();
        let range = base.range.cover(steps.last()?.range);
        Some(Expr::new(ExprKind::Traversal { base: Box::new(base), steps }, range))
    }

    /// A number's digits, fraction and exponent (its text is the node's value).
    fn number(&mut self) -> Option<()> {
        self.digits()?;
        if self.peek() == b'.' && self.peek_at(1).is_ascii_digit() {
            self.pos += 1;
            self.digits()?;
        }
        if matches!(self.peek(), b'e' | b'E') {
            self.pos += 1;
            if matches!(self.peek(), b'+' | b'-') {
                self.pos += 1;
            }
            self.digits()?;
        }
        Some(())
    }

    /// One or more decimal digits.
    fn digits(&mut self) -> Option<()> {
        let start = self.pos;
        while self.peek().is_ascii_digit() {
            self.pos += 1;
        }
        (self.pos > start).then_some(())
    }

    /// `-term`, `!term`, or a negative number literal (`-1`, `- 1.5`: one number node whose text is `-1`, `-1.5`).
    fn unary(&mut self, newlines: bool) -> Option<Expr> {
        let start = self.pos;
        let op = if self.bytes[start] == b'-' { UnaryOp::Neg } else { UnaryOp::Not };
        self.pos += 1;
        self.skip_sp()?;
        if op == UnaryOp::Neg && self.peek().is_ascii_digit() {
            let digits = self.pos;
            self.number()?;
            let mut text = String::with_capacity(1 + self.pos - digits);
            text.push('-');
            text.push_str(&self.src[digits..self.pos]);
            return Some(Expr::new(ExprKind::Number(text.into()), self.range(start, self.pos)));
        }
        self.enter()?;
        let operand = self.term(newlines)?;
        self.leave();
        // A term ends where its last token does.
        Some(Expr::new(ExprKind::Unary { op, operand: Box::new(operand) }, self.range(start, self.pos)))
    }

    /// A variable, `null`, `true`, `false`, or a function call (`f(...)`, `provider::aws::arn_parse(...)`).
    fn identlike(&mut self, newlines: bool) -> Option<Expr> {
        let start = self.pos;
        let ident = self.ident()?;
        let after = self.pos;
        self.skip_trivia(newlines)?;
        let call = self.peek() == b'(' || self.starts_with("::");
        if !call {
            self.pos = after;
            let range = ident.range;
            let keyword = match ident.name.as_str() {
                "null" => Some(ExprKind::Null),
                "true" => Some(ExprKind::Bool(true)),
                "false" => Some(ExprKind::Bool(false)),
                _ => None,
            };
            return Some(Expr::new(keyword.unwrap_or(ExprKind::Variable(ident)), range));
        }
        let mut names = vec![ident];
        while self.starts_with("::") {
            self.pos += 2;
            self.skip_trivia(newlines)?;
            names.push(self.ident()?);
            self.skip_trivia(newlines)?;
        }
        let name = names.pop()?;
        names.shrink_to_fit();
        let (args, expand_final) = self.call_arguments()?;
        let call = FuncCall { name: FuncName { namespace: names, name }, args, expand_final };
        Some(Expr::new(ExprKind::FuncCall(Box::new(call)), self.range(start, self.pos)))
    }

    /// `(a, b)`, `(a, b,)` or `(a, b...)`.
    fn call_arguments(&mut self) -> Option<(Vec<Expr>, bool)> {
        self.expect(b'(')?;
        self.comma_list(b')', true)
    }

    /// Expressions separated by commas up to `close` (a trailing comma allowed), which it consumes, and whether the
    /// last one ends in `...` (allowed where `expand` says: function arguments).
    fn comma_list(&mut self, close: u8, expand: bool) -> Option<(Vec<Expr>, bool)> {
        let mut items = Vec::new();
        let mut expand_final = false;
        loop {
            self.skip_ws()?;
            match self.peek() {
                b if b == close => break,
                b',' | b'.' => return None,
                _ => {}
            }
            items.push(self.expr(true)?);
            self.skip_ws()?;
            match self.peek() {
                b',' => self.pos += 1,
                b if b == close => break,
                b'.' if expand && self.starts_with("...") => {
                    self.pos += 3;
                    expand_final = true;
                    self.skip_ws()?;
                    break;
                }
                _ => return None,
            }
        }
        self.expect(close)?;
        items.shrink_to_fit();
        Some((items, expand_final))
    }

    /// Whether a `for` expression starts after the bracket just read (hcl-edit's test: white space, `for`, then a
    /// space, tab, comment or line feed; `for` followed by a carriage return is left to hcl-edit).
    fn for_follows(&mut self) -> Option<bool> {
        let start = self.pos;
        self.skip_ws()?;
        let found = self.starts_with("for");
        let next = self.peek_at(3);
        self.pos = start;
        if !found {
            return Some(false);
        }
        match next {
            b' ' | b'\t' | b'#' | b'/' | b'\n' => Some(true),
            b'\r' => None,
            _ => Some(false),
        }
    }

    /// `[a, b]` or `[for ...]`.
    fn tuple(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.pos += 1;
        if self.for_follows()? {
            let (key_var, value_var, collection) = self.for_intro()?;
            let value_expr = self.spaced_expr()?;
            let cond = self.for_condition()?;
            self.expect(b']')?;
            let for_expr =
                ForExpr { key_var, value_var, collection, key_expr: None, value_expr, cond, grouping: false };
            return Some(Expr::new(ExprKind::For(Box::new(for_expr)), self.range(start, self.pos)));
        }
        let (items, _) = self.comma_list(b']', false)?;
        Some(Expr::new(ExprKind::Tuple(items), self.range(start, self.pos)))
    }

    /// `for k, v in collection :` (the part both forms share).
    fn for_intro(&mut self) -> Option<(Option<Ident>, Ident, Expr)> {
        self.skip_ws()?;
        self.pos += 3;
        self.skip_ws()?;
        let first = self.ident()?;
        self.skip_ws()?;
        let (key_var, value_var) = if self.eat(b',') {
            self.skip_ws()?;
            let second = self.ident()?;
            self.skip_ws()?;
            (Some(first), second)
        } else {
            (None, first)
        };
        if !self.at_keyword("in") {
            return None;
        }
        self.pos += 2;
        let collection = self.spaced_expr()?;
        self.expect(b':')?;
        Some((key_var, value_var, collection))
    }

    /// An optional `if cond` at the end of a `for` expression, after white space.
    fn for_condition(&mut self) -> Option<Option<Expr>> {
        if !self.at_keyword("if") {
            // `if` run into a longer name is left to hcl-edit, which reads the `if` on its own.
            return if self.starts_with("if") { None } else { Some(None) };
        }
        self.pos += 2;
        let cond = self.spaced_expr()?;
        Some(Some(cond))
    }

    /// `{ k = v, ... }` or `{ for ... }`.
    fn object(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.pos += 1;
        if self.for_follows()? {
            let (key_var, value_var, collection) = self.for_intro()?;
            let key_expr = self.spaced_expr()?;
            if !self.starts_with("=>") {
                return None;
            }
            self.pos += 2;
            let value_expr = self.spaced_expr()?;
            let grouping = self.starts_with("...");
            if grouping {
                self.pos += 3;
                self.skip_ws()?;
            }
            let cond = self.for_condition()?;
            self.expect(b'}')?;
            let key_expr = Some(key_expr);
            let for_expr = ForExpr { key_var, value_var, collection, key_expr, value_expr, cond, grouping };
            return Some(Expr::new(ExprKind::For(Box::new(for_expr)), self.range(start, self.pos)));
        }
        let mut items = Vec::new();
        loop {
            self.skip_ws()?;
            if self.eat(b'}') {
                break;
            }
            let key = self.expr(false)?;
            let key = match key.kind {
                ExprKind::Variable(ident) => ObjectKey::Ident(ident),
                _ => ObjectKey::Expr(Box::new(key)),
            };
            self.skip_sp()?;
            if !matches!(self.peek(), b'=' | b':') || self.at_end() {
                return None;
            }
            self.pos += 1;
            self.skip_sp()?;
            let value = self.expr(false)?;
            self.skip_sp()?;
            items.push(ObjectItem { key, value });
            match self.peek() {
                b'}' => {
                    self.pos += 1;
                    break;
                }
                b',' => self.pos += 1,
                b'\n' | b'\r' => {
                    if !self.eat_line_ending() {
                        return None;
                    }
                }
                b'#' | b'/' => {
                    if self.peek() == b'/' && self.peek_at(1) != b'/' {
                        return None;
                    }
                    self.skip_line_comment()?;
                    if !self.eat_line_ending() {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        if has_repeated_key(&items) {
            // hcl-edit keeps the last of repeated keys, by an equality of its own; left to it.
            return None;
        }
        items.shrink_to_fit();
        Some(Expr::new(ExprKind::Object(items), self.range(start, self.pos)))
    }
}

/// Whether two items of an object may have the same key by hcl-edit's equality (which compares values, not
/// spans): the same name, the same string, the same dotted path (a module's `providers = { aws.east = ... }`), or two
/// keys of any other kind, which only hcl-edit can judge.
fn has_repeated_key(items: &[ObjectItem]) -> bool {
    if items.len() < 2 {
        return false;
    }
    let mut names = rustc_hash::FxHashSet::default();
    let mut strings = rustc_hash::FxHashSet::default();
    let mut paths = rustc_hash::FxHashSet::default();
    let mut other_keys = 0;
    for item in items {
        let new = match &item.key {
            ObjectKey::Ident(ident) => names.insert(ident.name.as_str()),
            ObjectKey::Expr(expr) => match key_kind(expr) {
                KeyKind::String(value) => strings.insert(value),
                KeyKind::Path(path) => paths.insert(path),
                KeyKind::Other => {
                    other_keys += 1;
                    other_keys < 2
                }
            },
        };
        if !new {
            return true;
        }
    }
    false
}

/// An expression key, as far as its equality with another goes.
enum KeyKind<'e> {
    /// A string without interpolation, by its value.
    String(&'e str),
    /// `a.b.c` or `(a.b.c)`, written out.
    Path(String),
    Other,
}

fn key_kind(expr: &Expr) -> KeyKind<'_> {
    if let ExprKind::Template(template) = &expr.kind {
        return match template.parts.as_slice() {
            [crate::ast::TemplatePart::Literal { value, .. }] => KeyKind::String(value.as_str()),
            _ => KeyKind::Other,
        };
    }
    let mut path = String::new();
    if write_path(expr, &mut path) { KeyKind::Path(path) } else { KeyKind::Other }
}

/// Writes `a.b.c`, `(a.b)` or `a` to `out`; false for any other expression.
fn write_path(expr: &Expr, out: &mut String) -> bool {
    match &expr.kind {
        ExprKind::Variable(root) => out.push_str(&root.name),
        ExprKind::Parenthesis(inner) => {
            out.push('(');
            if !write_path(inner, out) {
                return false;
            }
            out.push(')');
        }
        ExprKind::Traversal { base, steps } => {
            if !matches!(base.kind, ExprKind::Variable(_)) || !write_path(base, out) {
                return false;
            }
            for step in steps {
                let TraversalOp::GetAttr(name) = &step.op else { return false };
                out.push('.');
                out.push_str(&name.name);
            }
        }
        _ => return false,
    }
    true
}

/// hcl-edit's precedence of a binary operator (`hcl_primitives::BinaryOperator::precedence`).
fn precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 6,
        BinaryOp::Add | BinaryOp::Sub => 5,
        BinaryOp::LtEq | BinaryOp::GtEq | BinaryOp::Lt | BinaryOp::Gt => 4,
        BinaryOp::Eq | BinaryOp::NotEq => 3,
        BinaryOp::And => 2,
        BinaryOp::Or => 1,
    }
}

/// Folds `terms[0] ops[0] terms[1] ...` into a tree, higher precedence first, equal precedence from the left. Each
/// operation covers its operands' ranges.
fn fold_by_precedence(terms: Vec<Expr>, ops: Vec<BinaryOp>) -> Expr {
    fn reduce(operands: &mut Vec<Expr>, operators: &mut Vec<BinaryOp>) {
        let (Some(op), Some(rhs), Some(lhs)) = (operators.pop(), operands.pop(), operands.pop()) else { return };
        let range = lhs.range.cover(rhs.range);
        operands.push(Expr::new(ExprKind::Binary { lhs: Box::new(lhs), op, rhs: Box::new(rhs) }, range));
    }
    let mut terms = terms.into_iter();
    let mut operands: Vec<Expr> = terms.next().into_iter().collect();
    let mut operators: Vec<BinaryOp> = Vec::new();
    for (op, term) in ops.into_iter().zip(terms) {
        while operators.last().is_some_and(|&top| precedence(top) >= precedence(op)) {
            reduce(&mut operands, &mut operators);
        }
        operators.push(op);
        operands.push(term);
    }
    while !operators.is_empty() {
        reduce(&mut operands, &mut operators);
    }
    operands.pop().unwrap_or_else(|| Expr::new(ExprKind::Invalid, Default::default()))
}
