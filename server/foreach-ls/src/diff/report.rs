//! What `diff` found, for the renderers: the other side, and each root's changes with what the formats need to
//! print them (regions, the files of both sides for locations).

use std::path::PathBuf;

use foreach_analysis::diff::{Action, RootDiff};

use crate::fix::FileTable;

/// What the other side is.
pub enum Against {
    /// Each root's state.
    State,
    /// A git revision: as given, and its commit id.
    Revision { spec: String, commit: String },
    /// Another checkout.
    Dir(String),
}

/// One root module in one environment: what the change does to it.
pub struct RootReport {
    /// The root's directory, relative to the current directory.
    pub root: String,
    pub environment: Option<String>,
    pub diff: RootDiff,
    /// Against a state: whether the root has one (a root without one is not compared).
    pub compared: bool,
    /// The `region` of each provider instance the changes name, where known (by `ProviderInstance::name`).
    pub regions: std::collections::BTreeMap<String, String>,
}

/// Everything the renderers need.
pub struct Report {
    pub against: Against,
    pub roots: Vec<RootReport>,
    /// The files of each side, for locations.
    pub current_files: FileTable,
    pub base_files: FileTable,
    pub cwd: PathBuf,
    pub deny_destroy: bool,
}

impl Report {
    pub fn count(&self, action: Action) -> usize {
        self.roots.iter().map(|r| r.diff.count(action)).sum()
    }

    pub fn unknown(&self) -> usize {
        self.roots.iter().map(|r| r.diff.unknown.len()).sum()
    }

    pub fn blocking(&self) -> usize {
        self.roots.iter().flat_map(|r| &r.diff.changes).filter(|c| c.blocking).count()
    }
}
