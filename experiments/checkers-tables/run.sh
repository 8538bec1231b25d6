#!/usr/bin/env bash
# Issue 46 item 2: the research loop over the checkers evaluation tables
# (configs/checkers/improve-tables.yaml, generation 0 = strong.yaml), then its champion against
# strong.yaml on openings the loop never saw (a 3-move ballot and five random plies, each position
# once), alpha-beta at equal depth (4, the loop's, and 6) and at equal time (100 ms a move).
# Niced, one step after another; rerun the same command to continue (the loop and every match
# resume, finished steps are skipped). Writes results/: loop/ (the lineage), loop.txt, loop.log,
# loop-lineage.h5, loop-champion.yaml, openings.pdn, depth4.{yaml,h5,txt}, depth6.*, time100.*.
# Usage: experiments/checkers-tables/run.sh [GENERATIONS, default the config's] [PAIRS, default
#   500] [TIME_PAIRS, default 100] [selfplay binary]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
generations=${1:-}
pairs=${2:-500}
time_pairs=${3:-100}
bin=$(realpath "${4:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin" >&2; exit 2; }
out=$here/results
mkdir -p "$out"
stamp() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"; }

echo "== loop ($(stamp)), selfplay $(git -C "$root" rev-parse --short HEAD)"
args=(improve "$root/configs/checkers/improve-tables.yaml" --out "$out/loop" --quiet)
[ -z "$generations" ] || args+=(--generations "$generations")
[ ! -e "$out/loop/lineage.h5" ] || args+=(--resume)
nice -n 10 "$bin" "${args[@]}" >"$out/loop.txt" 2>>"$out/loop.log"
cat "$out/loop.txt"
cp "$out/loop/lineage.h5" "$out/loop-lineage.h5"  # kept in git (the loop's folder is not)
cp "$out/loop/champion.yaml" "$out/loop-champion.yaml"

if [ ! -s "$out/openings.pdn" ]; then
  echo "== openings ($(stamp))"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  sed -e 's/seed: 20261203/seed: 20261207/' "$root/experiments/improve/checkers-random-openings.yaml" \
    >"$scratch/openings.yaml"
  nice -n 10 "$bin" run "$scratch/openings.yaml" --out "$scratch/openings.h5" --quiet >/dev/null
  "$bin" export "$scratch/openings.h5" --format pdn --out "$scratch/all.pdn"
  python3 "$root/experiments/checkers-weight-tuning/dedupe_openings.py" "$scratch/all.pdn" \
    "$out/openings.pdn" "$bin"
fi

# One match of the loop's champion (A) against generation 0 (B).
match() {  # name depth time_ms pairs
  local name=$1 depth=$2 ms=$3 n=$4
  cat >"$out/$name.yaml" <<YAML
game: checkers
rules: {max_plies: 400, quiet_plies: 80, repetition: 3, start: file, openings: openings.pdn}
campaign: {concurrency: 2, seed: 46207}
engines:
  player0: {type: alphabeta, label: tables, weights: loop/champion.yaml, depth: $depth, time_ms: $ms, tt_size_mb: 16}
  player1: {type: alphabeta, label: strong, weights: $root/configs/checkers/weights/strong.yaml, depth: $depth, time_ms: $ms, tt_size_mb: 16}
backend: {name: cpu, threads: 2}
output: {positions_per_game: 0, search_candidates: 0}
match: {pairs: $n, sprt: {enabled: false}}
YAML
  local resume=()
  [ ! -f "$out/$name.h5" ] || resume=(--resume)
  echo "== $name: $n pairs ($(stamp))" | tee -a "$out/$name.txt"
  nice -n 10 "$bin" match "$out/$name.yaml" --out "$out/$name.h5" "${resume[@]}" --quiet \
    >>"$out/$name.txt" 2>&1 || true
  tail -n 12 "$out/$name.txt"
}
match depth4 4 0 "$pairs"
match depth6 6 0 "$pairs"
match time100 0 100 "$time_pairs"
echo "== done ($(stamp))"
