#!/usr/bin/env bash
# Whole-command benchmark of `foreach-ls diff` (issue #37's figures): wall time and peak resident memory on the
# shared generated workspace (gen-workspace.py --modules 1000 --mb 20, 20 MB of configuration) with a state of
# 10,000 of its resource instances (diff-state.py, from what `diff` says the workspace declares): against that
# state, and against the parent revision of a commit that drops a region from terraform.tfvars (`--base HEAD~1`,
# read from the repository's objects). Both see the region's instances destroyed.
#
#   server/bench/diff-command.sh [BINARY] [RUNS]     (default target/release/foreach-ls, 5 runs)
#
# The workspace and its repository are generated in a temporary directory (git is run here, by the benchmark, to
# make the two commits; the command itself never runs it). Run it on a quiet machine: wall time on 2 cores is
# sensitive to any other load.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-target/release/foreach-ls}")
runs=${2:-5}
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time; Debian package \`time\`)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ws=$tmp/ws
python3 server/bench/gen-workspace.py "$ws" --modules 1000 --mb 20 --seed 1 >/dev/null
echo '{"version": 4, "serial": 1, "lineage": "empty", "resources": []}' >"$tmp/empty.tfstate"
"$bin" diff "$ws" --state "$tmp/empty.tfstate" --format json >"$tmp/creates.json"
python3 server/bench/diff-state.py "$tmp/creates.json" "$ws/terraform.tfstate" --instances 10000 >/dev/null
git_() { git -C "$ws" -c user.name=bench -c user.email=bench@example.invalid -c init.defaultBranch=main "$@"; }
git_ init -q
git_ add -A
git_ commit -qm base
# The change under review: one region dropped from the map every regional module instance is keyed by.
sed -i '/^  eu_west_2 = /d' "$ws/terraform.tfvars"
git_ commit -qam "drop eu_west_2"
bytes=$(find "$ws" -type f \( -name '*.tf' -o -name '*.tofu' -o -name '*.tfvars' -o -name '*.tf.json' \) -printf '%s\n' | awk '{s+=$1} END {print s}')
printf 'workspace %.1f MB of configuration, state %s\n' "$(echo "$bytes / 1000000" | bc -l)" "$(du -h "$ws/terraform.tfstate" | cut -f1)"
measure() {
  local label=$1
  shift
  (cd "$ws" && "$bin" diff . "$@" >/dev/null) || true # warm the page cache
  local stats
  stats=$(mktemp)
  for _ in $(seq "$runs"); do
    (cd "$ws" && /usr/bin/time -a -o "$stats" -f '%e %M' "$bin" diff . "$@" >/dev/null 2>&1) || true
  done
  (cd "$ws" && "$bin" diff . "$@" 2>/dev/null | head -1) || true
  grep -v '^Command' "$stats" | sort -g | awk -v label="$label" -v bytes="$bytes" -v runs="$runs" '
    { wall[NR] = $1; all = all " " $1; if ($2 > peak) peak = $2 }
    END {
      printf "%-22s median %.2f s, best %.2f s over %d runs (all:%s); peak RSS %.1f MB = %.2fx the configuration\n",
        label, wall[int((NR + 1) / 2)], wall[1], runs, all, peak * 1024 / 1e6, peak * 1024 / bytes
    }'
  rm -f "$stats"
}
measure "diff (local state)"
measure "diff --base HEAD~1" --base HEAD~1
