//! Which version constraints each OpenTofu release reads in a module, which of the module's constructs it sees,
//! and which releases each root's tree admits.
//!
//! OpenTofu's rules, by release (`docs/versions.md`, with sources):
//! - 1.6 and 1.7 read `.tf` and `.tf.json` files only, and enforce every `required_version` in them; an override
//!   file that sets one replaces the list gathered so far (`Module.mergeFile`).
//! - 1.8 to 1.11 also read `.tofu` and `.tofu.json` files; a `.tofu` file shadows the `.tf` file of the same name,
//!   which they then do not read at all.
//! - 1.12 and later enforce a `required_version` only in `.tofu` files (one in a `.tf` file is taken as
//!   Terraform's), and `language { compatible_with { opentofu = … } }` in any file they read, each file on its own
//!   (`checkVersionRequirements`).
//!
//! One binary runs a root module and every module it calls, and each module's constraints must hold
//! (`Config.CheckCoreVersionRequirements`), so a root's tree admits the releases every constraint in it admits,
//! each judged by the releases that read it.

use std::sync::Arc;

use foreach_syntax::{FileKind, TextRange};

use crate::base::FileId;
use crate::db::{Db, ModuleDir, Workspace, file_summary, module};
use crate::model::module::is_override;
use crate::tree::module_tree;
use crate::tree_model::NodeId;
use crate::versions::constraint::{Constraints, Version};
use crate::versions::features::Feature;
use crate::versions::releases::{Release, ReleaseSet, Tool};
use crate::versions::usage::{DeclKind, DeclValue, VersionDecl};

/// The release lines that read files and constraints differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Readers {
    /// 1.6 and 1.7.
    pub before_1_8: bool,
    /// 1.8 to 1.11.
    pub from_1_8: bool,
    /// 1.12 and later.
    pub from_1_12: bool,
}

const V1_8: Release = Release::new(1, 8, 0);
const V1_12: Release = Release::new(1, 12, 0);

impl Readers {
    pub const ALL: Readers = Readers { before_1_8: true, from_1_8: true, from_1_12: true };

    pub fn reads(self, v: &Version) -> bool {
        if v.compare(&V1_8.version()).is_lt() {
            self.before_1_8
        } else if v.compare(&V1_12.version()).is_lt() {
            self.from_1_8
        } else {
            self.from_1_12
        }
    }

    pub fn any(self) -> bool {
        self.before_1_8 || self.from_1_8 || self.from_1_12
    }

    pub fn set(self) -> ReleaseSet {
        ReleaseSet::from_fn(Tool::OpenTofu, |v| self.reads(v))
    }
}

/// A version constraint of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    pub file: FileId,
    pub decl: VersionDecl,
    /// The constraint as go-version parses it; `None` for `null`, for a value that is not a constant string, for
    /// a syntax error and (for OpenTofu's) a pre-release: OpenTofu ignores the first and refuses the others, which
    /// the checks report (`invalid-version-constraint`).
    pub parsed: Option<Constraints>,
    /// The OpenTofu releases that read and enforce it (none for `compatible_with.terraform`).
    pub readers: Readers,
}

impl Constraint {
    /// The releases of `tool` it admits, counting a release that does not read it as admitted.
    pub fn admits(&self, tool: Tool) -> Option<ReleaseSet> {
        let parsed = self.parsed.as_ref()?;
        Some(match tool {
            Tool::OpenTofu => ReleaseSet::from_fn(tool, |v| !self.readers.reads(v) || parsed.admits(v)),
            Tool::Terraform => ReleaseSet::admitted_by(tool, parsed),
        })
    }
}

/// A construct of the feature table used in the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    pub file: FileId,
    pub feature: Feature,
    pub range: TextRange,
    /// The OpenTofu releases that see it (a `.tofu` file's: 1.8 and later). For [`Feature::TofuFile`], every
    /// release: the ones before 1.8 are those that lack it (they ignore the file).
    pub readers: Readers,
    /// Whether Terraform reads the file (`.tf`, `.tf.json`, test files).
    pub terraform_reads: bool,
}

