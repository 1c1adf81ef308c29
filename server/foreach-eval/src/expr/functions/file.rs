//! Filesystem functions: `file`, `fileexists`, `fileset`, `filebase64`, the `file*` hashes, `templatefile`, and
//! the path functions `abspath`, `basename`, `dirname`, `pathexpand`.
//!
//! Files are read through the host's [`FileReader`](crate::scope::FileReader); relative paths resolve
//! against the working directory (`path.cwd`), as OpenTofu resolves them, and every path must stay inside the
//! workspace root after normalisation. Without a reader the result is unknown, not an error. A file that does not
//! exist at all is unknown too ([`FnError::MissingFile`]): real repositories read files generated before OpenTofu
//! runs (keys, rendered JSON) or kept out of git. A path the boundary refuses (outside the root as written, or a
//! link leading out of it) is unknown with a `file-outside-repository` info ([`FnError::OutsideRepository`]):
//! OpenTofu reads it, so it is no mistake of the configuration, but foreach-ls reads nothing outside the repository.
//! A file that exists inside but cannot be used (not UTF-8, a directory) stays an error, as in OpenTofu.

use super::api::s;
use super::api::{FnCtx, FnError, FnResult, Func, P, arg_err, err, f, p};
use super::hash::hex;
use crate::resolve::FileAccess;
use crate::types::Type;
use crate::value::Value;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

pub static FUNCS: &[Func] = &[
    f("file", &[p("path", P::Str)], |cx, a| {
        let bytes = read(cx, s(&a[0]))?;
        String::from_utf8(bytes)
            .map(Value::string)
            .or_else(|_| arg_err(0, "contents are not valid UTF-8; use `filebase64` instead"))
    }),
    f("filebase64", &[p("path", P::Str)], |cx, a| Ok(Value::string(STANDARD.encode(read(cx, s(&a[0]))?)))),
    f("filemd5", &[p("path", P::Str)], |cx, a| Ok(Value::string(hex(&Md5::digest(read(cx, s(&a[0]))?))))),
    f("filesha1", &[p("path", P::Str)], |cx, a| Ok(Value::string(hex(&Sha1::digest(read(cx, s(&a[0]))?))))),
    f("filesha256", &[p("path", P::Str)], |cx, a| Ok(Value::string(hex(&Sha256::digest(read(cx, s(&a[0]))?))))),
    f("filesha512", &[p("path", P::Str)], |cx, a| Ok(Value::string(hex(&Sha512::digest(read(cx, s(&a[0]))?))))),
    f("filebase64sha256", &[p("path", P::Str)], |cx, a| {
        Ok(Value::string(STANDARD.encode(Sha256::digest(read(cx, s(&a[0]))?))))
    }),
    f("filebase64sha512", &[p("path", P::Str)], |cx, a| {
        Ok(Value::string(STANDARD.encode(Sha512::digest(read(cx, s(&a[0]))?))))
    }),
    f("fileexists", &[p("path", P::Str)], fileexists),
    f("fileset", &[p("path", P::Str), p("pattern", P::Str)], fileset),
    f("abspath", &[p("path", P::Str)], abspath),
    f("basename", &[p("path", P::Str)], |_, a| Ok(Value::string(basename(s(&a[0]))))),
    f("dirname", &[p("path", P::Str)], |_, a| Ok(Value::string(dirname(s(&a[0])).to_string()))),
    f("pathexpand", &[p("path", P::Str)], |_, a| {
        if s(&a[0]).starts_with('~') {
            Err(FnError::Unknown("`pathexpand` depends on the home directory of whoever runs OpenTofu".into()))
        } else {
            Ok(a[0].clone())
        }
    }),
];

/// Why the boundary refuses a path that is outside it as written (after `..` is resolved).
pub(crate) const OUTSIDE: &str = "it is outside the repository being checked (the nearest directory at or above the checked \
                       path that holds `.git`; outside git, the checked path itself)";

/// Why the boundary refuses a path inside it that a symbolic link leads out of.
pub(crate) const LINKS_OUTSIDE: &str = "it links to a file outside the repository being checked";

/// Joins `path` to `base` if relative, normalises `.`/`..`, and checks that the result is inside `root`; the error
/// says why not ([`OUTSIDE`]).
pub fn resolve_path(base: &str, root: &str, path: &str) -> Result<String, String> {
    let joined = if path.starts_with('/') { path.to_string() } else { format!("{base}/{path}") };
    let normal = normalize(&joined);
    let root_n = normalize(root);
    let inside = normal == root_n || root_n == "/" || normal.starts_with(&format!("{root_n}/"));
    if !inside {
        return Err(OUTSIDE.to_string());
    }
    Ok(normal)
}

