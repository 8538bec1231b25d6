#!/usr/bin/env bash
# Issue 46 item 4: grows an opening book from MCTS self-play (selfplay.yaml, GAMES games), then
# plays the same MCTS with the book against it without (match.yaml, PAIRS pairs). Niced; rerun
# the same command to continue a stopped run (--resume). Writes results/{selfplay.h5, book.tsv,
# match.h5, run.txt}.
# Usage: experiments/checkers-book/run.sh [games, default 3000] [pairs, default 200]
#   [min games a book move, default 30] [plies, default 12] [selfplay binary]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
games=${1:-3000}
pairs=${2:-200}
min_games=${3:-30}
plies=${4:-12}
bin=$(realpath "${5:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
stamp() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"; }
resume() { [ -f "$1" ] && echo --resume || true; }
sed -e "s|@GAMES@|$games|g" "$here/selfplay.yaml" >"$out/selfplay.yaml"
sed -e "s|@ROOT@|$root|g" -e "s|@BOOK@|$out/book.tsv|g" -e "s|@PAIRS@|$pairs|g" \
  "$here/match.yaml" >"$out/match.yaml"
{
  echo "== selfplay: $games games ($(stamp)), selfplay $(git -C "$root" rev-parse --short HEAD)"
  nice -n 10 "$bin" run "$out/selfplay.yaml" --out "$out/selfplay.h5" $(resume "$out/selfplay.h5") --quiet
  echo "== book: plies $plies, min_games $min_games ($(stamp))"
  "$bin" book build "$out/selfplay.h5" --out "$out/book.tsv" --plies "$plies" --min-games "$min_games"
  echo "== match: $pairs pairs ($(stamp))"
  nice -n 10 "$bin" match "$out/match.yaml" --out "$out/match.h5" $(resume "$out/match.h5") --quiet
  echo "$(stamp) done"
} >>"$out/run.txt" 2>&1
tail -n 30 "$out/run.txt"
