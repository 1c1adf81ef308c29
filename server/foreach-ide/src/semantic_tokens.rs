//! Semantic tokens: what each piece of a native HCL file is, for highlighting.
//!
//! Two sources, merged in text order. The syntax tree gives every name its meaning (block type, label, attribute,
//! `var.x`, resource reference, provider configuration, function, `for` variable) and every literal its range.
//! What the tree does not keep (comments, operators, quotes, heredoc markers, `${`/`%{` delimiters and template
//! keywords) is found by a small lexer run over the gaps between the tree's tokens; its state (inside a string,
//! a heredoc or an interpolation) carries over from one gap to the next, so a `#` inside a string is never a comment.
//!
//! Only standard LSP token types and modifiers are used, so that every theme colours them. JSON files get no
//! tokens: their keys and strings carry HCL meaning only after conversion, and editors highlight JSON well.

use foreach_syntax::TextRange;
use foreach_syntax::TextSize;
use foreach_syntax::ast::*;

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace, parse};

use super::source_file;

/// A token type of the legend (standard LSP names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenType {
    /// Block types (`resource`), `true`/`false`/`null`, `for`/`in`/`if` and template directive keywords.
    Keyword,
    /// Resource and data source types, other first labels, unknown bare names (type constraints like `string`).
    Type,
    /// `var`, `local`, `module`, `each`, `count`, `path`, `terraform`, `self`, `data`; provider local names;
    /// function namespaces (`provider::aws::`).
    Namespace,
    /// Declared names (variables, locals, resources, aliases) and their references.
    Variable,
    /// `for` expression variables.
    Parameter,
    /// Attribute names, object keys, attribute steps of a reference.
    Property,
    /// Instance keys written literally in a provider reference (`aws.by_region["us"]`).
    EnumMember,
    Function,
    String,
    Number,
    Comment,
    Operator,
}

impl TokenType {
    /// Every token type, in legend order: a token's type is encoded as its index here.
    pub const ALL: [TokenType; 12] = [
        TokenType::Keyword,
        TokenType::Type,
        TokenType::Namespace,
        TokenType::Variable,
        TokenType::Parameter,
        TokenType::Property,
        TokenType::EnumMember,
        TokenType::Function,
        TokenType::String,
        TokenType::Number,
        TokenType::Comment,
        TokenType::Operator,
    ];

    /// The standard LSP name.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenType::Keyword => "keyword",
            TokenType::Type => "type",
            TokenType::Namespace => "namespace",
            TokenType::Variable => "variable",
            TokenType::Parameter => "parameter",
            TokenType::Property => "property",
            TokenType::EnumMember => "enumMember",
            TokenType::Function => "function",
            TokenType::String => "string",
            TokenType::Number => "number",
            TokenType::Comment => "comment",
            TokenType::Operator => "operator",
        }
    }

    /// The index in [`TokenType::ALL`].
    pub fn index(self) -> u32 {
        TokenType::ALL.iter().position(|t| *t == self).unwrap_or_default() as u32
    }
}

/// Token modifiers, as bits in legend order ([`MODIFIERS`]).
pub mod modifier {
    /// The name is declared here (a label, a local's key, a `for` variable).
    pub const DECLARATION: u32 = 1;
    /// Set by OpenTofu, not by the configuration (`each.key`, `count.index`, `path.module`).
    pub const READONLY: u32 = 2;
    /// Built in: reference roots (`var`, `each`), built-in functions.
    pub const DEFAULT_LIBRARY: u32 = 4;
}

/// The modifier names of the legend, bit 0 first.
pub const MODIFIERS: [&str; 3] = ["declaration", "readonly", "defaultLibrary"];

/// One token: a range (possibly over several lines, for heredocs and block comments), a type and modifier bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: TokenType,
    pub modifiers: u32,
}

pub(crate) fn semantic_tokens(
    db: &dyn Db,
    ws: Workspace,
    file: FileId,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let Some(f) = source_file(db, ws, file) else { return Vec::new() };
    if f.kind(db).is_json() {
        return Vec::new();
    }
    let parsed = parse(db, f);
    let mut out = tokens(&f.text(db), &parsed.body);
    if let Some(r) = range {
        out.retain(|t| t.range.start() < r.end() && r.start() < t.range.end());
    }
    out
}

