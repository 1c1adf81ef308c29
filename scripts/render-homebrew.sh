#!/usr/bin/env bash
# Renders the Homebrew formula from packaging/homebrew/foreach-ls.rb.tmpl:
#
#   scripts/render-homebrew.sh <version> <repository-url> <dir> > foreach-ls.rb
#
# <dir> holds the `foreach-ls-<version>-<target>.tar.gz.sha256` files scripts/build-release.sh wrote (`sha256sum`
# format). Fails when a target the formula names has no checksum, or a placeholder is left over.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: scripts/render-homebrew.sh <version> <repository-url> <dir>" >&2; exit 2; }
version=$1
repo=${2%/}
dir=$3
template="$(dirname "$0")/../packaging/homebrew/foreach-ls.rb.tmpl"

formula=$(sed -e "s|{{VERSION}}|$version|g" -e "s|{{REPO}}|$repo|g" "$template")
for target in $(grep -o '{{SHA256 [^}]*}}' "$template" | sed 's/{{SHA256 \(.*\)}}/\1/' | sort -u); do
  sums="$dir/foreach-ls-$version-$target.tar.gz.sha256"
  [ -f "$sums" ] || { echo "no checksum for $target: $sums is missing" >&2; exit 1; }
  sum=$(cut -d' ' -f1 < "$sums")
  case "$sum" in
    [0-9a-f]*) [ ${#sum} -eq 64 ] || { echo "$sums: not a SHA-256: $sum" >&2; exit 1; } ;;
    *) echo "$sums: not a SHA-256: $sum" >&2; exit 1 ;;
  esac
  formula=${formula//"{{SHA256 $target}}"/$sum}
done
if grep -q '{{' <<<"$formula"; then
  echo "placeholders left in the formula:" >&2
  grep '{{' <<<"$formula" >&2
  exit 1
fi
printf '%s\n' "$formula"
