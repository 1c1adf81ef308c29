//! Quick-fix builders: functions that turn a finding into a [`crate::diagnostics::Fix`], computed as text edits on
//! the original file text so that everything outside the edited range stays byte-for-byte the same. The CLI
//! (`check --fix`, automatic fixes only) and the language server (code actions) apply them identically.

pub mod filter_for_each;
