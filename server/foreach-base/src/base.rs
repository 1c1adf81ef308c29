//! Identities shared by every part of the analysis: which file, which range in it, and how a finding reads a
//! file's text to build its quick fixes.

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

/// The text and kind of a file, for building quick fixes. Both the provider checks and the fix builders take one,
/// so it lives here rather than in either (they must not import each other).
pub type FileText<'a> = &'a dyn Fn(FileId) -> Option<(std::sync::Arc<str>, foreach_syntax::FileKind)>;
