#!/usr/bin/env bash
# Issue 45 item 4: MCTS with pattern playouts (policy: pattern) against today's MCTS (weighted
# playouts, mcts.yaml's engine B) at a fixed number of rollouts a move, niced, resumable (rerun the
# same command). Writes results/playouts-NAME-ROLLOUTS.{yaml,h5,txt}.
# Usage: experiments/gomoku-strength/playouts.sh NAME TEMPERATURE [WEIGHTS, default classic.yaml]
#   [SCALE, default 0.1] [ROLLOUTS, default 10000] [PAIRS, default 100] [selfplay binary]
#   WEIGHTS and SCALE: engine A's progressive bias (classic.yaml at 0.1 is engine B's, so the
#   playouts are all that differs). CONCURRENCY=n (default auto): games at once.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=${1:?usage: playouts.sh NAME TEMPERATURE [WEIGHTS] [SCALE] [ROLLOUTS] [PAIRS] [BINARY]}
temperature=${2:?temperature}
weights=$(realpath "${3:-$root/configs/gomoku/weights/classic.yaml}")
scale=${4:-0.1}
rollouts=${5:-10000}
pairs=${6:-100}
bin=$(realpath "${7:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
run=playouts-$name-$rollouts
sed -e "s|@ROOT@|$root|g" -e "s|@LABEL@|$name|g" -e "s|@WEIGHTS@|$weights|g" \
  -e "s|@SCALE@|$scale|g" -e "s|@T@|$temperature|g" -e "s|@ROLLOUTS@|$rollouts|g" \
  -e "s|@PAIRS@|$pairs|g" -e "s|concurrency: auto|concurrency: ${CONCURRENCY:-auto}|" \
  "$here/playouts.yaml" >"$out/$run.yaml"
exec "$root/experiments/common/match.sh" "$out/$run.yaml" "$out/$run" "$bin" "$run: $pairs pairs"
