#!/usr/bin/env bash
# Packages every publishable crate the way `cargo publish` would, without uploading anything: the crates.io metadata
# is complete, each package holds the files it needs, and its manifest resolves. Run by .ci/run.
#
# `cargo package --workspace` (cargo >= 1.90) packages the members in dependency order and resolves each package's
# dependencies on the others from the packages it has just made, so foreach-ls packages before foreach-lsp and the
# rest are on crates.io. `cargo package` ignores `publish = false`, so those members (foreach-fixture) are excluded
# here by name.
#
# --no-verify: verifying builds every package from its .crate, i.e. the whole workspace once more in release-less
# dev mode under target/package/ (about as long as CI's own build, which would double CI time). The packages are the
# same sources CI already builds and tests; what verification would add is a check that no file is missing from a
# package, which the list below covers for the files outside src/ that a build reads.
set -euo pipefail
cd "$(dirname "$0")/.."

exclude=()
for manifest in server/*/Cargo.toml; do
  case "$manifest" in server/fuzz/*) continue ;; esac # not a workspace member
  if grep -q '^publish = false' "$manifest"; then
    exclude+=(--exclude "$(sed -n 's/^name = "\(.*\)"/\1/p' "$manifest" | sed -n 1p)")
  fi
done
rm -f target/package/*.crate
echo "+ cargo package --workspace ${exclude[*]} --no-verify --locked"
# --allow-dirty: CI may run on a tree with local changes; nothing is published from here.
cargo package --workspace "${exclude[@]}" --no-verify --locked --allow-dirty --quiet

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
fork_version=$(sed -n 's/^version = "\(.*\)"/\1/p' server/vendor/hcl-edit/Cargo.toml)
# Each publishable crate and a file its package must hold: the build script, the README, the fork's patch list.
expect() {
  local crate=$1 file=$2
  local list
  list=$(tar -tzf "target/package/$crate.crate")
  grep -qx "$crate/$file" <<<"$list" || { echo "target/package/$crate.crate lacks $file" >&2; exit 1; }
}
expect "foreach-ls-$version" server/foreach-ls/build.rs
expect "foreach-ls-$version" README.md
for crate in foreach-syntax foreach-base foreach-eval foreach-analysis foreach-ide foreach-load foreach-lsp; do
  expect "$crate-$version" Cargo.toml
  expect "$crate-$version" README.md
done
expect "foreach-hcl-edit-$fork_version" PATCHES.md
# The published foreach-syntax must depend on our fork, not on upstream hcl-edit ([patch] is not published).
manifest=$(tar -xzOf "target/package/foreach-syntax-$version.crate" "foreach-syntax-$version/Cargo.toml")
grep -q 'package = "foreach-hcl-edit"' <<<"$manifest" ||
  { echo "the packaged foreach-syntax does not depend on foreach-hcl-edit" >&2; exit 1; }
# Test-only crates stay unpublished.
if compgen -G "target/package/foreach-fixture-*.crate" >/dev/null; then
  echo "foreach-fixture (test-only) was packaged" >&2
  exit 1
fi
ls target/package/*.crate
echo "package check passed"
