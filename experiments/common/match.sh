#!/usr/bin/env bash
# Plays one match config, niced, resuming a stopped match (the experiments' scripts fill in their
# configs and call it). Appends to OUT.txt a header (WHAT, the date, the machine and its load, the
# binary's revision), the match's summary and a closing stamp; the match file is OUT.h5.
# Usage: match.sh CONFIG OUT BINARY [WHAT, default OUT's name]
set -euo pipefail
config=$1 out=$2 bin=$3
what=${4:-$(basename "$out")}
resume=()
[ -f "$out.h5" ] && resume=(--resume)
stamp() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"; }
{
  echo "== $what ($(stamp)), selfplay $("$bin" --version 2>/dev/null | grep -o 'commit [0-9a-f]*' | cut -c8-14)"
  nice -n 10 "$bin" match "$config" --out "$out.h5" "${resume[@]}" --quiet
  echo "$(stamp) done"
} >>"$out.txt" 2>&1
tail -n 30 "$out.txt"