/// How a module says it is meant for Terraform too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TerraformHow {
    /// `language { compatible_with { terraform = "…" } }`.
    Language,
    /// The docs' cross-tool layout: a `.tf` file with `required_version` beside a `.tofu` file of the same name
    /// (the `.tofu` file's id), which OpenTofu reads instead.
    Layout { tofu_file: FileId },
}

/// A module's declaration of Terraform compatibility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerraformDecl {
    pub how: TerraformHow,
    /// Indices into [`DirVersions::constraints`] of the constraints Terraform must satisfy.
    pub constraints: Vec<usize>,
    /// The Terraform releases they admit (all of them when none parses).
    pub admitted: ReleaseSet,
}

/// What one module directory holds of versions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DirVersions {
    pub constraints: Vec<Constraint>,
    pub uses: Vec<Use>,
    pub terraform: Option<TerraformDecl>,
}

impl DirVersions {
    /// The constraints OpenTofu reads (not `compatible_with.terraform`).
    pub fn opentofu_constraints(&self) -> impl Iterator<Item = &Constraint> {
        self.constraints.iter().filter(|c| c.decl.kind != DeclKind::CompatibleWithTerraform)
    }

    /// The releases the module's own constraints admit.
    pub fn admitted(&self) -> ReleaseSet {
        self.opentofu_constraints()
            .filter(|c| c.readers.any())
            .filter_map(|c| c.admits(Tool::OpenTofu))
            .fold(ReleaseSet::all(Tool::OpenTofu), |a, b| a.intersect(&b))
    }

    /// The oldest release that sees none of the module's constructs it lacks (`None` when no listed release is
    /// one): what the module's own constraints should require.
    pub fn minimum(&self) -> Option<Release> {
        Tool::OpenTofu.releases().iter().copied().find(|r| self.uses_lacking(*r).next().is_none())
    }

    /// The effective minimum ([`DirVersions::minimum`]) and the constructs that set it: those the release just below
    /// it lacks. `None` when no listed release has every construct.
    pub fn minimum_and_why(&self) -> Option<(Release, Vec<&Use>)> {
        let min = self.minimum()?;
        let below = Tool::OpenTofu.releases().iter().copied().take_while(|r| *r < min).last();
        Some((min, below.map(|r| self.uses_lacking(r).collect()).unwrap_or_default()))
    }

    /// The constructs release `r` sees but does not have (for a `.tofu` file without a twin, that it ignores it).
    pub fn uses_lacking(&self, r: Release) -> impl Iterator<Item = &Use> {
        let v = r.version();
        self.uses.iter().filter(move |u| u.readers.reads(&v) && r < u.feature.opentofu())
    }
}

/// A configuration file of the module, as the reading rules see it.
struct ConfigFile<'a> {
    id: FileId,
    name: &'a str,
    kind: FileKind,
    shadowed: bool,
    decls: &'a [VersionDecl],
    first_block: Option<TextRange>,
}

