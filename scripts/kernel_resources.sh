#!/usr/bin/env bash
# Prints the rollout kernels' resources as ptxas reports them, and the occupancy they allow, as
# the Markdown table of docs/gpu.md ("Kernels"): per game, playout variant and architecture,
# registers, stack frame and spills, and resident warps per SM for blocks of 64, 128 and 256
# threads (the backend's default picks the best; host/engines/cuda/cuda_backend.cu). Needs nvcc, not a GPU.
# Usage: scripts/kernel_resources.sh [arch...]      (default: 90 80)
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "kernel_resources: no nvcc (looked on the PATH and in /usr/local/cuda/bin)" >&2; exit 1; }
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(90 80)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake -DOUT="$tmp/generated" -P scripts/game_list.cmake  # the game list the build writes
for arch in "${archs[@]}"; do
  # The Release flags of the build (CMAKE_CUDA_FLAGS_RELEASE and the project's own).
  "$nvcc" -std=c++20 -I. -I"$tmp/generated" -O3 -DNDEBUG --expt-relaxed-constexpr -arch="sm_$arch" -Xptxas -v \
    -c host/engines/cuda/cuda_backend.cu -o "$tmp/backend.o" >"$tmp/ptxas-$arch.txt" 2>&1 ||
    { cat "$tmp/ptxas-$arch.txt" >&2; exit 1; }
done
echo "nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' with local changes'), $(date -u +%Y-%m-%d)"
echo
python3 - "$tmp" "${archs[@]}" <<'PY'
import re, sys, os
tmp, archs = sys.argv[1], sys.argv[2:]
# Per SM on sm_80 and sm_90: 65536 registers allocated per warp in units of 256, 64 warps and 32
# blocks at most (CUDA occupancy calculator's tables).
REGS, UNIT, MAX_WARPS, MAX_BLOCKS = 65536, 256, 64, 32
variant_names = {"GomokuGame": ["15x15 uniform", "15x15 weighted", "20x20 uniform", "20x20 weighted",
                                "15x15 pattern", "20x20 pattern"]}
def warps(regs, block):
    wpb = block // 32
    per_warp = -(-regs * 32 // UNIT) * UNIT
    by_regs = (REGS // per_warp) // wpb
    return min(MAX_BLOCKS, MAX_WARPS // wpb, by_regs) * wpb
rows = []
for arch in archs:
    text = open(os.path.join(tmp, f"ptxas-{arch}.txt")).read()
    kernel = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            k = re.search(r"rollout_kernelINS_\d+(\w+?)ELi(\d+)E", m.group(1))
            kernel = (k.group(1), int(k.group(2)), "bounded" in m.group(1)) if k else None
            stack = spills = 0
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and kernel:
            stack, spills = int(m.group(1)), int(m.group(2)) + int(m.group(3))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and kernel:
            game, v, bounded = kernel
            regs = int(m.group(1))
            name = variant_names.get(game, ["all"])[v] if game in variant_names else "all"
            occ = [warps(regs, b) for b in (64, 128, 256)]
            rows.append((game.replace("Game", "").lower(), v, name, arch, regs, stack, spills, bounded, occ))
            kernel = None
order = {"ewn": 0, "checkers": 1, "gomoku": 2}
rows.sort(key=lambda r: (order.get(r[0], 9), r[1], -int(r[3])))
print("| game | variant | sm | registers | stack B | spill B | launch bounds | warps/SM at 64 / 128 / 256 threads | best occupancy |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for game, v, name, arch, regs, stack, spills, bounded, occ in rows:
    best = max(occ)
    print(f"| {game} | {name} | {arch} | {regs} | {stack} | {spills} | {'yes' if bounded else 'no'} | "
          f"{' / '.join(map(str, occ))} | {best}/{MAX_WARPS} = {100 * best / MAX_WARPS:.0f}% |")
PY
