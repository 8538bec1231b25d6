#!/usr/bin/env bash
# Configures and builds one build tree. Usage: scripts/build.sh <dir> [cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; shift
mkdir -p "$(dirname "$dir")"
jobs=$(nproc)
cmake -S . -B "$dir" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
grep -E "selfplay:" "$dir.configure.log" || true
cmake --build "$dir" -j "$jobs"
