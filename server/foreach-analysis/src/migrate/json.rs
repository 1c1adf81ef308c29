//! Editing JSON configuration files (`.tf.json`, `.tofu.json`) in their own layout: where every member of the
//! file is, what its indentation, line breaks and `:` spacing are, and the edits that remove members, add members
//! and write new values in that layout. The migration's edits on JSON files are text edits like those on native
//! files: the members it does not change keep their bytes and their order.
//!
//! The reader here only keeps positions: the files it reads have been parsed without errors already
//! (`foreach_syntax::parse`), and it gives up (`None`) on anything else.

use std::ops::Range;

/// A JSON value, with where it is.
#[derive(Debug, Clone)]
pub(super) enum Node {
    Object { range: Range<usize>, members: Vec<Member> },
    Array { range: Range<usize>, elements: Vec<Node> },
    Scalar { range: Range<usize> },
}

/// One property of an object.
#[derive(Debug, Clone)]
pub(super) struct Member {
    pub key: String,
    pub key_range: Range<usize>,
    pub value: Node,
}

impl Member {
    /// From the key's opening quote to the value's end.
    pub(super) fn span(&self) -> Range<usize> {
        self.key_range.start..self.value.range().end
    }
}

impl Node {
    pub(super) fn range(&self) -> Range<usize> {
        match self {
            Node::Object { range, .. } | Node::Array { range, .. } | Node::Scalar { range } => range.clone(),
        }
    }

    pub(super) fn members(&self) -> &[Member] {
        match self {
            Node::Object { members, .. } => members,
            _ => &[],
        }
    }
}

/// Deeper than `foreach_syntax` reads JSON (256 levels): a file that got here is never this deep.
const MAX_DEPTH: usize = 300;

/// The root value of a JSON text.
pub(super) fn parse(text: &str) -> Option<Node> {
    let mut r = Reader { b: text.as_bytes(), at: 0, text };
    if text.starts_with('\u{feff}') {
        r.at = '\u{feff}'.len_utf8();
    }
    r.ws();
    let root = r.value(0)?;
    r.ws();
    (r.at == r.b.len()).then_some(root)
}

struct Reader<'a> {
    b: &'a [u8],
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.b.get(self.at).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let start = self.at;
        match self.b.get(self.at)? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                self.ws();
                if self.b.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Some(Node::Object { range: start..self.at, members });
                }
                loop {
                    self.ws();
                    let key_range = self.string()?;
                    let key = serde_json::from_str::<String>(&self.text[key_range.clone()]).ok()?;
                    self.ws();
                    (self.b.get(self.at) == Some(&b':')).then_some(())?;
                    self.at += 1;
                    self.ws();
                    let value = self.value(depth + 1)?;
                    members.push(Member { key, key_range, value });
                    self.ws();
                    match self.b.get(self.at)? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Some(Node::Object { range: start..self.at, members });
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut elements = Vec::new();
                self.ws();
                if self.b.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Some(Node::Array { range: start..self.at, elements });
                }
                loop {
                    self.ws();
                    elements.push(self.value(depth + 1)?);
                    self.ws();
                    match self.b.get(self.at)? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(Node::Array { range: start..self.at, elements });
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => Some(Node::Scalar { range: self.string()? }),
            _ => {
                while self.b.get(self.at).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
                {
                    self.at += 1;
                }
                (self.at > start).then_some(Node::Scalar { range: start..self.at })
            }
        }
    }

    /// A string token, quotes included.
    fn string(&mut self) -> Option<Range<usize>> {
        let start = self.at;
        (self.b.get(self.at) == Some(&b'"')).then_some(())?;
        self.at += 1;
        loop {
            match self.b.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Some(start..self.at);
                }
                _ => self.at += 1,
            }
        }
    }
}

/// The text of a JSON string holding `s`, quotes included.
pub(super) fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// `s` escaped to go inside a JSON string.
pub(super) fn escaped(s: &str) -> String {
    let q = quoted(s);
    q[1..q.len() - 1].to_string()
}

