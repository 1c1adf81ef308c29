//! The import graph of a crate's modules, read from its sources, and the rings in it: groups of modules that
//! import each other round a cycle of any length (`a -> b -> c -> a`), which a layered crate must not have.
//!
//! A module is a file (`lib.rs` is the root, `a/mod.rs` and `a.rs` are `a`, `a/b.rs` is `a::b`). It imports another
//! when it names it in a path: `crate::a::b::Item`, `super::b::Item`, `self::b`, or a child module by its bare name
//! (`b::Item` in `a/mod.rs`), in `use` declarations and inline alike. Comments and `#[cfg(test)] mod tests` blocks
//! do not count (a test may reach anywhere). A path through a re-export (`crate::Item` where `lib.rs` has `pub use
//! a::Item`) counts as an import of the module that defines it, so a facade that re-exports does not make rings by
//! itself; the crate root is the facade and never a member of a ring.
//!
//! This reads text, not the compiler's name resolution: it sees every path written out, which is how this codebase
//! writes them (a glob `use a::*` is followed to `a`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path: `["providers", "expand"]`; the crate root is empty.
pub type ModPath = Vec<String>;

pub struct ImportGraph {
    pub imports: BTreeMap<ModPath, BTreeSet<ModPath>>,
}

impl ImportGraph {
    /// Reads every `.rs` file under `src` (a crate's source directory).
    pub fn read(src: &Path) -> ImportGraph {
        let mut files = Vec::new();
        walk(src, &mut files);
        let mut modules = BTreeMap::new();
        for f in &files {
            modules.insert(module_path(src, f), f.clone());
        }
        let texts: BTreeMap<ModPath, String> = modules
            .iter()
            .map(|(m, f)| (m.clone(), code_only(&std::fs::read_to_string(f).unwrap_or_default())))
            .collect();
        let reexports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>> =
            texts.iter().map(|(m, t)| (m.clone(), pub_uses(t))).collect();
        let mut imports: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (m, text) in &texts {
            let found = imports.entry(m.clone()).or_default();
            for path in paths_in(text) {
                let Some(absolute) = absolute(m, &modules, &path) else { continue };
                if let Some(target) = resolve(&modules, &reexports, &absolute, 0)
                    && target != *m
                    && !target.is_empty()
                {
                    found.insert(target);
                }
            }
        }
        ImportGraph { imports }
    }

    /// Every ring: its modules, and one shortest cycle through the first of them (`["db", "tree", "db"]`).
    pub fn rings(&self) -> Vec<Ring> {
        let mut out = Vec::new();
        for component in strongly_connected(&self.imports) {
            if component.len() < 2 {
                continue;
            }
            let start = component.iter().next().unwrap().clone();
            let cycle = shortest_cycle(&self.imports, &start, &component);
            out.push(Ring {
                members: component.iter().map(display).collect(),
                cycle: cycle.iter().map(display).collect(),
            });
        }
        out
    }
}

/// Modules that reach each other through their imports.
#[derive(Debug, PartialEq, Eq)]
pub struct Ring {
    pub members: Vec<String>,
    pub cycle: Vec<String>,
}

impl std::fmt::Display for Ring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (a ring of {}: {})", self.cycle.join(" -> "), self.members.len(), self.members.join(", "))
    }
}

pub fn display(m: &ModPath) -> String {
    if m.is_empty() { "crate".to_string() } else { m.join("::") }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn module_path(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib" || l == "main") {
        parts.pop();
    }
    parts
}

