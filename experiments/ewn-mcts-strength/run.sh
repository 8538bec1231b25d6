#!/usr/bin/env bash
# Strength of the batched MCTS: against random moves and against flat Monte Carlo with the same
# rollouts per move. Usage: experiments/ewn-mcts-strength/run.sh [selfplay binary]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
bin=${1:-../../build/release/host/app/selfplay}
mkdir -p out
for c in mcts-vs-random mcts-vs-flat; do
  rm -f "out/$c.h5"
  "$bin" run "$c.yaml" --quiet | tee "out/$c.summary.txt"
done
/usr/bin/python3 analyse.py out/mcts-vs-random.h5 out/mcts-vs-flat.h5 | tee out/results.txt
