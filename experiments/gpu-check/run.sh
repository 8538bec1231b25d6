#!/usr/bin/env bash
# Device check: one command that proves the whole pipeline on a machine with an NVIDIA GPU.
#
#   here:       experiments/gpu-check/prepare.sh     (builds selfplay + gpu_check into .gpu-carry/)
#   the device: run(command="experiments/gpu-check/run.sh \"$OUT\"", carry=[".gpu-carry"], timeout_s=480)
#
# Steps, each under its own time limit, the whole under SP_GPU_BUDGET_S (default 420 s, inside the
# 8 minutes an H200 with 16 cores may take; estimated from CPU rates, not yet run on a GPU: about
# 4 minutes with the carry, 2 more when gpu_check must be built there):
#  1. gpu_check: every game's kernels bit-identical to the cpu backend (uniform, weighted and mixed
#     policies, block sizes, sizes on and off the block size, a batch that runs the grid-stride
#     loop three times, one leaf with many rollouts, an empty batch, the check backend), the pinned
#     signatures, batch sweeps on cuda and on all CPU cores. The carried gpu_check when it starts
#     here (same sources, sm_90, the CPU has AVX2/BMI2), else one built here with
#     -DSELFPLAY_DEVICE_CHECK_ONLY=ON (no YAML/HDF5/fmt needed; about 2 minutes).
#  2. The pipeline, with the carried selfplay (skipped, with one line saying why, when there is no
#     carry or it does not start): short campaigns of every game on cuda and again on cpu with the
#     same seed, whose records must be equal (compare_records.py, h5py; else `selfplay export`
#     diffed) and which `selfplay verify` accepts; a GPU-sized EWN campaign (4096 games at once, 64
#     rollouts per leaf, 6400 per move) whose end-to-end rollouts/s is set against the kernel's;
#     the same config on the null backend: what the host's cores can feed.
#  3. compute-sanitizer memcheck and racecheck on `gpu_check --sanitize`, when the tool is there.
#  4. What a GPU buys: MCTS at 1e5-1e6 rollouts a move against each game's reference engine on cuda
#     (experiments/rollout-scaling/run.py), in the time that is left.
# Between 1 and 2 the kernels' registers and stack as built (cuobjdump -res-usage) go to full.log.
# Results (at most 8 files, as the device call returns them): full.log, table.md (printed last),
# kernel.csv, sweep-cuda.csv, sweep-cpu.csv, pipeline.csv, sanitize.log, scaling-cuda.csv (step 4:
# the top rollout budgets of every game on the GPU, experiments/rollout-scaling). Campaign files go to
# SP_GPU_WORK (default build/gpu-check-work). Exit 0 when every check ran and passed, 1 on a
# failure, 3 without a GPU.
#
# Usage: experiments/gpu-check/run.sh [results-dir] [--quick]
#   results-dir: default experiments/gpu-check/results. --quick: fewer sizes, shorter sweeps and
#   campaigns (about 3 minutes, estimated).
#   SP_GPU_REHEARSAL=1 rehearses the script without a GPU: the cpu backend stands in for cuda,
#   nvidia-smi and the sanitizer are skipped, everything is small; SP_GPU_CHECK_BIN and
#   SP_SELFPLAY_BIN name binaries to use instead of the carry (the rehearsal test passes its
#   build's).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=experiments/gpu-check/results
quick=
for arg in "$@"; do
  case $arg in
    --quick) quick=--quick ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $arg (usage: run.sh [results-dir] [--quick])" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done
rehearse=${SP_GPU_REHEARSAL:-}
budget=${SP_GPU_BUDGET_S:-420}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
work=${SP_GPU_WORK:-build/gpu-check-work}
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
log=$out/full.log
rm -f "$out"/{table.md,kernel.csv,sweep-cuda.csv,sweep-cpu.csv,pipeline.csv,sanitize.log,scaling-cuda.csv}
: >"$log"
start=$SECONDS
failed=0
say() { echo "$*" | tee -a "$log"; }
fail() { say "FAIL $*"; failed=1; }
left() { echo $((budget - (SECONDS - start))); }
# limit SECONDS: the smaller of SECONDS and what is left of the budget (at least 1).
limit() { local l; l=$(left); [ "$1" -lt "$l" ] && l=$1; [ "$l" -lt 1 ] && l=1; echo "$l"; }
# why RC: " (out of time)" for timeout's exit code.
why() { [ "$1" = 124 ] && echo " (out of time)"; }

