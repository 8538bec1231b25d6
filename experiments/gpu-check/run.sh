#!/usr/bin/env bash
# Device check: on a machine with an NVIDIA GPU, build Release for that GPU, run the GPU tests,
# sweep batch sizes on cuda and on cpu (all cores), and print a results table last.
# Usage: experiments/gpu-check/run.sh [results-dir]    (default: experiments/gpu-check/results)
# Budget: under 8 minutes on an H200 (build ~2 min with 16 cores, sweeps ~3 min).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-experiments/gpu-check/results}
mkdir -p "$out"
log="$out/full.log"
: >"$log"
say() { echo "$*" | tee -a "$log"; }

say "gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >>"$log" 2>&1; then
  say "no NVIDIA GPU visible (nvidia-smi failed); nothing to check"
  exit 1
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
cores=$(nproc)
say "gpu: $gpu (sm_$cc), cpu cores: $cores"

scripts/setup.sh >>"$log" 2>&1 || { say "setup failed"; exit 1; }
build=build/gpu-check
if ! scripts/build.sh "$build" -DCMAKE_BUILD_TYPE=Release -DSELFPLAY_CUDA=ON \
     -DCMAKE_CUDA_ARCHITECTURES="$cc" -DSELFPLAY_TESTS=ON >>"$log" 2>&1; then
  say "build failed; see $log"; exit 1
fi
bin=$build/host/app/selfplay

say "== GPU tests"
tests_status=PASS
ctest --test-dir "$build" -L gpu --output-on-failure >>"$log" 2>&1 || tests_status=FAIL
grep -E "tests passed|Skipped|Failed" "$log" | tail -3 | tee -a "$out/tests.txt"
say "gpu tests: $tests_status"

say "== cuda sweep"
timeout 200 "$bin" bench --backend cuda --sweep --sweep-min 10 --sweep-max 24 --sweep-seconds 0.5 \
  --rollouts-per-leaf 64 --csv "$out/sweep-cuda.csv" >"$out/bench-cuda.txt" 2>>"$log"
cat "$out/bench-cuda.txt" >>"$log"
say "== cpu sweep ($cores threads)"
timeout 120 "$bin" bench --backend cpu --threads 0 --sweep --sweep-min 12 --sweep-max 22 --sweep-seconds 0.5 \
  --rollouts-per-leaf 64 --csv "$out/sweep-cpu.csv" >"$out/bench-cpu.txt" 2>>"$log"
cat "$out/bench-cpu.txt" >>"$log"
say "== check backend (cpu vs cuda on the signature workload)"
check_status=PASS
timeout 60 "$bin" bench --backend check --threads 0 --seconds 1 >"$out/bench-check.txt" 2>>"$log" || check_status=FAIL
cat "$out/bench-check.txt" >>"$log"

peak() {  # column 8 = kernel playouts/s, column 9 = end-to-end playouts/s
  awk -F, -v col="$2" 'NR > 1 && $col > m { m = $col } END { printf "%.4g", m }' "$1"
}
gk=$(peak "$out/sweep-cuda.csv" 8); ge=$(peak "$out/sweep-cuda.csv" 9); ck=$(peak "$out/sweep-cpu.csv" 9)
sig_gpu=$(awk '/^signature:/ { print $2 }' "$out/bench-cuda.txt")
sig_cpu=$(awk '/^signature:/ { print $2 }' "$out/bench-cpu.txt")
ratio=$(awk -v a="$ge" -v b="$ck" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }')
{
  echo
  echo "| date | device | GPU kernel playouts/s | GPU end-to-end playouts/s | CPU ($cores threads) playouts/s | GPU/CPU | signature cuda | signature cpu | gpu tests | check |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  echo "| $(date -u +%Y-%m-%d) | $gpu | $gk | $ge | $ck | $ratio | $sig_gpu | $sig_cpu | $tests_status | $check_status |"
} | tee "$out/table.md" | tee -a "$log"
