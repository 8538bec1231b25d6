#!/usr/bin/env bash
# Configures and builds one build tree: everything, or with --target NAME only that target and what
# it needs (the main job builds just the selfplay program, not the tests).
# Usage: scripts/build.sh <dir> [--target NAME] [cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; shift
target=()
if [ "${1:-}" = "--target" ]; then target=(--target "$2"); shift 2; fi
mkdir -p "$(dirname "$dir")"
jobs=$(nproc)
# Ninja where it is installed (scripts/setup.sh installs it): a tenth quicker than Make over the
# whole build on 2 cores (2026-12-07). A tree configured before keeps its generator.
generator=()
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B "$dir" "${generator[@]}" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
grep -E "selfplay:" "$dir.configure.log" || true
cmake --build "$dir" -j "$jobs" "${target[@]}"
