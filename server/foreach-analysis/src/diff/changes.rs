//! What `diff` reports of one root module (plain data): each instance the change affects ([`Change`]), and each
//! block whose instances are not known statically ([`UnknownSet`]).

use std::sync::Arc;

use super::declared_set::{Covered, DeclaredSet};
use crate::base::FileRange;
use crate::instances::moves::{InstanceAddress, Removed};
use crate::instances::providers::ProviderInstance;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Destroy,
    Create,
    Move,
    Rebind,
    /// A `removed` block takes the instance out of the state without destroying it: the real object stays.
    Forget,
    /// An `import` block adopts an existing object as the instance: nothing is created.
    Import,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Destroy => "destroy",
            Action::Create => "create",
            Action::Move => "move",
            Action::Rebind => "rebind",
            Action::Forget => "forget",
            Action::Import => "import",
        }
    }
}

/// Which configuration a location is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Current,
    Base,
}

/// One instance the change affects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub action: Action,
    /// A resource instance, or a module instance (`resource: None`): where it is before the change.
    pub address: InstanceAddress,
    /// A move's new address.
    pub to: Option<InstanceAddress>,
    /// The provider instance it works through: the one it was created through (destroy, rebind), the one it will
    /// use (create, move). `None` when not known (or a module instance without a `providers` map).
    pub provider: Option<ProviderInstance>,
    /// A rebind's new provider instance (and a move's, when it changes).
    pub new_provider: Option<ProviderInstance>,
    /// Where its instances are decided (`for_each`, `count`, the block's name), on the side that has it.
    pub location: Option<(Side, FileRange)>,
    /// A destroy whose provider instance is gone too: the removal trap; `tofu plan` fails until it is destroyed.
    pub blocking: bool,
    /// A module instance's resource instances, destroyed or created with it (in address order).
    pub inside: Vec<InstanceAddress>,
    /// Declared instances kept by reference (`declared_set.rs`): the resource instances inside a new module
    /// instance (instead of `inside`), or, with a module instance as `address`, the instances of its blocks that
    /// the other side lacks, each a create of its own.
    pub declared: Option<DeclaredSet>,
    /// The `moved` block that carries a move.
    pub moved_by: Option<FileRange>,
    /// The `removed` block that makes a destroy a forget.
    pub removed_by: Option<FileRange>,
}

impl Change {
    /// How many instance changes it stands for: one, or each instance of a set of blocks.
    pub fn weight(&self) -> usize {
        match &self.declared {
            Some(set) if self.is_blocks() => set.len(),
            _ => 1,
        }
    }

    /// Whether it stands for the instances of some blocks of a module instance (`declared`, a
    /// [`Covered::Blocks`] set), not for the module instance.
    pub fn is_blocks(&self) -> bool {
        self.declared.as_ref().is_some_and(|s| matches!(s.covered(), Covered::Blocks { .. }))
    }

    /// How many resource instances inside the module instance it changes with it.
    pub fn inside_count(&self) -> usize {
        self.inside.len() + self.declared.as_ref().filter(|_| !self.is_blocks()).map_or(0, DeclaredSet::len)
    }

    /// The first `n` of them: the listed ones, then those of the set in declaration order.
    pub fn inside_first(&self, n: usize) -> Vec<InstanceAddress> {
        let mut out: Vec<InstanceAddress> = self.inside.iter().take(n).cloned().collect();
        if let Some(set) = self.declared.as_ref().filter(|_| !self.is_blocks())
            && out.len() < n
        {
            out.extend(set.first(n - out.len()));
        }
        out
    }

    /// All of them, in address order.
    pub fn inside_all(&self) -> Vec<InstanceAddress> {
        let mut out = self.inside.clone();
        if let Some(set) = self.declared.as_ref().filter(|_| !self.is_blocks()) {
            out.extend(set.addresses());
            out.sort();
        }
        out
    }

    pub(super) fn new(action: Action, address: InstanceAddress) -> Change {
        Change {
            action,
            address,
            to: None,
            provider: None,
            new_provider: None,
            location: None,
            blocking: false,
            inside: Vec::new(),
            declared: None,
            moved_by: None,
            removed_by: None,
        }
    }
}

