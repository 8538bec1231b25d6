#!/usr/bin/env bash
# Builds and runs the single-thread checkers playout benchmark (bench.cpp): the bitboard rules of
# games/checkers (one playout at a time and the AVX2 / AVX-512 lanes) against the plain array
# program of games/checkers/array_playout.hpp, side by side (../common/playout-bench.sh compiles
# it).
# Usage: experiments/checkers-playouts/run.sh [seconds per measurement, default 3]
set -euo pipefail
exec "$(dirname "$0")/../common/playout-bench.sh" checkers --seconds "${1:-3}"
