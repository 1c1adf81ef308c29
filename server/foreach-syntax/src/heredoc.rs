//! Removes the indentation of a `<<-` heredoc the way hclsyntax does, after strip markers were applied.
//!
//! hclsyntax works on the heredoc's flat token stream, in which a literal token ends after each line break and
//! interpolations and directive markers (`%{ if }`, `%{ else }`, `%{ endif }`, ...) are tokens of their own. The
//! indentation to remove is the smallest number of leading whitespace characters over the tokens that start a
//! line; a line that starts with a non-literal token counts as zero, and a whitespace-only line that ends with a
//! line break ("blank") does not count and keeps its whitespace. Strip markers (`~`) run first, so a stripped
//! indentation (`  %{~ endif }`) can leave a line starting with an empty literal, which counts as zero.

use crate::ast::{SmolStr, Template, TemplateFor, TemplateIf, TemplatePart};

/// One token of the flattened template: a literal (a part's text) or anything else.
enum Token<'a> {
    Literal(&'a mut SmolStr),
    Other,
}

/// Removes the common indentation from a converted `<<-` heredoc, in place.
pub(crate) fn remove_indentation(template: &mut Template) {
    let mut tokens = Vec::new();
    flatten(template, &mut tokens);

    // Pass 1: the line starts (token index, byte offset in that literal) and the smallest indentation.
    let mut min = usize::MAX;
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut at_line_start = true;
    for (index, token) in tokens.iter().enumerate() {
        match token {
            Token::Other => {
                if at_line_start {
                    min = 0;
                }
                at_line_start = false;
            }
            Token::Literal(text) => {
                let mut pos = 0;
                loop {
                    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
                    let line = &text[pos..end];
                    if at_line_start {
                        let content = line.trim_start();
                        let blank = content.is_empty() && line.ends_with('\n');
                        if !blank {
                            // Characters, not bytes (hclsyntax counts grapheme clusters; whitespace is one each).
                            min = min.min(line[..line.len() - content.len()].chars().count());
                            starts.push((index, pos));
                        }
                    }
                    at_line_start = line.ends_with('\n');
                    pos = end;
                    if pos >= text.len() {
                        break;
                    }
                }
            }
        }
    }
    if min == 0 || min == usize::MAX {
        return;
    }

    // Pass 2: remove `min` whitespace characters at every counted line start, last first so offsets stay valid.
    for &(index, pos) in starts.iter().rev() {
        if let Token::Literal(text) = &mut tokens[index] {
            let bytes: usize = text[pos..].chars().take(min).map(char::len_utf8).sum();
            let mut edited = text.to_string();
            edited.replace_range(pos..pos + bytes, "");
            **text = edited.into();
        }
    }
}

/// Lists the tokens of `template` in source order.
fn flatten<'a>(template: &'a mut Template, out: &mut Vec<Token<'a>>) {
    for part in &mut template.parts {
        match part {
            TemplatePart::Literal { value, .. } => out.push(Token::Literal(value)),
            TemplatePart::Interpolation(_) => out.push(Token::Other),
            TemplatePart::If(directive) => {
                let TemplateIf { then_part, else_part, .. } = &mut **directive;
                out.push(Token::Other);
                flatten(then_part, out);
                if let Some(else_part) = else_part {
                    out.push(Token::Other);
                    flatten(else_part, out);
                }
                out.push(Token::Other);
            }
            TemplatePart::For(directive) => {
                let TemplateFor { body, .. } = &mut **directive;
                out.push(Token::Other);
                flatten(body, out);
                out.push(Token::Other);
            }
        }
    }
}