/// A block whose instances are not known statically on one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSet {
    /// The block: `module.a["x"].aws_s3_bucket.b`, or a module call `module.a["x"].module.b`.
    pub address: String,
    pub why: Arc<str>,
    pub location: Option<(Side, FileRange)>,
    /// Instances on the other side (base or state) whose fate is therefore not known.
    pub instances: Vec<InstanceAddress>,
}

/// What the change does to one root module.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RootDiff {
    pub changes: Vec<Change>,
    pub unknown: Vec<UnknownSet>,
}

impl RootDiff {
    /// How many instance changes of kind `action`.
    pub fn count(&self, action: Action) -> usize {
        self.changes.iter().filter(|c| c.action == action).map(Change::weight).sum()
    }

    /// Turns the destroys that a `removed` block without `lifecycle { destroy = true }` covers into forgets (not
    /// blocking: forgetting needs no provider instance). A destroyed module instance is forgotten whole when the
    /// block covers it; otherwise the resource instances inside it that a block covers are forgotten one by one.
    pub(super) fn forget(&mut self, removed: &[Removed]) {
        let by = |a: &InstanceAddress| removed.iter().find(|r| !r.destroy && r.covers(a)).map(|r| r.location);
        let mut out = Vec::with_capacity(self.changes.len());
        for mut c in std::mem::take(&mut self.changes) {
            if c.action != Action::Destroy {
                out.push(c);
                continue;
            }
            if let Some(at) = by(&c.address) {
                c.action = Action::Forget;
                c.blocking = false;
                c.removed_by = Some(at);
                out.push(c);
                continue;
            }
            let (gone, kept): (Vec<_>, Vec<_>) =
                std::mem::take(&mut c.inside).into_iter().partition(|a| by(a).is_some());
            for a in gone {
                let mut f = Change::new(Action::Forget, a.clone());
                f.provider = c.provider.clone();
                f.location = c.location;
                f.removed_by = by(&a);
                out.push(f);
            }
            // A module instance whose resource instances are all forgotten destroys nothing.
            if c.address.resource.is_some() || !kept.is_empty() || c.declared.is_some() {
                c.inside = kept;
                out.push(c);
            }
        }
        self.changes = out;
    }

    /// Changes in a stable order: by provider instance, then action, then address.
    pub(super) fn sort(&mut self) {
        self.changes.sort_by(|a, b| {
            (&a.provider, a.action, &a.address, &a.to).cmp(&(&b.provider, b.action, &b.address, &b.to))
        });
        for c in &mut self.changes {
            c.inside.sort();
        }
        self.unknown.sort_by(|a, b| (&a.address, &a.why).cmp(&(&b.address, &b.why)));
        self.unknown.dedup_by(|a, b| {
            if a.address == b.address && a.why == b.why {
                b.instances.append(&mut a.instances);
                true
            } else {
                false
            }
        });
        for u in &mut self.unknown {
            u.instances.sort();
            u.instances.dedup();
        }
    }
}

/// `module.a["x"].aws_s3_bucket.b`, without the resource's key.
pub(super) fn block_address(module: &[crate::state::ModuleStep], what: &str) -> String {
    let path = InstanceAddress { module: module.to_vec(), resource: None }.to_string();
    if path.is_empty() { what.to_string() } else { format!("{path}.{what}") }
}

/// The provider instances of the resource instances inside a module instance created with them, to group it under
/// theirs when its call names none (a module that inherits its provider).
#[derive(Default)]
pub(super) struct InsideProviders(
    std::collections::HashMap<Vec<crate::state::ModuleStep>, Vec<Option<ProviderInstance>>>,
);

impl InsideProviders {
    pub(super) fn note(&mut self, module: &[crate::state::ModuleStep], provider: Option<ProviderInstance>) {
        self.0.entry(module.to_vec()).or_default().push(provider);
    }

    /// Sets the change's provider instance, when it has none, to the one every resource instance inside it uses.
    pub(super) fn settle(&self, c: &mut Change) {
        if c.provider.is_some() {
            return;
        }
        let Some(all) = self.0.get(&c.address.module) else { return };
        let Some(Some(first)) = all.first() else { return };
        if all.iter().all(|p| p.as_ref().is_some_and(|p| p.same(first))) {
            c.provider = Some(first.clone());
        }
    }
}
