#!/usr/bin/env python3
"""Time per move and game lengths of a Gomoku match file: per engine (A = engines.player0, which
plays player 0 in the first game of each pair and player 1 in the second), the moves it searched,
their mean, median, 95th percentile and largest time in ms, and how the games ended. With
--budget-ms MS also how many of each engine's moves took longer than MS, and by how much.
Usage: analyse.py MATCH.h5 [--budget-ms MS]"""
import sys

import h5py
import numpy as np


def main(path, budget_ms=None):
    with h5py.File(path, "r") as f:
        games = f["games"][:]
        plies = f["plies"][:]
    # Game 2k is pair k's first game (engine A is player 0), game 2k + 1 its second (A is player 1).
    engine_of = lambda game_id, player: "A" if (game_id % 2 == 0) == (player == 0) else "B"
    for engine in ("A", "B"):
        mine = np.array([engine_of(int(g), int(p)) == engine
                         for g, p in zip(plies["game_id"], plies["player"])])
        t = plies["time_ms"][mine]
        searched = t[t >= 1.0]  # below 1 ms: a forced move or a result the threat search proved
        print(f"engine {engine}: {len(t)} moves, {len(searched)} searched for 1 ms or more; "
              f"time per searched move: mean {searched.mean():.0f} ms, median "
              f"{np.median(searched):.0f} ms, 95th percentile {np.percentile(searched, 95):.0f} ms, "
              f"largest {searched.max():.0f} ms")
        if budget_ms is not None:
            over = t[t > budget_ms]
            print(f"engine {engine}: {len(over)} of {len(t)} moves over the {budget_ms:g} ms budget"
                  + (f", by at most {over.max() - budget_ms:.1f} ms" if len(over) else ""))
    lengths = games["plies"]
    print(f"games: {len(games)}, plies per game after the opening: mean {lengths.mean():.1f}, "
          f"median {np.median(lengths):.0f}, range {lengths.min()}-{lengths.max()}")
    wins = {0: 0, 1: 0, 2: 0}
    for g in games:
        w = int(g["winner"])
        wins[w if w in (0, 1) else 2] += 1
    print(f"winners: player 0 (Black) {wins[0]}, player 1 (White) {wins[1]}, draws {wins[2]}")
    terminations = np.bincount(games["termination"], minlength=4)
    print(f"terminations: rules {terminations[0]}, time losses {terminations[1]}, crashes "
          f"{terminations[2]}, illegal moves {terminations[3]}")


if __name__ == "__main__":
    args = sys.argv[1:]
    budget = None
    if len(args) == 3 and args[1] == "--budget-ms":
        budget = float(args[2])
        args = args[:1]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0], budget)