say "gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores${quick:+, --quick}${rehearse:+, REHEARSAL (cpu stands in for cuda)}"
gpu=cuda gpu_label=cuda
if [ -n "$rehearse" ]; then
  gpu=cpu gpu_label="cpu for cuda"
  cc=90
  say "gpu: none (rehearsal)"
else
  if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >>"$log" 2>&1; then
    say "no NVIDIA GPU visible (nvidia-smi failed); nothing to check"
    exit 3
  fi
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  say "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | head -1) (sm_$cc)"
fi
# Memory as the memory check of `selfplay run` sees it: a GPU machine's may start low and grow.
say "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), memory $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"

# ---- the carry: binaries built by prepare.sh, used when they are this tree's and start here
carry=.gpu-carry
check_bin=${SP_GPU_CHECK_BIN:-}
app=${SP_SELFPLAY_BIN:-}
carry_note=
if [ -z "$check_bin$app" ]; then
  if [ ! -d "$carry" ]; then
    carry_note="no $carry (run experiments/gpu-check/prepare.sh before the device call)"
  elif [ "$(cat "$carry/fingerprint" 2>/dev/null)" != "$(experiments/gpu-check/fingerprint.sh)" ]; then
    carry_note="$carry was built from other sources (run prepare.sh again); not used"
  elif [ "$cc" != 90 ]; then
    carry_note="$carry is built for sm_90, this GPU is sm_$cc; not used"
  elif ! grep -qw avx2 /proc/cpuinfo || ! grep -qw bmi2 /proc/cpuinfo; then
    carry_note="$carry needs AVX2 and BMI2 (x86-64-v3), which this CPU lacks; not used"
  else
    # Wrappers give the carried binaries their libraries and nothing else (python3 must keep the
    # system's libstdc++).
    for b in gpu_check selfplay; do
      printf '#!/bin/sh\nLD_LIBRARY_PATH="%s" exec "%s" "$@"\n' "$PWD/$carry/lib" "$PWD/$carry/$b" >"$work/$b"
      chmod +x "$work/$b"
    done
    say "carry: $(head -1 "$carry/manifest")"
    if "$work/gpu_check" --help >>"$log" 2>&1; then
      check_bin=$work/gpu_check
      check_elf=$PWD/$carry/gpu_check  # the wrapper's binary
    else
      say "carried gpu_check does not start here (see full.log); building it here"
    fi
    if sig=$("$work/selfplay" bench --seconds 0 --playouts-only 2>>"$log" | grep '^signature'); then
      app=$work/selfplay
      say "carried selfplay starts: $sig"
    else
      carry_note="carried selfplay does not start here (see full.log: a library or glibc mismatch?)"
    fi
  fi
fi
[ -z "$app" ] && [ -z "$carry_note" ] && carry_note="SP_GPU_CHECK_BIN given without SP_SELFPLAY_BIN"
[ -n "$carry_note" ] && say "pipeline: skipped: $carry_note"

