//! The releases of OpenTofu and Terraform that constraints are judged against, and sets of them.
//!
//! Judging a constraint against the real releases rather than a continuum keeps it exact: `> 1.8.11` admits no 1.8
//! release (1.8.11 was the last). Every release from the first of each line to the one this table knows is listed:
//! OpenTofu from 1.6.0 (its first) to 1.12.6, Terraform from 1.0.0 to 1.15.9 (read from the release tags of
//! `opentofu/opentofu` and `hashicorp/terraform`; every patch from .0 up was released). A version newer than any
//! listed one is "later": it has every construct the feature table knows.

use crate::versions::constraint::{Constraints, Version};

/// A release `major.minor.patch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Release {
    pub major: u16,
    pub minor: u16,
    pub patch: u16,
}

impl Release {
    pub const fn new(major: u16, minor: u16, patch: u16) -> Release {
        Release { major, minor, patch }
    }

    pub fn version(self) -> Version {
        Version::release(self.major.into(), self.minor.into(), self.patch.into())
    }

    /// `1.9` for a `.0` release, `1.9.2` otherwise: how messages name the version a construct needs.
    pub fn short(self) -> String {
        if self.patch == 0 { format!("{}.{}", self.major, self.minor) } else { self.to_string() }
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Which tool a list of releases is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    OpenTofu,
    Terraform,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::OpenTofu => "OpenTofu",
            Tool::Terraform => "Terraform",
        }
    }

    /// Every release, oldest first.
    pub fn releases(self) -> &'static [Release] {
        static OPENTOFU: std::sync::OnceLock<Vec<Release>> = std::sync::OnceLock::new();
        static TERRAFORM: std::sync::OnceLock<Vec<Release>> = std::sync::OnceLock::new();
        let (cell, lines) = match self {
            Tool::OpenTofu => (&OPENTOFU, OPENTOFU_LINES),
            Tool::Terraform => (&TERRAFORM, TERRAFORM_LINES),
        };
        cell.get_or_init(|| {
            lines.iter().flat_map(|&(minor, last)| (0..=last).map(move |patch| Release::new(1, minor, patch))).collect()
        })
    }

    pub fn newest(self) -> Release {
        *self.releases().last().expect("a release")
    }

    /// A version newer than every listed release, standing for the ones to come.
    pub fn later(self) -> Version {
        let n = self.newest();
        Version::release(n.major.into(), (n.minor + 1).into(), 0)
    }
}

/// OpenTofu's release lines `1.MINOR` with their last patch release (tags `v1.6.0` … `v1.12.6`).
const OPENTOFU_LINES: &[(u16, u16)] = &[(6, 3), (7, 10), (8, 11), (9, 4), (10, 10), (11, 14), (12, 6)];

/// Terraform's release lines `1.MINOR` with their last patch release (tags `v1.0.0` … `v1.15.9`).
const TERRAFORM_LINES: &[(u16, u16)] = &[
    (0, 11),
    (1, 9),
    (2, 9),
    (3, 10),
    (4, 7),
    (5, 7),
    (6, 6),
    (7, 5),
    (8, 5),
    (9, 8),
    (10, 5),
    (11, 4),
    (12, 2),
    (13, 5),
    (14, 9),
    (15, 9),
];

/// A set of one tool's releases (and whether the ones to come belong to it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReleaseSet {
    pub tool: Tool,
    /// One per release of `tool.releases()`.
    members: Vec<bool>,
    pub later: bool,
}

impl ReleaseSet {
    pub fn all(tool: Tool) -> ReleaseSet {
        ReleaseSet { tool, members: vec![true; tool.releases().len()], later: true }
    }

    pub fn none(tool: Tool) -> ReleaseSet {
        ReleaseSet { tool, members: vec![false; tool.releases().len()], later: false }
    }

    /// The releases below `version`.
    pub fn below(tool: Tool, version: Release) -> ReleaseSet {
        ReleaseSet { tool, members: tool.releases().iter().map(|r| *r < version).collect(), later: false }
    }

    /// The releases `constraints` admit.
    pub fn admitted_by(tool: Tool, constraints: &Constraints) -> ReleaseSet {
        ReleaseSet::from_fn(tool, |v| constraints.admits(v))
    }

    /// The releases (and the ones to come, standing as one version newer than all) for which `keep` holds.
    pub fn from_fn(tool: Tool, keep: impl Fn(&Version) -> bool) -> ReleaseSet {
        ReleaseSet {
            tool,
            members: tool.releases().iter().map(|r| keep(&r.version())).collect(),
            later: keep(&tool.later()),
        }
    }

    pub fn contains(&self, r: Release) -> bool {
        self.tool.releases().iter().position(|x| *x == r).is_some_and(|i| self.members[i])
    }

    pub fn intersect(&self, other: &ReleaseSet) -> ReleaseSet {
        ReleaseSet {
            tool: self.tool,
            members: self.members.iter().zip(&other.members).map(|(a, b)| *a && *b).collect(),
            later: self.later && other.later,
        }
    }

    pub fn union(&self, other: &ReleaseSet) -> ReleaseSet {
        ReleaseSet {
            tool: self.tool,
            members: self.members.iter().zip(&other.members).map(|(a, b)| *a || *b).collect(),
            later: self.later || other.later,
        }
    }

    pub fn is_empty(&self) -> bool {
        !self.later && !self.members.iter().any(|m| *m)
    }

    /// The listed releases in the set, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = Release> + '_ {
        self.tool.releases().iter().zip(&self.members).filter(|(_, m)| **m).map(|(r, _)| *r)
    }

    pub fn oldest(&self) -> Option<Release> {
        self.iter().next()
    }

    /// `1.6.0 to 1.8.11`, `1.9.0 and later`, `1.6.0 to 1.6.3, 1.8.0 and later`, `none`.
    pub fn describe(&self) -> String {
        let releases = self.tool.releases();
        let mut parts = Vec::new();
        let mut i = 0;
        while i < releases.len() {
            if !self.members[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i + 1 < releases.len() && self.members[i + 1] {
                i += 1;
            }
            let (a, b) = (releases[start], releases[i]);
            parts.push(if i + 1 == releases.len() && self.later {
                format!("{a} and later")
            } else if a == b {
                a.to_string()
            } else {
                format!("{a} to {b}")
            });
            i += 1;
        }
        if self.later && !self.members.last().copied().unwrap_or(false) {
            parts.push(format!("versions after {}", self.tool.newest()));
        }
        if parts.is_empty() { "none".to_string() } else { parts.join(", ") }
    }
}
