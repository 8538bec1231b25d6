#!/usr/bin/env bash
# Host capacity: how many rollouts/s the host side (MCTS, driver, HDF5 output) can request, per
# number of host threads, measured on the `null` backend, which answers every leaf at once. This is
# the rate a GPU would have to serve; a GPU campaign cannot run faster than it on this machine.
# Plays ewn-gpu-sized.yaml (4,096 games at once, 6,400 rollouts a move in leaves of 64) once per
# thread count and writes one CSV row per run.
#
# Usage: experiments/host-capacity/run.sh [--quick] [--threads "1 2 ..."] [--games N] [--out CSV]
#   --threads  thread counts to measure (default: 1 up to all cores)
#   --games    games per run (default 8192; --quick: 256 at 64 games at once, to test the script)
#   --out      the CSV (default experiments/host-capacity/results/host-capacity.csv); the
#              throughput notebook reads it (SELFPLAY_HOST_CSV)
# Needs a Release build (scripts/build.sh build/release ...) or SELFPLAY_BIN naming the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${SELFPLAY_BIN:-$root/build/release/host/app/selfplay}
threads=$(seq 1 "$(nproc)")
games=8192 quick= csv=$here/results/host-capacity.csv
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 games=256 ;;
    --threads) threads=$2; shift ;;
    --games) games=$2; shift ;;
    --out) csv=$2; shift ;;
    *) echo "run.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin" ] || { echo "run.sh: no selfplay binary at $bin (build first, or set SELFPLAY_BIN)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
config=$here/ewn-gpu-sized.yaml
if [ -n "$quick" ]; then
  sed 's/concurrency: 4096/concurrency: 64/' "$config" >"$work/config.yaml"
  config=$work/config.yaml
fi
at_once=$(awk '/^  concurrency:/ { print $2 }' "$config")
mkdir -p "$(dirname "$csv")"
echo "threads,games,at_once,seconds,rollouts_per_s,leaves_per_s,games_per_s,host_work_s,date,cpu" >"$csv.tmp"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo | tr -s ' ,' ' ')
# 4,096 trees are far larger than the caches, and every round of every tree misses the TLB with
# 4 KiB pages: glibc's malloc on transparent huge pages (glibc >= 2.35) took 15-20% less host CPU
# per game in alternating runs (2026-12-01). Other glibc versions ignore the tunable.
export GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1
for t in $threads; do
  rm -f "$work/run.h5"
  "$bin" run "$config" --backend null --threads "$t" --games "$games" --out "$work/run.h5" --quiet \
    >"$work/run.txt" 2>&1 || { cat "$work/run.txt" >&2; exit 1; }
  # throughput  R rollouts/s, L leaves/s, G games/s over S s
  read -r rate leaves gps secs < <(awk '/^throughput/ { print $2, $4, $6, $(NF - 1) }' "$work/run.txt")
  host=$(awk '/^backend/ { for (i = 1; i < NF; ++i) if ($i == "work") print $(i + 1) }' "$work/run.txt")
  echo "$t,$games,$at_once,$secs,$rate,$leaves,$gps,$host,$(date -u +%F),$cpu" >>"$csv.tmp"
  echo "$t threads: $rate rollouts/s, $leaves leaves/s, $gps games/s over $secs s"
done
mv "$csv.tmp" "$csv"
echo "wrote $csv"