# ---- 1. gpu_check
if [ -z "$check_bin" ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  build=build/gpu-check
  say "building gpu_check here (-DSELFPLAY_DEVICE_CHECK_ONLY=ON, sm_$cc)"
  t0=$SECONDS
  if ! timeout "$(limit 300)" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSELFPLAY_DEVICE_CHECK_ONLY=ON \
      -DSELFPLAY_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$cc" >>"$log" 2>&1 ||
    ! timeout "$(limit 300)" cmake --build "$build" -j "$(nproc)" --target gpu_check >>"$log" 2>&1; then
    say "build failed; last lines of $log:"; tail -30 "$log"; exit 1
  fi
  check_bin=$build/experiments/gpu-check/gpu_check
  say "built in $((SECONDS - t0)) s"
fi
check_args=(--out "$out" --target "$gpu" $quick)
[ -n "$rehearse" ] && check_args+=(--quick --seconds 0.05 --max-log2 13)
t0=$SECONDS
timeout -k 5 "$(limit 240)" "$check_bin" "${check_args[@]}" 2>&1 | tee -a "$log"
rc=${PIPESTATUS[0]}
say "gpu_check: exit $rc after $((SECONDS - t0)) s"
[ "$rc" = 0 ] || fail "gpu_check (exit $rc$(why $rc))"

# The kernels' resources as built into the binary (registers, stack, per playout variant), next to
# the table of scripts/kernel_resources.sh in docs/gpu.md; informational, never a failure.
check_elf=${check_elf:-$check_bin}
objdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
if [ -n "$objdump" ]; then
  if "$objdump" -res-usage "$check_elf" 2>/dev/null | grep -A1 'rollout_kernel' >"$work/resources.txt" &&
     [ -s "$work/resources.txt" ]; then
    say "kernel resources (cuobjdump -res-usage of gpu_check): $(grep -c 'Function' "$work/resources.txt") kernels"
    sed 's/^/  /' "$work/resources.txt" >>"$log"
  else
    say "kernel resources: cuobjdump found no rollout kernel in $check_elf"
  fi
else
  say "kernel resources: skipped, cuobjdump not found (scripts/kernel_resources.sh has the table)"
fi

# Peak kernel playouts/s of a game from kernel.csv ("" when missing).
kernel_rate() { awk -F, -v g="$1" '$1 == g { print $4 }' "$out/kernel.csv" 2>/dev/null; }

# ---- 2. the pipeline
if [ -n "$app" ]; then
  # Rollouts per move, games of the record comparisons and of the GPU-sized runs; small in the
  # rehearsal (2 slow cores) and with --quick.
  ewn_rpm=6400 ewn_games=512 big_games=16384 small_games=64 small_rpm=1024
  [ -n "$quick" ] && ewn_games=256 big_games=8192 small_games=32
  [ -n "$rehearse" ] && ewn_rpm=640 ewn_games=16 big_games=64 small_games=2 small_rpm=128
  # engine TYPE RPM PER_LEAF LEAVES_PER_ROUND NODE_MB. Small node budgets: a tree of these searches
  # stays far below them, and the memory check counts 2 x concurrency full trees against the
  # machine's memory (a GPU machine's grows with use and starts low).
  engine() {
    printf '    type: %s\n    rollouts_per_move: %s\n    rollouts_per_leaf: %s\n    leaves_per_round: %s\n    node_budget_mb: %s\n' "$@"
  }
  {
    printf 'game: ewn\ncampaign:\n  games: %s\n  concurrency: 4096\n  seed: 7\nengines:\n' "$ewn_games"
    printf '  player0:\n'; engine mcts "$ewn_rpm" 64 4 1; printf '  player1:\n'; engine mcts "$ewn_rpm" 64 4 1
    printf 'output:\n  positions_per_game: 4\n'
  } >"$work/ewn.yaml"
  for g in checkers gomoku; do
    {
      printf 'game: %s\ncampaign:\n  games: %s\n  concurrency: auto\n  seed: 7\nengines:\n' "$g" "$small_games"
      printf '  player0:\n'; engine mcts "$small_rpm" 16 8 4; printf '    policy: weighted\n'
      printf '  player1:\n'; engine mcts "$small_rpm" 16 8 4
      printf 'output:\n  positions_per_game: 4\n'
    } >"$work/$g.yaml"
  done
  printf 'step,game,backend,games,at_once,seconds,rollouts_per_s,kernel_playouts_per_s,e2e_over_kernel,records\n' >"$out/pipeline.csv"
  # campaign NAME GAME BACKEND GAMES LIMIT: plays work/GAME.yaml into work/NAME.h5; sets $rate,
  # $secs (the run's own) and $at_once (the concurrency key it ran with).
  campaign() {
    local name=$1 game=$2 backend=$3 games=$4 t0=$SECONDS rc
    rate= secs=
    at_once=$(awk '/^  concurrency:/ { print $2 }' "$work/$game.yaml")
    if [ "$(left)" -lt 20 ]; then
      fail "$name: not run, the time budget is spent"
      return 1
    fi
    # The rehearsal's stand-in runs on one thread: records must not depend on the thread count.
    local threads=()
    [ -n "$rehearse" ] && [ "${name%-gpu}" != "$name" ] && threads=(--threads 1)
    timeout -k 5 "$(limit "$5")" "$app" run "$work/$game.yaml" --backend "$backend" --games "$games" \
      "${threads[@]}" --out "$work/$name.h5" --quiet >"$work/$name.txt" 2>&1
    rc=$?
    # A GPU machine's memory can start below the 2 x 4096 MiB of trees that the memory check counts
    # for 4096 games at once; then once at a quarter of the concurrency, and say so.
    if [ "$rc" = 2 ] && grep -q 'of memory of this machine' "$work/$name.txt" &&
       grep -q 'concurrency: 4096' "$work/$game.yaml"; then
      say "$name: $(tail -1 "$work/$name.txt"); again with concurrency 1024"
      sed 's/concurrency: 4096/concurrency: 1024/' "$work/$game.yaml" >"$work/$game-1024.yaml"
      at_once=1024
      timeout -k 5 "$(limit "$5")" "$app" run "$work/$game-1024.yaml" --backend "$backend" --games "$games" \
        "${threads[@]}" --out "$work/$name.h5" --quiet >"$work/$name.txt" 2>&1
      rc=$?
    fi
    cat "$work/$name.txt" >>"$log"
    if [ "$rc" != 0 ]; then
      fail "$name: selfplay run exit $rc$(why $rc): $(tail -1 "$work/$name.txt")"
      return 1
    fi
    rate=$(awk '/^throughput/ { print $2 }' "$work/$name.txt")
    secs=$(awk '/^throughput/ { print $(NF - 1) }' "$work/$name.txt")
    say "$name: $games games in $((SECONDS - t0)) s, $rate rollouts/s ($(awk '/^backend/ { sub(/^backend +/, ""); print }' "$work/$name.txt"))"
  }
  # same_records A B: the records of work/A.h5 and work/B.h5 are equal; sets $records.
  same_records() {
    local text rc
    text=$("$py" experiments/gpu-check/compare_records.py "$work/$1.h5" "$work/$2.h5" 2>&1)
    rc=$?
    if [ "$rc" = 3 ] || [ "$rc" = 127 ]; then  # no python3 or h5py: compare the exported games
      "$app" export "$work/$1.h5" --out "$work/$1.tsv" >>"$log" 2>&1 &&
        "$app" export "$work/$2.h5" --out "$work/$2.tsv" >>"$log" 2>&1 &&
        diff -q "$work/$1.tsv" "$work/$2.tsv" >/dev/null
      rc=$?
      text="($text) selfplay export: $([ "$rc" = 0 ] && echo "equal moves, $(($(wc -l <"$work/$1.tsv") - 1)) games" || echo differ)"
    fi
    say "$1 against $2: $text"
    records=$([ "$rc" = 0 ] && echo equal || echo DIFFERENT)
    [ "$rc" = 0 ] || fail "records of $1 and $2 differ"
  }
  # A python3 with h5py: the PATH's, else the system's (a pyenv or venv may shadow it).
  py=python3
  if ! python3 -c 'import h5py' 2>/dev/null && /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    py=/usr/bin/python3
  fi
  row() { (IFS=,; echo "$*") >>"$out/pipeline.csv"; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b }'; }

  for g in ewn checkers gomoku; do
    n=$small_games
    [ "$g" = ewn ] && n=$ewn_games
    campaign "$g-gpu" "$g" "$gpu" "$n" 90 || continue
    gpu_rate=$rate gpu_s=$secs gpu_at_once=$at_once
    campaign "$g-cpu" "$g" cpu "$n" 90 || continue
    same_records "$g-gpu" "$g-cpu"
    if [ "$g" = ewn ] && [ "$records" = equal ]; then  # the comparison itself can fail
      st=$("$py" experiments/gpu-check/compare_records.py --self-test "$work/ewn-cpu.h5" 2>&1)
      case $? in
        0) say "compare_records.py --self-test: a changed move in a copy is found: $st" ;;
        3 | 127) ;;
        *) fail "compare_records.py --self-test: $st" ;;
      esac
    fi
    if v=$(timeout "$(limit 60)" "$app" verify "$work/$g-gpu.h5" 2>&1); then
      say "verify $g-gpu: $v"
    else
      fail "verify $g-gpu: $(echo "$v" | head -3)"
    fi
    k=$(kernel_rate "$g")
    row records "$g" "$gpu_label" "$n" "$gpu_at_once" "$gpu_s" "$gpu_rate" "$k" "$(ratio "$gpu_rate" "$k")" "$records"
    row records "$g" cpu "$n" "$at_once" "$secs" "$rate" "" "" "$records"
  done
  # The GPU-sized EWN campaign, end to end, and the same on the null backend (host capacity).
  k=$(kernel_rate ewn)
  if campaign ewn-big-gpu ewn "$gpu" "$big_games" 120; then
    row throughput ewn "$gpu_label" "$big_games" "$at_once" "$secs" "$rate" "$k" "$(ratio "$rate" "$k")" ""
    say "end to end: $rate rollouts/s${k:+ against the kernel rate $k: $(ratio "$rate" "$k") (target 0.8)}"
  fi
  if campaign ewn-big-null ewn null "$big_games" 90; then
    row host-capacity ewn null "$big_games" "$at_once" "$secs" "$rate" "$k" "$(ratio "$rate" "$k")" ""
    say "host capacity ($(nproc) cores, null backend): $rate rollouts/s requested${k:+, $(ratio "$rate" "$k") of the kernel rate}"
  fi
