//! Identities shared by every part of the analysis: which file, which range in it.

use foreach_syntax::TextRange;

/// A file known to the analysis. The host assigns ids; the analysis never sees paths except as labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A range in a particular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub file: FileId,
    pub range: TextRange,
}

impl FileRange {
    pub fn new(file: FileId, range: TextRange) -> FileRange {
        FileRange { file, range }
    }
}
