#!/usr/bin/env bash
# Issue 46 item 1: what the endgame databases are worth. Builds the databases of up to PIECES
# pieces (resumes a build that was stopped), makes the openings once, then plays alpha-beta with
# the databases against the same search without them (match.yaml). Rerun to continue: the build
# and the match resume (--resume). Results go to results/ (the databases to $EGTB_DIR, default
# /tmp/selfplay-egtb<PIECES>: 35 MB for 5 pieces).
# Usage: experiments/checkers-egtb/run.sh [selfplay binary] [pairs, default 500] [depth, default 6]
#   [pieces, default 5]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$root/build/release/host/app/selfplay}")
pairs=${2:-500}
depth=${3:-6}
pieces=${4:-5}
db=${EGTB_DIR:-/tmp/selfplay-egtb$pieces}
out=$here/results
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin" >&2; exit 2; }
mkdir -p "$out"
stamp() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"; }

echo "== databases of up to $pieces pieces in $db ($(stamp))"
nice -n 10 "$bin" egtb build --pieces "$pieces" --out "$db" 2>"$out/build-$pieces.log" | tee "$out/build-$pieces.txt"

if [ ! -s "$out/openings.pdn" ]; then
  echo "== openings"
  sed -e "s|@OUT@|$out|g" "$here/openings.yaml" >"$out/openings.yaml"
  "$bin" run "$out/openings.yaml" --quiet >"$out/openings.log"
  "$bin" export "$out/openings.h5" --format pdn --out "$out/openings-all.pdn"
  python3 "$root/experiments/checkers-weight-tuning/dedupe_openings.py" "$out/openings-all.pdn" \
    "$out/openings.pdn" "$bin"
  rm -f "$out/openings.h5" "$out/openings-all.pdn"
fi

echo "== match: depth $depth, $pairs pairs ($(stamp))"
sed -e "s|@OUT@|$out|g" -e "s|@ROOT@|$root|g" -e "s|@DB@|$db|g" -e "s|@DEPTH@|$depth|g" \
  -e "s|@PAIRS@|$pairs|g" -e "s|@PIECES@|$pieces|g" "$here/match.yaml" >"$out/match.yaml"
resume=()
[ -f "$out/match.h5" ] && resume=(--resume)
nice -n 10 "$bin" match "$out/match.yaml" --out "$out/match.h5" "${resume[@]}" --quiet \
  >"$out/match.txt" 2>&1
echo "$(stamp) done" >>"$out/match.txt"
cat "$out/match.txt"