/// The text without comments, string literals' contents and the `#[cfg(test)] mod tests { … }` block.
fn code_only(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                out.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if !escaped && c == '"' {
                        break;
                    }
                    escaped = !escaped && c == '\\';
                }
                out.push('"');
            }
            // A char literal holding a quote (`'"'`) must not open a string; lifetimes pass through.
            '\'' => {
                out.push('\'');
                let mut ahead = chars.clone();
                let literal = matches!((ahead.next(), ahead.next()), (Some('\\'), Some(_)) | (Some(_), Some('\'')));
                if literal {
                    let mut escaped = false;
                    for c in chars.by_ref() {
                        if !escaped && c == '\'' {
                            break;
                        }
                        escaped = !escaped && c == '\\';
                    }
                    out.push('\'');
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Every path of two or more segments in the code, with `use` groups expanded (`crate::a::{b, c::D}` gives
/// `crate::a::b` and `crate::a::c::D`).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let starts =
            (c.is_ascii_alphabetic() || c == '_') && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != ':');
        if !starts {
            i += 1;
            continue;
        }
        let (paths, end) = parse_path(&bytes, i);
        out.extend(paths.into_iter().filter(|p| p.len() >= 2));
        i = end.max(i + 1);
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Parses `a::b::{c, d::e}` at `i`: the paths and where parsing stopped.
fn parse_path(s: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    loop {
        let start = i;
        while i < s.len() && is_ident(s[i]) {
            i += 1;
        }
        if i == start {
            break;
        }
        prefix.push(s[start..i].iter().collect::<String>());
        if i + 1 < s.len() && s[i] == ':' && s[i + 1] == ':' {
            i += 2;
            while i < s.len() && s[i].is_whitespace() {
                i += 1;
            }
            if i < s.len() && s[i] == '{' {
                let mut out = Vec::new();
                i += 1;
                loop {
                    while i < s.len() && (s[i].is_whitespace() || s[i] == ',') {
                        i += 1;
                    }
                    if i >= s.len() || s[i] == '}' {
                        i += 1;
                        break;
                    }
                    if s[i] == '*' {
                        out.push(prefix.clone());
                        i += 1;
                        continue;
                    }
                    let (inner, end) = parse_path(s, i);
                    if end == i {
                        i += 1;
                        continue;
                    }
                    for p in inner {
                        let mut full = prefix.clone();
                        full.extend(p);
                        out.push(full);
                    }
                    i = end;
                    // `a as b`
                    while i < s.len() && s[i] != ',' && s[i] != '}' {
                        i += 1;
                    }
                }
                return (out, i);
            }
            if i < s.len() && s[i] == '*' {
                return (vec![prefix], i + 1);
            }
            continue;
        }
        break;
    }
    (vec![prefix], i)
}

/// The `pub use` re-exports of a module: name -> the path it stands for.
fn pub_uses(code: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for stmt in code.split(';') {
        let stmt = stmt.trim();
        let Some(rest) = stmt.strip_prefix("pub use ").or_else(|| stmt.strip_prefix("pub(crate) use ")) else {
            continue;
        };
        let chars: Vec<char> = rest.chars().collect();
        let (paths, _) = parse_path(&chars, 0);
        for p in paths {
            if let Some(last) = p.last() {
                out.insert(last.clone(), p.clone());
            }
        }
    }
    out
}

/// A path written in module `m` as an absolute module-and-item path, if it names something of this crate.
fn absolute(m: &ModPath, modules: &BTreeMap<ModPath, PathBuf>, path: &[String]) -> Option<Vec<String>> {
    let first = path[0].as_str();
    let mut base: Vec<String> = match first {
        "crate" => Vec::new(),
        "self" => m.clone(),
        "super" => {
            let mut b = m.clone();
            b.pop();
            b
        }
        _ => {
            // A child module named by its bare name.
            let mut child = m.clone();
            child.push(first.to_string());
            if modules.contains_key(&child) {
                let mut out = child;
                out.extend(path[1..].iter().cloned());
                return Some(out);
            }
            return None;
        }
    };
    let mut rest = &path[1..];
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The module an absolute path leads to: its longest prefix that is a module, following that module's re-export of
/// the next segment.
fn resolve(
    modules: &BTreeMap<ModPath, PathBuf>,
    reexports: &BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
    path: &[String],
    depth: usize,
) -> Option<ModPath> {
    let n = (0..=path.len()).rev().find(|n| modules.contains_key(&path[..*n]))?;
    let module: ModPath = path[..n].to_vec();
    if depth < 8
        && let Some(next) = path.get(n)
        && let Some(target) = reexports.get(&module).and_then(|r| r.get(next))
        && let Some(abs) = absolute(&module, modules, target)
    {
        let mut abs = abs;
        abs.extend(path[n + 1..].iter().cloned());
        if let Some(found) = resolve(modules, reexports, &abs, depth + 1) {
            return Some(found);
        }
    }
    Some(module)
}

/// Tarjan's strongly connected components.
fn strongly_connected(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<BTreeSet<ModPath>> {
    struct State<'g> {
        graph: &'g BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'g ModPath, usize>,
        low: BTreeMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        on_stack: BTreeSet<&'g ModPath>,
        out: Vec<BTreeSet<ModPath>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g ModPath) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.graph.contains_key(w) {
                continue;
            }
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.insert(w.clone());
                if w == v {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The shortest cycle from `start` back to it inside `component` (breadth first): `[start, …, start]`.
fn shortest_cycle(
    graph: &BTreeMap<ModPath, BTreeSet<ModPath>>,
    start: &ModPath,
    component: &BTreeSet<ModPath>,
) -> Vec<ModPath> {
    let mut previous: BTreeMap<ModPath, ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    while let Some(v) = queue.pop_front() {
        for w in graph.get(&v).into_iter().flatten().filter(|w| component.contains(*w)) {
            if w == start {
                let mut cycle = vec![v.clone()];
                while cycle.last() != Some(start) {
                    let at = cycle.last().unwrap();
                    cycle.push(previous[at].clone());
                }
                cycle.reverse();
                cycle.push(start.clone());
                return cycle;
            }
            if !previous.contains_key(w) {
                previous.insert(w.clone(), v.clone());
                queue.push_back(w.clone());
            }
        }
    }
    vec![start.clone()]
}
