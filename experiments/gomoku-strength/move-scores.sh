#!/usr/bin/env bash
# Issue 45: the move-score table fitted to played moves (selfplay tune, move_scores.fit) against
# the ladder it starts from. 1. Fits pattern.yaml's move scores to the moves of the games in
# GAMES (default: experiments/gomoku-codes/results/time500.h5, the pattern search at 500 ms on the
# held-out openings), writing results/move-scores.yaml and its log. 2. Plays it against
# pattern.yaml at MS a move (default 500) on the shipped openings (none of them in GAMES), both as
# configs/gomoku/pbrain.yaml plays (move_count_pruning on, which prunes in move-score order),
# PAIRS pairs (default 100). Niced; rerun to continue the match (the fit is kept once written).
# Usage: experiments/gomoku-strength/move-scores.sh [PAIRS] [MS] [selfplay binary] [GAMES]
#   L2=x (default 0.0001): move_scores.l2 of the fit; another value names its files move-scores-l2-x.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pairs=${1:-100}
ms=${2:-500}
bin=$(realpath "${3:-$root/build/release/host/app/selfplay}")
games=$(realpath "${4:-$root/experiments/gomoku-codes/results/time500.h5}")
[ -x "$bin" ] || { echo "no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
l2=${L2:-0.0001}
tag=move-scores
[ "$l2" = 0.0001 ] || tag=move-scores-l2-$l2
fitted=$out/$tag.yaml
if [ ! -f "$fitted" ]; then
  # A copy: the games file may be a running match's.
  snapshot=$(mktemp -d)/games.h5
  cp "$games" "$snapshot"
  sed -e "s|@ROOT@|$root|g" -e "s|@INPUT@|$snapshot|g" -e "s|@OUT@|$fitted|g" \
    -e "s|^  l2: 0.0001$|  l2: $l2|" "$here/move-scores-tune.yaml" >"$out/$tag-tune.yaml"
  { echo "== fit from $games ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores)"
    nice -n 10 "$bin" tune "$out/$tag-tune.yaml"; } >"$out/$tag-tune.txt" 2>&1
  rm -r "$(dirname "$snapshot")"
fi
name=$tag-${ms}ms
sed -e "s|@ROOT@|$root|g" -e "s|@FEATURE@|fitted-move-scores|g" -e "s|@MS@|$ms|g" \
  -e "s|@PAIRS@|$pairs|g" "$here/ablation.yaml" |
  awk -v fitted="$fitted" '
    /^  player0:/ { p0 = 1 } /^  player1:/ { p0 = 0 }
    /@FEATURE_KEYS@/ { print "    move_count_pruning: true"; next }
    p0 && /^    weights:/ { print "    weights: " fitted; next }
    /^    threat_nodes: 200$/ && !p0 { print; print "    move_count_pruning: true"; next }
    { print }' >"$out/$name.yaml"
exec "$root/experiments/common/match.sh" "$out/$name.yaml" "$out/$name" "$bin" \
  "$name: fitted move scores (l2 $l2) against the ladder, $pairs pairs"
