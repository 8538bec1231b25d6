#!/usr/bin/env bash
# Our checkers alpha-beta against GuiCheckers (match-guicheckers.yaml), one game at a time, niced.
# The GuiCheckers configs need the engine built by build_guicheckers.sh
# (/tmp/ext/guicheckers/guicheckers-engine); every config needs the selfplay binary. Writes
# results/NAME.h5 and the summary results/NAME.txt.
# Usage: experiments/checkers-external/run.sh [selfplay binary] [config, default
#   match-guicheckers.yaml] [name, default the config's name] [pairs, default the config's]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
bin=${1:-../../build/release/host/app/selfplay}
cfg=${2:-match-guicheckers.yaml}
name=${3:-$(basename "$cfg" .yaml)}
pairs=${4:-}
engine=/tmp/ext/guicheckers/guicheckers-engine
[[ -x "$bin" ]] || { echo "error: no selfplay binary at $bin (build it first)" >&2; exit 2; }
if grep -q "$engine" "$cfg" && [[ ! -x "$engine" ]]; then
  echo "error: no $engine: run $here/build_guicheckers.sh first" >&2
  exit 2
fi
mkdir -p results
out=results/$name.h5
rm -f "$out"
args=(match "$cfg" --out "$out" --quiet)
[[ -n "$pairs" ]] && args+=(--pairs "$pairs")
{
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $cfg: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "selfplay: $bin ($(git -C ../.. rev-parse --short HEAD 2>/dev/null || echo '?'))"
  nice -n 10 "$bin" "${args[@]}"
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) done, load: $(cut -d' ' -f1-3 /proc/loadavg)"
} 2>&1 | tee "results/$name.txt"
