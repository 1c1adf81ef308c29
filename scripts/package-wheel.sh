#!/usr/bin/env bash
# Packages the foreach-ls binary of a release archive as a Python wheel for one platform (PyPI's `foreach-ls`), as
# .github/workflows/release.yml does for each platform:
#
#   scripts/package-wheel.sh <rust-target> <archive|binary> [--out DIR] [--check]
#   scripts/package-wheel.sh <rust-target> --print-name   (prints the wheel's name; no build)
#
# writes DIR/foreach_ls-<version>-py3-none-<platform tags>.whl and its .sha256. The wheel holds no Python: the binary
# is one of its scripts (foreach_ls-<version>.data/scripts/), which pip, pipx and uv put on PATH, as the wheels maturin
# builds with `bindings = "bin"` (ruff's) do. It is packed from the archive scripts/build-release.sh made instead of
# being compiled again: the archive, the wheel, the npm package and the .vsix of a platform carry the same binary
# (the same `--version` commit), and checking the wheel costs CI seconds, not a build. `wheel pack` (PyPA's `wheel`)
# writes RECORD and names the file after the WHEEL file's tags; it runs from a virtual environment of this script's,
# target/packaging-venv, made with $PYTHON (default python3).
#
# With --check (what .ci/run does) it installs the wheel into a new virtual environment with pip, and runs its
# `foreach-ls --version` (which must be the packed binary's) and a `check` of the README's example; then the same
# through `uvx` (uv from PyPI, in target/packaging-venv), offline with the wheel as the only package source.
#
# Exit status 3: a tool this script installs (wheel, uv) could not be had, e.g. no python3 or PyPI unreachable; the
# message says which. The tests skip on it; anything else that fails is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/release-binary.sh
repo=$PWD

# The tools, pinned: what the release uses is what CI checks.
wheel_pin=wheel==0.48.0
uv_pin=uv==0.13.9

target=""
input=""
out=target/dist
check=false
print_name=false
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --check) check=true; shift ;;
    --print-name) print_name=true; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$target" ]; then target=$1; else input=$1; fi; shift ;;
  esac
done
if [ -z "$target" ] || { [ -z "$input" ] && [ "$print_name" != true ]; }; then
  echo "usage: scripts/package-wheel.sh <rust-target> <archive|binary> [--out DIR] [--check]" >&2
  exit 2
fi

# The platform tags of each target. The Linux binaries are static (musl, scripts/build-release.sh checks it), so they
# run on any Linux: one wheel is tagged for glibc distributions (manylinux2014 = manylinux_2_17, the oldest aarch64
# has) and musl ones (Alpine: musllinux_1_1) at once, as ziglang's wheels are. macOS: the oldest versions Rust's
# targets support.
case "$target" in
  x86_64-unknown-linux-musl) tags="manylinux_2_17_x86_64 manylinux2014_x86_64 musllinux_1_1_x86_64" ;;
  aarch64-unknown-linux-musl) tags="manylinux_2_17_aarch64 manylinux2014_aarch64 musllinux_1_1_aarch64" ;;
  x86_64-apple-darwin) tags="macosx_10_12_x86_64" ;;
  aarch64-apple-darwin) tags="macosx_11_0_arm64" ;;
  x86_64-pc-windows-msvc) tags="win_amd64" ;;
  # A binary linked against this machine's glibc (what the tests pack from their own build): for this machine only,
  # and PyPI refuses the tag. Releases are musl.
  x86_64-unknown-linux-gnu | aarch64-unknown-linux-gnu) tags="linux_${target%%-*}" ;;
  *) echo "no wheel platform tags for $target" >&2; exit 2 ;;
esac

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml | tr -d '\r')
[ -n "$version" ] || { echo "no version in Cargo.toml [workspace.package]" >&2; exit 1; }
# `wheel pack` joins each part of the tags, sorted, with dots.
platforms=$(tr ' ' '\n' <<<"$tags" | LC_ALL=C sort | paste -sd. -)
wheel_name="foreach_ls-$version-py3-none-$platforms.whl"
if [ "$print_name" = true ]; then
  echo "$wheel_name"
  exit 0
fi