/// The tokens of a native HCL file, sorted and never overlapping.
pub fn tokens(text: &str, body: &Body) -> Vec<SemanticToken> {
    let mut w = Walker { out: Vec::new(), scopes: Vec::new() };
    w.body(body, false);
    let mut known = w.out;
    known.sort_by_key(|t| (t.range.start(), std::cmp::Reverse(t.range.end())));
    let mut lexer = GapLexer { text, stack: Vec::new(), out: Vec::with_capacity(known.len() * 2) };
    let mut at = 0usize;
    for t in known {
        let start = usize::from(t.range.start());
        let end = usize::from(t.range.end()).min(text.len());
        if start < at || start >= end {
            // Overlapping (only in partial trees) or empty: the first one wins.
            continue;
        }
        lexer.lex(at, start);
        lexer.out.push(t);
        at = end;
    }
    lexer.lex(at, text.len());
    lexer.out
}

struct Walker {
    out: Vec<SemanticToken>,
    /// The variables of the enclosing `for` expressions and template `for` directives.
    scopes: Vec<String>,
}

/// Reference roots that name a namespace of OpenTofu, not a resource type.
const ROOTS: [&str; 10] = ["var", "local", "module", "each", "count", "path", "terraform", "self", "data", "ephemeral"];

impl Walker {
    fn push(&mut self, range: TextRange, kind: TokenType, modifiers: u32) {
        if !range.is_empty() {
            self.out.push(SemanticToken { range, kind, modifiers });
        }
    }

