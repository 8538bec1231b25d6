#!/usr/bin/env bash
# Issue 45 items 1-2: the research loop over Gomoku's pattern codes
# (configs/gomoku/improve-codes.yaml: the pattern search at depth 2, generation 0 = pattern.yaml,
# only the 658 code weights tuned, fitted on the positions without fours or the side to move's
# open threes), then its champion against pattern.yaml at 500 ms a move on the held-out openings
# (results/heldout-openings.pos: balanced openings of another seed, none of them a shipped one up
# to symmetry; each twice, colours swapped).
# Niced, one step after another; rerun the same command to continue (the loop and the match
# resume; once the match has started, a checkout without the loop's folder resumes the match).
# Writes results/: loop/ (the loop's folder, not in git), loop.txt, loop.log, loop-lineage.h5,
# loop-champion.yaml, time500.{yaml,h5,txt} (time500.h5 in git, for the resume).
# Usage: experiments/gomoku-codes/run.sh [GENERATIONS, default the config's] [PAIRS, default 500]
#   [selfplay binary]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
generations=${1:-}
pairs=${2:-500}
bin=$(realpath "${3:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
stamp() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"; }

if [ -e "$out/time500.h5" ] && [ ! -e "$out/loop/lineage.h5" ]; then
  # A later session (the loop's folder is not in git): the match goes on with the champion in git.
  echo "== loop: done before, its champion results/loop-champion.yaml; the match resumes"
else
  echo "== loop ($(stamp)), selfplay $(git -C "$root" rev-parse --short HEAD)"
  args=(improve "$root/configs/gomoku/improve-codes.yaml" --out "$out/loop" --quiet)
  [ -z "$generations" ] || args+=(--generations "$generations")
  [ ! -e "$out/loop/lineage.h5" ] || args+=(--resume)
  nice -n 10 "$bin" "${args[@]}" >"$out/loop.txt" 2>>"$out/loop.log"
  cat "$out/loop.txt"
  cp "$out/loop/lineage.h5" "$out/loop-lineage.h5"  # kept in git (the loop's folder is not)
  cp "$out/loop/champion.yaml" "$out/loop-champion.yaml"
fi

echo "== time500 ($(stamp))"
engine() {
  echo "{type: alphabeta, search: pattern, weights: $1, depth: 0, time_ms: 500, tt_size_mb: 64, threat_nodes: 200}"
}
cat >"$out/time500.yaml" <<YAML
# The loop's champion (A) against pattern.yaml (B), the pattern search at 500 ms a move, on
# balanced openings the loop never saw, each pair's two games with colours swapped.
game: gomoku
rules: {board_size: 15, rule: freestyle, opening: file, openings: $out/heldout-openings.pos}
campaign: {concurrency: 1, seed: 20261207}
engines:
  player0: $(engine "$out/loop-champion.yaml")
  player1: $(engine "$root/configs/gomoku/weights/pattern.yaml")
backend: {name: cpu, threads: 1}
output: {positions_per_game: 0}
match: {pairs: $pairs, sprt: {enabled: false}}
YAML
margs=(match "$out/time500.yaml" --out "$out/time500.h5" --quiet)
[ ! -e "$out/time500.h5" ] || margs+=(--resume)
nice -n 10 "$bin" "${margs[@]}" >"$out/time500.txt" 2>>"$out/time500.log"
cat "$out/time500.txt"
