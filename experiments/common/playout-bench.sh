#!/usr/bin/env bash
# Builds and runs a game's single-thread playout benchmark, experiments/GAME-playouts/bench.cpp:
# the packed playouts of games/GAME (and its AVX2 / AVX-512 lane kernels) against the plain array
# program of games/GAME/array_playout.hpp, side by side. Compiled like a Release build (-O3
# -march=native, the lane kernels with their ISA flags as the build gives them,
# host/CMakeLists.txt); it needs only a C++20 compiler (x86 for the lane kernels). Prints the date,
# the CPU and the load average first, since the rates depend on what else runs.
# Usage: experiments/common/playout-bench.sh GAME [bench arguments...] (the experiments' run.sh
# call it).
set -euo pipefail
game=${1:?usage: playout-bench.sh GAME [bench arguments...]}
shift
cd "$(dirname "$0")/../.."
[ -f "experiments/$game-playouts/bench.cpp" ] ||
  { echo "playout-bench.sh: no experiments/$game-playouts/bench.cpp" >&2; exit 2; }
out=${TMPDIR:-/tmp}/$game-playouts-bench
cxx=("${CXX:-g++}" -std=c++20 -O3 -Wall -Wextra -I.)
"${cxx[@]}" -mavx2 -c "games/$game/lanes_avx2.cpp" -o "$out-avx2.o"
# (-Wno-maybe-uninitialized: GCC 12's AVX-512 headers warn about their own _mm512_undefined_*.)
"${cxx[@]}" -mavx512f -mavx512bw -mavx512dq -mavx512vl -Wno-maybe-uninitialized \
  -c "games/$game/lanes_avx512.cpp" -o "$out-avx512.o"
"${cxx[@]}" -march=native "experiments/$game-playouts/bench.cpp" "$out-avx2.o" "$out-avx512.o" \
  -o "$out"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$out" "$@"
