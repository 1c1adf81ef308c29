#!/usr/bin/env bash
# Builds the release archive of foreach-ls for one target, as .github/workflows/release.yml does for each platform:
#
#   scripts/build-release.sh <target> [--profile dist|ci-dist] [--out DIR]
#   scripts/build-release.sh <target> --print-name   (prints the archive's name and the binary's path in it; no build)
#
# writes DIR/foreach-ls-<version>-<target>.tar.gz (.zip for Windows targets) and its .sha256, the archive holding one
# directory foreach-ls-<version>-<target>/ with the binary, README.md and the licence files. These names are what
# `cargo binstall` (Cargo.toml), the Mason entry (editors/neovim/mason/package.yaml) and the Homebrew formula
# (packaging/homebrew/) expect; server/foreach-ls/tests/release.rs checks that they agree.
#
# When this machine can run the binary it unpacks the archive and runs `foreach-ls --version` from it, and for a
# Linux musl target checks that the binary is static (it must run on any Linux, glibc or not).
#
# Profiles: `dist` (the default, real releases) is the release profile with thin LTO and one codegen unit; `ci-dist`
# (what .ci/run uses) optimises less, so that checking the packaging does not cost CI a full optimised build. Both are defined in the root Cargo.toml.
set -euo pipefail
cd "$(dirname "$0")/.."

target=""
profile=dist
out=target/dist
print_name=false
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --print-name) print_name=true; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) target=$1; shift ;;
  esac
done
if [ -z "$target" ]; then
  echo "usage: scripts/build-release.sh <target> [--profile dist|ci-dist] [--out DIR]" >&2
  exit 2
fi

# The version of the foreach-ls package (inherited from [workspace.package]).
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
[ -n "$version" ] || { echo "no version in Cargo.toml [workspace.package]" >&2; exit 1; }
name="foreach-ls-$version-$target"
exe=foreach-ls
ext=.tar.gz
case "$target" in *windows*) exe=foreach-ls.exe ext=.zip ;; esac
archive="$name$ext"
if [ "$print_name" = true ]; then
  echo "$archive"
  echo "$name/$exe"
  exit 0
fi

rustup target add "$target" >/dev/null 2>&1 || echo "(rustup target add $target failed; building with what is installed)"
# mimalloc is C: for a musl target cc needs a musl C compiler. cc looks for `<arch>-linux-musl-gcc`; Debian's
# musl-tools (which the release workflow and .ci/run install) has `musl-gcc`, so name it when that is what there is.
case "$target" in
  *linux-musl*)
    arch=${target%%-*}
    cc_var="CC_${target//-/_}"
    if [ -z "${!cc_var:-}" ] && ! command -v "$arch-linux-musl-gcc" >/dev/null; then
      if command -v musl-gcc >/dev/null && [ "$arch" = "$(uname -m)" ]; then
        export "$cc_var=musl-gcc"
      else
        echo "(no musl C compiler for $target: install musl-tools, or set $cc_var)" >&2
      fi
    fi
    ;;
esac

echo "+ cargo build --locked --profile $profile --target $target --bin foreach-ls"
cargo build --locked --profile "$profile" --target "$target" --bin foreach-ls
bin="target/$target/$profile/$exe"

mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$bin" README.md LICENSE-MIT LICENSE-APACHE "$stage/$name/"
case "$archive" in
  *.zip)
    rm -f "$out/$archive"
    if command -v zip >/dev/null; then
      (cd "$stage" && zip -qr - "$name") > "$out/$archive"
    else
      # Windows runners have 7-Zip, not always zip.
      (cd "$stage" && 7z a -tzip -bd "archive.zip" "$name" >/dev/null) && mv "$stage/archive.zip" "$out/$archive"
    fi
    ;;
  *)
    tar -C "$stage" -czf "$out/$archive" "$name"
    ;;
esac
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
(cd "$out" && sha256 "$archive" > "$archive.sha256")
echo "wrote $out/$archive"
cat "$out/$archive.sha256"

# Checks on what users will unpack, when this machine can run it.
host=$(rustc -vV | sed -n 's/^host: //p')
runnable=false
case "$target" in
  "$host") runnable=true ;;
  "${host%%-*}-unknown-linux-musl") [ "$(uname -s)" = Linux ] && runnable=true ;;
esac
if [ "$runnable" != true ]; then
  echo "(not checking the binary: $target does not run on $host)"
  exit 0
fi
apath="$(cd "$out" && pwd)/$archive"
check=$(mktemp -d)
trap 'rm -rf "$stage" "$check"' EXIT
case "$archive" in
  *.zip) (cd "$check" && unzip -q "$apath") ;;
  *) tar -C "$check" -xzf "$apath" ;;
esac
for f in "$exe" README.md LICENSE-MIT LICENSE-APACHE; do
  [ -f "$check/$name/$f" ] || { echo "$archive lacks $name/$f" >&2; exit 1; }
done
unpacked="$check/$name/$exe"
case "$target" in
  *linux-musl*)
    desc=$(file -b "$unpacked")
    echo "file: $desc"
    case "$desc" in
      *"statically linked"* | *"static-pie linked"*) ;;
      *) echo "$exe in $archive is not statically linked" >&2; exit 1 ;;
    esac
    if command -v ldd >/dev/null && ldd "$unpacked" 2>&1 | grep -q '=>'; then
      echo "ldd finds shared libraries in $exe:" >&2
      ldd "$unpacked" >&2
      exit 1
    fi
    ;;
esac
said=$("$unpacked" --version)
echo "--version: $said"
case "$said" in
  "foreach-ls $version ("*")") ;;
  *) echo "unexpected --version from $archive: $said (expected foreach-ls $version (<commit>))" >&2; exit 1 ;;
esac
