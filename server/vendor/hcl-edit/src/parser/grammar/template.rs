use super::prelude::*;

use super::expr::multiline_expr;
use super::nesting::nested;
use super::repr::{decorated, spanned};
use super::string::{
    build_string, cut_char, cut_ident, cut_tag, quoted_string_fragment, raw_string,
    template_string_fragment,
};
use super::trivia::ws;

use crate::template::{
    Directive, Element, ElseTemplateExpr, EndforTemplateExpr, EndifTemplateExpr, ForDirective,
    ForTemplateExpr, IfDirective, IfTemplateExpr, Interpolation, StringTemplate, Strip, Template,
};
use crate::{SetSpan, Span, Spanned};

use std::borrow::Cow;
use winnow::ascii::{line_ending, space0};
use winnow::combinator::{alt, delimited, eof, opt, peek, preceded, repeat, separated_pair, terminated};

pub(super) fn string_template(input: &mut Input) -> ModalResult<StringTemplate> {
    // PATCH(foreach-ls 7): the state is not part of checkpoints, so it is restored explicitly.
    let outer = input.state.quoted;
    input.state.quoted = true;
    let result = delimited('"', elements(build_string(quoted_string_fragment)), '"')
        .output_into()
        .parse_next(input);
    input.state.quoted = outer;
    result
}

pub(in crate::parser) fn template(input: &mut Input) -> ModalResult<Template> {
    // PATCH(foreach-ls 7): a directive's body inside a quoted string is quoted text: it ends at a `"` and cannot
    // contain a raw line break (it used to be parsed like heredoc text).
    if input.state.quoted {
        return elements(build_string(quoted_string_fragment))
            .output_into()
            .parse_next(input);
    }
    let literal_end = alt(("${", "%{"));
    let literal = template_literal(literal_end);
    elements(literal).output_into().parse_next(input)
}

pub(super) fn heredoc_template<'a>(
    delim: &'a str,
) -> impl ModalParser<Input<'a>, Template, ContextError> {
    move |input: &mut Input<'a>| {
        // PATCH(foreach-ls 7): a heredoc inside an interpolation of a quoted string is not quoted.
        let outer = input.state.quoted;
        input.state.quoted = false;
        let result = heredoc_template_inner(delim, input);
        input.state.quoted = outer;
        result
    }
}

// PATCH(foreach-ls 7): the former body of `heredoc_template`, unchanged but for PATCH(foreach-ls 11).
fn heredoc_template_inner<'a>(delim: &'a str, input: &mut Input<'a>) -> ModalResult<Template> {
    // PATCH(foreach-ls 11): a heredoc whose first line already closes it is empty. The search for the closing line
    // below starts with a line ending, which `heredoc_start` has consumed here, so it used to run on to the next
    // closing line of a later heredoc and swallow everything in between.
    if peek(heredoc_closing_line(delim)).parse_next(input).is_ok() {
        return Ok(Template::default());
    }
    {
        // We'll need to look for a line ending followed by optional space and the heredoc
        // delimiter.
        //
        // Here's the catch though: the line ending has to be treated as part of the last template
        // literal, but is still required to be matched when detecting the heredoc end. Matching
        // only `(space0, delim)` is not sufficient, because heredocs can contain their delimiter
        // as long as it's not preceeded by a line ending.
        //
        // Handling this case via parser combinators is quite tricky and thus we'll manually add
        // the line ending to the last template element below.
        // PATCH(foreach-ls 11): the closing line is the delimiter alone (hclsyntax trims the line's white space and
        // compares it with the delimiter); a line such as `EOF"` in a shell script inside the heredoc is text.
        let heredoc_end = (line_ending, heredoc_closing_line(delim)).take();
        let literal_end = alt(("${", "%{", heredoc_end));
        let literal = template_literal(literal_end);

        // Use `opt` to handle an empty template.
        opt((elements(literal), line_ending.with_span()).map(
            |(mut elements, (line_ending, line_ending_span))| {
                // If there is a trailing literal, update its span and append the line ending to
                // it. Otherwise just add a new literal containing only the line ending.
                if let Some(Element::Literal(lit)) = elements.last_mut() {
                    let existing_span = lit.span().unwrap();
                    lit.push_str(line_ending);
                    lit.set_span(existing_span.start..line_ending_span.end);
                } else {
                    let mut lit = Spanned::new(String::from(line_ending));
                    lit.set_span(line_ending_span);
                    elements.push(Element::Literal(lit));
                }

                Template::from(elements)
            },
        ))
        .map(Option::unwrap_or_default)
        .parse_next(input)
    }
}

/// PATCH(foreach-ls 11): a line that closes a heredoc: the delimiter with optional white space around it, then a
/// line ending or the end of the input (which the line ending is not part of).
fn heredoc_closing_line<'a>(delim: &'a str) -> impl ModalParser<Input<'a>, (), ContextError> {
    move |input: &mut Input<'a>| {
        (space0, delim, space0, peek(alt((line_ending, eof)))).void().parse_next(input)
    }
}

