#!/usr/bin/env bash
# The weight-tuning loop at one scale: self-play campaign -> texel tune -> match of the tuned
# weights against the initial ones (expectimax, SPRT) -> summary. Everything lands in OUT_DIR.
# Usage: experiments/ewn-weight-tuning/run.sh tiny|small|medium [OUT_DIR] [SELFPLAY_BINARY]
#   tiny: the CI check (seconds); small: minutes on 2 cores; medium: about an hour on 2 cores.
set -euo pipefail

scale=${1:-small}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${2:-$root/out/ewn-weight-tuning-$scale}
bin=${3:-$root/build/selfplay}
case "$scale" in
  tiny)   games=16;   rollouts=32;   epochs=20;   report=5;  depth=1; pairs=8 ;;
  small)  games=400;  rollouts=200;  epochs=300;  report=50; depth=2; pairs=400 ;;
  medium) games=4000; rollouts=1000; epochs=1000; report=100; depth=3; pairs=3000 ;;
  *) echo "usage: $0 tiny|small|medium [OUT_DIR] [SELFPLAY_BINARY]" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin (give it as the third argument)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/campaign.h5" "$out/match.h5"

. "$root/experiments/common/tuning-loop.sh"
fill_templates "$here/configs" "$out" GAMES="$games" ROLLOUTS="$rollouts" EPOCHS="$epochs" \
  REPORT="$report" DEPTH="$depth" PAIRS="$pairs" SEED="${SEED:-1}" MATCHSEED="${MATCH_SEED:-2}" \
  BACKEND="${BACKEND:-cpu}" OUT="$out" ROOT="$root"
tuning_loop "$bin" "$out" "$games games, MCTS $rollouts rollouts/move" "$epochs epochs" \
  "expectimax depth $depth, tuned (A) vs survival-distance (B), up to $pairs pairs"
