#!/usr/bin/env bash
# Cost of checking several environments of the project file (issue #18): `check --env e1` (one environment) against
# `check` of all five, on a copy of the generated workspace with a `foreach-ls.toml` of five environments, each with
# its own var file. Every environment gives `aws_regions` other values (the region of every key differs) and
# enables another subset of regions, so each evaluates the root and the module instances its regions select.
#
#   server/bench/environments.sh [WORKSPACE] [RUNS]     (default /tmp/ws, 5 runs)
#
# The workspace is the shared one (../shared/tools/gen-workspace.py --modules 1000 --mb 20), generated if missing;
# it is copied, never changed. Prints the median and best wall time of each and their ratio (target: < 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=server/bench/workspace-args.sh
source server/bench/workspace-args.sh "$@"
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r "$ws" "$copy/ws"
mkdir -p "$copy/ws/envs"
keys=(us_east_1 us_east_2 us_west_1 us_west_2 eu_west_1 eu_west_2 eu_central_1 ap_southeast_1 ap_southeast_2
  ap_northeast_1 sa_east_1 ca_central_1)
project="$copy/ws/foreach-ls.toml"
: >"$project"
for e in 1 2 3 4 5; do
  {
    echo "aws_regions = {"
    for i in "${!keys[@]}"; do
      # Environment e leaves out every key whose index is a multiple of e + 1 (e1: every other key).
      enabled=true
      if (((i + 1) % (e + 1) == 0)); then enabled=false; fi
      echo "  ${keys[$i]} = { region = \"region-e$e-$i\", enabled = $enabled }"
    done
    echo "}"
  } >"$copy/ws/envs/e$e.tfvars"
  printf '[environments.e%s]\nvar_files = ["envs/e%s.tfvars"]\n\n' "$e" "$e" >>"$project"
done
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time; Debian package \`time\`)" >&2; exit 2; }
"$bin" check "$copy/ws" >/dev/null 2>&1 || true # warm the page cache
measure() {
  local stats
  stats=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -a -o "$stats" -f '%e %M' "$bin" check "$copy/ws" "$@" >/dev/null 2>&1 || true
  done
  sort -n "$stats" | awk '{ w[NR] = $1; if ($2 > m) m = $2 } END { printf "%s %s %s\n", w[int((NR + 1) / 2)], w[1], m }'
  rm -f "$stats"
}
read -r one_median one_best one_mem < <(measure --env e1)
read -r all_median all_best all_mem < <(measure)
echo "one environment (check --env e1): median ${one_median} s, best ${one_best} s, peak ${one_mem} KB ($runs runs)"
echo "five environments (check):       median ${all_median} s, best ${all_best} s, peak ${all_mem} KB ($runs runs)"
awk -v a="$all_median" -v o="$one_median" 'BEGIN { printf "ratio (median): %.2f (target < 2)\n", a / o }'
