#!/usr/bin/env bash
# Builds and runs the single-thread EWN playout benchmark (bench.cpp): the packed rules of games/ewn
# (one playout at a time, four interleaved, and the AVX2 / AVX-512 lanes) against the plain array
# program of games/ewn/array_playout.hpp, side by side (../common/playout-bench.sh compiles it).
# Usage: experiments/ewn-playouts/run.sh [CPU seconds per measurement, default 3]
set -euo pipefail
exec "$(dirname "$0")/../common/playout-bench.sh" ewn --seconds "${1:-3}"