/// The versions of one module directory.
#[salsa::tracked(returns(clone))]
pub fn dir_versions(db: &dyn Db, dir: ModuleDir) -> Arc<DirVersions> {
    let files = dir.files(db);
    if !files.iter().any(|f| f.kind(db).is_config()) {
        return Arc::new(DirVersions::default());
    }
    let m = module(db, dir);
    let summaries: Vec<_> = files.iter().map(|f| (*f, f.kind(db).is_config().then(|| file_summary(db, *f)))).collect();
    let mut config: Vec<ConfigFile> = summaries
        .iter()
        .filter_map(|(f, s)| {
            let s = s.as_ref()?;
            let id = f.id(db);
            Some(ConfigFile {
                id,
                name: f.file_name(db),
                kind: f.kind(db),
                shadowed: m.shadowed.iter().any(|(shadowed, _)| *shadowed == id),
                decls: &s.versions.decls,
                first_block: s.versions.first_block,
            })
        })
        .collect();
    config.sort_by(|a, b| a.name.cmp(b.name));

    let mut out = DirVersions::default();
    // Every declaration, in file order, with its readers filled in below.
    let mut index: Vec<(usize, usize)> = Vec::new(); // (file position in `config`, decl position)
    for (fi, f) in config.iter().enumerate() {
        for (di, d) in f.decls.iter().enumerate() {
            index.push((fi, di));
            out.constraints.push(Constraint {
                file: f.id,
                decl: d.clone(),
                parsed: parse(d),
                readers: Readers::default(),
            });
        }
    }
    let position = |fi: usize, di: usize| index.iter().position(|x| *x == (fi, di)).expect("indexed");
    // 1.6-1.7 read every `.tf` file; 1.8-1.11 the files not shadowed. Both gather `required_version` from the
    // primary files and let an override file that sets any replace the list.
    let tf_only = |f: &ConfigFile| !f.kind.is_tofu();
    let live = |f: &ConfigFile| !f.shadowed;
    for (reads, mark) in [
        (&tf_only as &dyn Fn(&ConfigFile) -> bool, (|r: &mut Readers| r.before_1_8 = true) as fn(&mut Readers)),
        (&live, |r: &mut Readers| r.from_1_8 = true),
    ] {
        let mut list: Vec<usize> = Vec::new();
        for overrides in [false, true] {
            for (fi, f) in config.iter().enumerate() {
                if !reads(f) || is_override(f.name) != overrides {
                    continue;
                }
                let own: Vec<usize> = (0..f.decls.len())
                    .filter(|di| f.decls[*di].kind == DeclKind::RequiredVersion)
                    .map(|di| position(fi, di))
                    .collect();
                if overrides && !own.is_empty() {
                    list.clear();
                }
                list.extend(own);
            }
        }
        for i in list {
            mark(&mut out.constraints[i].readers);
        }
    }
    // 1.12 and later: `required_version` in `.tofu` files and `compatible_with.opentofu` anywhere they read.
    for (fi, f) in config.iter().enumerate() {
        for (di, d) in f.decls.iter().enumerate() {
            let read = match d.kind {
                DeclKind::RequiredVersion => f.kind.is_tofu(),
                DeclKind::CompatibleWithOpenTofu => !f.shadowed,
                DeclKind::CompatibleWithTerraform => false,
            };
            if read {
                out.constraints[position(fi, di)].readers.from_1_12 = true;
            }
        }
    }

    // The constructs, and who sees them.
    for ((f, summary), file) in summaries.iter().zip(files.iter()) {
        let Some(summary) = summary else { continue };
        let kind = f.kind(db);
        let id = file.id(db);
        let shadowed = m.shadowed.iter().any(|(s, _)| *s == id);
        let readers = if kind.is_tofu() {
            Readers { before_1_8: false, from_1_8: true, from_1_12: true }
        } else if shadowed {
            Readers { before_1_8: true, from_1_8: false, from_1_12: false }
        } else {
            Readers::ALL
        };
        for u in &summary.versions.uses {
            out.uses.push(Use {
                file: id,
                feature: u.feature,
                range: u.range,
                readers,
                terraform_reads: !kind.is_tofu(),
            });
        }
    }
    // A `.tofu` file with no `.tf` twin is ignored by 1.6 and 1.7, its constraints with it.
    for f in config.iter().filter(|f| f.kind.is_tofu()) {
        let twin = config.iter().any(|t| {
            !t.kind.is_tofu()
                && FileKind::base_name(t.name) == FileKind::base_name(f.name)
                && t.kind.is_json() == f.kind.is_json()
        });
        if !twin {
            out.uses.push(Use {
                file: f.id,
                feature: Feature::TofuFile,
                range: f.first_block.unwrap_or_default(),
                readers: Readers::ALL,
                terraform_reads: false,
            });
        }
    }
    for f in files.iter().filter(|f| matches!(f.kind(db), FileKind::TfTest | FileKind::TestJson)) {
        if f.file_name(db).ends_with(".tftest.hcl") || f.file_name(db).ends_with(".tftest.json") {
            out.uses.push(Use {
                file: f.id(db),
                feature: Feature::TestFile,
                range: TextRange::default(),
                readers: Readers::ALL,
                terraform_reads: true,
            });
        }
    }

    out.terraform = terraform_decl(&config, &out.constraints);
    Arc::new(out)
}

fn parse(d: &VersionDecl) -> Option<Constraints> {
    let DeclValue::Text(text) = &d.value else { return None };
    let parsed = Constraints::parse(text).ok()?;
    // OpenTofu refuses a pre-release in its own constraints; Terraform's are taken as they are.
    if d.kind != DeclKind::CompatibleWithTerraform && parsed.prereleases().next().is_some() {
        return None;
    }
    Some(parsed)
}