/// [`resolve_path`] in the file access of a call; `shown` is the path as the call writes it.
fn confined(access: &FileAccess<'_>, path: &str, shown: &str) -> Result<String, FnError> {
    resolve_path(access.base_dir, access.root, path)
        .map_err(|_| FnError::OutsideRepository { path: shown.to_string(), link: false })
}

fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

pub(crate) fn read(cx: &mut FnCtx<'_>, path: &str) -> Result<Vec<u8>, FnError> {
    let Some(access) = cx.host.scope().files() else {
        return Err(FnError::Unknown("files are not available to this evaluation".into()));
    };
    let full = confined(&access, path, path)?;
    let bytes = match access.reader.read(&full) {
        Ok(bytes) => bytes,
        // Not here, but it may be generated before OpenTofu runs: unknown, not an error.
        Err(_) if access.reader.missing(&full) => return Err(FnError::MissingFile(path.to_string())),
        Err(_) if access.reader.links_outside(&full) => {
            return Err(FnError::OutsideRepository { path: path.to_string(), link: true });
        }
        Err(e) => return Err(FnError::Msg(format!("cannot read {path:?}: {e}"))),
    };
    if bytes.len() > cx.host.budget().max_string {
        return Err(FnError::Limit(crate::budget::Exceeded::String(bytes.len())));
    }
    Ok(bytes)
}

fn fileexists(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(access) = cx.host.scope().files() else {
        return Err(FnError::Unknown("files are not available to this evaluation".into()));
    };
    let full = confined(&access, s(&a[0]), s(&a[0]))?;
    if access.reader.links_outside(&full) {
        return Err(FnError::OutsideRepository { path: s(&a[0]).to_string(), link: true });
    }
    Ok(Value::Bool(access.reader.is_file(&full)))
}

/// OpenTofu globs `Clean(Join(path, pattern))` (so `path` may hold wildcards too, `"${path.root}/../**/stacks"`)
/// and gives each regular file matched relative to `path`, lexically as Go's `filepath.Rel` (`../a/stacks/x.yaml`).
/// A directory that does not exist, or a file where a directory should be, matches nothing: an empty set.
fn fileset(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let Some(access) = cx.host.scope().files() else {
        return Err(FnError::Unknown("files are not available to this evaluation".into()));
    };
    let dir = confined(&access, s(&a[0]), s(&a[0]))?;
    let joined = format!("{dir}/{}", s(&a[1]));
    if !braces_valid(&joined) {
        return err(format!("syntax error in the pattern {joined:?}: an unclosed `{{`, or a `/` inside `{{...}}`"));
    }
    let Some(alternatives) = expand_braces(&joined, 256) else {
        return Err(FnError::Unknown("the pattern has too many `{...}` alternatives to evaluate".into()));
    };
    let mut out = Vec::new();
    // Counted here and charged at the end: the reader borrows the host that the budget is charged to.
    let mut matched_against = 0u64;
    for alternative in alternatives {
        let full = normalize(&alternative);
        let segs: Vec<&str> = full.split('/').filter(|p| !p.is_empty()).collect();
        // The directory to list: the longest prefix without wildcards, which must stay inside the read boundary.
        let literal = segs.iter().take_while(|p| !p.bytes().any(|b| matches!(b, b'*' | b'?' | b'[' | b'\\'))).count();
        let prefix = format!("/{}", segs[..literal].join("/"));
        let prefix = confined(&access, &prefix, &format!("{}/{}", s(&a[0]), s(&a[1])))?;
        let pattern = &segs[literal..];
        if pattern.is_empty() {
            if access.reader.is_file(&prefix) {
                out.push(Value::string(relative(&dir, &prefix)));
            }
        } else if !access.reader.missing(&prefix) && !access.reader.is_file(&prefix) {
            let files =
                access.reader.walk(&prefix).map_err(|e| FnError::Msg(format!("cannot list {:?}: {e}", s(&a[0]))))?;
            for file in files {
                matched_against += 1;
                let file_segs: Vec<&str> = file.split('/').collect();
                if glob_segments(pattern, &file_segs) {
                    out.push(Value::string(relative(&dir, &format!("{}/{file}", prefix.trim_end_matches('/')))));
                }
            }
        }
        cx.check_len(out.len())?;
    }
    cx.tick(matched_against)?;
    Ok(Value::set(Type::String, out))
}

