# Sourced by the packaging scripts (package-wheel.sh, package-npm.sh): the binary a package carries is the release
# archive's, never built again, so that the archive, the wheel and the npm package of a platform hold one binary.

# release_binary TARGET INPUT WORK: sets `exe` (the binary's file name for TARGET) and `binary` (its path): INPUT is
# a release archive (.zip or .tar.gz, unpacked into the directory WORK) or the binary itself. Exits on failure.
release_binary() {
  local target=$1 input=$2 work=$3
  exe=foreach-ls
  case "$target" in *windows*) exe=foreach-ls.exe ;; esac
  case "$input" in
    *.zip) (cd "$work" && unzip -q "$(cd "$(dirname "$input")" && pwd)/$(basename "$input")") ;;
    *.tar.gz) tar -C "$work" -xzf "$input" ;;
  esac
  case "$input" in
    *.zip | *.tar.gz)
      binary=$(find "$work" -name "$exe" -type f | head -n 1)
      [ -n "$binary" ] || { echo "$input has no $exe" >&2; exit 1; }
      ;;
    *) binary=$input ;;
  esac
  [ -f "$binary" ] || { echo "no binary at $binary" >&2; exit 1; }
}
