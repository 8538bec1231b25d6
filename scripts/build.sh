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
cmake -S . -B "$dir" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
grep -E "selfplay:" "$dir.configure.log" || true
cmake --build "$dir" -j "$jobs" "${target[@]}"
