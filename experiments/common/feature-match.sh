#!/usr/bin/env bash
# One search feature (or several joined by '+') measured by itself against the search as shipped:
# fills a match template and plays it, niced, resuming a stopped match. The experiments call it
# with their template, results folder, default time a move and features, each FEATURE=KEY LINE
# (experiments/checkers-search/run.sh, experiments/gomoku-strength/ablate.sh), and pass on their
# own arguments after `--`: FEATURE [MS] [PAIRS, default 100] [BINARY].
# The template's placeholders: @ROOT@ (the repository), @FEATURE@, @MS@, @PAIRS@, and a line
# holding @FEATURE_KEYS@, replaced by the features' key lines (each indented as that line is).
# Writes RESULTS/FEATURE-MSms.yaml and .h5, and appends the match summary to RESULTS/FEATURE-MSms.txt.
# Usage: feature-match.sh TEMPLATE RESULTS DEFAULT_MS FEATURE=KEY... -- FEATURE [MS] [PAIRS] [BINARY]
set -euo pipefail
template=$1 out=$2 default_ms=$3
shift 3
declare -A known=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  known[${1%%=*}]=${1#*=}
  shift
done
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: FEATURE [ms, default $default_ms] [pairs, default 100] [selfplay binary]; FEATURE one of: ${!known[*]}, or several joined by '+'"
feature=${1:?$usage}
ms=${2:-$default_ms}
pairs=${3:-100}
bin=$(realpath "${4:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "no selfplay binary at $bin" >&2; exit 2; }
keys=()
IFS=+ read -ra parts <<<"$feature"
for f in "${parts[@]}"; do
  [ -n "${known[$f]+x}" ] || { echo "unknown feature '$f'; $usage" >&2; exit 2; }
  keys+=("${known[$f]}")
done
name=$feature-${ms}ms
mkdir -p "$out"
sed -e "s|@ROOT@|$root|g" -e "s|@FEATURE@|$feature|g" -e "s|@MS@|$ms|g" -e "s|@PAIRS@|$pairs|g" \
  "$template" | while IFS= read -r line; do
  if [[ $line == *@FEATURE_KEYS@* ]]; then
    indent=${line%%@FEATURE_KEYS@*}
    for k in "${keys[@]}"; do echo "$indent$k"; done
  else
    echo "$line"
  fi
done >"$out/$name.yaml"
exec "$root/experiments/common/match.sh" "$out/$name.yaml" "$out/$name" "$bin" "$name: $pairs pairs"
