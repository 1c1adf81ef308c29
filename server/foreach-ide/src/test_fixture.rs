//! Test helper: a workspace from one string. `$0` marks the cursor; `#- /path.tf` starts another file (paths are
//! relative to the workspace root `/ws`). Without a header, the text is `/ws/main.tf`.

use foreach_syntax::TextSize;

use foreach_analysis::base::FileId;
use foreach_analysis::host::{AnalysisHost, Change};
use foreach_analysis::source_text::SourceText;

use super::FilePosition;

pub(crate) struct Fixture {
    pub host: AnalysisHost,
    pub cursor: Option<(String, TextSize)>,
    pub files: Vec<(String, String)>,
}

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        let mut files: Vec<(String, String)> = Vec::new();
        let mut current: Option<(String, String)> = None;
        for line in text.split_inclusive('\n') {
            if let Some(path) = line.strip_prefix("#- ") {
                if let Some(f) = current.take() {
                    files.push(f);
                }
                current = Some((format!("/ws{}", path.trim()), String::new()));
                continue;
            }
            current.get_or_insert_with(|| ("/ws/main.tf".to_string(), String::new())).1.push_str(line);
        }
        files.extend(current);
        let mut cursor = None;
        for (path, text) in &mut files {
            if let Some(i) = text.find("$0") {
                text.replace_range(i..i + 2, "");
                cursor = Some((path.clone(), TextSize::from(i as u32)));
            }
        }
        let mut host = AnalysisHost::new();
        host.apply_change(Change {
            files: files.iter().map(|(p, t)| (p.clone(), Ok(SourceText::from(t.as_str())))).collect(),
            read_roots: Some(vec!["/ws".to_string()]),
            ..Change::default()
        });
        Fixture { host, cursor, files }
    }

    pub fn file_id(&self, path: &str) -> FileId {
        self.host.file_id(path).expect("fixture file")
    }

    pub fn position(&self) -> FilePosition {
        let (path, offset) = self.cursor.clone().expect("fixture has a $0 cursor");
        FilePosition { file: self.file_id(&path), offset }
    }

    pub fn text(&self, path: &str) -> &str {
        &self.files.iter().find(|(p, _)| p == path).expect("fixture file").1
    }
}

/// `text` with `edits` (of one file, not overlapping) applied, the way a client applies a workspace edit.
pub(crate) fn apply(text: &str, edits: &[foreach_analysis::TextEdit]) -> String {
    let mut out = text.to_string();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.location.range.start()));
    for e in edits {
        out.replace_range(std::ops::Range::<usize>::from(e.location.range), &e.new_text);
    }
    out
}