/// doublestar rejects an unclosed `{` and alternatives that span directories (`{a,b/c}`); a stray `}` is literal.
fn braces_valid(pattern: &str) -> bool {
    let mut depth = 0usize;
    for b in pattern.bytes() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'/' if depth > 0 => return false,
            _ => {}
        }
    }
    depth == 0
}

/// doublestar's `{a,b}` alternatives (nested ones too), as the plain patterns they stand for; `None` past `limit`
/// patterns. A `{` without its `}` is literal.
fn expand_braces(pattern: &str, limit: usize) -> Option<Vec<String>> {
    let bytes = pattern.as_bytes();
    let Some(open) = bytes.iter().position(|&b| b == b'{') else { return Some(vec![pattern.to_string()]) };
    let mut depth = 0;
    let mut bounds = vec![open];
    let mut close = None;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            b',' if depth == 1 => bounds.push(i),
            _ => {}
        }
    }
    let Some(close) = close else { return Some(vec![pattern.to_string()]) };
    bounds.push(close);
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        out.extend(expand_braces(&format!("{head}{}{tail}", &pattern[w[0] + 1..w[1]]), limit)?);
        if out.len() > limit {
            return None;
        }
    }
    Some(out)
}

/// Go's `filepath.Rel` for two clean absolute paths: `target` as seen from `base`, with `..` where needed.
fn relative(base: &str, target: &str) -> String {
    let b: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    let t: Vec<&str> = target.split('/').filter(|p| !p.is_empty()).collect();
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = vec![".."; b.len() - common];
    parts.extend(&t[common..]);
    if parts.is_empty() { ".".to_string() } else { parts.join("/") }
}

/// `**` matches any number of whole segments; other segments use [`glob`].
fn glob_segments(pat: &[&str], segs: &[&str]) -> bool {
    match pat.split_first() {
        None => segs.is_empty(),
        Some((&"**", rest)) => (0..=segs.len()).any(|i| glob_segments(rest, &segs[i..])),
        Some((p, rest)) => {
            !segs.is_empty() && glob(p.as_bytes(), segs[0].as_bytes()) && glob_segments(rest, &segs[1..])
        }
    }
}

/// `*`, `?` and `[...]` within one path segment (iterative, with one backtrack point).
fn glob(p: &[u8], t: &[u8]) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
            continue;
        }
        if pi < p.len()
            && let Some((ok, len)) = single(&p[pi..], t[ti])
            && ok
        {
            pi += len;
            ti += 1;
            continue;
        }
        match star {
            Some((sp, st)) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// Matches one pattern element against `c`: (matched, pattern bytes used).
fn single(p: &[u8], c: u8) -> Option<(bool, usize)> {
    match p[0] {
        b'?' => Some((true, 1)),
        b'[' => {
            let end = p.iter().position(|&x| x == b']')?;
            let class = &p[1..end];
            let (neg, class) = match class.first() {
                Some(b'^' | b'!') => (true, &class[1..]),
                _ => (false, class),
            };
            let mut hit = false;
            let mut i = 0;
            while i < class.len() {
                if i + 2 < class.len() && class[i + 1] == b'-' {
                    hit |= class[i] <= c && c <= class[i + 2];
                    i += 3;
                } else {
                    hit |= class[i] == c;
                    i += 1;
                }
            }
            Some((hit != neg, end + 1))
        }
        b'\\' if p.len() > 1 => Some((p[1] == c, 2)),
        x => Some((x == c, 1)),
    }
}

fn abspath(cx: &mut FnCtx<'_>, a: &[Value]) -> FnResult {
    let p = s(&a[0]);
    if p.starts_with('/') {
        return Ok(Value::string(normalize(p)));
    }
    match cx.host.scope().path("cwd") {
        Some(cwd) if cwd.starts_with('/') => Ok(Value::string(normalize(&format!("{cwd}/{p}")))),
        _ => err("the working directory is not known"),
    }
}

/// Go's `filepath.Base`.
fn basename(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let t = p.trim_end_matches('/');
    if t.is_empty() {
        return "/".into();
    }
    t.rsplit('/').next().unwrap_or(t).to_string()
}

/// Go's `filepath.Dir`.
fn dirname(p: &str) -> String {
    let dir = match p.rfind('/') {
        Some(i) => &p[..=i],
        None => "",
    };
    let cleaned = clean(dir);
    if cleaned.is_empty() { ".".into() } else { cleaned }
}

/// Go's `filepath.Clean` (lexical).
fn clean(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".into(),
        (false, false) => body,
    }
}
