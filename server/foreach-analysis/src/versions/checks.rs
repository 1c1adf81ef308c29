//! The version findings:
//! - `feature-needs-newer-opentofu`: per root, a construct of its tree that some release the tree's constraints
//!   admit does not have (and sees: a `.tf` file shadowed by a `.tofu` file is not seen by 1.8 and later), with the
//!   constraint to raise and a quick fix that raises it;
//! - `not-in-terraform`: per module that declares Terraform compatibility, a construct Terraform lacks (in every
//!   release its Terraform constraint admits, or in some) in a file Terraform reads;
//! - `invalid-version-constraint`: a constraint OpenTofu refuses (syntax, a pre-release, a value that is not a
//!   constant string), or a `compatible_with.terraform` that does not parse.
//!
//! A tree in which no release reads any constraint claims nothing, and its constructs are not judged.

use std::collections::HashMap;
use std::sync::Arc;

use foreach_syntax::TextRange;

use crate::base::{FileId, FileRange};
use crate::db::{Db, ModuleDir, Workspace};
use crate::diagnostics::{Code, Diagnostic, Fix, TextEdit};
use crate::versions::constraint::Constraints;
use crate::versions::features::Feature;
use crate::versions::reading::{Constraint, DirVersions, TerraformHow, dir_versions, root_versions};
use crate::versions::releases::{Release, ReleaseSet, Tool};
use crate::versions::usage::{DeclKind, DeclValue};

/// Every version finding of the workspace.
#[salsa::tracked(returns(clone))]
pub fn version_checks(db: &dyn Db, ws: Workspace) -> Arc<Vec<Diagnostic>> {
    let mut out = Vec::new();
    for dir in ws.dirs(db).iter() {
        let v = dir_versions(db, *dir);
        invalid_constraints(&v, &mut out);
        not_in_terraform(&v, &mut out);
    }
    needs_newer(db, ws, &mut out);
    Arc::new(out)
}

/// One construct some admitted release lacks, gathered over the roots whose trees hold it.
struct Lacking {
    file: FileId,
    range: TextRange,
    feature: Feature,
    releases: ReleaseSet,
    /// The constraints to raise (one per root that chose a different one), each a constraint every lacking
    /// release reads.
    raise: Vec<Constraint>,
    /// Whether some root had no such constraint.
    uncovered: bool,
}

fn needs_newer(db: &dyn Db, ws: Workspace, out: &mut Vec<Diagnostic>) {
    let mut found: Vec<Lacking> = Vec::new();
    let mut at: HashMap<(FileId, TextRange, Feature), usize> = HashMap::new();
    for root in root_versions(db, ws).iter() {
        if !root.constrained || root.admitted.is_empty() {
            continue;
        }
        let root_dir = root.dirs[0];
        for dir in &root.dirs {
            let v = dir_versions(db, *dir);
            for u in &v.uses {
                if u.feature == Feature::LanguageBlock && states_its_own_release(&v) {
                    continue;
                }
                let since = u.feature.opentofu().version();
                let readers = u.readers;
                let lacking = root
                    .admitted
                    .intersect(&ReleaseSet::from_fn(Tool::OpenTofu, |x| readers.reads(x) && x.compare(&since).is_lt()));
                if lacking.is_empty() {
                    continue;
                }
                let chosen = constraint_to_raise(db, &root.dirs, *dir, root_dir, &lacking);
                let i = *at.entry((u.file, u.range, u.feature)).or_insert_with(|| {
                    found.push(Lacking {
                        file: u.file,
                        range: u.range,
                        feature: u.feature,
                        releases: ReleaseSet::none(Tool::OpenTofu),
                        raise: Vec::new(),
                        uncovered: false,
                    });
                    found.len() - 1
                });
                let entry = &mut found[i];
                entry.releases = entry.releases.union(&lacking);
                match chosen {
                    Some(c) if !entry.raise.contains(&c) => entry.raise.push(c),
                    Some(_) => {}
                    None => entry.uncovered = true,
                }
            }
        }
    }
    out.extend(found.into_iter().map(needs_newer_diagnostic));
}

/// Whether the module's `compatible_with.opentofu` itself admits no release before the `language` block's: the
/// author has said, in the block an older release stumbles on, that the module needs a newer one. Warning that the
/// block needs 1.12 would only repeat it (those releases do not read the constraint, but their error names the
/// block).
fn states_its_own_release(v: &DirVersions) -> bool {
    let since = Feature::LanguageBlock.opentofu();
    v.constraints.iter().any(|c| {
        c.decl.kind == DeclKind::CompatibleWithOpenTofu
            && c.parsed.as_ref().is_some_and(|p| {
                Tool::OpenTofu.releases().iter().filter(|r| **r < since).all(|r| !p.admits(&r.version()))
            })
    })
}

/// A constraint of the tree that every lacking release reads, the module's own first, then the root's: raising
/// its lower bound excludes them all.
fn constraint_to_raise(
    db: &dyn Db,
    dirs: &[ModuleDir],
    own: ModuleDir,
    root: ModuleDir,
    lacking: &ReleaseSet,
) -> Option<Constraint> {
    let order = std::iter::once(own).chain(std::iter::once(root)).chain(dirs.iter().copied());
    for dir in order {
        let v = dir_versions(db, dir);
        let covering = v
            .opentofu_constraints()
            .find(|c| c.parsed.is_some() && lacking.iter().all(|r| c.readers.reads(&r.version())));
        if let Some(c) = covering {
            return Some(c.clone());
        }
    }
    None
}

