# Sourced by the whole-command benchmarks after `cd` to the repository root, with their arguments:
# [WORKSPACE] [RUNS] (default the shared generated workspace /tmp/ws, 5 runs). Sets `ws` and `runs`, generates the
# workspace once if it is missing (../shared/tools/gen-workspace.py --modules 1000 --mb 20, so figures are
# comparable between issues), builds the release binary and sets `bin` to its absolute path.
ws=${1:-/tmp/ws}
runs=${2:-5}
if [ ! -d "$ws" ]; then
  python3 ../shared/tools/gen-workspace.py "$ws" --modules 1000 --mb 20 >/dev/null
fi
cargo build --release --quiet --bin foreach-ls
bin=$PWD/target/release/foreach-ls
