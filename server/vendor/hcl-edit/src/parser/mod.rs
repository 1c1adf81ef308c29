//! An HCL parser which keeps track of whitespace, comments and span information.

mod error;
#[cfg(test)]
mod tests;

pub use self::error::{Error, Location};
use crate::expr::Expression;
use crate::structure::Body;
use crate::template::Template;

// PATCH(foreach-ls 13): the grammar (`grammar/`) is compiled twice, once per error type. Winnow's `ContextError`
// allocates for every context a failed alternative collects on its way up and is moved through every `alt`,
// though nearly every such error is thrown away by the next alternative: parsing with `EmptyError`, which carries
// nothing, reads valid input about a quarter faster. Only input that fails is parsed again with `ContextError`,
// for the message. The two grammars are the same text, so they accept the same input and build the same tree.

/// The grammar with errors that carry nothing: tells valid input from invalid, fast.
#[path = "grammar"]
mod fast {
    type Error = winnow::error::EmptyError;
    pub(super) mod prelude;

    pub(super) mod expr;
    pub(super) mod nesting;
    mod number;
    mod pratt;
    mod repr;
    mod state;
    mod string;
    pub(super) mod structure;
    pub(super) mod template;
    mod trivia;
}

/// The grammar with errors that say what was expected where: parses input the fast grammar rejected.
#[path = "grammar"]
mod rich {
    type Error = winnow::error::ContextError;
    pub(super) mod prelude;

    pub(super) mod expr;
    pub(super) mod nesting;
    mod number;
    mod pratt;
    mod repr;
    mod state;
    mod string;
    pub(super) mod structure;
    pub(super) mod template;
    mod trivia;
}

/// Parse an input into a [`Body`].
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL body.
pub fn parse_body(input: &str) -> Result<Body, Error> {
    let mut body = parse_body_spanned(input)?;
    body.despan(input);
    Ok(body)
}

/// Parse an input into a [`Body`] whose whitespace and comments stay spans into `input` (PATCH(foreach-ls 9)).
///
/// [`parse_body`] copies every decor span into an owned string so the tree can be printed without the input;
/// a reader that never prints the tree can skip that pass, which allocates once per decorated node.
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL body.
pub fn parse_body_spanned(input: &str) -> Result<Body, Error> {
    parse_fast(input, fast::structure::body).map_or_else(|| parse_complete(input, rich::structure::body), Ok)
}

/// [`parse_body_spanned`] for a caller that needs no error message: `None` when the input is not a valid body,
/// without parsing it a second time for the message (PATCH(foreach-ls 13)).
pub fn parse_body_spanned_if_valid(input: &str) -> Option<Body> {
    parse_fast(input, fast::structure::body)
}

/// [`parse_body_spanned`] with the grammar whose errors say what was expected where, alone: for tests that check
/// that both grammars agree (PATCH(foreach-ls 13)).
#[doc(hidden)]
pub fn parse_body_spanned_rich(input: &str) -> Result<Body, Error> {
    parse_complete(input, rich::structure::body)
}

/// Parse an input into an [`Expression`].
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL expression.
pub fn parse_expr(input: &str) -> Result<Expression, Error> {
    let mut expr =
        parse_fast(input, fast::expr::root_expr).map_or_else(|| parse_complete(input, rich::expr::root_expr), Ok)?;
    expr.despan(input);
    Ok(expr)
}

/// Parse an input into a [`Template`].
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL template.
pub fn parse_template(input: &str) -> Result<Template, Error> {
    let mut template = parse_fast(input, fast::template::template)
        .map_or_else(|| parse_complete(input, rich::template::template), Ok)?;
    template.despan(input);
    Ok(template)
}

/// Parses `input` with the grammar whose errors carry nothing: `None` when it rejects the input.
fn parse_fast<'a, P, O>(input: &'a str, mut parser: P) -> Option<O>
where
    P: winnow::ModalParser<fast::prelude::Input<'a>, O, winnow::error::EmptyError>,
{
    parser.parse(fast::prelude::new_input(input)).ok()
}

/// Parses `input` with the grammar whose errors say what was expected where.
fn parse_complete<'a, P, O>(input: &'a str, mut parser: P) -> Result<O, Error>
where
    P: winnow::ModalParser<rich::prelude::Input<'a>, O, winnow::error::ContextError>,
{
    let input = rich::prelude::new_input(input);

    parser
        .parse(input)
        .map_err(|err| Error::from_parse_error(&err))
}