    fn body(&mut self, body: &Body, in_locals: bool) {
        for s in &body.structures {
            match s {
                Structure::Attribute(a) => {
                    if in_locals {
                        self.push(a.key.range, TokenType::Variable, modifier::DECLARATION);
                    } else {
                        self.push(a.key.range, TokenType::Property, 0);
                    }
                    // `provider = aws.west` and `providers = { aws = aws.west }` name provider configurations.
                    let provider_ref = matches!(a.key.name.as_str(), "provider" | "providers");
                    self.expr(&a.value, provider_ref);
                }
                Structure::Block(b) => self.block(b),
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.push(b.ident.range, TokenType::Keyword, 0);
        let kind = b.ident.name.as_str();
        let decl = (TokenType::Variable, modifier::DECLARATION);
        for (i, l) in b.labels.iter().enumerate() {
            let (t, m) = match (kind, b.labels.len(), i) {
                ("provider", _, 0) => (TokenType::Namespace, modifier::DECLARATION),
                ("variable" | "output" | "module" | "check" | "dynamic", _, _) => decl,
                (_, 2.., 0) => (TokenType::Type, 0),
                (_, 2.., _) => decl,
                _ => (TokenType::Type, 0),
            };
            self.push(l.range, t, m);
        }
        self.body(&b.body, kind == "locals");
    }

    fn expr(&mut self, e: &Expr, provider_ref: bool) {
        match &e.kind {
            ExprKind::Null | ExprKind::Bool(_) => self.push(e.range, TokenType::Keyword, 0),
            ExprKind::Number(_) => self.push(e.range, TokenType::Number, 0),
            ExprKind::Template(t) => self.template(t),
            ExprKind::Tuple(items) => {
                for i in items {
                    self.expr(i, provider_ref);
                }
            }
            ExprKind::Object(items) => {
                for item in items {
                    match &item.key {
                        // In a `providers` map the key is a provider configuration too (`aws.dst = aws.west`).
                        ObjectKey::Ident(id) if provider_ref => self.push(id.range, TokenType::Namespace, 0),
                        ObjectKey::Ident(id) => self.push(id.range, TokenType::Property, 0),
                        ObjectKey::Expr(k) => self.expr(k, provider_ref),
                    }
                    self.expr(&item.value, provider_ref);
                }
            }
            ExprKind::Variable(id) => self.reference(id, &[], provider_ref),
            ExprKind::Traversal { base, steps } => match &base.kind {
                ExprKind::Variable(id) => self.reference(id, steps, provider_ref),
                _ => {
                    self.expr(base, false);
                    self.steps(steps);
                }
            },
            ExprKind::FuncCall(f) => {
                for ns in &f.name.namespace {
                    self.push(ns.range, TokenType::Namespace, 0);
                }
                let builtin = f.name.namespace.iter().all(|n| n.name == "core");
                self.push(f.name.name.range, TokenType::Function, if builtin { modifier::DEFAULT_LIBRARY } else { 0 });
                for a in &f.args {
                    self.expr(a, false);
                }
            }
            ExprKind::Parenthesis(inner) => self.expr(inner, provider_ref),
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                self.expr(cond, false);
                self.expr(then_expr, provider_ref);
                self.expr(else_expr, provider_ref);
            }
            ExprKind::Unary { operand, .. } => self.expr(operand, false),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs, false);
                self.expr(rhs, false);
            }
            ExprKind::For(f) => {
                self.expr(&f.collection, false);
                let depth = self.scopes.len();
                for v in f.key_var.iter().chain([&f.value_var]) {
                    self.push(v.range, TokenType::Parameter, modifier::DECLARATION);
                    self.scopes.push(v.name.to_string());
                }
                if let Some(k) = &f.key_expr {
                    self.expr(k, false);
                }
                self.expr(&f.value_expr, false);
                if let Some(c) = &f.cond {
                    self.expr(c, false);
                }
                self.scopes.truncate(depth);
            }
            ExprKind::Invalid => {}
        }
    }

    /// A reference: its root says what it is (`var.x`, `each.key`, `aws_instance.web`, `aws.west`).
    fn reference(&mut self, root: &Ident, steps: &[TraversalStep], provider_ref: bool) {
        let name = root.name.as_str();
        let first_attr = |i: usize| match steps.get(i).map(|s| &s.op) {
            Some(TraversalOp::GetAttr(id)) => Some(id.range),
            _ => None,
        };
        let mut rest = 0;
        if self.scopes.iter().any(|s| s == name) {
            self.push(root.range, TokenType::Parameter, 0);
        } else if provider_ref {
            self.push(root.range, TokenType::Namespace, 0);
            if let Some(r) = first_attr(0) {
                self.push(r, TokenType::Variable, 0);
                rest = 1;
            }
            // A literal instance key: `aws.by_region["us"]`.
            if let Some(TraversalOp::Index(key)) = steps.get(rest).map(|s| &s.op)
                && key.as_string_literal().is_some()
            {
                self.push(key.range, TokenType::EnumMember, 0);
                rest += 1;
            }
        } else if ROOTS.contains(&name) {
            self.push(root.range, TokenType::Namespace, modifier::DEFAULT_LIBRARY);
            let readonly = matches!(name, "each" | "count" | "path" | "terraform" | "self");
            let m = if readonly { modifier::READONLY } else { 0 };
            if matches!(name, "data" | "ephemeral") {
                if let Some(r) = first_attr(0) {
                    self.push(r, TokenType::Type, 0);
                    rest = 1;
                }
                if let Some(r) = first_attr(1) {
                    self.push(r, TokenType::Variable, 0);
                    rest = 2;
                }
            } else if let Some(r) = first_attr(0) {
                self.push(r, TokenType::Variable, m);
                rest = 1;
            }
        } else if let Some(r) = first_attr(0) {
            // `aws_instance.web`: a resource type and name.
            self.push(root.range, TokenType::Type, 0);
            self.push(r, TokenType::Variable, 0);
            rest = 1;
        } else {
            // A bare unknown name: in practice a type constraint keyword (`string`, `any`).
            self.push(root.range, TokenType::Type, 0);
        }
        self.steps(&steps[rest.min(steps.len())..]);
    }

    fn steps(&mut self, steps: &[TraversalStep]) {
        for s in steps {
            match &s.op {
                TraversalOp::GetAttr(id) => self.push(id.range, TokenType::Property, 0),
                TraversalOp::Index(e) => self.expr(e, false),
                TraversalOp::LegacyIndex(_) => {
                    // `.0`: the number after the dot.
                    let r = TextRange::new((s.range.start() + TextSize::from(1)).min(s.range.end()), s.range.end());
                    self.push(r, TokenType::Number, 0);
                }
                TraversalOp::AttrSplat | TraversalOp::FullSplat => {}
            }
        }
    }

    fn template(&mut self, t: &Template) {
        for part in &t.parts {
            match part {
                TemplatePart::Literal { range, .. } => self.push(*range, TokenType::String, 0),
                TemplatePart::Interpolation(e) => self.expr(e, false),
                TemplatePart::If(i) => {
                    self.expr(&i.cond, false);
                    self.template(&i.then_part);
                    if let Some(e) = &i.else_part {
                        self.template(e);
                    }
                }
                TemplatePart::For(f) => {
                    self.expr(&f.collection, false);
                    let depth = self.scopes.len();
                    for v in f.key_var.iter().chain([&f.value_var]) {
                        self.push(v.range, TokenType::Parameter, modifier::DECLARATION);
                        self.scopes.push(v.name.to_string());
                    }
                    self.template(&f.body);
                    self.scopes.truncate(depth);
                }
            }
        }
    }
}

