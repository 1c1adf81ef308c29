//! What sets of copies merged in a JSON file add to the file's root object: their local maps (into its `locals`
//! when it has one, else in a new `"locals"` member right before the member that holds the merged block, as a
//! native file has them above it) and their `moved` blocks (into its `moved` list, else in a new `"moved"` member
//! right after that member). The file's members keep their order and layout.

use std::ops::Range;

use foreach_syntax::{TextRange, TextSize};

use super::copies::JsonRoot;
use super::json::{self, Node, Out};

/// The insertions into `text` (a JSON file) for `roots`, all from sets merged in it.
pub(super) fn additions(text: &str, roots: &[&JsonRoot]) -> Result<Vec<(TextRange, String)>, String> {
    let root = json::parse(text).ok_or("the JSON file cannot be read")?;
    let layout = json::Layout::of(text, &root);
    let members = root.members();
    // The root member that holds the first block that needs a local map, or `moved` blocks.
    let holder = |wanted: &dyn Fn(&JsonRoot) -> bool| {
        let root = roots.iter().find(|r| wanted(r))?;
        let (start, end) = (usize::from(root.anchor.start()), usize::from(root.anchor.end()));
        members.iter().find(|m| m.span().start <= start && end <= m.span().end)
    };
    let missing = "the merged block is not in the JSON file's root object";
    let at = |offset: usize| TextRange::empty(TextSize::from(offset as u32));
    let mut out = Vec::new();

    let locals: Vec<(String, Out)> = roots.iter().filter_map(|r| r.local.clone()).collect();
    if !locals.is_empty() {
        match members.iter().find(|m| m.key == "locals").map(|m| &m.value) {
            Some(existing @ Node::Object { .. }) => {
                for (name, value) in &locals {
                    let (offset, new) = json::append(text, existing, Some(name), value, &layout);
                    out.push((at(offset), new));
                }
            }
            Some(existing @ Node::Array { .. }) => {
                let (offset, new) = json::append(text, existing, None, &Out::Object(locals), &layout);
                out.push((at(offset), new));
            }
            _ => {
                let anchor = holder(&|r| r.local.is_some()).ok_or(missing)?;
                let (offset, new) = json::insert_before(text, &anchor.span(), "locals", &Out::Object(locals), &layout);
                out.push((at(offset), new));
            }
        }
    }

    let moved: Vec<Out> = roots.iter().flat_map(|r| r.moved.iter().cloned()).collect();
    if !moved.is_empty() {
        match members.iter().find(|m| m.key == "moved").map(|m| &m.value) {
            Some(existing @ Node::Array { .. }) => {
                for m in &moved {
                    let (offset, new) = json::append(text, existing, None, m, &layout);
                    out.push((at(offset), new));
                }
            }
            // One `moved` block written as an object: it becomes the first of a list.
            Some(existing @ Node::Object { .. }) => {
                let r: Range<usize> = existing.range();
                let level = json::level_at(text, r.start, &layout);
                let mut all = vec![Out::Raw { text: text[r.clone()].to_string(), level }];
                all.extend(moved);
                let range = TextRange::new(TextSize::from(r.start as u32), TextSize::from(r.end as u32));
                out.push((range, Out::Array(all).render(&layout, level)));
            }
            _ => {
                let anchor = holder(&|r| !r.moved.is_empty()).ok_or(missing)?;
                let new = format!(
                    ",{}{}{}",
                    if layout.unit.is_empty() { layout.after_comma.clone() } else { layout.newline.to_string() },
                    layout.unit,
                    format_args!("{}{}{}", json::quoted("moved"), layout.colon, Out::Array(moved).render(&layout, 1))
                );
                out.push((at(anchor.span().end), new));
            }
        }
    }
    Ok(out)
}
