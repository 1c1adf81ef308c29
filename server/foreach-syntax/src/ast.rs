//! The syntax tree that the rest of foreach-ls sees.
//!
//! It is our own type, not hcl-edit's, for three reasons: native HCL and the JSON syntax (`.tf.json`) convert into
//! the same tree, so analysis has one model; every node carries its byte range in the *original* file text (after
//! BOM handling), so equality includes spans and a cached result can never keep stale ranges (hcl-edit's
//! `PartialEq` ignores spans); and a parser swap stays a change to this crate only.
//!
//! Literal values are semantic: escapes are processed, heredoc indentation and template strip markers (`~`) are
//! already applied. Number literals keep their source text so the evaluator can read them exactly.
//!
//! Names, labels, numbers and literal strings are `SmolStr`: most are short enough to live inside the node, and
//! the longer ones are shared, so the summaries that keep expressions from a parse tree copy no text. As `String`s
//! they were a third of `check`'s memory on real repositories.

pub use smol_str::SmolStr;

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use text_size::TextRange;

/// A sequence of attributes and blocks, in source order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Body {
    /// Attributes and blocks, in source order.
    pub structures: Vec<Structure>,
}

impl Body {
    /// The attributes, in source order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.structures.iter().filter_map(|s| match s {
            Structure::Attribute(a) => Some(a),
            Structure::Block(_) => None,
        })
    }

    /// The nested blocks, in source order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.structures.iter().filter_map(|s| match s {
            Structure::Block(b) => Some(b),
            Structure::Attribute(_) => None,
        })
    }

    /// The last attribute with this name (duplicates are a semantic error reported elsewhere).
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes().filter(|a| a.key.name == name).last()
    }

    /// The nested blocks of one type (`resource`, `provider`, ...), in source order.
    pub fn blocks_named<'a>(&'a self, ident: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
        self.blocks().filter(move |b| b.ident.name == ident)
    }
}

/// One item of a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Structure {
    Attribute(Attribute),
    Block(Block),
}

/// `key = value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub key: Ident,
    /// Shared, not owned: the analysis keeps attribute expressions (locals, arguments, defaults) in its summaries,
    /// and sharing them with the tree saves copying and freeing the largest expressions of a file on every edit.
    pub value: Arc<Expr>,
    /// From the start of the key to the end of the value.
    pub range: TextRange,
}

/// `ident "label" label { body }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub ident: Ident,
    pub labels: Vec<BlockLabel>,
    pub body: Body,
    /// From the start of the identifier to the closing brace.
    pub range: TextRange,
    /// From the opening to the closing brace, both included.
    pub body_range: TextRange,
}

impl Block {
    /// The value of the label at `index` (`resource "aws_s3_bucket" "logs"`: 0 is the type, 1 the name).
    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(|l| l.value.as_str())
    }
}

/// A block label: `"aws"` or a bare `aws` (in JSON, the object key that gives it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockLabel {
    pub value: SmolStr,
    /// `"aws"` rather than `aws`.
    pub quoted: bool,
    /// Includes the quotes of a quoted label.
    pub range: TextRange,
}

/// A name as written (attribute key, block type, variable, function name, `for` variable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ident {
    pub name: SmolStr,
    #[serde(with = "crate::packed_range")]
    pub range: TextRange,
}

/// An expression and the range of its source text.
#[derive(Debug, Clone, Eq, Serialize, Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    #[serde(with = "crate::packed_range")]
    pub range: TextRange,
}

/// The derived comparison, ranges first: salsa compares a re-summarised item with the one it replaces, and after
/// an edit that changes the text's length the ranges differ at the top, where the derived order would first walk
/// the whole tree down to the edit (half of a 6,000-entry object on average).
impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.range == other.range && self.kind == other.kind
    }
}

/// What an expression is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExprKind {
    Null,
    Bool(bool),
    /// The literal as written (`1`, `1.50`, `1e3`), so that evaluation can be exact.
    Number(SmolStr),
    /// A quoted string or heredoc. A quoted string without interpolation is a template with one literal part.
    Template(Template),
    /// `[a, b]`
    Tuple(Vec<Expr>),
    /// `{ k = v, "k2": v2 }`, items in source order. Evaluation keeps the last item of a repeated key; native HCL
    /// input only holds that last item (hcl-edit stores objects as maps), JSON input keeps every item.
    Object(Vec<ObjectItem>),
    /// A bare root name such as `var`, `local`, `aws`, `each`.
    Variable(Ident),
    /// `base.attr[index].*` etc.: one or more steps applied to an expression.
    Traversal {
        base: Box<Expr>,
        steps: Vec<TraversalStep>,
    },
    /// Boxed, like the other large variants, so that an expression node stays small: summaries keep thousands of
    /// expression trees (locals, module arguments) for the life of a session.
    FuncCall(Box<FuncCall>),
    /// `( inner )`
    Parenthesis(Box<Expr>),
    Conditional {
        cond: Box<Expr>,
        then_expr: Box<Expr>,
        else_expr: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        lhs: Box<Expr>,
        op: BinaryOp,
        rhs: Box<Expr>,
    },
    For(Box<ForExpr>),
    /// Stands in for what could not be converted (only produced for JSON input that is not an expression); it
    /// evaluates to an unknown value and never matches anything.
    Invalid,
}

/// One `key = value` of an object constructor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: Expr,
}

