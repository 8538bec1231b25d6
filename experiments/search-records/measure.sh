#!/usr/bin/env bash
# What the search records cost: file size and campaign speed with /candidates off
# (search_candidates: 0), at the default (8) and with the root's whole visit distribution
# (root_policy: true), on the shipped EWN and Gomoku campaigns. Each setting runs twice,
# alternating, on the same seed (the same games). Writes results/measure.csv as it goes.
# Usage: experiments/search-records/measure.sh [SELFPLAY] [EWN_GAMES] [GOMOKU_GAMES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
selfplay=${1:-$root/build/release/host/app/selfplay}
ewn_games=${2:-2000}
gomoku_games=${3:-16}
work=$(mktemp -d /tmp/search-records.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/results"
csv=$here/results/measure.csv
echo "game,setting,run,games,seconds,file_bytes,plies,candidate_rows" > "$csv"
for game in ewn gomoku; do
  games=$ewn_games
  [ "$game" = gomoku ] && games=$gomoku_games
  for run in 1 2; do
    for setting in off default policy; do
      case $setting in
        off) keys="search_candidates: 0" ;;
        default) keys="search_candidates: 8" ;;
        policy) keys="root_policy: true" ;;
      esac
      cfg=$work/$game-$setting.yaml
      # The shipped campaign with its weights paths made absolute.
      sed -e "s|^\(  *search_candidates:\).*|\1 0|" -e "s|^\(  *root_policy:\).*|\1 false|" \
          -e "s|weights: \(weights/[^ ]*\)|weights: $root/configs/$game/\1|" \
          "$root/configs/$game/campaign.yaml" > "$cfg"
      sed -i "s|^\(  *\)${keys%%:*}:.*|\1$keys|" "$cfg"
      out=$work/$game-$setting-$run.h5
      start=$(date +%s.%N)
      "$selfplay" run "$cfg" --games "$games" --out "$out" --quiet --threads 2 > /dev/null
      end=$(date +%s.%N)
      counts=$(/usr/bin/python3 -c "
import h5py, sys
with h5py.File(sys.argv[1], 'r') as f:
    print(f['plies'].shape[0], f['candidates'].shape[0])" "$out")
      echo "$game,$setting,$run,$games,$(echo "$end - $start" | bc),$(stat -c %s "$out"),${counts// /,}" >> "$csv"
      rm -f "$out"
    done
  done
done
cat "$csv"