fi

# ---- 3. compute-sanitizer
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
verdict=
if [ -n "$rehearse" ]; then
  verdict="skipped: rehearsal, no GPU"
elif [ -z "$sanitizer" ]; then
  verdict="skipped: compute-sanitizer not found"
else
  : >"$out/sanitize.log"
  for tool in memcheck racecheck; do
    t0=$SECONDS
    if [ "$(left)" -lt 30 ]; then
      verdict="${verdict:+$verdict, }$tool not run (time budget spent)"
      fail "compute-sanitizer $tool: not run, the time budget is spent"
      continue
    fi
    timeout -k 5 "$(limit 120)" "$sanitizer" --tool "$tool" --target-processes all --error-exitcode 9 "$check_bin" --sanitize \
      >>"$out/sanitize.log" 2>&1
    rc=$?
    v="$tool $([ "$rc" = 0 ] && echo clean || echo "FAILED (exit $rc$(why $rc))") in $((SECONDS - t0)) s"
    say "compute-sanitizer $v; $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' <(tail -5 "$out/sanitize.log") || true)"
    [ "$rc" = 0 ] || fail "compute-sanitizer $tool"
    verdict="${verdict:+$verdict, }$v"
  done
fi

# ---- 4. what a GPU buys: the top rollout budgets of each game on cuda (experiments/rollout-scaling)
# MCTS at 1e5, 3e5 and 1e6 rollouts a move against each game's reference engine, in the time left
# (a point is not played when the one before says it would not fit), rows in the columns of
# experiments/rollout-scaling/results/scaling.csv; append them there by hand. Needs python3 with
# PyYAML and numpy; skipped with a line saying why otherwise.
scaling_note=
# A python3 with PyYAML and numpy: the PATH's, else the system's.
spy=python3
if ! python3 -c 'import yaml, numpy' 2>/dev/null && /usr/bin/python3 -c 'import yaml, numpy' 2>/dev/null; then
  spy=/usr/bin/python3
