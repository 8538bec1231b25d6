#!/usr/bin/env bash
# Set up, build and run every test: the Release build (with the CUDA sources when nvcc is present;
# GPU tests skip without a device), then the unit tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer. `scripts/test.sh --slow` also runs the tests labelled slow.
# `scripts/test.sh --under-load [N]` instead runs the tests labelled timing (children, ranks,
# pipes, signals, kills) N times each (default 3) in the Release build, with twice as many tests at
# once as cores, while one busy loop per core competes for every core (docs/tests.md).
set -euo pipefail
cd "$(dirname "$0")/.."
label_args=(-LE slow)
if [ "${1:-}" = "--slow" ]; then label_args=(); fi

scripts/setup.sh
scripts/build.sh build/release -DCMAKE_BUILD_TYPE=Release

if [ "${1:-}" = "--under-load" ]; then
  repeat=${2:-3}
  load=()
  trap 'kill "${load[@]}" 2>/dev/null || true' EXIT
  # The artificial load: one busy process per core, at the tests' priority. It spins on purpose
  # (this mode exists to take the cores away from the tests) and ends with the script.
  for _ in $(seq "$(nproc)"); do
    bash -c 'while :; do :; done' &
    load+=($!)
  done
  ctest --test-dir build/release --output-on-failure -j "$((2 * $(nproc)))" -L timing -LE slow \
    --repeat "until-fail:$repeat"
  exit
fi

ctest --test-dir build/release --output-on-failure -j "$(nproc)" "${label_args[@]}"

# -Og -g1: the quickest optimisation level to compile under the sanitizers (a third less than
# -O1), with line numbers in every report; no NDEBUG, so the assertions are checked too.
scripts/build.sh build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-Og -g1" \
  -DSELFPLAY_SANITIZE=ON -DSELFPLAY_CUDA=OFF
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/sanitize --output-on-failure -j "$(nproc)" -L unit "${label_args[@]}"
