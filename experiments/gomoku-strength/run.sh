#!/usr/bin/env bash
# Our strongest Gomoku engine (alpha-beta with the threat search) against our plain alpha-beta over
# configs/gomoku/weights/classic.yaml, both at 1 s a move, over the first 100 openings of the
# shipped file, each played twice with the colours swapped (configs/gomoku/match-best-vs-classic.yaml).
# Writes out/best-vs-classic.h5, the match summary (out/best-vs-classic.txt) and the time each
# engine took per move and the game lengths (out/results.txt).
# Usage: experiments/gomoku-strength/run.sh [selfplay binary] [pairs, default 100]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
bin=${1:-../../build/release/host/app/selfplay}
pairs=${2:-100}
mkdir -p out
rm -f out/best-vs-classic.h5
{
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$bin" match ../../configs/gomoku/match-best-vs-classic.yaml --pairs "$pairs" \
    --out out/best-vs-classic.h5 --quiet
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) done, load: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee out/best-vs-classic.txt
/usr/bin/python3 analyse.py out/best-vs-classic.h5 | tee out/results.txt