fn needs_newer_diagnostic(l: Lacking) -> Diagnostic {
    let since = l.feature.opentofu();
    let message = if l.feature == Feature::TofuFile {
        format!(
            "OpenTofu {} ignore this file (`.tofu` files need OpenTofu {}), and the version constraints admit them",
            l.releases.describe(),
            since.short()
        )
    } else {
        format!(
            "{} needs OpenTofu {}, but the version constraints also admit {}, where it is missing",
            l.feature.name(),
            since.short(),
            l.releases.describe()
        )
    };
    let mut message = message;
    if l.uncovered && l.releases.oldest().is_some_and(|r| r < Release::new(1, 8, 0)) {
        message.push_str(&format!(
            "; OpenTofu before 1.8 reads `required_version` only in `.tf` files: add `required_version = \">= {}\"` to one",
            since.short()
        ));
    }
    let mut d = Diagnostic::new(Code::FeatureNeedsNewerOpentofu, FileRange::new(l.file, l.range), message);
    let candidates: Vec<_> =
        Tool::OpenTofu.releases().iter().map(|r| r.version()).chain([Tool::OpenTofu.later()]).collect();
    for c in &l.raise {
        let key = FileRange::new(c.file, c.decl.key_range);
        d = d.with_related(key, format!("{} here admits them", c.decl.kind.name()));
        let Some(parsed) = &c.parsed else { continue };
        if let Some(new) = parsed.raised_to(&since.version(), &candidates) {
            d = d.with_fix(Fix {
                title: format!("Raise {} to `{new}`", c.decl.kind.name()),
                edits: vec![TextEdit {
                    location: FileRange::new(c.file, c.decl.value_range),
                    new_text: format!("\"{new}\""),
                }],
                automatic: false,
            });
        }
    }
    d
}

fn not_in_terraform(v: &DirVersions, out: &mut Vec<Diagnostic>) {
    let Some(tf) = &v.terraform else { return };
    if tf.admitted.is_empty() {
        return;
    }
    for u in v.uses.iter().filter(|u| u.terraform_reads) {
        let name = u.feature.name();
        let message = match u.feature.terraform() {
            None => format!("{name} is not in Terraform, and this module declares that Terraform can run it"),
            Some(since) => {
                let lacking = tf.admitted.intersect(&ReleaseSet::below(Tool::Terraform, since));
                if lacking.is_empty() {
                    continue;
                }
                format!(
                    "{name} needs Terraform {}, but the module's Terraform constraint admits {}",
                    since.short(),
                    lacking.describe()
                )
            }
        };
        let mut d = Diagnostic::new(Code::NotInTerraform, FileRange::new(u.file, u.range), message);
        for i in &tf.constraints {
            let c = &v.constraints[*i];
            let why = match tf.how {
                TerraformHow::Language => "Terraform compatibility is declared here",
                TerraformHow::Layout { .. } => {
                    "Terraform reads this `required_version`, in a `.tf` file beside a `.tofu` file of the same name"
                }
            };
            d = d.with_related(FileRange::new(c.file, c.decl.key_range), why);
        }
        out.push(d);
    }
}

fn invalid_constraints(v: &DirVersions, out: &mut Vec<Diagnostic>) {
    for c in &v.constraints {
        let key = FileRange::new(c.file, c.decl.key_range);
        let name = c.decl.kind.name();
        match &c.decl.value {
            DeclValue::Null => {}
            DeclValue::NotConstant => out.push(Diagnostic::new(
                Code::InvalidVersionConstraint,
                key,
                format!(
                    "{name} must be a constant string such as \">= 1.9\": it is read before anything is evaluated, \
                     without variables or functions"
                ),
            )),
            DeclValue::Text(text) => match Constraints::parse(text) {
                Err(e) => out.push(Diagnostic::new(
                    Code::InvalidVersionConstraint,
                    key,
                    format!(
                        "{name} `{text}` is not a version constraint: `{}` is not an operator (`>=`, `~>`, …) and a \
                         version",
                        e.piece
                    ),
                )),
                Ok(parsed) if c.decl.kind != DeclKind::CompatibleWithTerraform => {
                    let pre: Vec<String> = parsed.prereleases().map(|t| t.version.to_string()).collect();
                    if pre.is_empty() {
                        continue;
                    }
                    let mut d = Diagnostic::new(
                        Code::InvalidVersionConstraint,
                        key,
                        format!(
                            "OpenTofu refuses pre-release versions in {name} (`{}`): pre-releases of OpenTofu match \
                             a constraint by their version core",
                            pre.join("`, `")
                        ),
                    );
                    let core: Vec<String> = parsed
                        .terms
                        .iter()
                        .map(|t| {
                            let mut t = t.clone();
                            t.version.pre.clear();
                            t.to_string()
                        })
                        .collect();
                    d = d.with_fix(Fix {
                        title: "Remove the pre-release".to_string(),
                        edits: vec![TextEdit {
                            location: FileRange::new(c.file, c.decl.value_range),
                            new_text: format!("\"{}\"", core.join(", ")),
                        }],
                        automatic: false,
                    });
                    out.push(d);
                }
                Ok(_) => {}
            },
        }
    }
}
