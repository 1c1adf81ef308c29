#!/usr/bin/env bash
# Whole-command benchmark of `foreach-ls check` (issue #2's figures): wall time and peak resident memory over
# several runs on the shared generated workspace, next to its size; optionally `terraform fmt -check` as yardstick.
#
#   server/bench/check-command.sh [WORKSPACE] [RUNS]     (default /tmp/ws, 5 runs)
#
# A workspace with findings works too (its exit status 1 is expected), e.g. the dev corpus that the corpus test
# unpacks: server/bench/check-command.sh target/corpus/dev-corpus 7
#
# The workspace is generated once with ../shared/tools/gen-workspace.py --modules 1000 --mb 20, so figures are
# comparable between issues. Run it on a quiet machine: wall time on 2 cores is sensitive to any other load.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=server/bench/workspace-args.sh
source server/bench/workspace-args.sh "$@"
bytes=$(find "$ws" -type f \( -name '*.tf' -o -name '*.tofu' -o -name '*.tfvars' -o -name '*.tf.json' \) -printf '%s\n' | awk '{s+=$1} END {print s}')
"$bin" check "$ws" >/dev/null || true # warm the page cache
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time; Debian package \`time\`)" >&2; exit 2; }
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
for _ in $(seq "$runs"); do
  /usr/bin/time -a -o "$stats" -f '%e %M' "$bin" check "$ws" >/dev/null 2>&1 || true
done
awk -v ws="$ws" -v bytes="$bytes" -v runs="$runs" '
  { wall[NR] = $1; all = all " " $1; if ($2 > peak) peak = $2 }
  END {
    n = NR
    printf "workspace      %s (%.1f MB of configuration)\n", ws, bytes / 1e6
    printf "check wall     median %.2f s, best %.2f s over %d runs (all:%s)\n", wall[int((n + 1) / 2)], wall[1], runs, all
    printf "check peak RSS %.1f MB = %.2fx the configuration bytes\n", peak * 1024 / 1e6, peak * 1024 / bytes
  }' <(grep -v '^Command' "$stats" | sort -g)
if [ "${WITH_TERRAFORM:-0}" = 1 ] && command -v terraform >/dev/null; then
  /usr/bin/time -f 'terraform fmt -check -recursive: %e s, %M KB' terraform fmt -check -recursive "$ws" >/dev/null || true
fi
