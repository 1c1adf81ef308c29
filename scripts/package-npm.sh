#!/usr/bin/env bash
# Packs the npm packages of foreach-ls, as .github/workflows/release.yml does:
#
#   scripts/package-npm.sh <rust-target> <archive|binary> [--out DIR] [--check]   (one per platform)
#   scripts/package-npm.sh --launcher [--out DIR]                                (once)
#   scripts/package-npm.sh <rust-target> --print-name   (prints the platform package's name and tarball; no build)
#
# That is esbuild's and biome's pattern. A platform package `@foreach-ls/<platform>`, DIR/foreach-ls-<platform>-
# <version>.tgz, holds the archive's binary as bin/foreach-ls[.exe], with `os` and `cpu` set so that npm installs it
# only there; <platform> is Node's `<process.platform>-<process.arch>`. The launcher package `foreach-ls`,
# DIR/foreach-ls-<version>.tgz (packaging/npm/foreach-ls/), is a Node script that runs the binary of the platform
# package it finds; its optionalDependencies name every platform package, so `npx foreach-ls` installs the launcher
# and the one platform package that fits. The binary is the archive's, not built again, as for the wheel
# (scripts/package-wheel.sh): the npm package and the archive of a platform carry the same binary.
#
# With --check (what .ci/run does) it also packs the launcher, installs both tarballs into an empty directory with
# `npm install`, and runs `npx foreach-ls --version` (which must be the packed binary's) and a `check` of the README's
# example; then, with the platform package removed, the launcher must say that it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/release-binary.sh
repo=$PWD

target=""
input=""
out=target/dist
check=false
print_name=false
launcher_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --check) check=true; shift ;;
    --print-name) print_name=true; shift ;;
    --launcher) launcher_only=true; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$target" ]; then target=$1; else input=$1; fi; shift ;;
  esac
done
usage() {
  echo "usage: scripts/package-npm.sh <rust-target> <archive|binary> [--out DIR] [--check]" >&2
  echo "       scripts/package-npm.sh --launcher [--out DIR]" >&2
  exit 2
}
if [ "$launcher_only" = true ]; then
  [ -z "$target" ] && [ "$check" = false ] && [ "$print_name" = false ] || usage
elif [ -z "$target" ] || { [ -z "$input" ] && [ "$print_name" != true ]; }; then
  usage
fi

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | tr -d '\r')
[ -n "$version" ] || { echo "no version in Cargo.toml [workspace.package]" >&2; exit 1; }

# Node's names for the platforms release.yml builds. The Linux binaries are static (musl), so one package serves
# glibc and musl distributions alike (no `libc` field).
if [ "$launcher_only" = false ]; then
  case "$target" in
    x86_64-unknown-linux-musl) os=linux cpu=x64 what="Linux x64 (static, any distribution)" ;;
    aarch64-unknown-linux-musl) os=linux cpu=arm64 what="Linux arm64 (static, any distribution)" ;;
    x86_64-apple-darwin) os=darwin cpu=x64 what="macOS x64" ;;
    aarch64-apple-darwin) os=darwin cpu=arm64 what="macOS arm64" ;;
    x86_64-pc-windows-msvc) os=win32 cpu=x64 what="Windows x64" ;;
    *) echo "no npm platform for $target" >&2; exit 2 ;;
  esac
  platform="$os-$cpu"
  package="@foreach-ls/$platform"
  # `npm pack` names a scoped package's tarball without the `@` and with `-` for the `/`.
  tarball="foreach-ls-$platform-$version.tgz"
  if [ "$print_name" = true ]; then
    echo "$package"
    echo "$tarball"
    exit 0
  fi
fi

