#!/usr/bin/env bash
# The pattern search's nodes/s at two revisions, side by side (search_speed.cpp built against
# each one's games/gomoku and core sources, the same compiler and flags), alternating runs so
# that both see the same load. The node counts and values must agree (the search is the same).
# Usage: experiments/gomoku-codes/search_speed.sh OLD_REV NEW_REV [RUNS, default 3]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
old=$1 new=$2 runs=${3:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for rev in "$old" "$new"; do
  mkdir -p "$scratch/$rev"
  git -C "$root" archive "$rev" core games/gomoku | tar -x -C "$scratch/$rev"
  codes=()
  [ ! -f "$scratch/$rev/games/gomoku/pattern_codes.hpp" ] || codes=(-DCODES)
  g++ -std=c++20 -O3 -march=native -DNDEBUG -ffp-contract=off "${codes[@]}" -I "$scratch/$rev" \
    "$here/search_speed.cpp" "$scratch/$rev/games/gomoku/notation.cpp" -o "$scratch/bench-$rev"
done
for _ in $(seq "$runs"); do
  for rev in "$old" "$new"; do echo "$rev $("$scratch/bench-$rev")"; done
done
