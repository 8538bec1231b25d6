#!/usr/bin/env bash
# Builds and runs the single-thread Gomoku playout benchmark (bench.cpp): the bitboard rules of
# games/gomoku against a plain array implementation, side by side. Compiled like a Release build
# (-O3 -march=native); header-only, so it needs only a C++20 compiler.
# Usage: experiments/gomoku-playouts/run.sh [seconds per measurement, default 3] [board size 15|20]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${TMPDIR:-/tmp}/gomoku-playouts-bench
"${CXX:-g++}" -std=c++20 -O3 -march=native -Wall -Wextra -I. experiments/gomoku-playouts/bench.cpp -o "$out"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$out" --seconds "${1:-3}" --size "${2:-15}"
