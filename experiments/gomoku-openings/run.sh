#!/usr/bin/env bash
# Rebuilds Gomoku's shipped openings file, configs/gomoku/openings.pos, with the generator
# (generate.cpp) of a Release build, and prints each candidate's score on stderr. The program has
# the file built in: rebuild selfplay afterwards.
# Usage: experiments/gomoku-openings/run.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
cmake --build "$build" --target gomoku_openings
"$build/experiments/gomoku-openings/gomoku_openings" --depth 4 --threshold 0.5 --count 300 \
  --candidates 3000 --seed 2026 --weights configs/gomoku/weights/classic.yaml \
  --out configs/gomoku/openings.pos