#[inline]
fn template_literal<'a, F, T>(
    literal_end: F,
) -> impl ModalParser<Input<'a>, Cow<'a, str>, ContextError>
where
    F: ModalParser<Input<'a>, T, ContextError>,
{
    build_string(template_string_fragment(literal_end))
}

fn elements<'a, P>(literal: P) -> impl ModalParser<Input<'a>, Vec<Element>, ContextError>
where
    P: ModalParser<Input<'a>, Cow<'a, str>, ContextError>,
{
    repeat(
        0..,
        spanned(alt((
            literal.map(|s| Element::Literal(Spanned::new(s.into()))),
            interpolation.map(Element::Interpolation),
            directive.map(|d| Element::Directive(Box::new(d))),
        ))),
    )
}

fn interpolation(input: &mut Input) -> ModalResult<Interpolation> {
    control("${", decorated(ws, multiline_expr, ws))
        .map(|(expr, strip)| {
            let mut interp = Interpolation::new(expr);
            interp.strip = strip;
            interp
        })
        .parse_next(input)
}

fn directive(input: &mut Input) -> ModalResult<Directive> {
    alt((
        if_directive.map(Directive::If),
        for_directive.map(Directive::For),
    ))
    .parse_next(input)
}

fn if_directive(input: &mut Input) -> ModalResult<IfDirective> {
    let if_expr = (
        control(
            "%{",
            // PATCH(foreach-ls 3): newlines are allowed inside a directive's braces.
            (terminated(raw_string(ws), "if"), decorated(ws, multiline_expr, ws)),
        ),
        spanned(nested(template)),
    )
        .map(|(((preamble, cond_expr), strip), template)| {
            let mut expr = IfTemplateExpr::new(cond_expr, template);
            expr.strip = strip;
            expr.set_preamble(preamble);
            expr
        });

    let else_expr = (
        control("%{", separated_pair(raw_string(ws), "else", raw_string(ws))),
        spanned(nested(template)),
    )
        .map(|(((preamble, trailing), strip), template)| {
            let mut expr = ElseTemplateExpr::new(template);
            expr.strip = strip;
            expr.set_preamble(preamble);
            expr.set_trailing(trailing);
            expr
        });

    let endif_expr = control(
        "%{",
        separated_pair(raw_string(ws), cut_tag("endif"), raw_string(ws)),
    )
    .map(|((preamble, trailing), strip)| {
        let mut expr = EndifTemplateExpr::new();
        expr.strip = strip;
        expr.set_preamble(preamble);
        expr.set_trailing(trailing);
        expr
    });

    (if_expr, opt(else_expr), endif_expr)
        .map(|(if_expr, else_expr, endif_expr)| IfDirective::new(if_expr, else_expr, endif_expr))
        .parse_next(input)
}

fn for_directive(input: &mut Input) -> ModalResult<ForDirective> {
    let for_expr = (
        control(
            "%{",
            (
                terminated(raw_string(ws), "for"),
                decorated(ws, cut_ident, ws),
                opt(preceded(',', decorated(ws, cut_ident, ws))),
                // PATCH(foreach-ls 3): newlines are allowed inside a directive's braces.
                preceded(cut_tag("in"), decorated(ws, multiline_expr, ws)),
            ),
        ),
        spanned(nested(template)),
    )
        .map(
            |(((preamble, key_var, value_var, collection_expr), strip), template)| {
                let (key_var, value_var) = match value_var {
                    Some(value_var) => (Some(key_var), value_var),
                    None => (None, key_var),
                };

                let mut expr = ForTemplateExpr::new(key_var, value_var, collection_expr, template);
                expr.strip = strip;
                expr.set_preamble(preamble);
                expr
            },
        );

    let endfor_expr = control(
        "%{",
        separated_pair(raw_string(ws), cut_tag("endfor"), raw_string(ws)),
    )
    .map(|((preamble, trailing), strip)| {
        let mut expr = EndforTemplateExpr::new();
        expr.strip = strip;
        expr.set_preamble(preamble);
        expr.set_trailing(trailing);
        expr
    });

    (for_expr, endfor_expr)
        .map(|(for_expr, endfor_expr)| ForDirective::new(for_expr, endfor_expr))
        .parse_next(input)
}

fn control<'a, S, P, O1, O2>(
    intro: S,
    inner: P,
) -> impl ModalParser<Input<'a>, (O2, Strip), ContextError>
where
    S: ModalParser<Input<'a>, O1, ContextError>,
    P: ModalParser<Input<'a>, O2, ContextError>,
{
    (
        preceded(intro, opt('~')),
        inner,
        terminated(opt('~'), cut_char('}')),
    )
        .map(|(strip_start, output, strip_end)| {
            (
                output,
                Strip::from((strip_start.is_some(), strip_end.is_some())),
            )
        })
}
