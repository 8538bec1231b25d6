#!/usr/bin/env bash
# The research loop of every game, as shipped (configs/<game>/improve.yaml), niced, one game after
# another; each loop's closing table goes to OUT/<game>.txt and its log to OUT/<game>.log.
#   experiments/improve/run.sh [OUT] [GENERATIONS] [GAMES...]
#     OUT          the loops' directories (default out/experiments/improve)
#     GENERATIONS  overrides stop.generations ("" = the config's)
#     GAMES        ewn checkers gomoku (default: all three)
# A loop that exists is continued (--resume): rerun the script after a stop and it goes on.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${SELFPLAY:-$root/build/release/host/app/selfplay}
out=${1:-out/experiments/improve}
generations=${2:-}
shift $(( $# > 2 ? 2 : $# ))
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(ewn checkers gomoku)
mkdir -p "$out"
for game in "${games[@]}"; do
  args=(improve "$root/configs/$game/improve.yaml" --out "$out/$game" --quiet)
  [ -z "$generations" ] || args+=(--generations "$generations")
  [ ! -e "$out/$game/lineage.h5" ] || args+=(--resume)
  echo "== $game: selfplay ${args[*]}"
  start=$(date +%s)
  nice -n 10 "$bin" "${args[@]}" >"$out/$game.txt" 2>"$out/$game.log" || {
    rc=$?
    echo "$game: exit $rc (see $out/$game.log)"
    [ $rc -eq 130 ] && exit 130
    continue
  }
  cat "$out/$game.txt"
  echo "== $game: $(( $(date +%s) - start )) s"
done
