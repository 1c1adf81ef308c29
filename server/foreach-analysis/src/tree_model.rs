//! The module tree's data: its nodes (one per module instance path), their calls and where each call leads.
//! Built by `tree.rs`; read by the per-instance evaluation, which must not depend on how the tree is built.

use std::sync::Arc;

use crate::db::ModuleDir;
use crate::diagnostics::Diagnostic;
use crate::init_values::StaticText;

/// An upper bound on module instances in the tree: a diamond of calls can otherwise grow exponentially.
pub const MAX_TREE_NODES: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// One module in the tree: a root module, or a module call's target reached through a path of calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    pub dir: ModuleDir,
    pub parent: Option<NodeId>,
    /// The call names from the root (`["common", "helper"]` for `module.common.module.helper`).
    pub call_path: Vec<String>,
    pub children: Vec<ChildCall>,
}

impl TreeNode {
    /// `module.common.module.helper`, or `""` for a root.
    pub fn address(&self) -> String {
        self.call_path.iter().map(|c| format!("module.{c}")).collect::<Vec<_>>().join(".")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildCall {
    pub call: String,
    pub target: CallTarget,
    /// The `source` as evaluated in this instance of the caller (or why it is not known); `None` without one.
    pub source: Option<StaticText>,
    pub version: Option<StaticText>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallTarget {
    /// Loaded and part of the tree.
    Node(NodeId),
    /// A registry/git source not installed by `tofu init` here, or a source that is not known statically.
    Unresolved,
    /// Reported: missing directory, cycle, or tree too large.
    Broken,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleTree {
    /// Shared nodes: the per-instance queries hand them out without copying a node's calls.
    pub nodes: Vec<Arc<TreeNode>>,
    pub roots: Vec<NodeId>,
    pub diagnostics: Vec<Diagnostic>,
    /// Local directories that calls point to but the host has not loaded yet.
    pub unloaded_dirs: Vec<String>,
}

impl ModuleTree {
    pub fn node(&self, id: NodeId) -> &TreeNode {
        &self.nodes[id.0 as usize]
    }
}
