//! Loads OpenTofu's JSON configuration syntax (`.tf.json`, `.tofu.json`, `.tfvars.json`) into the same AST as
//! native HCL, following OpenTofu's "JSON Configuration Syntax" documentation.
//!
//! JSON has no syntax for blocks, so the mapping is schema-driven: [`schema`] says which property names are
//! nested blocks (and how many labels they take) and which attributes are not templates. Everything else is an
//! attribute whose JSON strings are HCL templates (`"${var.x}"`, `"a-${b}"`), with numbers, booleans, `null`,
//! arrays and objects mapped to the matching expressions. Keys named `"//"` are comments.
//!
//! Ranges: keys and values get the ranges of their JSON tokens (strings including their quotes). HCL parsed from
//! inside a JSON string gets exact ranges when the string has no escapes; otherwise every node of it gets the
//! whole string's range, because unescaping moved the offsets.
//!
//! The JSON reader is `jsonc-parser` in strict mode: it gives byte ranges for every key and value (serde_json
//! gives none) and keeps repeated keys. Nesting is checked first because that parser is recursive.

use std::sync::Arc;

use jsonc_parser::ast::{self as j, ObjectPropName};
use jsonc_parser::common::Ranged;

use crate::ast::{
    Attribute, Block, BlockLabel, Body, Expr, ExprKind, Ident, ObjectItem, ObjectKey, Structure, Template,
    TemplateKind, TemplatePart,
};
use crate::convert::Converter;
use crate::{FileKind, Parse, SyntaxError, TextRange, TextSize};

mod schema;

use schema::{AttrMode, BodySchema};

/// Parses a JSON file of `kind`; `src` starts at byte `base` of the original text (after a BOM).
pub(crate) fn parse(src: &str, base: usize, kind: FileKind) -> Parse {
    let mut reader = Reader { src, base, errors: Vec::new() };
    if let Some(at) = crate::nesting::too_deep_json(src, crate::recovery::MAX_NESTING) {
        reader.error(at..at + 1, "nested too deeply: more than 256 levels of brackets".to_owned());
        return Parse { body: Body::default(), errors: reader.errors };
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let value = match jsonc_parser::parse_to_ast(src, &Default::default(), &options) {
        Ok(result) => result.value,
        Err(err) => {
            let range = err.range();
            // Point at least at one character, unless that is a line break or the end of the text. A range over
            // several lines ("unterminated object") shrinks to its first character, the opening bracket.
            let multi_line = src.get(range.start..range.end).is_none_or(|t| t.contains('\n'));
            let end = if range.end > range.start && !multi_line { range.end } else { next_char_end(src, range.start) };
            reader.error(range.start..end, format!("invalid JSON: {}", err.kind()));
            return Parse { body: Body::default(), errors: reader.errors };
        }
    };
    let body = match value {
        Some(j::Value::Object(root)) => {
            if kind.is_tfvars() {
                reader.literal_body(root)
            } else {
                let schema = if kind.is_test() { &schema::TEST_ROOT } else { &schema::ROOT };
                reader.body(root, schema)
            }
        }
        Some(other) => {
            reader.error(token_range(&other), "the root of a JSON configuration file must be an object".to_owned());
            Body::default()
        }
        // An empty (or whitespace-only) file holds nothing.
        None => Body::default(),
    };
    Parse { body, errors: reader.errors }
}

fn next_char_end(src: &str, at: usize) -> usize {
    let at = at.min(src.len());
    at + crate::token_len(src, at)
}

struct Reader<'a> {
    src: &'a str,
    base: usize,
    errors: Vec<SyntaxError>,
}

