#!/usr/bin/env bash
# Our Gomocup engine (configs/gomoku/pbrain.yaml's alpha-beta, 500 ms a move) against PentaZen
# 0.4.18 (500 ms a move over the Gomocup protocol), freestyle then standard, over the first 32
# openings of configs/gomoku/openings.pos, each played twice with the colours swapped, one game at
# a time, niced (match-freestyle.yaml, match-standard.yaml). Needs PentaZen built by
# build_pentazen.sh (/tmp/ext/pentazen/pbrain-pentazen) and the selfplay binary.
# Writes results/match-RULE.h5, the match summary results/match-RULE.txt and the time each engine
# took per move, the game lengths and the terminations (results/match-RULE-moves.txt).
# Usage: experiments/gomoku-external/run.sh [selfplay binary] [pairs, default the configs' 32]
#   RULES="freestyle" (default "freestyle standard") plays only those; RESUME=1 continues an
#   interrupted match (selfplay match --resume) instead of starting afresh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
bin=${1:-../../build/release/host/app/selfplay}
pairs=${2:-}
rules=${RULES:-freestyle standard}
engine=/tmp/ext/pentazen/pbrain-pentazen
[[ -x "$bin" ]] || { echo "error: no selfplay binary at $bin (build it first)" >&2; exit 2; }
[[ -x "$engine" ]] || { echo "error: no $engine: run $here/build_pentazen.sh first" >&2; exit 2; }
mkdir -p results
for rule in $rules; do
  cfg=match-$rule.yaml
  out=results/match-$rule.h5
  args=(match "$cfg" --out "$out" --quiet)
  [[ -n "$pairs" ]] && args+=(--pairs "$pairs")
  if [[ "${RESUME:-0}" == 1 && -f "$out" ]]; then
    args+=(--resume)
  else
    rm -f "$out"
  fi
  {
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $cfg: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "selfplay: $bin ($(git -C ../.. rev-parse --short HEAD 2>/dev/null || echo '?'))"
    sed 's/^/pentazen: /' /tmp/ext/pentazen/build-info.txt 2>/dev/null || true
    nice -n 10 "$bin" "${args[@]}"
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) done, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  } 2>&1 | tee "results/match-$rule.txt"
  /usr/bin/python3 ../gomoku-strength/analyse.py "$out" | tee "results/match-$rule-moves.txt"
done
