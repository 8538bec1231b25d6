#!/usr/bin/env bash
# Issue 45 item 3: plays one pattern-search feature (or several, joined by '+') against the
# shipped pattern search at a fixed time a move (ablation.yaml), niced, one game at a time. Rerun
# the same command to continue a stopped match (--resume). Writes results/FEATURE-MSms.{yaml,h5,txt}.
# Usage: experiments/gomoku-strength/ablate.sh FEATURE [ms a move, default 500] [pairs, default 100]
#   [selfplay binary]
#   FEATURE: futility | razoring | move_count_pruning | forced_extension | time_management, or
#   several joined by '+' (futility+razoring).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
feature=${1:?usage: ablate.sh FEATURE [ms] [pairs] [binary]}
ms=${2:-500}
pairs=${3:-100}
bin=$(realpath "${4:-$root/build/release/host/app/selfplay}")
keys=()
IFS=+ read -ra parts <<<"$feature"
for f in "${parts[@]}"; do
  case $f in
    futility | razoring | move_count_pruning | forced_extension | time_management) keys+=("$f: true") ;;
    *) echo "ablate.sh: unknown feature '$f'" >&2; exit 2 ;;
  esac
done
exec "$root/experiments/common/feature-match.sh" "$here/ablation.yaml" "$here/results" "$feature" \
  "$ms" "$pairs" "$bin" "${keys[@]}"
