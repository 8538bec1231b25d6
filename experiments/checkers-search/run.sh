#!/usr/bin/env bash
# Issue 46 item 3: plays one search feature (or several, joined by '+') against the shipped
# checkers search at a fixed time a move (match.yaml), niced, one game at a time. Rerun the same
# command to continue a stopped match (--resume). Writes results/FEATURE-MSms.{yaml,h5,txt}.
# Usage: experiments/checkers-search/run.sh FEATURE [ms a move, default 100] [pairs, default 100]
#   [selfplay binary]
#   FEATURE: lmr | forced_extension | time_management | pvs_off | killers_off | history_off, or
#   several joined by '+' (lmr+time_management).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../common/feature-match.sh" "$here/match.yaml" "$here/results" 100 \
  "lmr=lmr: true" "forced_extension=forced_extension: true" \
  "time_management=time_management: true" "pvs_off=pvs: false" "killers_off=killers: false" \
  "history_off=history: false" -- "$@"
