#!/usr/bin/env bash
# Issue 45's clock target: the shipped pattern search and MCTS at MS ms a move (clock.yaml), then
# the move times of both engines (analyse.py: mean, 95th percentile, largest, and how many moves
# went over the budget). Run it beside a load (a build, other matches) to check the clock under
# load; rerun the same command to continue a stopped match. Writes results/clock-MSms.{yaml,h5,txt}.
# Usage: experiments/gomoku-strength/clock.sh [MS, default 100] [PAIRS, default 10] [selfplay binary]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ms=${1:-100}
pairs=${2:-10}
bin=$(realpath "${3:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
run=clock-${ms}ms
sed -e "s|@ROOT@|$root|g" -e "s|@MS@|$ms|g" -e "s|@PAIRS@|$pairs|g" "$here/clock.yaml" >"$out/$run.yaml"
"$root/experiments/common/match.sh" "$out/$run.yaml" "$out/$run" "$bin" "$run: $pairs pairs"
/usr/bin/python3 "$here/analyse.py" "$out/$run.h5" --budget-ms "$ms" | tee -a "$out/$run.txt"
