#!/usr/bin/env bash
# Device check: on a machine with an NVIDIA GPU, build Release for that GPU's architecture, prove
# the cuda backend bit-identical to the cpu backend, sweep batch sizes on cuda and on cpu (all
# cores), and print a results table last. Builds only what needs CUDA and a compiler
# (-DSELFPLAY_DEVICE_CHECK_ONLY=ON): the GPU machines have no YAML/HDF5/test libraries and no
# network. Under 8 minutes on an H200 (build ~1 min on 16 cores, checks ~1 min, sweeps ~3 min).
# Usage: experiments/gpu-check/run.sh [results-dir] [--quick]
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-experiments/gpu-check/results}
quick=${2:-}
mkdir -p "$out"
log="$out/full.log"
: >"$log"
say() { echo "$*" | tee -a "$log"; }

say "gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >>"$log" 2>&1; then
  say "no NVIDIA GPU visible (nvidia-smi failed); nothing to check"
  exit 3
fi
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
say "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1) (sm_$cc), cpu cores: $(nproc)"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
build=build/gpu-check
if ! cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSELFPLAY_DEVICE_CHECK_ONLY=ON -DSELFPLAY_CUDA=ON \
     -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$cc" >>"$log" 2>&1 ||
   ! cmake --build "$build" -j "$(nproc)" --target gpu_check >>"$log" 2>&1; then
  say "build failed; last lines of $log:"; tail -30 "$log"; exit 1
fi
"$build/experiments/gpu-check/gpu_check" --out "$out" $quick 2>&1 | tee -a "$log"
exit "${PIPESTATUS[0]}"
