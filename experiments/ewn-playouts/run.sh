#!/usr/bin/env bash
# Builds and runs the single-thread EWN playout benchmark (bench.cpp): the packed rules of games/ewn
# (one playout at a time, four interleaved, and the AVX2 / AVX-512 lanes) against a plain array
# implementation, side by side. Compiled like a Release build (-O3 -march=native, the lane kernels
# with their ISA flags); it needs only a C++20 compiler (x86 for the lane kernels).
# Usage: experiments/ewn-playouts/run.sh [CPU seconds per measurement, default 3]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${TMPDIR:-/tmp}/ewn-playouts-bench
# The lane-parallel kernels, each with its ISA's flags as the build gives them (host/CMakeLists.txt).
"${CXX:-g++}" -std=c++20 -O3 -Wall -Wextra -I. -mavx2 -c games/ewn/lanes_avx2.cpp -o "$out-avx2.o"
# (-Wno-maybe-uninitialized: GCC 12's AVX-512 headers warn about their own _mm512_undefined_*.)
"${CXX:-g++}" -std=c++20 -O3 -Wall -Wextra -I. -mavx512f -mavx512bw -mavx512dq -mavx512vl \
  -Wno-maybe-uninitialized -c games/ewn/lanes_avx512.cpp -o "$out-avx512.o"
"${CXX:-g++}" -std=c++20 -O3 -march=native -Wall -Wextra -I. experiments/ewn-playouts/bench.cpp \
  "$out-avx2.o" "$out-avx512.o" -o "$out"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$out" --seconds "${1:-3}"