# The package's metadata, from the root manifest (the crates.io package's).
# (tr: a Windows checkout may have CRLF line ends.)
package_field() { tr -d '\r' < Cargo.toml | sed -n "/^\[package\]/,/^\[/s/^$1 = \"\(.*\)\"/\1/p"; }
workspace_field() { tr -d '\r' < Cargo.toml | sed -n "/^\[workspace.package\]/,/^\[/s/^$1 = \"\(.*\)\"/\1/p"; }
summary=$(package_field description)
license=$(workspace_field license)
repository=$(workspace_field repository)
keywords=$(sed -n '/^\[package\]/,/^\[/s/^keywords = \[\(.*\)\]/\1/p' Cargo.toml | tr -d '" \r')
for field in summary license repository keywords; do
  [ -n "${!field}" ] || { echo "no $field for the wheel in Cargo.toml" >&2; exit 1; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The binary: unpacked from the archive, or the file given.
release_binary "$target" "$input" "$work"

# The tools run from a virtual environment of their own, target/packaging-venv, made with $PYTHON (default python3)
# and kept for the next run.
base_python=${PYTHON:-python3}
command -v "$base_python" >/dev/null || base_python=python
venv=$repo/target/packaging-venv
python=$venv/bin/python
unavailable() { echo "$1" >&2; exit 3; }
ensure_tool() { # distribution pip-requirement
  if [ ! -x "$python" ] && [ ! -x "$venv/Scripts/python" ]; then
    command -v "$base_python" >/dev/null || unavailable "no python3 on PATH: cannot install $2"
    "$base_python" -m venv "$venv" >/dev/null || unavailable "$base_python -m venv $venv failed"
  fi
  [ -d "$venv/Scripts" ] && python=$venv/Scripts/python # Windows
  # Installed already, at the pinned version?
  "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '${2##*==}')" 2>/dev/null && return
  "$python" -m pip install -q --disable-pip-version-check "$2" || unavailable "pip install $2 failed (is PyPI reachable?)"
}
ensure_tool wheel "$wheel_pin"

# The unpacked wheel: the binary as a script, the metadata (core metadata 2.4, the README as the description) and
# the licence files.
tree="$work/wheel"
data="$tree/foreach_ls-$version.data/scripts"
info="$tree/foreach_ls-$version.dist-info"
mkdir -p "$data" "$info/licenses"
cp "$binary" "$data/$exe"
chmod 755 "$data/$exe"
cp LICENSE-MIT LICENSE-APACHE "$info/licenses/"
{
  echo "Metadata-Version: 2.4"
  echo "Name: foreach-ls"
  echo "Version: $version"
  echo "Summary: $summary"
  echo "Keywords: $keywords"
  echo "License-Expression: $license"
  echo "License-File: LICENSE-MIT"
  echo "License-File: LICENSE-APACHE"
  echo "Project-URL: Repository, $repository"
  echo "Classifier: Environment :: Console"
  echo "Classifier: Intended Audience :: Developers"
  echo "Classifier: Programming Language :: Rust"
  echo "Classifier: Topic :: Software Development :: Quality Assurance"
  echo "Description-Content-Type: text/markdown"
  echo
  cat README.md
} > "$info/METADATA"
{
  echo "Wheel-Version: 1.0"
  echo "Generator: foreach-ls scripts/package-wheel.sh"
  echo "Root-Is-Purelib: false"
  for tag in $tags; do echo "Tag: py3-none-$tag"; done
} > "$info/WHEEL"

# Reproducible: the files' times in the zip are the commit's, not now.
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 315532800)
export SOURCE_DATE_EPOCH
rm -f "$out/$wheel_name"
"$python" -m wheel pack --dest-dir "$out" "$tree" >/dev/null
[ -f "$out/$wheel_name" ] || { echo "wheel pack did not write $out/$wheel_name:" >&2; ls "$out" >&2; exit 1; }
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
(cd "$out" && sha256 "$wheel_name" > "$wheel_name.sha256")
echo "wrote $out/$wheel_name"

[ "$check" = true ] || exit 0
# What users get from `pip install foreach-ls` and `uvx foreach-ls`: the packed binary on PATH.
expected=$("$binary" --version)
example=testdata/examples/multi-region
expect_example() { # what the example's check printed, its exit status, and who ran it
  # The example has deliberate mistakes: errors found is exit 1, not a crash or a failure to load (2).
  if [ "$2" -ne 1 ] || ! grep -q 'error\[' <<<"$1"; then
    echo "$3 check $example exited with $2, expected 1 with errors:" >&2
    echo "$1" >&2
    exit 1
  fi
}
# A new environment without pip of its own (ensurepip alone takes seconds), installed into by the tools' pip.
"$python" -m venv --without-pip "$work/venv"
pip_venv="$work/venv/bin"
[ -d "$work/venv/Scripts" ] && pip_venv="$work/venv/Scripts"
"$python" -m pip --python "$pip_venv/python" install -q --disable-pip-version-check --no-index "$out/$wheel_name"
said=$("$pip_venv/$exe" --version)
[ "$said" = "$expected" ] || { echo "pip's foreach-ls --version: $said, the packed binary's: $expected" >&2; exit 1; }
echo "pip install: foreach-ls --version: $said"
set +e
report=$("$pip_venv/$exe" check --no-color "$example" 2>&1)
status=$?
set -e
expect_example "$report" "$status" "pip's foreach-ls"
echo "pip install: foreach-ls check $example: exit $status"

ensure_tool uv "$uv_pin"
# uvx = `uv tool run`: a throw-away environment with the wheel, from the wheel's directory alone.
export UV_CACHE_DIR="$work/uv-cache" UV_TOOL_DIR="$work/uv-tools" UV_PYTHON_DOWNLOADS=never UV_NO_CONFIG=1
uv=("$python" -m uv)
said=$("${uv[@]}" tool run --quiet --offline --no-index --find-links "$out" foreach-ls --version)
[ "$said" = "$expected" ] || { echo "uvx foreach-ls --version: $said, the packed binary's: $expected" >&2; exit 1; }
echo "uvx: foreach-ls --version: $said"
set +e
report=$("${uv[@]}" tool run --quiet --offline --no-index --find-links "$out" foreach-ls check --no-color "$example" 2>&1)
status=$?
set -e
expect_example "$report" "$status" "uvx foreach-ls"
echo "uvx: foreach-ls check $example: exit $status"
