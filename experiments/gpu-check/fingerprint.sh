#!/usr/bin/env bash
# One hash of every source a build compiles (C++/CUDA sources, CMake files, the compiled-in checkers
# ballots): prepare.sh stores it with the carried binaries and run.sh compares it with the tree it
# runs in, so a carry built from other sources is never taken for this code. Needs no git (the
# device machine gets the working tree without it).
set -euo pipefail
cd "$(dirname "$0")/../.."
find CMakeLists.txt games host cuda experiments/gpu-check configs/checkers/ballots.txt -type f \
  \( -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.in' \
  -o -name CMakeLists.txt -o -name ballots.txt \) -print0 | LC_ALL=C sort -z | xargs -0 sha256sum |
  sha256sum | cut -c1-16
