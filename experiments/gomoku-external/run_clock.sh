#!/usr/bin/env bash
# Issue 27 item 2, measured: the pattern search at 100 ms and at 1 s a move (clock-100ms.yaml,
# clock-1s.yaml) against the generic alpha-beta, both matches at once under nice so that each
# runs under the other's load on a 2-core machine; then the time per searched move of each engine
# (largest included) from the match files. Usage: run_clock.sh [selfplay binary]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
bin=${1:-../../build/release/host/app/selfplay}
mkdir -p results
for c in clock-100ms clock-1s; do
  rm -f "results/$c.h5"
  (nice -n 10 "$bin" match "$c.yaml" --out "results/$c.h5" --quiet > "results/$c.txt" 2>&1) &
done
wait
for c in clock-100ms clock-1s; do
  echo "$(date -u +%FT%TZ) $c: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) cores" >> "results/$c.txt"
  /usr/bin/python3 ../gomoku-strength/analyse.py "results/$c.h5" | tee "results/$c-moves.txt"
done
