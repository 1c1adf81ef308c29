//! The whitespace rules of `terraform fmt` (HCL's hclwrite formatter), restated on our tokens: only the spaces
//! before tokens change, never the tokens themselves, line breaks included.
//!
//! The text is cut into lines at line breaks (a `#`/`//` comment ends its line). Each line has up to three cells:
//! the lead, the assignment (from an `=` whose right side closes every bracket it opens) and a trailing comment.
//! Three passes then set the spaces: indentation from the brackets each line opens or closes, the spaces between
//! tokens inside a cell, and the alignment of the `=` and trailing-comment cells across consecutive lines.

use unicode_segmentation::UnicodeSegmentation;

use super::lex::{Kind, Token};

/// One line's cells as token index ranges (`assign` and `comment` empty when absent).
#[derive(Clone, Copy, Default)]
struct Line {
    lead: (usize, usize),
    assign: Option<(usize, usize)>,
    comment: Option<(usize, usize)>,
}

/// Sets `spaces` on every token but the end-of-text one.
pub(crate) fn layout(tokens: &mut [Token], src: &str, extra: &str) {
    let lines = lines(tokens, src, extra);
    indent(tokens, &lines);
    spaces(tokens, &lines, src, extra);
    align(tokens, &lines, src, extra);
}

fn ends_line(t: &Token, src: &str, extra: &str) -> bool {
    t.kind == Kind::Newline || (t.kind == Kind::Comment && t.text(src, extra).ends_with('\n'))
}

fn lines(tokens: &[Token], src: &str, extra: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Eof {
            out.push(Line { lead: (start, i), ..Line::default() });
            start = tokens.len();
            break;
        }
        if ends_line(t, src, extra) {
            out.push(Line { lead: (start, i + 1), ..Line::default() });
            start = i + 1;
        }
    }
    if start < tokens.len() {
        out.push(Line { lead: (start, tokens.len()), ..Line::default() });
    }
    for line in &mut out {
        let (s, e) = line.lead;
        if e - s > 1 && tokens[e - 1].kind == Kind::Comment {
            line.comment = Some((e - 1, e));
            line.lead = (s, e - 1);
        }
        let (s, e) = line.lead;
        if let Some(eq) = (s + 1..e).find(|&i| tokens[i].kind == Kind::Equal) {
            let net: i32 = tokens[eq..e].iter().map(bracket_change).sum();
            if net == 0 {
                line.assign = Some((eq, e));
                line.lead = (s, eq);
            }
        }
    }
    out
}

fn bracket_change(t: &Token) -> i32 {
    match t.kind {
        Kind::OBrace | Kind::OBrack | Kind::OParen | Kind::TemplateControl | Kind::TemplateInterp => 1,
        Kind::CBrace | Kind::CBrack | Kind::CParen | Kind::TemplateSeqEnd => -1,
        _ => 0,
    }
}

fn set_spaces(t: &mut Token, n: u32) {
    t.spaces = n;
}

fn indent(tokens: &mut [Token], lines: &[Line]) {
    // Each entry is the number of brackets a line opened; closing them all takes the indentation back one step.
    let mut stack: Vec<i32> = Vec::with_capacity(16);
    for line in lines {
        let (s, e) = line.lead;
        if s == e {
            continue;
        }
        if tokens[s].kind == Kind::Newline {
            set_spaces(&mut tokens[s], 0);
            continue;
        }
        let mut net = 0;
        for t in &tokens[s..e] {
            net += bracket_change(t);
            if t.kind == Kind::OHeredoc {
                break;
            }
        }
        if let Some((a, b)) = line.assign {
            net += tokens[a..b].iter().map(bracket_change).sum::<i32>();
        }
        if net > 0 {
            set_spaces(&mut tokens[s], 2 * stack.len() as u32);
            stack.push(net);
            continue;
        }
        let mut closed = -net;
        while closed > 0 {
            let Some(top) = stack.last_mut() else { break };
            if closed >= *top {
                closed -= *top;
                stack.pop();
            } else {
                *top -= closed;
                closed = 0;
            }
        }
        set_spaces(&mut tokens[s], 2 * stack.len() as u32);
    }
}

fn spaces(tokens: &mut [Token], lines: &[Line], src: &str, extra: &str) {
    for line in lines {
        cell_spaces(tokens, line.lead, src, extra);
        if let Some((a, b)) = line.assign {
            set_spaces(&mut tokens[a], 1);
            cell_spaces(tokens, (a, b), src, extra);
        }
    }
}

