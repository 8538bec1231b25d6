#!/usr/bin/env bash
# One search feature measured by itself: fills a match template and plays it, niced, resuming a
# stopped match (experiments/checkers-search/run.sh, experiments/gomoku-strength/ablate.sh).
# The template's placeholders: @ROOT@ (the repository), @FEATURE@ (NAME), @MS@, @PAIRS@, and a
# line holding @FEATURE_KEYS@, replaced by the KEY lines (each indented as that line is).
# Writes RESULTS/NAME-MSms.yaml and .h5, and appends the match summary to RESULTS/NAME-MSms.txt.
# Usage: feature-match.sh TEMPLATE RESULTS NAME MS PAIRS BINARY [KEY...]
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: feature-match.sh TEMPLATE RESULTS NAME MS PAIRS BINARY [KEY...]" >&2; exit 2; }
template=$1 out=$2 feature=$3 ms=$4 pairs=$5 bin=$6
shift 6
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$bin" ] || { echo "feature-match.sh: no selfplay binary at $bin" >&2; exit 2; }
name=$feature-${ms}ms
mkdir -p "$out"
sed -e "s|@ROOT@|$root|g" -e "s|@FEATURE@|$feature|g" -e "s|@MS@|$ms|g" -e "s|@PAIRS@|$pairs|g" \
  "$template" | while IFS= read -r line; do
  if [[ $line == *@FEATURE_KEYS@* ]]; then
    indent=${line%%@FEATURE_KEYS@*}
    for k in "$@"; do echo "$indent$k"; done
  else
    echo "$line"
  fi
done >"$out/$name.yaml"
resume=()
[ -f "$out/$name.h5" ] && resume=(--resume)
stamp() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"; }
{
  echo "== $name: $pairs pairs ($(stamp)), selfplay $(git -C "$root" rev-parse --short HEAD)"
  nice -n 10 "$bin" match "$out/$name.yaml" --out "$out/$name.h5" "${resume[@]}" --quiet
  echo "$(stamp) done"
} >>"$out/$name.txt" 2>&1
tail -n 30 "$out/$name.txt"
