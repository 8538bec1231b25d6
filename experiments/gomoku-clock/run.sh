#!/usr/bin/env bash
# The clock benchmark of issue 27: two instances of the shipped Gomocup engine
# (configs/gomoku/pbrain.yaml: alpha-beta with the threat search) play each other through the
# pbrain protocol at INFO timeout_turn 100 and 1000 ms, 200 answers each, from the balanced openings
# of configs/gomoku/openings.pos (game k from opening k), while `load` busy loops (default: one per
# core) keep every core busy; clock.py measures every answer's latency.
#
# Usage: experiments/gomoku-clock/run.sh [--bin SELFPLAY] [--moves N] [--load K] [--turns "100 1000"]
# Writes results/latency-<turn>ms.csv and prints one line per time control. Needs python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$root/build/release/host/app/selfplay moves=200 load=$(nproc) turns="100 1000"
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift ;;
    --moves) moves=$2; shift ;;
    --load) load=$2; shift ;;
    --turns) turns=$2; shift ;;
    *) echo "run.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin" >&2; exit 2; }
mkdir -p "$here/results"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for ((i = 0; i < load; i++)); do
  (while :; do :; done) &
  pids+=($!)
done
echo "gomoku-clock $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')), $load busy loops, $bin"
for t in $turns; do
  python3 "$here/clock.py" --moves "$moves" --turn-ms "$t" --csv "$here/results/latency-${t}ms.csv" \
    --openings "$root/configs/gomoku/openings.pos" \
    -- "$bin" pbrain --config "$root/configs/gomoku/pbrain.yaml"
done
