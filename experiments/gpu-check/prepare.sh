#!/usr/bin/env bash
# Builds here what the device check carries to the GPU machine, which has CUDA and a compiler but no
# YAML, HDF5, fmt or CLI11 libraries: `selfplay` and `gpu_check`, Release, CUDA for sm_90 (H200),
# and copies them with every shared library they load that is not part of glibc into .gpu-carry/
# (ignored by git), well under the device call's 64 MiB. Run it before the device call:
#
#   experiments/gpu-check/prepare.sh
#   run(command="experiments/gpu-check/run.sh \"$OUT\"", carry=[".gpu-carry"], timeout_s=480)
#
# The build does not use -march=native (the device's CPU is not this one) but x86-64-v3 (AVX2,
# BMI2, POPCNT: every server CPU an H200 sits in has them; without it popcounts and PDEP become
# library calls and the CPU numbers of the check would be unfair to the CPU). run.sh checks the
# CPU flags and the sources' fingerprint (`fingerprint.sh`) before it uses the carry.
# Usage: experiments/gpu-check/prepare.sh [build-dir]     (default build/gpu-carry; uses ccache)
# Run it in the checkout the device call sends (the calling session's own): the carry is ignored
# by git, and run.sh takes it only when it was built from the sources it finds there. About 2
# minutes on 2 cores when ccache holds the objects, over 20 cold.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/gpu-carry}
carry=.gpu-carry
start=$SECONDS
launcher=$(command -v ccache || true)
# Paths relative to the checkout in ccache's keys: a build in another checkout of the same sources
# (the lead's, after a merge) hits the cache this one filled.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "prepare: no nvcc (looked on the PATH and in /usr/local/cuda/bin)"; exit 1; }
mkdir -p "$(dirname "$build")"
nice cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSELFPLAY_CUDA=ON -DSELFPLAY_NATIVE=OFF \
  -DSELFPLAY_TESTS=OFF -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CXX_FLAGS=-march=x86-64-v3 -DCMAKE_CUDA_FLAGS=-Xcompiler=-march=x86-64-v3 \
  ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CUDA_COMPILER_LAUNCHER="$launcher"} \
  >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
nice cmake --build "$build" -j "$(nproc)" --target selfplay gpu_check
echo "prepare: built in $((SECONDS - start)) s"

rm -rf "$carry"
mkdir -p "$carry/lib"
cp "$build/host/app/selfplay" "$build/experiments/gpu-check/gpu_check" "$carry/"
strip "$carry/selfplay" "$carry/gpu_check"
# glibc's own libraries stay behind: they must be the device's, which loads the rest from lib/.
glibc='^(linux-vdso|ld-linux|libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libnsl|libanl|libBrokenLocale)\.so'
for bin in "$carry/selfplay" "$carry/gpu_check"; do
  ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
    if ! [[ $name =~ $glibc ]]; then cp -L "$path" "$carry/lib/$name"; fi
  done
done
if ldd "$carry/selfplay" "$carry/gpu_check" | grep -q 'not found'; then
  echo "prepare: a library was not found:"; ldd "$carry/selfplay" "$carry/gpu_check" | grep 'not found'
  exit 1
fi
experiments/gpu-check/fingerprint.sh >"$carry/fingerprint"
{
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname) from $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
  echo "glibc $(ldd --version | head -1 | awk '{print $NF}'), nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), -march=x86-64-v3, sm_90"
} >"$carry/manifest"
cat "$carry/manifest"
ls -l "$carry/lib" | awk 'NR > 1 { print "  " $NF, $5 }'
echo "prepare: $carry holds $(du -sh "$carry" | cut -f1) ($(du -sb "$carry" | cut -f1) bytes; the device call takes 64 MiB in all) after $((SECONDS - start)) s"
