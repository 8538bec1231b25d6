#!/usr/bin/env bash
# MCTS against two classic baselines, expectimax at depth 4 with hand-made evaluations.
# Usage: experiments/ewn-baselines/run.sh [selfplay binary] [pairs]
# 1. Time per move: each pairing for 200 pairs, one game at a time on one thread, so that /plies
#    time_ms is the compute time of each engine's moves (out/calibrate-*.h5).
# 2. The matches: `pairs` game pairs each (default 2000), SPRT off (out/mcts-vs-expectimax-*.h5).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
bin=${1:-../../build/release/host/app/selfplay}
pairs=${2:-2000}
mkdir -p out
for c in sd dcs; do
  # The calibration config sits next to the original, so its relative weights path still holds.
  sed -e 's/concurrency: 32/concurrency: 1/' -e "s#out/mcts-vs-expectimax-$c.h5#out/calibrate-$c.h5#" \
    "mcts-vs-expectimax-$c.yaml" > ".calibrate-$c.yaml"
  rm -f "out/calibrate-$c.h5"
  "$bin" match ".calibrate-$c.yaml" --pairs 200 --backend cpu --threads 1 --quiet > "out/calibrate-$c.txt"
  rm -f ".calibrate-$c.yaml"
  rm -f "out/mcts-vs-expectimax-$c.h5"
  "$bin" match "mcts-vs-expectimax-$c.yaml" --pairs "$pairs" --quiet | tee "out/mcts-vs-expectimax-$c.txt"
done
/usr/bin/python3 analyse.py out/calibrate-sd.h5 out/calibrate-dcs.h5 out/mcts-vs-expectimax-sd.h5 \
  out/mcts-vs-expectimax-dcs.h5 | tee out/results.txt
