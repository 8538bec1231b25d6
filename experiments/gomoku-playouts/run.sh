#!/usr/bin/env bash
# Builds and runs the single-thread Gomoku playout benchmark (bench.cpp): the bitboard rules of
# games/gomoku (line words, bitboard walks and the AVX2 / AVX-512 lanes) against the plain array
# program of games/gomoku/array_playout.hpp, side by side (../common/playout-bench.sh compiles it).
# Usage: experiments/gomoku-playouts/run.sh [seconds per measurement, default 3] [board size 15|20]
set -euo pipefail
exec "$(dirname "$0")/../common/playout-bench.sh" gomoku --seconds "${1:-3}" --size "${2:-15}"