/// The member of a JSON file that holds a block, which replacing or removing the block replaces or removes: the
/// property `"name": { … }` of its labels' object (the block's range), or the element `{ … }` of a list of bodies
/// (`"aws": [{ … }, { … }]`, as cdktf writes provider configurations). `None` for another shape.
pub(super) fn member_of(text: &str, block: &foreach_syntax::ast::Block) -> Option<foreach_syntax::TextRange> {
    let body = block.body_range;
    let before = text.get(..usize::from(body.start()))?.trim_end();
    match before.chars().last()? {
        ':' => {
            let key = block.labels.last().map_or(block.ident.range, |l| l.range);
            let between = text.get(usize::from(key.end())..usize::from(body.start()))?;
            (between.trim() == ":" && block.range.start() == key.start()).then_some(block.range)
        }
        '[' | ',' => Some(body),
        _ => None,
    }
}

/// Where the comments (`"//"` members, which OpenTofu skips) inside `within` start.
pub(super) fn comments_in(node: &Node, within: &Range<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    match node {
        Node::Object { members, .. } => {
            for m in members {
                if m.key == "//" && within.start <= m.key_range.start && m.span().end <= within.end {
                    out.push(m.key_range.start);
                }
                out.extend(comments_in(&m.value, within));
            }
        }
        Node::Array { elements, .. } => elements.iter().for_each(|e| out.extend(comments_in(e, within))),
        Node::Scalar { .. } => {}
    }
    out
}

/// How a JSON file is laid out, so that what is added to it looks like the rest.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    /// One level of indentation (`"  "`, `"    "`, `"\t"`); empty for a file written on one line.
    pub unit: String,
    pub newline: &'static str,
    /// What separates a key from its value (`": "`, `":"`).
    pub colon: String,
    /// What follows a `,` between members on one line (a file written on one line).
    pub after_comma: String,
}

impl Layout {
    pub(super) fn of(text: &str, root: &Node) -> Layout {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let members = root.members();
        let Some(first) = members.first() else {
            return Layout { unit: "  ".into(), newline, colon: ": ".into(), after_comma: String::new() };
        };
        let colon = text[first.key_range.end..first.value.range().start].to_string();
        let before = &text[root.range().start + 1..first.key_range.start];
        let unit = match before.rfind('\n') {
            Some(i) => before[i + 1..].to_string(),
            None => String::new(),
        };
        let after_comma = match members.get(1) {
            Some(second) if unit.is_empty() => {
                text[first.value.range().end..second.key_range.start].trim_start_matches(',').to_string()
            }
            _ => String::new(),
        };
        Layout { unit, newline, colon, after_comma }
    }

    fn one_line(&self) -> bool {
        self.unit.is_empty()
    }

    fn indent(&self, level: usize) -> String {
        self.unit.repeat(level)
    }
}

/// A value to write.
#[derive(Debug, Clone)]
pub(super) enum Out {
    Object(Vec<(String, Out)>),
    Array(Vec<Out>),
    /// A JSON string holding this text.
    Str(String),
    /// JSON text copied from the file, with the indentation level its first line was at (its other lines move
    /// with it).
    Raw {
        text: String,
        level: usize,
    },
}

impl Out {
    /// The value as JSON in `layout`, its first line at indentation `level` (already written by the caller).
    pub(super) fn render(&self, layout: &Layout, level: usize) -> String {
        let nl = layout.newline;
        match self {
            Out::Str(s) => quoted(s),
            Out::Raw { text, level: from } => reindent(text, layout, *from, level),
            Out::Object(members) if members.is_empty() => "{}".to_string(),
            Out::Array(items) if items.is_empty() => "[]".to_string(),
            Out::Object(members) => {
                let items: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{}{}{}", quoted(k), layout.colon, v.render(layout, level + 1)))
                    .collect();
                wrap('{', '}', &items, layout, level, nl)
            }
            Out::Array(items) => {
                let items: Vec<String> = items.iter().map(|v| v.render(layout, level + 1)).collect();
                wrap('[', ']', &items, layout, level, nl)
            }
        }
    }
}