/// What the gap lexer is inside of.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Context {
    /// `{` of a block or object.
    Brace,
    /// `${` or `%{`.
    Interpolation,
    /// A quoted string.
    Quote,
    /// A heredoc and its closing marker.
    Heredoc(String),
}

/// Lexes the text the tree has no token for. It never sees the tree's tokens (they are skipped), but keeps its
/// state across gaps.
struct GapLexer<'a> {
    text: &'a str,
    stack: Vec<Context>,
    out: Vec<SemanticToken>,
}

const TEMPLATE_KEYWORDS: [&str; 6] = ["for", "in", "if", "else", "endif", "endfor"];

impl GapLexer<'_> {
    fn emit(&mut self, start: usize, end: usize, kind: TokenType) {
        if start < end {
            let range = TextRange::new(size(start), size(end));
            self.out.push(SemanticToken { range, kind, modifiers: 0 });
        }
    }

    fn lex(&mut self, start: usize, end: usize) {
        let bytes = self.text.as_bytes();
        let mut i = start;
        while i < end {
            let c = bytes[i];
            let next = bytes.get(i + 1).copied().filter(|_| i + 1 < end);
            match self.stack.last() {
                Some(Context::Quote) => {
                    match (c, next) {
                        (b'"', _) => {
                            self.emit(i, i + 1, TokenType::String);
                            self.stack.pop();
                            i += 1;
                        }
                        (b'$' | b'%', Some(b'{')) => i = self.open_interpolation(i, end),
                        (b'\n' | b'\r', _) => {
                            // An unterminated string ends at the line end (as the parser recovers).
                            self.stack.pop();
                            i += 1;
                        }
                        _ => {
                            let stop = self.scan_string(i, end, false);
                            self.emit(i, stop, TokenType::String);
                            i = stop;
                        }
                    }
                    continue;
                }
                Some(Context::Heredoc(marker)) => {
                    if matches!((c, next), (b'$' | b'%', Some(b'{'))) {
                        i = self.open_interpolation(i, end);
                    } else if c.is_ascii_whitespace() {
                        i += 1;
                    } else if is_line_start(self.text, i) && self.text[i..end].starts_with(marker.as_str()) {
                        let stop = i + marker.len();
                        self.emit(i, stop, TokenType::String);
                        self.stack.pop();
                        i = stop;
                    } else {
                        let stop = self.scan_string(i, end, true);
                        self.emit(i, stop, TokenType::String);
                        i = stop;
                    }
                    continue;
                }
                _ => {}
            }
            match (c, next) {
                (b'#', _) | (b'/', Some(b'/')) => {
                    let stop = self.text[i..end].find(['\n', '\r']).map_or(end, |n| i + n);
                    self.emit(i, stop, TokenType::Comment);
                    i = stop;
                }
                (b'/', Some(b'*')) => {
                    let stop = self.text[i + 2..end].find("*/").map_or(end, |n| i + 2 + n + 2);
                    self.emit(i, stop, TokenType::Comment);
                    i = stop;
                }
                (b'"', _) => {
                    self.emit(i, i + 1, TokenType::String);
                    self.stack.push(Context::Quote);
                    i += 1;
                }
                (b'<', Some(b'<')) if let Some((stop, marker)) = heredoc_opener(&self.text[i..end]) => {
                    self.emit(i, i + stop, TokenType::String);
                    self.stack.push(Context::Heredoc(marker));
                    i += stop;
                }
                (b'$' | b'%', Some(b'{')) => i = self.open_interpolation(i, end),
                (b'{', _) => {
                    self.stack.push(Context::Brace);
                    i += 1;
                }
                (b'~', Some(b'}')) | (b'}', _) => {
                    let len = if c == b'~' { 2 } else { 1 };
                    if self.stack.pop() == Some(Context::Interpolation) {
                        self.emit(i, i + len, TokenType::Operator);
                    }
                    i += len;
                }
                _ if c.is_ascii_alphabetic() || c == b'_' => {
                    let stop = i + self.text[i..end]
                        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'))
                        .unwrap_or(end - i);
                    if TEMPLATE_KEYWORDS.contains(&&self.text[i..stop]) {
                        self.emit(i, stop, TokenType::Keyword);
                    }
                    i = stop;
                }
                _ if c.is_ascii_digit() => {
                    let stop = i + self.text[i..end]
                        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '.'))
                        .unwrap_or(end - i);
                    self.emit(i, stop, TokenType::Number);
                    i = stop;
                }
                _ => {
                    let len = operator_len(&bytes[i..end]);
                    if len > 0 {
                        self.emit(i, i + len, TokenType::Operator);
                        i += len;
                    } else {
                        // Whitespace, punctuation, or (with a `text.len()` bound) any other character.
                        i += self.text[i..].chars().next().map_or(1, char::len_utf8);
                    }
                }
            }
        }
    }

    /// `${` or `%{`, with an optional `~`.
    fn open_interpolation(&mut self, i: usize, end: usize) -> usize {
        let len = if self.text.as_bytes().get(i + 2) == Some(&b'~') && i + 2 < end { 3 } else { 2 };
        self.emit(i, i + len, TokenType::Operator);
        self.stack.push(Context::Interpolation);
        i + len
    }

    /// The end of a run of string content: before a quote (unless `heredoc`), an interpolation, or a line end.
    fn scan_string(&self, i: usize, end: usize, heredoc: bool) -> usize {
        let bytes = self.text.as_bytes();
        let mut j = i;
        while j < end {
            match bytes[j] {
                b'\n' | b'\r' => break,
                b'"' if !heredoc => break,
                b'\\' if !heredoc => j += 1,
                b'$' | b'%' if bytes.get(j + 1) == Some(&b'{') && j > i => break,
                b'$' | b'%' if bytes.get(j + 1) == Some(&b'{') => {}
                _ => {}
            }
            j += 1;
        }
        // Never stop inside a character.
        let mut j = j.min(end).max(i + 1).min(end);
        while !self.text.is_char_boundary(j) {
            j += 1;
        }
        j
    }
}