/// The key of an object item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectKey {
    /// A bare identifier key: `{ foo = 1 }` (a string "foo", never a variable).
    Ident(Ident),
    /// Any other key expression: `{ "foo" = 1 }`, `{ (var.k) = 1 }`. Boxed: inline, it made every object item 96
    /// bytes instead of 80, identifier keys included; on the dev corpus the box saves 1-1.5 MB of a `check`'s peak.
    Expr(Box<Expr>),
}

impl ObjectKey {
    /// The key's source range.
    pub fn range(&self) -> TextRange {
        match self {
            ObjectKey::Ident(i) => i.range,
            ObjectKey::Expr(e) => e.range,
        }
    }
}

/// One step of a traversal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraversalStep {
    pub op: TraversalOp,
    /// Includes the leading `.` or the brackets.
    #[serde(with = "crate::packed_range")]
    pub range: TextRange,
}

/// What a traversal step does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraversalOp {
    /// `.name`
    GetAttr(Ident),
    /// `[expr]` (boxed, like a template's interpolation: inline, the expression made every step 56 bytes instead of
    /// 40; with both boxed a `check` of the dev corpus peaks about 2 MB lower)
    Index(Box<Expr>),
    /// `.0` (legacy index syntax)
    LegacyIndex(u64),
    /// `.*`
    AttrSplat,
    /// `[*]`
    FullSplat,
}

/// `name(args)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FuncCall {
    pub name: FuncName,
    pub args: Vec<Expr>,
    /// `f(a, b...)`: the final argument is expanded.
    pub expand_final: bool,
}

/// A function name with its `::` namespace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FuncName {
    /// `provider::aws::arn_parse` has namespace `["provider", "aws"]`; `core::toset` has `["core"]`.
    pub namespace: Vec<Ident>,
    pub name: Ident,
}

impl FuncName {
    /// The name as written, namespace included (`core::toset`).
    pub fn full_name(&self) -> String {
        let mut s = String::new();
        for ns in &self.namespace {
            s.push_str(&ns.name);
            s.push_str("::");
        }
        s.push_str(&self.name.name);
        s
    }
}

/// `-x` and `!x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnaryOp {
    Neg,
    Not,
}

/// The binary operators, named by meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinaryOp {
    Eq,
    NotEq,
    Lt,
    Gt,
    LtEq,
    GtEq,
    And,
    Or,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinaryOp {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Eq => "==",
            BinaryOp::NotEq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::LtEq => "<=",
            BinaryOp::GtEq => ">=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
        }
    }
}

/// `[for k, v in coll : v if cond]` (tuple form, `key_expr` is `None`) or `{for k, v in coll : k => v... if cond}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForExpr {
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    pub key_expr: Option<Expr>,
    pub value_expr: Expr,
    pub cond: Option<Expr>,
    /// The `...` grouping marker of the object form.
    pub grouping: bool,
}

/// A quoted string or heredoc, as a sequence of parts (literal values already unescaped and stripped).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    pub kind: TemplateKind,
}

impl Template {
    /// The string value if the template is a plain literal (no interpolation or directive).
    pub fn as_literal(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                TemplatePart::Literal { value, .. } => out.push_str(value),
                _ => return None,
            }
        }
        Some(out)
    }
}

/// How a template was written. Directive bodies are `Quoted`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TemplateKind {
    Quoted,
    Heredoc,
}

/// One part of a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TemplatePart {
    Literal {
        value: SmolStr,
        #[serde(with = "crate::packed_range")]
        range: TextRange,
    },
    /// `${ expr }` (boxed: inline, the expression made every part 48 bytes instead of 32, literals included)
    Interpolation(Box<Expr>),
    /// `%{ if cond }then%{ else }else%{ endif }` (boxed: most parts are literals, which stay small)
    If(Box<TemplateIf>),
    /// `%{ for k, v in coll }body%{ endfor }`
    For(Box<TemplateFor>),
}

/// `%{ if cond }then%{ else }else%{ endif }`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateIf {
    pub cond: Expr,
    pub then_part: Template,
    pub else_part: Option<Template>,
    #[serde(with = "crate::packed_range")]
    pub range: TextRange,
}

/// `%{ for k, v in coll }body%{ endfor }`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateFor {
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    pub body: Template,
    #[serde(with = "crate::packed_range")]
    pub range: TextRange,
}

// The node sizes a summary's memory depends on (the dev corpus keeps about 80,000 object items and as many
// template parts and traversal steps): a change that grows one should be deliberate, and measured.
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<Expr>() == 48);
    assert!(std::mem::size_of::<ObjectItem>() == 80);
    assert!(std::mem::size_of::<TemplatePart>() == 32);
    assert!(std::mem::size_of::<TraversalStep>() == 40);
};

impl Expr {
    /// An expression of `kind` covering `range`.
    pub fn new(kind: ExprKind, range: TextRange) -> Expr {
        Expr { kind, range }
    }

    /// The string value of a plain string literal (`"abc"`, no interpolation).
    pub fn as_string_literal(&self) -> Option<String> {
        match &self.kind {
            ExprKind::Template(t) if t.kind == TemplateKind::Quoted => t.as_literal(),
            _ => None,
        }
    }

    /// Strips any number of enclosing parentheses.
    pub fn unparenthesized(&self) -> &Expr {
        let mut e = self;
        while let ExprKind::Parenthesis(inner) = &e.kind {
            e = inner;
        }
        e
    }
}
