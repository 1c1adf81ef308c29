#!/usr/bin/env bash
# Is `check` linear in root modules? (issue #15) Generates, for each N, a workspace of N root modules that all call
# the same 20 shared modules (each root with its own terraform.tfvars, three regions, a provider `for_each` and
# four module calls), runs `check` on it and prints wall time and peak resident memory, in all and per root.
#
#   server/bench/roots-curve.sh [N ...]     (default: 10 100 1000 5000)
#
# The shared modules come from ../shared/tools/gen-workspace.py (--modules 20 --mb 0.5 --seed 3), so figures are
# comparable between issues. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10 100 1000 5000)
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time; Debian package \`time\`)" >&2; exit 2; }
cargo build --release --quiet --bin foreach-ls
bin=$PWD/target/release/foreach-ls
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
python3 ../shared/tools/gen-workspace.py "$base/shared" --modules 20 --mb 0.5 --seed 3 >/dev/null
printf '%8s %10s %10s %14s %14s\n' roots wall_s peak_MB ms_per_root KB_per_root
for n in "${counts[@]}"; do
  ws="$base/ws$n"
  mkdir -p "$ws"
  cp -r "$base/shared/modules" "$ws/modules"
  for i in $(seq -w 0 $((n - 1))); do
    root="$ws/roots/r$i"
    mkdir -p "$root"
    m1=$((10#$i % 20)); m2=$(((10#$i + 7) % 20)); m3=$(((10#$i + 13) % 20)); m4=$(((10#$i + 17) % 20))
    {
      printf 'variable "aws_regions" {\n  type = map(object({\n    region  = string\n    enabled = optional(bool, true)\n  }))\n}\n\n'
      printf 'locals {\n  enabled_regions = { for k, v in var.aws_regions : k => v if v.enabled }\n}\n\n'
      printf 'provider "aws" {\n  alias    = "by_region"\n  for_each = var.aws_regions\n  region   = each.value.region\n}\n'
      for m in $m1 $m2 $m3 $m4; do
        printf '\nmodule "m%05d" {\n  source   = "../../modules/m%05d"\n  for_each = local.enabled_regions\n  providers = {\n    aws = aws.by_region[each.key]\n  }\n  name_prefix = "r%s-${each.key}"\n  region_key  = each.key\n}\n' "$m" "$m" "$i"
      done
    } > "$root/main.tf"
    printf 'aws_regions = {\n  us = { region = "us-east-1" }\n  eu = { region = "eu-west-1" }\n  ap = { region = "ap-south-1", enabled = false }\n}\n' > "$root/terraform.tfvars"
  done
  # Warms the page cache, and shows that the generated roots are clean (0 errors).
  summary=$("$bin" check "$ws" 2>&1 | tail -1 || true)
  /usr/bin/time -o "$base/time" -f '%e %M' "$bin" check "$ws" >/dev/null 2>&1 || true
  read -r wall kb < "$base/time"
  awk -v n="$n" -v wall="$wall" -v kb="$kb" \
    'BEGIN { printf "%8d %10.2f %10.1f %14.3f %14.1f", n, wall, kb / 1024, wall * 1000 / n, kb / n }'
  echo "   $summary"
  rm -rf "$ws"
done
