#!/usr/bin/env bash
# The checkers weight-tuning loop (issue 12, item 8): an openings deck for the match, a self-play
# campaign -> texel tune from classic.yaml -> match of the tuned weights against classic.yaml,
# alpha-beta at equal depth over the deck (then, when TIME_MS is set, a match at equal time per
# move). Everything lands in OUT_DIR.
# Usage: experiments/checkers-weight-tuning/run.sh tiny|small|full [OUT_DIR] [SELFPLAY_BINARY]
#   tiny: seconds (the loop runs); small: a few minutes on 2 cores; full: the measured run.
set -euo pipefail

scale=${1:-small}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${2:-$root/out/checkers-weight-tuning-$scale}
bin=${3:-$root/build/selfplay}
case "$scale" in
  tiny)  opengames=40;   games=8;    rollouts=64;  campdepth=2; epochs=20;  report=5;   depth=2; pairs=16 ;;
  small) opengames=600;  games=200;  rollouts=500; campdepth=4; epochs=300; report=50;  depth=4; pairs=300 ;;
  full)  opengames=2400; games=1000; rollouts=500; campdepth=4; epochs=500; report=100; depth=6; pairs=1000 ;;
  *) echo "usage: $0 tiny|small|full [OUT_DIR] [SELFPLAY_BINARY]" >&2; exit 2 ;;
esac
campdepth=${CAMP_DEPTH:-$campdepth}  # the campaign's alpha-beta depth, when set
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin (give it as the third argument)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/openings.h5 "$out"/campaign.h5 "$out"/match.h5 "$out"/match-time.h5

. "$root/experiments/common/tuning-loop.sh"
fill_templates "$here/configs" "$out" OPENGAMES="$opengames" GAMES="$games" ROLLOUTS="$rollouts" \
  CAMPDEPTH="$campdepth" EPOCHS="$epochs" REPORT="$report" DEPTH="$depth" PAIRS="$pairs" \
  TIMEMS="${TIME_MS:-0}" TIMEPAIRS="${TIME_PAIRS:-$pairs}" SEED="${SEED:-1}" \
  MATCHSEED="${MATCH_SEED:-2}" BACKEND="${BACKEND:-cpu}" OUT="$out" ROOT="$root"

echo "== 0. openings: $opengames ballots played on for two random plies, each position kept once"
start=$(date +%s)
"$bin" run "$out/openings.yaml" --quiet >"$out/openings.log"
"$bin" export "$out/openings.h5" --format pdn --out "$out/openings-all.pdn"
python3 "$here/dedupe_openings.py" "$out/openings-all.pdn" "$out/openings.pdn" "$bin"
echo "   $(( $(date +%s) - start )) s"

tuning_loop "$bin" "$out" "$games games, MCTS $rollouts playouts/move vs alpha-beta depth $campdepth" \
  "$epochs epochs" "alpha-beta depth $depth, tuned (A) vs classic (B), $pairs pairs over the openings"

if [ "${TIME_MS:-0}" != 0 ]; then
  echo "== 4. match at ${TIME_MS} ms a move, ${TIME_PAIRS:-$pairs} pairs"
  start=$(date +%s)
  "$bin" match "$out/match-time.yaml" 2>/dev/null | tee "$out/match-time.log"
  echo "   $(( $(date +%s) - start )) s"
fi
