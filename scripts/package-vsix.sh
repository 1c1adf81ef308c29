#!/usr/bin/env bash
# Packages the VS Code extension for one platform with the server of a release archive inside it, as
# .github/workflows/release.yml does for each platform:
#
#   scripts/package-vsix.sh <rust-target> <archive> [--out DIR] [--check]
#
# writes DIR/foreach-ls-<version>-<vscode-target>.vsix (`vsce package --target`), holding the binary as
# extension/server/foreach-ls[.exe], which the extension starts when no `foreachLs.path` is set (src/bootstrap.ts).
# With --check (what .ci/run does) it then unpacks the .vsix and runs the extension's start-up test
# (editors/vscode/test/startup.test.ts) against the bundled server, with no foreach-ls on PATH.
# Needs Node.js/npm: the extension's packages are installed with `npm ci` when node_modules is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

target=""
archive=""
out=target/dist
check=false
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --check) check=true; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$target" ]; then target=$1; else archive=$1; fi; shift ;;
  esac
done
if [ -z "$target" ] || [ -z "$archive" ]; then
  echo "usage: scripts/package-vsix.sh <rust-target> <archive> [--out DIR] [--check]" >&2
  exit 2
fi
# VS Code's platform names for the targets release.yml builds.
case "$target" in
  x86_64-unknown-linux-musl) vscode=linux-x64 ;;
  aarch64-unknown-linux-musl) vscode=linux-arm64 ;;
  x86_64-apple-darwin) vscode=darwin-x64 ;;
  aarch64-apple-darwin) vscode=darwin-arm64 ;;
  x86_64-pc-windows-msvc) vscode=win32-x64 ;;
  *) echo "no VS Code platform for $target" >&2; exit 2 ;;
esac
exe=foreach-ls
case "$target" in *windows*) exe=foreach-ls.exe ;; esac
version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' editors/vscode/package.json)
mkdir -p "$out"
out=$(cd "$out" && pwd)
archive=$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")

work=$(mktemp -d)
server_dir=editors/vscode/server
cleanup() { rm -rf "$work" "$repo/$server_dir"; }
trap cleanup EXIT
case "$archive" in
  *.zip) (cd "$work" && unzip -q "$archive") ;;
  *) tar -C "$work" -xzf "$archive" ;;
esac
found=$(find "$work" -name "$exe" -type f -print -quit)
[ -n "$found" ] || { echo "$archive has no $exe" >&2; exit 1; }
rm -rf "$server_dir"
mkdir -p "$server_dir"
cp "$found" "$server_dir/$exe"
chmod 755 "$server_dir/$exe"

vsix="$out/foreach-ls-$version-$vscode.vsix"
rm -f "$vsix"
cd editors/vscode
[ -d node_modules ] || npm ci --loglevel=error
# `vsce package` runs `npm run build` first (vscode:prepublish): strict tsc, eslint, then the esbuild bundle.
npm --loglevel=error run package -- --target "$vscode" --out "$vsix"
cd "$repo"
if command -v sha256sum >/dev/null; then
  (cd "$out" && sha256sum "$(basename "$vsix")" > "$(basename "$vsix").sha256")
else
  (cd "$out" && shasum -a 256 "$(basename "$vsix")" > "$(basename "$vsix").sha256")
fi
echo "wrote $vsix"

[ "$check" = true ] || exit 0
# A .vsix is a zip with the extension under extension/. Unpacked the way VS Code installs it, the start-up test
# must find and start the bundled server with nothing on PATH that could stand in for it.
unpacked="$work/vsix"
mkdir -p "$unpacked"
(cd "$unpacked" && unzip -q "$vsix")
[ -f "$unpacked/extension/server/$exe" ] || { echo "$vsix has no extension/server/$exe" >&2; exit 1; }
[ -f "$unpacked/extension/dist/extension.js" ] || { echo "$vsix has no extension/dist/extension.js" >&2; exit 1; }
if unzip -l "$vsix" | grep -q 'node_modules/'; then
  echo "$vsix ships node_modules: dependencies must be bundled" >&2
  exit 1
fi
cd editors/vscode
node esbuild.mjs --tests
FOREACH_LS_EXTENSION="$unpacked/extension" node --test out/test/startup.test.js
