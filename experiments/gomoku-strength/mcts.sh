#!/usr/bin/env bash
# Issue 45 item 4: MCTS with progressive bias from another evaluation against today's MCTS
# (mcts.yaml), at a fixed number of rollouts a move, niced, resumable (rerun the same command).
# Writes results/mcts-NAME-ROLLOUTS.{yaml,h5,txt}.
# Usage: experiments/gomoku-strength/mcts.sh NAME WEIGHTS SCALE [ROLLOUTS, default 10000]
#   [PAIRS, default 100] [BIAS, default 3] [selfplay binary]
#   WEIGHTS: a weights file (relative to the repository or absolute); SCALE: its eval_scale.
#   CONCURRENCY=n (default auto): games at once; a few keep a long match resumable game by game
#   (auto plays them all at once at 1e5 rollouts, so none finishes before the end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=${1:?usage: mcts.sh NAME WEIGHTS SCALE [ROLLOUTS] [PAIRS] [BIAS] [BINARY]}
weights=$(realpath "${2:?weights file}")
scale=${3:?eval_scale}
rollouts=${4:-10000}
pairs=${5:-100}
bias=${6:-3}
bin=$(realpath "${7:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
run=mcts-$name-$rollouts
sed -e "s|@ROOT@|$root|g" -e "s|@LABEL@|$name|g" -e "s|@WEIGHTS@|$weights|g" \
  -e "s|@SCALE@|$scale|g" -e "s|@BIAS@|$bias|g" -e "s|@ROLLOUTS@|$rollouts|g" \
  -e "s|@PAIRS@|$pairs|g" -e "s|concurrency: auto|concurrency: ${CONCURRENCY:-auto}|" \
  "$here/mcts.yaml" >"$out/$run.yaml"
exec "$root/experiments/common/match.sh" "$out/$run.yaml" "$out/$run" "$bin" "$run: $pairs pairs"