fn wrap(open: char, close: char, items: &[String], layout: &Layout, level: usize, nl: &str) -> String {
    if layout.one_line() {
        return format!("{open}{}{close}", items.join(&format!(",{}", layout.after_comma)));
    }
    let inner = layout.indent(level + 1);
    let lines: Vec<String> = items.iter().map(|i| format!("{inner}{i}")).collect();
    format!("{open}{nl}{}{nl}{}{close}", lines.join(&format!(",{nl}")), layout.indent(level))
}

/// A value's text moved from indentation level `from` to `to`: every line after the first shifts by the difference.
fn reindent(text: &str, layout: &Layout, from: usize, to: usize) -> String {
    if layout.one_line() || from == to || !text.contains('\n') {
        return text.to_string();
    }
    let (old, new) = (layout.indent(from), layout.indent(to));
    let mut lines = text.split('\n');
    let mut out = lines.next().unwrap_or_default().to_string();
    for line in lines {
        out.push('\n');
        match line.strip_prefix(old.as_str()) {
            Some(rest) => {
                out.push_str(&new);
                out.push_str(rest);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The indentation level of the line `offset` is on, in `layout`'s unit.
pub(super) fn level_at(text: &str, offset: usize, layout: &Layout) -> usize {
    if layout.one_line() {
        return 0;
    }
    let line = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[line..].len() - text[line..].trim_start_matches([' ', '\t']).len();
    indent / layout.unit.len().max(1)
}

/// Where a member is: its container, and the member that holds that.
struct Place<'a> {
    container: &'a Node,
    /// The member that holds the container (`None` for the root).
    parent: Option<Range<usize>>,
}

/// The spans (a property from its key, an array element) of the members of a container.
fn spans(container: &Node) -> Vec<Range<usize>> {
    match container {
        Node::Object { members, .. } => members.iter().map(Member::span).collect(),
        Node::Array { elements, .. } => elements.iter().map(Node::range).collect(),
        Node::Scalar { .. } => Vec::new(),
    }
}

/// Finds the member whose span is `target`, below `node` (held by the member `parent`).
fn find<'a>(node: &'a Node, parent: Option<Range<usize>>, target: &Range<usize>) -> Option<Place<'a>> {
    if spans(node).iter().any(|s| s == target) {
        return Some(Place { container: node, parent });
    }
    let children: Vec<(&Node, Range<usize>)> = match node {
        Node::Object { members, .. } => members.iter().map(|m| (&m.value, m.span())).collect(),
        Node::Array { elements, .. } => elements.iter().map(|e| (e, e.range())).collect(),
        Node::Scalar { .. } => Vec::new(),
    };
    children
        .into_iter()
        .find(|(c, _)| c.range().start <= target.start && target.end <= c.range().end)
        .and_then(|(child, span)| find(child, Some(span), target))
}

/// The deletions that remove the members with spans `targets` (properties from their key, or array elements), and
/// the comma next to each, from the file. A container left empty goes too, as a member of its own container
/// (`"aws_s3_bucket": {}` once its last copy is gone), up to the root object, which stays.
pub(super) fn removals(text: &str, root: &Node, targets: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut targets: Vec<Range<usize>> = targets.to_vec();
    // Containers emptied: their own member is removed instead, until none is.
    loop {
        let mut grown = false;
        // Per container: the member that holds it, and how many of its members go.
        let mut by_container: Vec<(&Node, Option<Range<usize>>, usize)> = Vec::new();
        for t in &targets {
            let Some(p) = find(root, None, t) else { continue };
            match by_container.iter_mut().find(|(c, ..)| c.range() == p.container.range()) {
                Some(entry) => entry.2 += 1,
                None => by_container.push((p.container, p.parent.clone(), 1)),
            }
        }
        for (container, parent, removed) in by_container {
            if let Some(parent) = parent
                && removed == spans(container).len()
            {
                let r = container.range();
                targets.retain(|t| !(r.start <= t.start && t.end <= r.end));
                targets.push(parent);
                grown = true;
            }
        }
        if !grown {
            break;
        }
    }
    targets.sort_by_key(|t| t.start);
    targets.dedup();

    let mut out = Vec::new();
    // Per container, each run of removed members in a row goes with the commas and line breaks that separate it.
    let mut done: Vec<Range<usize>> = Vec::new();
    for t in &targets {
        let Some(p) = find(root, None, t) else { continue };
        let all = spans(p.container);
        if done.contains(&p.container.range()) {
            continue;
        }
        done.push(p.container.range());
        let removed: Vec<bool> = all.iter().map(|s| targets.contains(s)).collect();
        let mut i = 0;
        while i < all.len() {
            if !removed[i] {
                i += 1;
                continue;
            }
            let run_start = i;
            while i < all.len() && removed[i] {
                i += 1;
            }
            let (first, last) = (&all[run_start], &all[i - 1]);
            match (all.get(i), run_start.checked_sub(1).map(|k| &all[k])) {
                // Up to the next member: from the run's line (when it starts one) to the next member's line.
                (Some(next), _) => {
                    let from = own_line_start(text, first.start).unwrap_or(first.start);
                    let to = own_line_start(text, next.start).filter(|s| *s > from).unwrap_or(next.start);
                    out.push(from..to);
                }
                // The last ones: from the end of the member before, its comma included.
                (None, Some(before)) => out.push(before.end..last.end),
                // Every member of the root.
                (None, None) => out.push(own_line_start(text, first.start).unwrap_or(first.start)..last.end),
            }
        }
    }
    out.sort_by_key(|r| r.start);
    out
}

/// The start of the line `offset` is on, when only indentation comes before it there.
fn own_line_start(text: &str, offset: usize) -> Option<usize> {
    let line = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line..offset].trim().is_empty().then_some(line)
}

