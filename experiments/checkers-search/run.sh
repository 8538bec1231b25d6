#!/usr/bin/env bash
# Issue 46 item 3: plays one search feature (or several, joined by '+') against the shipped
# checkers search at a fixed time a move (match.yaml), niced, one game at a time. Rerun the same
# command to continue a stopped match (--resume). Writes results/FEATURE-MSms.{yaml,h5,txt}.
# Usage: experiments/checkers-search/run.sh FEATURE [ms a move, default 100] [pairs, default 100]
#   [selfplay binary]
#   FEATURE: lmr | forced_extension | time_management | pvs_off | killers_off | history_off, or
#   several joined by '+' (lmr+time_management).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
feature=${1:?usage: run.sh FEATURE [ms] [pairs] [binary]}
ms=${2:-100}
pairs=${3:-100}
bin=$(realpath "${4:-$root/build/release/host/app/selfplay}")
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin" >&2; exit 2; }
keys=()
IFS=+ read -ra parts <<<"$feature"
for f in "${parts[@]}"; do
  case $f in
    lmr | forced_extension | time_management) keys+=("$f: true") ;;
    pvs_off | killers_off | history_off) keys+=("${f%_off}: false") ;;
    *) echo "run.sh: unknown feature '$f'" >&2; exit 2 ;;
  esac
done
exec "$root/experiments/common/feature-match.sh" "$here/match.yaml" "$here/results" "$feature" "$ms" \
  "$pairs" "$bin" "${keys[@]}"