/// `<<EOT` or `<<-EOT` at the start of `s`: its length and the marker.
fn heredoc_opener(s: &str) -> Option<(usize, String)> {
    let rest = s.strip_prefix("<<")?;
    let (dash, rest) = match rest.strip_prefix('-') {
        Some(r) => (1, r),
        None => (0, rest),
    };
    let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
    if len == 0 || !rest.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    Some((2 + dash + len, rest[..len].to_string()))
}

/// Whether only spaces and tabs precede `i` on its line (a heredoc's closing marker may be indented).
fn is_line_start(text: &str, i: usize) -> bool {
    text[..i].bytes().rev().take_while(|b| *b != b'\n').all(|b| b == b' ' || b == b'\t')
}

/// The length of the operator at the start of `b`, or 0.
fn operator_len(b: &[u8]) -> usize {
    const TWO: [&[u8]; 7] = [b"==", b"!=", b"<=", b">=", b"&&", b"||", b"=>"];
    if b.starts_with(b"...") {
        return 3;
    }
    if TWO.iter().any(|op| b.starts_with(op)) {
        return 2;
    }
    match b.first() {
        Some(b'=' | b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'!' | b'?' | b':') => 1,
        _ => 0,
    }
}

fn size(n: usize) -> TextSize {
    TextSize::try_from(n).unwrap_or(TextSize::from(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use foreach_syntax::FileKind;

    /// Each token as `type[+modifiers] "text"`.
    fn render(text: &str) -> Vec<String> {
        let parsed = foreach_syntax::parse(text, FileKind::Tf);
        tokens(text, &parsed.body)
            .iter()
            .map(|t| {
                let mut s = t.kind.as_str().to_string();
                for (bit, name) in MODIFIERS.iter().enumerate() {
                    if t.modifiers & (1 << bit) != 0 {
                        s.push('+');
                        s.push_str(name);
                    }
                }
                format!("{s} {:?}", &text[t.range])
            })
            .collect()
    }

    #[test]
    fn blocks_labels_attributes_and_references() {
        let text = "# top\nresource \"aws_s3_bucket\" \"logs\" {\n  provider = aws.by_region[\"us\"]\n  bucket   = \"${var.prefix}-${each.key}\" // c\n  n        = -1 + count.index\n}\n";
        assert_eq!(
            render(text),
            [
                "comment \"# top\"",
                "keyword \"resource\"",
                "type \"\\\"aws_s3_bucket\\\"\"",
                "variable+declaration \"\\\"logs\\\"\"",
                "property \"provider\"",
                "operator \"=\"",
                "namespace \"aws\"",
                "variable \"by_region\"",
                "enumMember \"\\\"us\\\"\"",
                "property \"bucket\"",
                "operator \"=\"",
                "string \"\\\"\"",
                "operator \"${\"",
                "namespace+defaultLibrary \"var\"",
                "variable \"prefix\"",
                "operator \"}\"",
                "string \"-\"",
                "operator \"${\"",
                "namespace+defaultLibrary \"each\"",
                "variable+readonly \"key\"",
                "operator \"}\"",
                "string \"\\\"\"",
                "comment \"// c\"",
                "property \"n\"",
                "operator \"=\"",
                // A negative literal is one number token.
                "number \"-1\"",
                "operator \"+\"",
                "namespace+defaultLibrary \"count\"",
                "variable+readonly \"index\"",
            ]
        );
    }

    #[test]
    fn functions_for_expressions_heredocs_and_locals() {
        let text = "locals {\n  a = [for k, v in local.m : upper(v) if k != \"x\"]\n  b = provider::aws::arn_parse(\"a#b\")\n  h = <<-EOT\n    hi ${true}\n    EOT\n}\n";
        let r = render(text);
        let want = [
            "keyword \"locals\"",
            "variable+declaration \"a\"",
            "keyword \"for\"",
            "parameter+declaration \"k\"",
            "parameter+declaration \"v\"",
            "keyword \"in\"",
            "namespace+defaultLibrary \"local\"",
            "variable \"m\"",
            "operator \":\"",
            "function+defaultLibrary \"upper\"",
            "parameter \"v\"",
            "keyword \"if\"",
            "parameter \"k\"",
            "operator \"!=\"",
            "namespace \"provider\"",
            "namespace \"aws\"",
            "function \"arn_parse\"",
            // The `#` inside the string is not a comment.
            "string \"a#b\"",
            "string \"<<-EOT\"",
            "keyword \"true\"",
            "string \"EOT\"",
        ];
        for w in want {
            assert!(r.iter().any(|t| t == w), "missing {w} in {r:#?}");
        }
        assert!(!r.iter().any(|t| t.starts_with("comment")), "{r:#?}");
    }

    #[test]
    fn tokens_are_sorted_and_disjoint_even_for_broken_text() {
        let rich = "# é\r\nlocals {\r\n  a = \"😀${var.x}%{ if true }y%{ endif }\" // c\r\n  h = <<-EOT\r\n    ${each.key}\r\n    EOT\r\n  f = [for k, v in {a = 1} : provider::p::f(v) if k != \"\"]\r\n}\r\n";
        // Every prefix of a rich text (cut inside strings, heredocs, multi-byte characters), plus a few broken files.
        let prefixes = (0..=rich.len()).filter(|n| rich.is_char_boundary(*n)).map(|n| &rich[..n]);
        let broken =
            ["resource \"a\" {\n  x = \"unterminated\n  y = [1, \n}\n", "a = <<EOT\nx\n", "x = \"${", "/* open"];
        for text in prefixes.chain(broken) {
            let parsed = foreach_syntax::parse(text, FileKind::Tf);
            let toks = tokens(text, &parsed.body);
            for w in toks.windows(2) {
                assert!(w[0].range.end() <= w[1].range.start(), "{text:?}: {toks:?}");
            }
            assert!(toks.iter().all(|t| usize::from(t.range.end()) <= text.len()));
        }
    }
}