/// The edit that adds `key: value` as the last member of the object `object`, or a new element to the array
/// `object` (with `key` `None`): `(offset, text)` to insert.
pub(super) fn append(text: &str, container: &Node, key: Option<&str>, value: &Out, layout: &Layout) -> (usize, String) {
    let level = level_at(text, container.range().start, layout);
    let member = |level: usize| match key {
        Some(k) => format!("{}{}{}", quoted(k), layout.colon, value.render(layout, level)),
        None => value.render(layout, level),
    };
    let spans = spans(container);
    let close = container.range().end - 1;
    match spans.last() {
        Some(last) if layout.one_line() => (last.end, format!(",{}{}", layout.after_comma, member(level + 1))),
        Some(last) => {
            let at = level_at(text, last.start, layout);
            (last.end, format!(",{}{}{}", layout.newline, layout.indent(at), member(at)))
        }
        None if layout.one_line() => (close, member(level + 1)),
        None => (
            close,
            format!(
                "{}{}{}{}{}",
                layout.newline,
                layout.indent(level + 1),
                member(level + 1),
                layout.newline,
                layout.indent(level)
            ),
        ),
    }
}

/// The edit that adds `key: value` to the root object right before its member `before` (a span): `(offset, text)`.
pub(super) fn insert_before(
    text: &str,
    before: &Range<usize>,
    key: &str,
    value: &Out,
    layout: &Layout,
) -> (usize, String) {
    let member = format!("{}{}{}", quoted(key), layout.colon, value.render(layout, 1));
    match own_line_start(text, before.start) {
        Some(line) if !layout.one_line() => (line, format!("{}{member},{}", layout.indent(1), layout.newline)),
        _ => (before.start, format!("{member},{}", layout.after_comma)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
        edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        let mut out = text.to_string();
        for (r, t) in edits {
            out.replace_range(r, &t);
        }
        out
    }

    fn span_of(text: &str, key: &str) -> Range<usize> {
        fn walk(n: &Node, key: &str) -> Option<Range<usize>> {
            match n {
                Node::Object { members, .. } => {
                    members.iter().find_map(|m| if m.key == key { Some(m.span()) } else { walk(&m.value, key) })
                }
                Node::Array { elements, .. } => elements.iter().find_map(|e| walk(e, key)),
                Node::Scalar { .. } => None,
            }
        }
        walk(&parse(text).unwrap(), key).unwrap()
    }

    fn without(text: &str, keys: &[&str]) -> String {
        let root = parse(text).unwrap();
        let targets: Vec<Range<usize>> = keys.iter().map(|k| span_of(text, k)).collect();
        let out = apply(text, removals(text, &root, &targets).into_iter().map(|r| (r, String::new())).collect());
        assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok(), "{out}");
        out
    }

    const TEXT: &str = "{\n  \"resource\": {\n    \"t\": {\n      \"a\": {},\n      \"b\": {\n        \"x\": 1\n      },\n      \"c\": {}\n    }\n  },\n  \"output\": {}\n}\n";

    #[test]
    fn removes_members_with_their_commas_and_emptied_containers() {
        assert_eq!(without(TEXT, &["b"]), TEXT.replace("      \"b\": {\n        \"x\": 1\n      },\n", ""));
        assert_eq!(without(TEXT, &["c"]), TEXT.replace(",\n      \"c\": {}", ""));
        assert_eq!(
            without(TEXT, &["b", "c"]),
            TEXT.replace(",\n      \"b\": {\n        \"x\": 1\n      },\n      \"c\": {}", "")
        );
        assert_eq!(without(TEXT, &["a", "b", "c"]), "{\n  \"output\": {}\n}\n");
        assert_eq!(without("{\"a\":1,\"b\":2}", &["a"]), "{\"b\":2}");
        assert_eq!(without("{\"a\": 1, \"b\": 2}", &["b"]), "{\"a\": 1}");
    }

    #[test]
    fn writes_in_the_file_s_layout() {
        let root = parse(TEXT).unwrap();
        let layout = Layout::of(TEXT, &root);
        let value = Out::Object(vec![("k".into(), Out::Str("v\"".into())), ("n".into(), Out::Object(vec![]))]);
        let (at, new) = insert_before(TEXT, &span_of(TEXT, "output"), "locals", &value, &layout);
        let out = apply(TEXT, vec![(at..at, new)]);
        assert!(
            out.contains("  },\n  \"locals\": {\n    \"k\": \"v\\\"\",\n    \"n\": {}\n  },\n  \"output\": {}\n"),
            "{out}"
        );
        let tabs = "{\n\t\"moved\": [\n\t\t{\"from\": \"a\"}\n\t]\n}";
        let root = parse(tabs).unwrap();
        let layout = Layout::of(tabs, &root);
        let (at, new) = append(
            tabs,
            &root.members()[0].value,
            None,
            &Out::Object(vec![("from".into(), Out::Str("b".into()))]),
            &layout,
        );
        assert_eq!(
            apply(tabs, vec![(at..at, new)]),
            "{\n\t\"moved\": [\n\t\t{\"from\": \"a\"},\n\t\t{\n\t\t\t\"from\": \"b\"\n\t\t}\n\t]\n}"
        );
        let compact = "{\"resource\":{}}";
        let root = parse(compact).unwrap();
        let layout = Layout::of(compact, &root);
        let (at, new) = insert_before(compact, &root.members()[0].span(), "locals", &value, &layout);
        assert_eq!(apply(compact, vec![(at..at, new)]), "{\"locals\":{\"k\":\"v\\\"\",\"n\":{}},\"resource\":{}}");
    }

    #[test]
    fn gives_up_on_what_is_not_json() {
        assert!(parse("{\"a\": }").is_none());
        assert!(parse("{\"a\": 1} x").is_none());
        assert!(parse("[\"a\\\"b\", 1.5e3, true, null]").is_some());
        let text = "{\"//\": 1, \"a\": {\"//\": \"x\", \"b\": [{\"//\": 2}]}}";
        let inner = span_of(text, "a");
        let keys: Vec<usize> = text.match_indices("\"//\"").map(|(i, _)| i).skip(1).collect();
        assert_eq!(comments_in(&parse(text).unwrap(), &inner), keys);
    }
}