fi
if [ -z "$app" ]; then
  scaling_note="skipped: no selfplay binary ($carry_note)"
elif ! "$spy" -c "import yaml, numpy" 2>/dev/null; then
  scaling_note="skipped: python3 lacks PyYAML or numpy"
elif [ "$(left)" -lt 60 ]; then
  scaling_note="skipped: the time budget is spent"
else
  t0=$SECONDS
  pairs=20
  [ -n "$quick$rehearse" ] && pairs=2
  budgets=100000,300000,1000000
  [ -n "$rehearse" ] && budgets=100,300
  timeout -k 5 "$(limit 600)" "$spy" experiments/rollout-scaling/run.py --backend "$gpu" \
    --series reference --budgets "$budgets" --pairs "$pairs" --point-seconds $(( $(left) / 6 )) \
    --threads "$(nproc)" --bin "$app" --out "$out/scaling-cuda.csv" --throughput "$work/throughput.csv" \
    --work "$work/scaling" >>"$log" 2>&1
  rc=$?
  cat "$work/throughput.csv" >>"$log" 2>/dev/null
  scaling_note="$(tail -n +2 "$out/scaling-cuda.csv" 2>/dev/null | grep -c ',ok$') points played, exit $rc$(why $rc), in $((SECONDS - t0)) s (scaling-cuda.csv)"
  [ "$rc" = 0 ] || [ "$rc" = 124 ] || fail "rollout scaling (exit $rc)"
fi
say "rollout scaling on $gpu_label: $scaling_note"

# ---- the table, last
{
  if [ -f "$out/table.md" ]; then cat "$out/table.md"; else echo "gpu_check wrote no table (exit $rc)"; fi
  echo
  if [ -n "$app" ]; then
    echo "| pipeline step | game | backend | games | at once | s | rollouts/s | kernel playouts/s | ratio | records |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    tail -n +2 "$out/pipeline.csv" | awk -F, -v OFS=' | ' '{ $1 = $1; print "| " $0 " |" }'
  else
    echo "pipeline: skipped: $carry_note"
  fi
  echo
  echo "compute-sanitizer: $verdict"
  echo "rollout scaling: $scaling_note"
  skipped=
  [ -z "$app" ] && skipped="; the pipeline did NOT run"
  echo "total $((SECONDS - start)) s (budget $budget s); $([ "$failed" = 0 ] && echo "every check that ran PASSED" || echo "FAILURES above")$skipped"
} >"$out/table.tmp"
mv "$out/table.tmp" "$out/table.md"
echo | tee -a "$log"
tee -a "$log" <"$out/table.md"
exit "$failed"
