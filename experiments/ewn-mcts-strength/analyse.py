#!/usr/bin/env python3
"""Score of the engine configured as player0 in a paired campaign file, with intervals.

Usage: analyse.py FILE.h5 ...  Prints games, wins, score with its Wilson 95% interval, the
pentanomial pair counts (each pair: games 2k and 2k+1, same setup and dice, seats swapped) and the
pentanomial score interval (statistics as in ../../../shared/reference/statistics.md)."""
import math
import sys

import h5py


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def elo(s):
    if s <= 0 or s >= 1:
        return math.copysign(math.inf, s - 0.5)
    return -400 * math.log10(1 / s - 1)


def analyse(path):
    with h5py.File(path, "r", swmr=True) as f:
        g = f["games"][:]
    winner = {int(r["game_id"]): int(r["winner"]) for r in g}
    # Engine player0 plays player 0 in even games and player 1 in odd games.
    score = {gid: 1.0 if w == (gid & 1) else 0.0 for gid, w in winner.items()}
    n = len(score)
    wins = sum(score.values())
    lo, hi = wilson(wins, n)
    penta = [0] * 5
    pair_scores = []
    for k in range(n // 2):
        if 2 * k in score and 2 * k + 1 in score:
            s = score[2 * k] + score[2 * k + 1]  # 0, 1 or 2 wins (no draws in EWN)
            penta[int(2 * s)] += 1
            pair_scores.append(s / 2)
    m = len(pair_scores)
    mean = sum(pair_scores) / m
    var = sum((x - mean) ** 2 for x in pair_scores) / m
    half = 1.959963984540054 * math.sqrt(var / m)
    print(f"{path}")
    print(f"  games {n}, engine player0 wins {int(wins)} ({100 * wins / n:.2f}%), "
          f"Wilson 95% CI [{100 * lo:.2f}%, {100 * hi:.2f}%]")
    print(f"  pairs {m}: LL {penta[0]}  LD {penta[1]}  WL {penta[2]}  WD {penta[3]}  WW {penta[4]}")
    print(f"  pentanomial score {100 * mean:.2f}% +/- {100 * half:.2f}% (95%), "
          f"Elo {elo(mean):+.0f} [{elo(mean - half):+.0f}, {elo(mean + half):+.0f}]")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        analyse(p)