impl Reader<'_> {
    fn range(&self, r: std::ops::Range<usize>) -> TextRange {
        let size = |at: usize| TextSize::try_from(self.base + at).unwrap_or(TextSize::from(u32::MAX));
        TextRange::new(size(r.start), size(r.end.max(r.start)))
    }

    /// Reports an error on the first line of `r`: error ranges never span lines, and a JSON token can (a string
    /// holding a raw line break, which the reader accepts, as the root value).
    fn error(&mut self, r: std::ops::Range<usize>, message: String) {
        let range = self.first_line(r);
        self.errors.push(SyntaxError { range, message });
    }

    /// The first line of `r` (offsets into the JSON text) as a range of the file.
    fn first_line(&self, r: std::ops::Range<usize>) -> TextRange {
        let end = match self.src.get(r.start..r.end.max(r.start)) {
            Some(t) => r.start + t.find(['\n', '\r']).unwrap_or(t.len()),
            None => r.end,
        };
        self.range(r.start..end)
    }

    /// A body per `schema`: nested block types become blocks, the rest attributes.
    fn body(&mut self, object: j::Object, schema: &BodySchema) -> Body {
        let mut structures = Vec::new();
        for prop in object.properties {
            let (name, key_range) = prop_name(prop.name);
            if name == "//" {
                continue;
            }
            let ident = Ident { name: name.into(), range: self.range(key_range.clone()) };
            if let Some(block) = schema.block(&ident.name) {
                self.blocks(&ident, Vec::new(), prop.value, block.labels, block.body, &mut structures);
            } else {
                let value = self.value(prop.value, schema.attr_mode(&ident.name));
                let range = TextRange::new(ident.range.start(), value.range.end().max(ident.range.start()));
                structures.push(Structure::Attribute(Attribute { key: ident, value: Arc::new(value), range }));
            }
        }
        Body { structures }
    }

    /// The blocks of type `ident` given by `value`, which still needs `labels_left` levels of label keys.
    fn blocks(
        &mut self,
        ident: &Ident,
        labels: Vec<BlockLabel>,
        value: j::Value,
        labels_left: usize,
        schema: &BodySchema,
        out: &mut Vec<Structure>,
    ) {
        match value {
            // Several blocks (or several label objects) of the same kind.
            j::Value::Array(array) => {
                for element in array.elements {
                    self.blocks(ident, labels.clone(), element, labels_left, schema, out);
                }
            }
            j::Value::Object(object) if labels_left > 0 => {
                for prop in object.properties {
                    let (value, key_range) = prop_name(prop.name);
                    if value == "//" {
                        continue;
                    }
                    let mut labels = labels.clone();
                    labels.push(BlockLabel { value: value.into(), quoted: true, range: self.range(key_range) });
                    self.blocks(ident, labels, prop.value, labels_left - 1, schema, out);
                }
            }
            j::Value::Object(object) => {
                let r = object.range;
                let body_range = self.range(r.start..r.end);
                // From the key that introduces this block (its innermost label, or its type) to its body's end.
                let start = labels.last().map_or(ident.range.start(), |l| l.range.start());
                let range = TextRange::new(start, body_range.end().max(start));
                let body = self.body(object, schema);
                out.push(Structure::Block(Block { ident: ident.clone(), labels, body, range, body_range }));
            }
            other => {
                let what = if labels_left > 0 { "an object of labels" } else { "an object (the block body)" };
                self.error(token_range(&other), format!("expected {what} for a `{}` block", ident.name));
            }
        }
    }

    /// A `.tfvars.json` file: every property is an attribute with a literal value.
    fn literal_body(&mut self, object: j::Object) -> Body {
        let mut structures = Vec::new();
        for prop in object.properties {
            let (name, key_range) = prop_name(prop.name);
            let key = Ident { name: name.into(), range: self.range(key_range) };
            let value = self.value(prop.value, AttrMode::Literal);
            let range = TextRange::new(key.range.start(), value.range.end().max(key.range.start()));
            structures.push(Structure::Attribute(Attribute { key, value: Arc::new(value), range }));
        }
        Body { structures }
    }

    fn value(&mut self, value: j::Value, mode: AttrMode) -> Expr {
        let r = value.range();
        let range = self.range(r.start..r.end);
        let kind = match value {
            j::Value::NullKeyword(_) => ExprKind::Null,
            j::Value::BooleanLit(b) => ExprKind::Bool(b.value),
            j::Value::NumberLit(n) => ExprKind::Number(n.value.into()),
            j::Value::StringLit(s) => return self.string(s, mode),
            j::Value::Array(a) => {
                let item_mode = mode.element();
                ExprKind::Tuple(a.elements.into_iter().map(|e| self.value(e, item_mode)).collect())
            }
            j::Value::Object(o) => {
                let (key_mode, value_mode) = mode.entries();
                let mut items = Vec::with_capacity(o.properties.len());
                for prop in o.properties {
                    let key = match prop.name {
                        ObjectPropName::String(s) => self.object_key(s, key_mode),
                        ObjectPropName::Word(w) => {
                            let r = w.range;
                            ObjectKey::Ident(Ident { name: w.value.into(), range: self.range(r.start..r.end) })
                        }
                    };
                    items.push(ObjectItem { key, value: self.value(prop.value, value_mode) });
                }
                ExprKind::Object(items)
            }
        };
        Expr::new(kind, range)
    }

    fn object_key(&mut self, s: j::StringLit, mode: AttrMode) -> ObjectKey {
        let key = self.string(s, mode);
        // `{"aws": "aws.west"}` in a module's `providers` reads like native `{ aws = aws.west }`.
        match key.kind {
            ExprKind::Variable(ident) => ObjectKey::Ident(ident),
            _ => ObjectKey::Expr(Box::new(key)),
        }
    }

    /// A JSON string in `mode`: a literal, an HCL template or an HCL expression.
    fn string(&mut self, s: j::StringLit, mode: AttrMode) -> Expr {
        let r = s.range;
        let range = self.range(r.start..r.end);
        let content = r.start + 1..r.end.saturating_sub(1).max(r.start + 1);
        // Without escapes the value is the raw text between the quotes, so offsets inside it are exact.
        let exact = self.src.get(content.clone()) == Some(s.value.as_ref());
        match mode {
            AttrMode::Literal => {
                let inner = if exact { self.range(content) } else { range };
                let parts = vec![TemplatePart::Literal { value: s.value.into(), range: inner }];
                Expr::new(ExprKind::Template(Template { parts, kind: TemplateKind::Quoted }), range)
            }
            AttrMode::Template => match hcl_edit::parser::parse_template(&s.value) {
                Ok(template) => {
                    let converter = if exact {
                        Converter::new(&s.value, self.base + content.start)
                    } else {
                        Converter::with_fixed_range(&s.value, range)
                    };
                    Expr::new(ExprKind::Template(converter.standalone_template(template)), range)
                }
                Err(err) => self.embedded_error(&s.value, exact, content.start, range, &err),
            },
            _ => {
                // Whitespace around the expression is allowed, as in a native attribute value.
                let text = s.value.trim();
                let start = content.start + (s.value.len() - s.value.trim_start().len());
                let converter = if exact {
                    Converter::new(text, self.base + start)
                } else {
                    Converter::with_fixed_range(text, range)
                };
                match hcl_edit::parser::parse_expr(text) {
                    Ok(expr) => converter.expr(expr),
                    Err(err) => self.embedded_error(text, exact, start, range, &err),
                }
            }
        }
    }

    /// Reports an HCL error inside a JSON string and stands in an invalid expression for it.
    fn embedded_error(
        &mut self,
        text: &str,
        exact: bool,
        content_start: usize,
        range: TextRange,
        err: &hcl_edit::parser::Error,
    ) -> Expr {
        let mut error = crate::syntax_error(text, self.base + content_start, err);
        if !exact {
            // Unescaping moved the offsets: the error covers the string, up to its first line break (a string
            // may hold raw ones, and error ranges never span lines).
            let start = usize::from(range.start()).saturating_sub(self.base);
            error.range = self.first_line(start..usize::from(range.end()).saturating_sub(self.base));
        }
        self.errors.push(error);
        Expr::new(ExprKind::Invalid, range)
    }
}

/// The range an error about `value` covers: a scalar's token, or just the opening bracket of an array (which may
/// span many lines).
fn token_range(value: &j::Value) -> std::ops::Range<usize> {
    let r = value.range();
    match value {
        j::Value::Array(_) | j::Value::Object(_) => r.start..r.start + 1,
        _ => r.start..r.end,
    }
}

fn prop_name(name: ObjectPropName) -> (String, std::ops::Range<usize>) {
    match name {
        ObjectPropName::String(s) => (s.value.into_owned(), s.range.start..s.range.end),
        ObjectPropName::Word(w) => (w.value.to_owned(), w.range.start..w.range.end),
    }
}