launcher=packaging/npm/foreach-ls
launcher_tarball="foreach-ls-$version.tgz"
# A field of the launcher's package.json (one per line, as written there).
field() { tr -d '\r' < "$launcher/package.json" | sed -n "s|^ *\"$1\": \"\(.*\)\",\{0,1\}$|\1|p" | sed -n 1p; }
[ "$(field version)" = "$version" ] ||
  { echo "$launcher/package.json has version $(field version), Cargo.toml $version" >&2; exit 1; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
pack() { # directory expected-tarball
  local made
  made=$(cd "$1" && npm pack --pack-destination "$out" --loglevel=error --json | sed -n 's/^ *"filename": "\(.*\)",$/\1/p')
  [ "$made" = "$2" ] || { echo "npm pack wrote '$made', expected $2" >&2; exit 1; }
  (cd "$out" && sha256 "$2" > "$2.sha256")
  echo "wrote $out/$2"
}

# The launcher package, with the project's README and licences.
pack_launcher() {
  local stage="$work/foreach-ls"
  cp -R "$launcher" "$stage"
  cp README.md LICENSE-MIT LICENSE-APACHE "$stage/"
  pack "$stage" "$launcher_tarball"
}
if [ "$launcher_only" = true ]; then
  pack_launcher
  exit 0
fi

[ "$(field "$package")" = "$version" ] ||
  { echo "$launcher/package.json does not depend on $package $version" >&2; exit 1; }
release_binary "$target" "$input" "$work"

# The platform package: the binary, the licences, a README and a manifest with the launcher's license and repository.
stage="$work/$platform"
mkdir -p "$stage/bin"
cp "$binary" "$stage/bin/$exe"
chmod 755 "$stage/bin/$exe"
cp LICENSE-MIT LICENSE-APACHE "$stage/"
cat > "$stage/package.json" <<EOF
{
  "name": "$package",
  "version": "$version",
  "description": "The foreach-ls binary for $what, run by the foreach-ls package",
  "license": "$(field license)",
  "repository": {
    "type": "git",
    "url": "$(field url)"
  },
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/$exe", "LICENSE-MIT", "LICENSE-APACHE"],
  "preferUnplugged": true
}
EOF
cat > "$stage/README.md" <<EOF
# $package

The \`foreach-ls\` binary for $what. Install [\`foreach-ls\`](https://www.npmjs.com/package/foreach-ls) instead: its
\`foreach-ls\` command runs this binary, and npm installs this package only on $what.
EOF
pack "$stage" "$tarball"

[ "$check" = true ] || exit 0
# What `npm install foreach-ls` gives on this platform: the launcher and this platform's package, from the tarballs
# (npm asks the registry about the other platforms' packages, optional ones it does not install here).
pack_launcher
project="$work/project"
mkdir -p "$project"
(cd "$project" && echo '{"private": true}' > package.json &&
  npm install --no-audit --no-fund --loglevel=error "$out/$launcher_tarball" "$out/$tarball" >/dev/null)
installed=$(cd "$project/node_modules/@foreach-ls" && echo *)
[ "$installed" = "$platform" ] || { echo "npm installed @foreach-ls/{$installed} on $platform" >&2; exit 1; }
expected=$("$binary" --version)
# --no: never download a `foreach-ls` from the registry; the installed one must be found.
said=$(cd "$project" && npx --no -- foreach-ls --version)
[ "$said" = "$expected" ] || { echo "npx foreach-ls --version: $said, the packed binary's: $expected" >&2; exit 1; }
echo "npm install: npx foreach-ls --version: $said"
example=testdata/examples/multi-region
set +e
report=$(cd "$project" && npx --no -- foreach-ls check --no-color "$repo/$example" 2>&1)
status=$?
set -e
# The example has deliberate mistakes: errors found is exit 1, not a crash or a failure to load (2).
if [ "$status" -ne 1 ] || ! grep -q 'error\[' <<<"$report"; then
  echo "npx foreach-ls check $example exited with $status, expected 1 with errors:" >&2
  echo "$report" >&2
  exit 1
fi
echo "npm install: npx foreach-ls check $example: exit $status"
# Without its platform package (`npm install --omit=optional`), the launcher says so instead of failing obscurely.
rm -rf "$project/node_modules/@foreach-ls/$platform"
set +e
report=$(cd "$project" && npx --no -- foreach-ls --version 2>&1)
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -q "$package is not installed" <<<"$report"; then
  echo "without $package, npx foreach-ls --version exited with $status:" >&2
  echo "$report" >&2
  exit 1
fi
echo "npm install: without $package: $report"
