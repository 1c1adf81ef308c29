//! The answers IDE features give, shared by the features that produce them: a hover can come from `hover.rs` or
//! `init_info.rs`, a definition from `goto.rs` or `init_info.rs`, a completion from `completion.rs` or
//! `key_completion.rs`. Keeping them here lets those modules use each other one way only (`goto`/`hover` call
//! `init_info`, `completion` calls `key_completion`, and the callees import neither).

use foreach_syntax::TextRange;

use foreach_analysis::base::FileId;

/// Where to jump: the whole declaration, and the name inside it to put the cursor on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavigationTarget {
    pub file: FileId,
    pub full_range: TextRange,
    pub focus_range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    /// What the hover is about (the reference), for the editor to highlight.
    pub range: TextRange,
    pub markdown: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    Field,
    Variable,
    Provider,
    /// A provider instance key.
    Key,
    /// A value to write, such as a version constraint.
    Value,
}

/// The items for a position, and whether the list was cut: the client must ask again as more is typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompletionList {
    pub items: Vec<CompletionItem>,
    pub is_incomplete: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    /// The text the item replaces (the part of the name already typed).
    pub replace: TextRange,
    pub insert_text: String,
    /// `insert_text` is a snippet (`$1` placeholders).
    pub is_snippet: bool,
    /// What the client matches against the typed text, when not the label.
    pub filter_text: Option<String>,
}
