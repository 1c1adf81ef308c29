//! Lexical path arithmetic on the `/`-separated absolute paths the analysis uses as directory identities.
//! No IO: symlinks are resolved by the host, which reports them as directory aliases.

/// OpenTofu treats a module source as a local path only when it starts with `./` or `../` (or their Windows forms).
pub fn is_local_source(source: &str) -> bool {
    source.starts_with("./") || source.starts_with("../") || source.starts_with(".\\") || source.starts_with("..\\")
}

/// Joins `rel` onto the directory `base` and removes `.` and `..` components lexically.
pub fn join_normalized(base: &str, rel: &str) -> String {
    let rel = rel.replace('\\', "/");
    let joined = if rel.starts_with('/') { rel } else { format!("{base}/{rel}") };
    normalize(&joined)
}

/// Removes `.`, `..` and empty components; keeps a leading `/`.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let body = parts.join("/");
    if absolute { format!("/{body}") } else { body }
}

/// The directory part of a `/`-separated path.
pub fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) => "/",
        Some(i) => &path[..i],
        None => "",
    }
}

/// `path` relative to the directory `base` (`.` when equal, `../x` when outside), as OpenTofu shows `path.module`.
pub fn relative_path(path: &str, base: &str) -> String {
    let p: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let b: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = std::iter::repeat_n("..", b.len() - common).collect();
    parts.extend(&p[common..]);
    if parts.is_empty() { ".".to_string() } else { parts.join("/") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_normalizes() {
        assert_eq!(join_normalized("/ws/root", "./modules/a"), "/ws/root/modules/a");
        assert_eq!(join_normalized("/ws/root", "../shared//x/"), "/ws/shared/x");
        assert_eq!(join_normalized("/ws/root", "..\\win"), "/ws/win");
        assert_eq!(normalize("/a/b/../../.."), "/");
        assert_eq!(parent("/ws/root/main.tf"), "/ws/root");
        assert_eq!(parent("/main.tf"), "/");
        assert_eq!(relative_path("/ws/root/modules/a", "/ws/root"), "modules/a");
        assert_eq!(relative_path("/ws/shared", "/ws/root"), "../shared");
        assert_eq!(relative_path("/ws/root", "/ws/root"), ".");
    }

    #[test]
    fn local_sources() {
        assert!(is_local_source("./x"));
        assert!(is_local_source("../x"));
        assert!(!is_local_source("hashicorp/consul/aws"));
        assert!(!is_local_source("git::https://example.com/x.git"));
        assert!(!is_local_source(".x"));
    }
}
