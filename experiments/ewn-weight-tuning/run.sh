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

fill() {
  sed -e "s|@GAMES@|$games|g" -e "s|@ROLLOUTS@|$rollouts|g" -e "s|@EPOCHS@|$epochs|g" \
      -e "s|@REPORT@|$report|g" -e "s|@DEPTH@|$depth|g" -e "s|@PAIRS@|$pairs|g" \
      -e "s|@SEED@|${SEED:-1}|g" -e "s|@MATCHSEED@|${MATCH_SEED:-2}|g" \
      -e "s|@BACKEND@|${BACKEND:-cpu}|g" -e "s|@OUT@|$out|g" -e "s|@ROOT@|$root|g" \
      "$here/configs/$1" >"$out/$1"
}
fill campaign.yaml
fill tune.yaml
fill match.yaml

start=$(date +%s)
echo "== 1. campaign ($games games, MCTS $rollouts rollouts/move)"
"$bin" run "$out/campaign.yaml" --quiet | tee "$out/run.log" | tail -n 3
echo "== 2. texel tune ($epochs epochs)"
"$bin" tune "$out/tune.yaml" --log "$out/tune-losses.csv" | tee "$out/tune.log" | tail -n 12
echo "== 3. match: expectimax depth $depth, tuned (A) vs survival-distance (B), up to $pairs pairs"
"$bin" match "$out/match.yaml" 2>/dev/null | tee "$out/match.log"
echo "== done in $(( $(date +%s) - start )) s; outputs in $out"
echo "   notebooks: SELFPLAY_TUNE_LOG=$out/tune-losses.csv SELFPLAY_MATCH=$out/match.h5 jupyter lab notebooks/tuning.ipynb"
