#!/usr/bin/env python3
"""Match files of selfplay match: result from /match/pairs, time and work per move from /plies.

Usage: analyse.py FILE.h5 ...  For each file: the engines (/match attributes), the pairs counted,
engine A's score with its pentanomial 95% interval and Elo (statistics as in
../../../shared/reference/statistics.md; `selfplay match` prints the same numbers), a recount of
the pairs from /games, and per engine the mean and median time per move (ms, wall clock; only
meaningful when the match ran one game at a time), rollouts per move and moves played."""
import math
import statistics
import sys

import h5py
import numpy as np

Z95 = 1.959963984540054


def elo(s):
    if s <= 0 or s >= 1:
        return math.copysign(math.inf, s - 0.5)
    return 400 * math.log10(s / (1 - s))


def analyse(path):
    with h5py.File(path, "r", swmr=True) as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f["match"].attrs.items()}
        pairs = f["match/pairs"][:]
        games = f["games"][:]
        plies = f["plies"][:]
    winner = {int(g["game_id"]): int(g["winner"]) for g in games}
    n = len(pairs)
    print(f"{path}")
    print(f"  engine A  {attrs['engine_a']}")
    print(f"  engine B  {attrs['engine_b']}")
    # Recount: engine A plays player 0 in game 2k and player 1 in game 2k+1.
    for row in pairs:
        k = int(row["pair_id"])
        a1 = 1.0 if winner[2 * k] == 0 else 0.0
        a2 = 1.0 if winner[2 * k + 1] == 1 else 0.0
        assert (a1, a2) == (float(row["result_1"]), float(row["result_2"])), f"pair {k}"
    pair_scores = (pairs["result_1"] + pairs["result_2"]) / 2
    penta = [int(np.sum(pair_scores == q / 4)) for q in range(5)]
    s = float(pair_scores.mean())
    var = float(pair_scores.var())
    half = Z95 * math.sqrt(var / n)
    lo, hi = max(0.0, s - half), min(1.0, s + half)
    print(f"  pairs {n}  (LL, LD, WL+DD, WD, WW) = {tuple(penta)}  games {2 * n}")
    print(f"  score A {100 * s:.2f}% +/- {100 * half:.2f}  [{100 * lo:.2f}, {100 * hi:.2f}]"
          f"  Elo {elo(s):+.1f} [{elo(lo):+.1f}, {elo(hi):+.1f}]")
    a_moves = plies["player"] == (plies["game_id"] & 1)
    for name, mask in (("A", a_moves), ("B", ~a_moves)):
        t = plies["time_ms"][mask]
        r = plies["rollouts"][mask]
        print(f"  engine {name}: {mask.sum()} moves, time/move mean {t.mean():.3f} ms, median "
              f"{statistics.median(t.tolist()):.3f} ms, rollouts/move {r.mean():.0f}")
    print(f"  plies per game {len(plies) / len(games):.2f}")


for p in sys.argv[1:]:
    analyse(p)
