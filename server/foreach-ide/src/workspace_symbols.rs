//! Workspace symbols: the top-level blocks of every loaded file (the document outline's names: `var.region`,
//! `aws_s3_bucket.logs`, `module.network`, `aws.west`), filtered by the query.

use foreach_analysis::base::FileId;
use foreach_analysis::db::{Db, Workspace, file_index};

use super::symbols::{Symbol, SymbolKind, document_symbols};

/// At most this many symbols: a short query in a big workspace would otherwise send tens of thousands.
pub const MAX_WORKSPACE_SYMBOLS: usize = 1000;

pub(crate) fn workspace_symbols(db: &dyn Db, ws: Workspace, query: &str) -> Vec<(FileId, Symbol)> {
    let mut files: Vec<_> = file_index(db, ws).iter().map(|(id, f)| (f.path(db).clone(), *id)).collect();
    files.sort();
    let mut out = Vec::new();
    for (_, file) in files {
        for s in document_symbols(db, ws, file) {
            if s.kind != SymbolKind::Attribute && matches(&s.name, query) {
                out.push((file, Symbol { children: Vec::new(), ..s }));
                if out.len() >= MAX_WORKSPACE_SYMBOLS {
                    return out;
                }
            }
        }
    }
    out
}

/// The query's characters appear in the name in order, ignoring case (`awsbl` matches `aws_s3_bucket.logs`), as
/// editors' fuzzy pickers expect.
pub fn matches(name: &str, query: &str) -> bool {
    let mut chars = name.chars().flat_map(char::to_lowercase);
    query.chars().flat_map(char::to_lowercase).all(|q| chars.any(|c| c == q))
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn fuzzy_in_order_and_case_insensitive() {
        assert!(matches("aws_s3_bucket.logs", "S3Logs"));
        assert!(matches("var.region", ""));
        assert!(!matches("var.region", "regionx"));
        assert!(!matches("module.net", "ten"));
    }
}
