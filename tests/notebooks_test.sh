#!/usr/bin/env bash
# Executes the analysis notebooks on data the CLI generates: a 16-game campaign, a small bench
# sweep, a texel loss log, an SPSA trajectory and a match, then notebooks/run_notebooks.py (fails if any cell raises). Also checks that a broken
# input makes the runner fail, that the executed notebooks contain their plots, and that the
# loader reads format-1 files like their format-2 copies.
# Usage: tests/notebooks_test.sh SELFPLAY_BINARY SCRATCH_DIR
# Exit 77 (skip) only when Debian's Python lacks the notebook packages (run scripts/setup.sh).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 SELFPLAY_BINARY SCRATCH_DIR" >&2
  exit 2
fi
bin=$1
scratch=$2
root=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3

if ! [ -x "$py" ] || ! "$py" -c "import nbclient, nbformat, ipykernel, h5py, numpy, pandas, matplotlib" 2>/dev/null; then
  echo "SKIP: $py lacks nbclient/nbformat/ipykernel/h5py/numpy/pandas/matplotlib; scripts/setup.sh installs them"
  exit 77
fi

rm -rf "$scratch"
mkdir -p "$scratch"
cat >"$scratch/tiny.yaml" <<'EOF'
game: ewn
campaign:
  games: 16
  concurrency: 8
  seed: 11
engines:
  player0:
    type: mcts
    rollouts_per_move: 40
    rollouts_per_leaf: 4
  player1:
    type: mcts
    rollouts_per_move: 40
    rollouts_per_leaf: 4
backend:
  name: cpu
  threads: 1
output:
  path: campaign.h5
  positions_per_game: 4
EOF

"$bin" run "$scratch/tiny.yaml" --games 16 --out "$scratch/campaign.h5" --quiet >"$scratch/run.log"
"$bin" bench --sweep --sweep-min 10 --sweep-max 14 --sweep-seconds 0.1 --csv "$scratch/sweep.csv" \
  --threads 1 >"$scratch/bench.log"
# The host-capacity section: the experiment's script at its quick size, one and two threads.
SELFPLAY_BIN="$bin" "$root/experiments/host-capacity/run.sh" --quick --games 32 --threads "1 2" \
  --out "$scratch/host-capacity.csv" >"$scratch/host-capacity.log"
"$py" - "$scratch/host-capacity.csv" "$root/notebooks" <<'EOF'
import sys
sys.path.insert(0, sys.argv[2])
import pandas as pd
import selfplay_data as sd
host = sd.load_host_capacity(sys.argv[1])
assert list(host["threads"]) == [1, 2], host
assert (host["games"] == 32).all() and (host["rollouts_per_s"] > 0).all(), host
assert abs(host["scaling"].iloc[0] - 1.0) < 1e-12, host
bad = sys.argv[1] + ".bad"
pd.read_csv(sys.argv[1]).drop(columns=["leaves_per_s"]).to_csv(bad, index=False)
try:
    sd.load_host_capacity(bad)
    sys.exit("a CSV without leaves_per_s was accepted")
except ValueError as e:
    assert "leaves_per_s" in str(e), e
print("host capacity CSV: ok")
EOF

# tuning.ipynb: a texel run's loss CSV, a 3-iteration SPSA run and a 4-pair match.
cat >"$scratch/tune.yaml" <<EOF
data: {inputs: ["$scratch/campaign.h5"], validation_fraction: 0.25}
weights: {initial: $root/configs/ewn/weights/survival-distance.yaml, output: $scratch/tuned.yaml}
texel: {epochs: 20, report_every: 5}
EOF
"$bin" tune "$scratch/tune.yaml" --log "$scratch/tune-losses.csv" >"$scratch/tune.log"
cat >"$scratch/match.yaml" <<'EOF'
game: ewn
campaign: {concurrency: 4, seed: 5}
engines:
  player0: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8, policy: heavy}
  player1: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8}
backend: {name: cpu, threads: 1}
output: {path: match.h5}
match: {pairs: 4, sprt: {enabled: true}}
EOF
"$bin" match "$scratch/match.yaml" --out "$scratch/match.h5" >"$scratch/match.log" 2>&1
cat >"$scratch/spsa.yaml" <<EOF
method: spsa
seed: 3
spsa:
  match: $scratch/match.yaml
  iterations: 3
  pairs: 1
  output: $scratch/spsa.h5
  result: $scratch/spsa_result.yaml
  parameters:
    - {name: exploration, start: 0.7, min: 0.1, max: 2, c_end: 0.1, r_end: 0.002}
    - {name: goal_weight, start: 2, min: 0.5, max: 8, c_end: 0.5, r_end: 0.002}
EOF
"$bin" tune "$scratch/spsa.yaml" >"$scratch/spsa.log"

