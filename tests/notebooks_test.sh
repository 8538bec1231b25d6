#!/usr/bin/env bash
# Executes the analysis notebooks on data the CLI generates: a 16-game campaign, a small bench
# sweep, a texel loss log, an SPSA trajectory and a match, then notebooks/run_notebooks.py (fails if any cell raises). Also checks that a broken
# input makes the runner fail, that the executed notebooks contain their plots and boards, that the
# loader reads format-1 files like their format-2 copies, and that the boards of tiny checkers and
# Gomoku campaigns and the EWN one are drawn piece for piece, with hostile labels escaped.
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

# Every notebook is listed in notebooks/README.md (its table of files and of inputs).
for nb in "$root"/notebooks/*.ipynb; do
  name=$(basename "$nb")
  if [ "$(grep -c "^| \`$name\` |" "$root/notebooks/README.md")" -lt 2 ]; then
    echo "FAIL: notebooks/README.md does not list $name in both of its tables" >&2
    exit 1
  fi
done

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
assert old.meta["format_version"] == 1 and new.meta["format_version"] == 3, (old.meta, new.meta)
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

# Boards: selfplay_data.load_boards runs `selfplay export --format boards` (or reads its --out file)
# and board_svg draws them. A tiny checkers and a tiny Gomoku campaign (random against a cheap MCTS;
# the seeds give a checkers king and a won Gomoku game) and the EWN campaign above: every board of
# every game must show exactly its pieces on their squares, the last move's squares and the marks;
# hostile labels must come out escaped, and bad input must fail naming the file.
for game in checkers gomoku; do
  cat >"$scratch/$game-boards.yaml" <<EOF
game: $game
campaign: {games: 4, concurrency: 2, seed: 3}
engines:
  player0: {type: random}
  player1: {type: mcts, rollouts_per_move: 16, rollouts_per_leaf: 4}
backend: {name: cpu, threads: 1}
output: {path: $game-boards.h5, positions_per_game: 1}
EOF
  "$bin" run "$scratch/$game-boards.yaml" --out "$scratch/$game-boards.h5" --quiet >"$scratch/$game-boards.log"
done
"$bin" export "$scratch/gomoku-boards.h5" --format boards --out "$scratch/gomoku-boards.jsonl"
"$py" - "$root/notebooks" "$bin" "$scratch" <<'EOF'
import collections, copy, os, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import selfplay_data as sd
binary, scratch = sys.argv[2], sys.argv[3]
SVG = "{http://www.w3.org/2000/svg}"
# The pieces of each style's alphabet (docs/records.md, "Viewing games"), written out here, not taken from the
# module under test.
PIECES = {"ewn": "ABCDEFabcdef", "checkers": "bBwW", "gomoku": "xo"}

def check_board(record, ply):
    """board_svg of one board: well-formed, each piece once on its square, the outlines on the
    squares the last move changed, the rings on the marks; returns the parsed tree."""
    board = record["boards"][ply]
    tree = ET.fromstring(sd.board_svg(record, ply).svg)
    pieces = PIECES[record["style"]]
    drawn = sorted((int(g.get("data-square")), g.get("data-piece"))
                   for g in tree.iter(SVG + "g") if g.get("data-piece"))
    want = [(k, c) for k, c in enumerate(board) if c in pieces]
    assert drawn == want, (record["game_id"], ply, drawn, want)
    kinds = collections.Counter(e.get("class") for e in tree.iter())
    kings = sum(c in "BW" for c in board) if record["style"] == "checkers" else 0
    assert kinds["king"] == kings, (record["game_id"], ply, kinds, board)
    before = record["boards"][ply - 1] if ply else board
    changed = {k for k in range(len(board)) if board[k] != before[k]}
    outlined = {int(e.get("data-square")) for e in tree.iter() if e.get("class") in ("last", "taken")}
    if record["style"] == "gomoku":
        changed = {k for k in changed if board[k] in pieces}  # a dot on the new stone
    assert outlined == changed, (record["game_id"], ply, outlined, changed)
    ringed = sorted(int(e.get("data-square")) for e in tree.iter() if e.get("class") == "mark")
    assert ringed == sorted(record["marks"][ply]), (record["game_id"], ply, ringed)
    if record["style"] == "ewn":
        numbers = [g.find(SVG + "text").text for g in tree.iter(SVG + "g") if g.get("data-piece")]
        assert numbers == [str("ABCDEF".find(c.upper()) + 1) for _, c in want], (numbers, want)
    return tree

seen = collections.Counter()
for name, style in (("checkers-boards.h5", "checkers"), ("gomoku-boards.h5", "gomoku"), ("campaign.h5", "ewn")):
    records = sd.load_boards(os.path.join(scratch, name), selfplay=binary)
    assert len(records) == (16 if style == "ewn" else 4), (name, len(records))
    for record in records:
        assert record["style"] == style and not record["problems"], (name, record["game_id"], record["problems"])
        assert len(record["boards"]) == len(record["plies"]) + 1, (name, record["game_id"])
        for ply in range(len(record["boards"])):
            check_board(record, ply)
        seen[style, "king"] += any(c in "BW" for c in "".join(record["boards"])) if style == "checkers" else 0
        seen[style, "marks"] += len(record["marks"][-1]) >= 5 and record["winner"] >= 0
        on_board = [sum(c in PIECES[style] for c in board) for board in record["boards"]]
        seen[style, "capture"] += any(a > b for a, b in zip(on_board, on_board[1:]))
assert seen["checkers", "king"] and seen["checkers", "capture"], seen
assert seen["gomoku", "marks"], seen
assert seen["ewn", "capture"], seen
print("boards drawn:", ", ".join(f"{style} games with a {what}: {n}" for (style, what), n in sorted(seen.items()) if n))
# The last board is ply -1's; the --out file reads as the binary's output; --game exports one game.
gomoku = sd.load_boards(os.path.join(scratch, "gomoku-boards.h5"), selfplay=binary)
assert sd.board_svg(gomoku[0], -1).svg == sd.board_svg(gomoku[0], len(gomoku[0]["boards"]) - 1).svg
assert sd.load_boards(os.path.join(scratch, "gomoku-boards.jsonl")) == gomoku
assert sd.load_boards(os.path.join(scratch, "gomoku-boards.h5"), game_id=2, selfplay=binary) == [gomoku[2]]
assert sd.load_boards(os.path.join(scratch, "gomoku-boards.jsonl"), game_id=3) == [gomoku[3]]
assert "<svg" in sd.board_svg(gomoku[0], 0)._repr_svg_() and str(sd.board_svg(gomoku[0], 0)).startswith("<svg")

# Hostile texts come out as text: the SVG has no element but its own, and the texts read back.
checkers = sd.load_boards(os.path.join(scratch, "checkers-boards.h5"), game_id=0, selfplay=binary)[0]
hostile = copy.deepcopy(checkers)
evil = '<script>alert("x")</script>'
hostile["players"] = [evil, "a&b 'c' \x01"]
hostile["columns"][0] = evil
hostile["rows"][0] = "</text><script>1</script>"
hostile["squares"][1] = "]]><x/>"
hostile["plies"][0]["move"] = evil
hostile["game_id"] = '"><script>'
svg = sd.board_svg(hostile, 1).svg
assert "<script" not in svg and "<x/>" not in svg, svg
tree = check_board(hostile, 1)
assert {e.tag for e in tree.iter()} <= {SVG + t for t in ("svg", "title", "g", "rect", "circle", "line", "text")}, svg
texts = [e.text or "" for e in tree.iter()]
assert evil in texts and "</text><script>1</script>" in texts and "]]><x/>" in texts, texts
assert any(evil in t for t in texts if "last move" in t) and any("a&b 'c' \ufffd" in t for t in texts), texts
assert tree.get("data-game-id") == '"><script>', tree.attrib

# Bad input fails, naming what is wrong.
def fails(error, words, call):
    try:
        call()
    except error as e:
        assert all(w in str(e) for w in words), (words, e)
        return
    sys.exit(f"no {error.__name__} for {words}")
h5 = os.path.join(scratch, "gomoku-boards.h5")
missing = os.path.join(scratch, "no-such-selfplay")
fails(FileNotFoundError, [missing], lambda: sd.load_boards(h5, selfplay=missing))
fails(RuntimeError, [h5, "999"], lambda: sd.load_boards(h5, game_id=999, selfplay=binary))
fails(ValueError, ["campaign.tsv:1"], lambda: sd.load_boards(os.path.join(scratch, "campaign.tsv")))
fails(ValueError, ["no game 999"], lambda: sd.load_boards(os.path.join(scratch, "gomoku-boards.jsonl"), game_id=999))
fails(IndexError, ["ply"], lambda: sd.board_svg(checkers, len(checkers["boards"])))
short = copy.deepcopy(checkers)
short["boards"][3] = short["boards"][3][:-1]
fails(ValueError, ["board 3"], lambda: sd.board_svg(short, 0))
alien = copy.deepcopy(checkers)
alien["boards"][0] = "x" + alien["boards"][0][1:]
fails(ValueError, ["board 0", "'x'"], lambda: sd.board_svg(alien, 0))
print("boards: ok")
EOF

# The rollout-scaling experiment at its quick size (4 pairs a point, two budgets), for its notebook.
"$py" "$root/experiments/rollout-scaling/run.py" --quick --bin "$bin" --threads 1 \
  --out "$scratch/scaling/scaling.csv" >"$scratch/scaling.log"

# improve.ipynb: a two-generation loop of the tiny campaign's size with an MCTS champion whose
# exploration SPSA tunes and a reference (expectimax at depth 1), and the loader's refusals.
cat >"$scratch/shallow.yaml" <<EOF
game: ewn
engines:
  player0: {type: expectimax, depth: 1, weights: $root/configs/ewn/weights/survival-distance.yaml}
EOF
mcts="{type: mcts, weights: $root/configs/ewn/weights/survival-distance.yaml, eval_blend: 0.5, rollouts_per_move: 40, rollouts_per_leaf: 4, leaves_per_round: 1}"
cat >"$scratch/improve.yaml" <<EOF
game: ewn
seed: 3
champion: $mcts
selfplay:
  campaign: {games: 60, concurrency: 8}
  engines: {player0: $mcts, player1: $mcts}
  backend: {name: cpu, threads: 1}
tune:
  epochs: 50
  require_validation_gain: false
  spsa: {iterations: 3, pairs: 2, parameters: [{name: exploration, min: 0.1, max: 2, c_end: 0.2, r_end: 0.05}]}
gate: {pairs: 30, anchor_every: 1, anchor_pairs: 10, references: [shallow.yaml]}
stop: {generations: 2, rejections: 0}
EOF
"$bin" improve "$scratch/improve.yaml" --out "$scratch/improve" --quiet >"$scratch/improve.log"
"$py" - "$scratch/improve/lineage.h5" "$scratch/campaign.h5" "$root/notebooks" <<'EOF'
import sys
sys.path.insert(0, sys.argv[3])
import selfplay_data as sd
l = sd.load_lineage(sys.argv[1])
assert l.game == "ewn" and list(l.rows["generation"]) == [0, 1, 2], l.rows
assert l.rows["verdict"].iloc[0] == "initial" and set(l.rows["verdict"].iloc[1:]) <= {"accept", "reject"}, l.rows
assert len(l.weights) == 3 and "own_cubes" in l.weights.columns, l.weights
assert list(l.engine.columns) == ["exploration"] and len(l.engine) == 3, l.engine
assert l.engine["exploration"].iloc[0] == 0.7, l.engine
assert l.reference_names == ["shallow"] and len(l.references) == 3, l.references
assert l.references["shallow.pairs"].iloc[1:].tolist() == [10, 10], l.references
assert l.references["shallow.elo"].iloc[1:].notna().all(), l.references
try:
    sd.load_lineage(sys.argv[2])
    sys.exit("a campaign file was read as a lineage")
except ValueError as e:
    assert "not a selfplay improve lineage" in str(e), e
print("lineage: ok")
EOF

# search.ipynb: a tiny match of MCTS (keeping its whole root visit distribution) against
# expectimax, each engine's searches recorded.
cat >"$scratch/search.yaml" <<EOF
game: ewn
campaign: {concurrency: 4, seed: 9}
engines:
  player0: {type: mcts, rollouts_per_move: 200, rollouts_per_leaf: 4}
  player1: {type: expectimax, depth: 2, weights: $root/configs/ewn/weights/survival-distance.yaml}
backend: {name: cpu, threads: 1}
output: {path: search.h5, root_policy: true}
match: {pairs: 4, sprt: {enabled: false}}
EOF
"$bin" match "$scratch/search.yaml" --out "$scratch/search.h5" --quiet >"$scratch/search.log" 2>&1

runner="$root/notebooks/run_notebooks.py"
"$py" "$runner" --campaign "$scratch/campaign.h5" --sweep "$scratch/sweep.csv" \
  --tune-log "$scratch/tune-losses.csv" --spsa "$scratch/spsa.h5" --match "$scratch/match.h5" \
  --host-capacity "$scratch/host-capacity.csv" --selfplay "$bin" --output-dir "$scratch/executed" \
  --scaling "$scratch/scaling/scaling.csv" --throughput "$scratch/scaling/throughput.csv" \
  --lineage "$scratch/improve/lineage.h5" --search "$scratch/search.h5"
# campaign_overview draws the longest game's boards of any game: the checkers and Gomoku campaigns.
for game in checkers gomoku; do
  "$py" "$runner" --campaign "$scratch/$game-boards.h5" --selfplay "$bin" --output-dir "$scratch/executed-$game" \
    "$root/notebooks/campaign_overview.ipynb"
done

# Every plot must have been drawn: campaign_overview has 5 figures and 2 boards (SVG, the longest
# game's first and last, in its game's style), throughput 2 figures, tuning 3.
"$py" - "$scratch" <<'EOF'
import os, re, sys
import nbformat
scratch = sys.argv[1]
expected = {("executed", "campaign_overview.ipynb"): (5, 2, "ewn"), ("executed", "throughput.ipynb"): (2, 0, None),
            ("executed", "tuning.ipynb"): (3, 0, None), ("executed", "rollout_scaling.ipynb"): (4, 0, None),
            ("executed", "improve.ipynb"): (4, 0, None), ("executed", "search.ipynb"): (2, 0, None),
            ("executed-checkers", "campaign_overview.ipynb"): (5, 2, "checkers"),
            ("executed-gomoku", "campaign_overview.ipynb"): (5, 2, "gomoku")}
for (folder, name), (figures, boards, style) in expected.items():
    nb = nbformat.read(os.path.join(scratch, folder, name), as_version=4)
    outputs = [o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])]
    got = sum("image/png" in d for d in outputs)
    if got != figures:
        sys.exit(f"{folder}/{name}: {got} figures, expected {figures}")
    svgs = [d["image/svg+xml"] for d in outputs if "image/svg+xml" in d]
    svgs = ["".join(s) if isinstance(s, list) else s for s in svgs]
    # The start may be empty (Gomoku's), the end never is.
    if (len(svgs) != boards or any(f'data-style="{style}"' not in s for s in svgs)
            or (svgs and "data-piece=" not in svgs[-1])):
        sys.exit(f"{folder}/{name}: {len(svgs)} boards, expected {boards} of style {style}, the last with pieces")
# search.ipynb's tables name both engines' searches, and the PV agreement has both engines.
nb = nbformat.read(os.path.join(scratch, "executed", "search.ipynb"), as_version=4)
text = "".join("".join(o.get("data", {}).get("text/plain", "")) + "".join(o.get("text", ""))
               for c in nb.cells for o in c.get("outputs", []))
for word in ("mcts", "expectimax", "reply foreseen", "played its best candidate"):
    if word not in text:
        sys.exit(f"search.ipynb: its outputs never mention {word!r}")
print("figures and boards: as expected")
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