/// The module's Terraform compatibility: `compatible_with.terraform`, else the cross-tool layout.
fn terraform_decl(config: &[ConfigFile], constraints: &[Constraint]) -> Option<TerraformDecl> {
    let language: Vec<usize> =
        (0..constraints.len()).filter(|i| constraints[*i].decl.kind == DeclKind::CompatibleWithTerraform).collect();
    let (how, chosen) = if !language.is_empty() {
        (TerraformHow::Language, language)
    } else {
        // A `.tf` file with `required_version` whose `.tofu` twin shadows it for OpenTofu.
        let tofu_file = config.iter().find_map(|f| {
            let has_required = f.decls.iter().any(|d| d.kind == DeclKind::RequiredVersion);
            if f.kind.is_tofu() || !f.shadowed || !has_required {
                return None;
            }
            let twin = config.iter().find(|t| {
                t.kind.is_tofu()
                    && FileKind::base_name(t.name) == FileKind::base_name(f.name)
                    && t.kind.is_json() == f.kind.is_json()
            })?;
            Some(twin.id)
        })?;
        // Terraform reads every `.tf` file, as OpenTofu 1.6 did: the constraints that release line reads.
        let chosen = (0..constraints.len()).filter(|i| constraints[*i].readers.before_1_8).collect();
        (TerraformHow::Layout { tofu_file }, chosen)
    };
    let admitted = chosen
        .iter()
        .filter_map(|i| constraints[*i].admits(Tool::Terraform))
        .fold(ReleaseSet::all(Tool::Terraform), |a, b| a.intersect(&b));
    Some(TerraformDecl { how, constraints: chosen, admitted })
}

/// What a root module's tree admits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootVersions {
    pub root: NodeId,
    /// The module directories of the tree (each once), the root's first.
    pub dirs: Vec<ModuleDir>,
    /// The OpenTofu releases every constraint of the tree admits (as the releases that read each one).
    pub admitted: ReleaseSet,
    /// Whether any release reads any constraint of the tree: without one, the module claims nothing, and its
    /// constructs are not judged.
    pub constrained: bool,
}

/// Every root's [`RootVersions`], in the tree's order of roots.
#[salsa::tracked(returns(clone))]
pub fn root_versions(db: &dyn Db, ws: Workspace) -> Arc<Vec<RootVersions>> {
    let tree = module_tree(db, ws);
    // Each node's root: parents are built before their children.
    let mut root_of: Vec<usize> = Vec::with_capacity(tree.nodes.len());
    for (i, node) in tree.nodes.iter().enumerate() {
        let r = match node.parent {
            Some(p) if (p.0 as usize) < i => root_of[p.0 as usize],
            Some(p) => {
                let mut at = tree.node(p);
                let mut id = p;
                while let Some(up) = at.parent {
                    id = up;
                    at = tree.node(up);
                }
                id.0 as usize
            }
            None => i,
        };
        root_of.push(r);
    }
    let mut out: Vec<RootVersions> = Vec::with_capacity(tree.roots.len());
    let mut slot: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for root in &tree.roots {
        slot.insert(root.0 as usize, out.len());
        out.push(RootVersions {
            root: *root,
            dirs: Vec::new(),
            admitted: ReleaseSet::all(Tool::OpenTofu),
            constrained: false,
        });
    }
    let mut seen: Vec<std::collections::HashSet<ModuleDir>> = vec![Default::default(); out.len()];
    for (i, node) in tree.nodes.iter().enumerate() {
        let Some(s) = slot.get(&root_of[i]) else { continue };
        if seen[*s].insert(node.dir) {
            out[*s].dirs.push(node.dir);
        }
    }
    for entry in &mut out {
        for dir in &entry.dirs {
            let v = dir_versions(db, *dir);
            for c in v.opentofu_constraints().filter(|c| c.readers.any()) {
                if let Some(admits) = c.admits(Tool::OpenTofu) {
                    entry.constrained = true;
                    entry.admitted = entry.admitted.intersect(&admits);
                }
            }
        }
    }
    Arc::new(out)
}