fn cell_spaces(tokens: &mut [Token], (s, e): (usize, usize), src: &str, extra: &str) {
    for i in s..e.saturating_sub(1) {
        let before = if i > s { Some(tokens[i - 1].kind) } else { None };
        let is_in = tokens[i].kind == Kind::Ident && tokens[i].text(src, extra) == "in";
        let n = u32::from(space_after(tokens[i].kind, before, tokens[i + 1].kind, is_in));
        set_spaces(&mut tokens[i + 1], n);
    }
}

/// Whether a space goes between `subject` and `after` (`before` is the token before `subject` in the cell).
fn space_after(subject: Kind, before: Option<Kind>, after: Kind, subject_is_in: bool) -> bool {
    use Kind::*;
    let opens = |k: Kind| matches!(k, OBrace | OBrack | OParen | TemplateControl | TemplateInterp);
    let closes = |k: Kind| matches!(k, CBrace | CBrack | CParen | TemplateSeqEnd);
    match () {
        _ if matches!(after, Newline | Eof) => false,
        _ if subject == Ident && after == OParen => false,
        _ if (subject == Ident && after == DoubleColon) || (subject == DoubleColon && after == Ident) => false,
        _ if subject == Dot || after == Dot => false,
        _ if matches!(after, Comma | Ellipsis) => false,
        _ if subject == Comma => true,
        _ if matches!(subject, QuotedLit | StringLit | OQuote | OHeredoc)
            || matches!(after, QuotedLit | StringLit | CQuote | CHeredoc) =>
        {
            false
        }
        // `[for x in [a] : x]`: `in` is a keyword here, not a name being indexed.
        _ if subject_is_in && before == Some(Ident) => true,
        _ if after == OBrack && (subject == Ident || subject == Number || closes(subject)) => false,
        _ if subject == Bang => false,
        // A minus after something that cannot end an operand is a negation, written against its operand.
        _ if subject == Minus => !matches!(
            before,
            None | Some(
                OParen
                    | OBrace
                    | OBrack
                    | Equal
                    | Colon
                    | Comma
                    | Question
                    | Plus
                    | Star
                    | Slash
                    | Percent
                    | Minus
                    | EqualOp
                    | NotEqual
                    | Gt
                    | Gte
                    | Lt
                    | Lte
                    | And
                    | Or
                    | Bang
            )
        ),
        _ if subject == OBrace || after == CBrace => !(subject == OBrace && after == CBrace),
        _ if matches!(subject, TemplateInterp | TemplateControl) && after == OBrace => true,
        _ if subject == CBrace && after == TemplateSeqEnd => true,
        _ if subject == TemplateSeqEnd && matches!(after, TemplateInterp | TemplateControl) => false,
        _ if opens(subject) => false,
        _ if closes(after) => false,
        _ => true,
    }
}

fn columns(tokens: &[Token], (s, e): (usize, usize), src: &str, extra: &str) -> usize {
    tokens[s..e]
        .iter()
        .map(|t| {
            let text = t.text(src, extra);
            let width = if text.is_ascii() { text.len() } else { text.graphemes(true).count() };
            t.spaces as usize + width
        })
        .sum()
}

fn align(tokens: &mut [Token], lines: &[Line], src: &str, extra: &str) {
    let mut i = 0;
    while i < lines.len() {
        if lines[i].assign.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        let mut widest = 0;
        while i < lines.len() && lines[i].assign.is_some() {
            widest = widest.max(columns(tokens, lines[i].lead, src, extra));
            i += 1;
        }
        for line in &lines[start..i] {
            let n = widest - columns(tokens, line.lead, src, extra) + 1;
            let (a, _) = line.assign.unwrap_or_default();
            set_spaces(&mut tokens[a], n as u32);
        }
    }
    let width = |tokens: &[Token], line: &Line| {
        columns(tokens, line.lead, src, extra) + line.assign.map_or(0, |cell| columns(tokens, cell, src, extra))
    };
    let mut i = 0;
    while i < lines.len() {
        if lines[i].comment.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        let mut widest = 0;
        while i < lines.len() && lines[i].comment.is_some() {
            widest = widest.max(width(tokens, &lines[i]));
            i += 1;
        }
        for line in &lines[start..i] {
            let n = widest - width(tokens, line) + 1;
            let (c, _) = line.comment.unwrap_or_default();
            set_spaces(&mut tokens[c], n as u32);
        }
    }
}
