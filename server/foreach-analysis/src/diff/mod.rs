//! `foreach-ls diff`: what a change does to a root module's instances, before `tofu plan` (`docs/diff.md`).
//!
//! The instances the configuration declares (`instances/`) are compared with those of another side: a base
//! revision's configuration, declared the same way (`base.rs`), or a state (`state.rs`). Each difference is one
//! [`Change`]: a destroy, a create, a move (a `moved` block carries the instance to a new address), a rebind (the
//! instance stays, its provider instance changes) or a forget (a `removed` block takes it out of the state without
//! destroying it). Where a side's instances are not known statically, the block is
//! listed as [`UnknownSet`] with the reason, and nothing about it is guessed.
//!
//! Plain data; the command line renders it. Locations say which side they are on: a block deleted by the change is
//! only in the base revision's files.

mod base;
mod changes;
mod declared_set;
mod state;

pub use base::compare_base;
pub use changes::{Action, Change, RootDiff, Side, UnknownSet};
pub use declared_set::{Covered, DeclaredSet, LISTED, instance_address};
pub use state::compare_state;