# The loader reads format-1 files (tests/data/, written before format 2) as it reads their format-2
# copies, and full_records rebuilds from /plies exactly the moves `selfplay export` lists.
old_campaign="$root/tests/data/format1-campaign.h5"
"$bin" convert "$old_campaign" "$scratch/format1-converted.h5" >"$scratch/convert.log"
"$bin" export "$old_campaign" --out "$scratch/format1.tsv"
"$bin" export "$scratch/campaign.h5" --out "$scratch/campaign.tsv"
"$py" - "$root/notebooks" "$old_campaign" "$scratch/format1-converted.h5" "$scratch/format1.tsv" \
  "$scratch/campaign.h5" "$scratch/campaign.tsv" <<'EOF'
import sys
import pandas as pd
sys.path.insert(0, sys.argv[1])
import selfplay_data as sd
old, new = sd.load_campaign(sys.argv[2]), sd.load_campaign(sys.argv[3])
assert old.meta["format_version"] == 1 and new.meta["format_version"] == 2, (old.meta, new.meta)
for name in ("games", "plies", "positions", "perf"):
    a, b = getattr(old, name), getattr(new, name)
    assert list(a.columns) == list(b.columns), (name, list(a.columns), list(b.columns))
    pd.testing.assert_frame_equal(a, b, check_dtype=False, obj=name)
assert (old.plies["chance"].between(1, 6)).all()
for campaign, tsv in ((old, sys.argv[4]), (sd.load_campaign(sys.argv[5]), sys.argv[6])):
    exported = pd.read_csv(tsv, sep="\t", dtype={"opening": str, "moves": str})
    want = dict(zip(exported["game_id"], exported["moves"]))
    got = sd.full_records(campaign.plies).to_dict()
    assert got == want, (campaign.path, got, want)
    assert list(exported["opening"]) == list(campaign.games["opening"]), campaign.path
print("format 1 and full records: ok")
EOF

# The perf rows of an MPI campaign's index (a virtual dataset over the rank files) get the rank
# they come from, and each rank's elapsed time starts at 0 (the ranks ran side by side), while the
# runs of one file (a resume) stay end to end.
"$py" - "$root/notebooks" "$scratch" <<'EOF'
import os, sys
import h5py
import numpy as np
import pandas as pd
sys.path.insert(0, sys.argv[1])
import selfplay_data as sd
scratch = sys.argv[2]
times = {0: [0.5, 1.0, 2.0, 0.5, 1.5], 1: [0.4, 1.1, 1.9]}  # rank 0 was resumed once
for rank, t in times.items():
    with h5py.File(os.path.join(scratch, f"vds.rank{rank}.h5"), "w") as f:
        f["time_s"] = np.array(t)
total = sum(len(t) for t in times.values())
layout = h5py.VirtualLayout(shape=(total,), dtype="f8")
at = 0
for rank, t in times.items():
    layout[at : at + len(t)] = h5py.VirtualSource(f"vds.rank{rank}.h5", "time_s", shape=(len(t),))
    at += len(t)
with h5py.File(os.path.join(scratch, "vds.h5"), "w") as f:
    f.create_virtual_dataset("time_s", layout)
with h5py.File(os.path.join(scratch, "vds.h5"), "r") as f:
    part = sd._part_of_rows(f["time_s"])
    perf = pd.DataFrame({"time_s": f["time_s"][:], "part": part})
with h5py.File(os.path.join(scratch, "vds.rank1.h5"), "r") as f:
    plain = sd._part_of_rows(f["time_s"])
assert list(part) == [0, 0, 0, 0, 0, 1, 1, 1], part
assert list(plain) == [0, 0, 0], plain
elapsed = list(sd._elapsed(perf))
assert np.allclose(elapsed, [0.5, 1.0, 2.0, 2.5, 3.5, 0.4, 1.1, 1.9]), elapsed
print("perf rows of rank files: ok")
EOF

runner="$root/notebooks/run_notebooks.py"
"$py" "$runner" --campaign "$scratch/campaign.h5" --sweep "$scratch/sweep.csv" \
  --tune-log "$scratch/tune-losses.csv" --spsa "$scratch/spsa.h5" --match "$scratch/match.h5" \
  --host-capacity "$scratch/host-capacity.csv" --output-dir "$scratch/executed"

# Every plot must have been drawn: campaign_overview has 5 figures, throughput 2, tuning 3.
"$py" - "$scratch/executed" <<'EOF'
import os, sys
import nbformat
expected = {"campaign_overview.ipynb": 5, "throughput.ipynb": 2, "tuning.ipynb": 3}
for name, want in expected.items():
    nb = nbformat.read(os.path.join(sys.argv[1], name), as_version=4)
    got = sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))
    if got != want:
        sys.exit(f"{name}: {got} figures, expected {want}")
print("figures: as expected")
EOF

# The runner must report a failing cell: a campaign file that does not exist.
if "$py" "$runner" --campaign "$scratch/missing.h5" "$root/notebooks/campaign_overview.ipynb" \
     >"$scratch/failing.log" 2>&1; then
  echo "FAIL: run_notebooks.py succeeded on a missing campaign file" >&2
  cat "$scratch/failing.log" >&2
  exit 1
fi
if ! grep -q "FileNotFoundError" "$scratch/failing.log"; then
  echo "FAIL: run_notebooks.py failed without naming the cell's error" >&2
  cat "$scratch/failing.log" >&2
  exit 1
fi
echo "failing notebook detected: ok"
