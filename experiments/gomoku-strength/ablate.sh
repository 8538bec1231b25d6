#!/usr/bin/env bash
# Issue 45 item 3: plays one pattern-search feature (or several, joined by '+') against the
# shipped pattern search at a fixed time a move (ablation.yaml), niced, one game at a time. Rerun
# the same command to continue a stopped match (--resume). Writes results/FEATURE-MSms.{yaml,h5,txt}.
# Usage: experiments/gomoku-strength/ablate.sh FEATURE [ms a move, default 500] [pairs, default 100]
#   [selfplay binary]
#   FEATURE: futility | razoring | move_count_pruning | forced_extension | time_management |
#   score_reductions | opponent_vct, or several joined by '+' (futility+razoring).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../common/feature-match.sh" "$here/ablation.yaml" "$here/results" 500 \
  "futility=futility: true" "razoring=razoring: true" \
  "move_count_pruning=move_count_pruning: true" "forced_extension=forced_extension: true" \
  "time_management=time_management: true" "score_reductions=score_reductions: true" \
  "opponent_vct=opponent_vct: true" -- "$@"
