#!/usr/bin/env python3
"""The score so far of a match file, also while the match runs (HDF5 SWMR read): engine A's wins,
draws and losses, and over the complete pairs the pentanomial score and Elo with a 95% interval
(the normal approximation over pair scores, as `selfplay match` reports it at the end).

Engine A is the config's player0: it plays seat 0 in game 2k and seat 1 in game 2k+1.
Usage: match_score.py MATCH.h5...
"""
import math
import sys

import h5py


def elo(score):
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else math.copysign(math.inf, score - 0.5)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        with h5py.File(path, "r", swmr=True) as f:
            games = f["games"][:]
        points = {}
        for g in games:
            gid, winner = int(g["game_id"]), int(g["winner"])
            a_seat = gid % 2
            points[gid] = 0.5 if winner not in (0, 1) else float(winner == a_seat)
        w = sum(1 for p in points.values() if p == 1)
        d = sum(1 for p in points.values() if p == 0.5)
        line = f"{path}: {len(points)} games, A {w}-{d}-{len(points) - w - d}"
        pairs = [points[2 * k] + points[2 * k + 1] for k in range(len(points))
                 if 2 * k in points and 2 * k + 1 in points]
        if pairs:
            n = len(pairs)
            mean = sum(pairs) / (2 * n)
            half = 1.96 * math.sqrt(sum((p / 2 - mean) ** 2 for p in pairs) / n / n)
            line += (f"; {n} pairs: score {mean:.4f} +/- {half:.4f}, Elo {elo(mean):+.1f} "
                     f"[{elo(mean - half):+.1f}, {elo(mean + half):+.1f}]")
        print(line)


if __name__ == "__main__":
    main()
