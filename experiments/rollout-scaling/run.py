#!/usr/bin/env python3
"""What more rollouts buy: MCTS strength against rollouts per move, and the cost of batching.

For each game, MCTS (engines.player0 of the game's shipped MCTS match config) plays
  reference   at rollouts per move 1e2, 3e2, 1e3, ... against the config's fixed reference engine
              (EWN: expectimax depth 4; checkers: alpha-beta depth 6; Gomoku: alpha-beta depth 2)
  previous    at each budget against MCTS at the budget before it (about a third)
  batching    at a fixed budget, rollouts per leaf 1, 8, 64, 256 x leaves per round 1, 4, 16, with
              and without virtual loss, against the reference
paired on the game's openings (each opening twice, colours swapped: the match configs' decks),
and appends one CSV row per match: W/D/L, pentanomial pair counts, score, Elo with its 95% interval
(../../../shared/reference/statistics.md) from the match summary's pair counts, seconds, the
match's rollouts/s. A point whose estimated time (the
last point's time times the budget ratio) exceeds --point-seconds is written as "needs a GPU" and
not played; experiments/gpu-check/run.sh plays the top budgets on a GPU (--backend cuda).

Usage: run.py [--games ewn,checkers,gomoku] [--series reference,previous,batching] [--pairs 100]
              [--budgets 100,300,...] [--batching-budget 3000] [--point-seconds 900]
              [--backend cpu] [--threads 2] [--out results/scaling.csv] [--throughput CSV]
              [--work DIR] [--per-leaf 1,8,64,256] [--leaves 1,4,16] [--virtual-loss 1,0]
              [--engine KEY=VALUE ... --tag NAME] [--quick] [--bin PATH]
--engine/--tag: a variant of the MCTS (e.g. --engine progressive_bias=3 --tag pb3), its rows written
with the series "reference+pb3", "previous+pb3", "batching+pb3".
--quick: 4 pairs, budgets 100 and 300, batching 1 and 8 per leaf only (the notebook's CI data).
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import math
import os
import platform
import re
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CONFIGS = {
    "ewn": ROOT / "configs/ewn/match-mcts-vs-expectimax.yaml",
    "checkers": ROOT / "configs/checkers/match-mcts-vs-alphabeta.yaml",
    "gomoku": ROOT / "configs/gomoku/match-mcts-vs-alphabeta.yaml",
}
BUDGETS = [100, 300, 1000, 3000, 10000, 30000, 100000, 300000, 1000000]
COLUMNS = ["date", "machine", "backend", "game", "series", "budget", "per_leaf", "leaves_per_round",
           "virtual_loss", "opponent", "pairs", "wins", "draws", "losses", "penta0", "penta1",
           "penta2", "penta3", "penta4", "score", "elo", "elo_lo", "elo_hi", "seconds",
           "rollouts", "rollouts_per_s", "status"]


def elo(s: float) -> float:
    s = min(max(s, 1e-3), 1 - 1e-3)  # +-1200 at the ends, where a logistic Elo has no bound
    return -400 * math.log10(1 / s - 1)


def machine() -> str:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model or platform.processor()}, {os.cpu_count()} cores"


def match_counts(text: str) -> tuple[np.ndarray, int, int, int, float]:
    """Engine A's (player0's) pair scores 0..1 in steps of 1/4 from the match summary's counts
    ("games 8  W 6  D 0  L 2  pairs 4  LL 1  LD 0  WL+DD 0  WD 0  WW 3"), its wins, draws,
    losses, and the run's rollouts/s ("throughput ... 1.07e+05 rollouts/s"); no h5py needed."""
    counts = re.search(r"W (\d+)\s+D (\d+)\s+L (\d+)\s+pairs \d+\s+LL (\d+)\s+LD (\d+)\s+"
                       r"WL\+DD (\d+)\s+WD (\d+)\s+WW (\d+)", text)
    if not counts:
        raise ValueError("no W/D/L and pair counts in the match summary: " + text[:300])
    w, d, l, *penta = (int(x) for x in counts.groups())
    scores = np.repeat([0.0, 0.25, 0.5, 0.75, 1.0], penta)
    rate = re.search(r"throughput .*?([0-9.e+]+) rollouts/s", text)
    return scores, w, d, l, float(rate.group(1)) if rate else 0.0


def play(args, game: str, series: str, budget: int, per_leaf: int, leaves: int, vloss: int,
         opponent_budget: int | None, writer, out_dir: Path) -> float | None:
    """One match; its row goes to the CSV. Returns its seconds, None when not played."""
    cfg = yaml.safe_load(CONFIGS[game].read_text())
    base = CONFIGS[game].parent
    for engine in cfg["engines"].values():
        w = engine.get("weights")
        if w:
            engine["weights"] = str((base / w).resolve())
    rules = cfg.get("rules", {})
    if rules.get("openings"):
        rules["openings"] = str((base / rules["openings"]).resolve())
    a = cfg["engines"]["player0"]
    for key, value in args.engine_keys.items():
        a[key] = str((base / value).resolve()) if key == "weights" and value else value
    a.update(rollouts_per_move=budget, rollouts_per_leaf=min(per_leaf, budget),
             leaves_per_round=leaves, virtual_loss=vloss)
    opponent = "reference " + cfg["engines"]["player1"]["type"]
    if opponent_budget is not None:
        b = dict(a)
        b.update(rollouts_per_move=opponent_budget, rollouts_per_leaf=min(per_leaf, opponent_budget))
        cfg["engines"]["player1"] = b
        opponent = f"mcts {opponent_budget}"
    cfg["match"]["pairs"] = args.pairs
    cfg["match"].setdefault("sprt", {})["enabled"] = False
    cfg["backend"].update(name=args.backend, threads=args.threads)
    label = f"{series}+{args.tag}" if args.tag else series
    name = f"{game}-{label}-{budget}-{per_leaf}-{leaves}-{vloss:g}"
    cfg["output"]["path"] = str(out_dir / (name + ".h5"))
    cfg["output"]["positions_per_game"] = 1
    config = out_dir / (name + ".yaml")
    config.write_text(yaml.safe_dump(cfg, sort_keys=False))
    row = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "machine": machine(), "backend": args.backend, "game": game, "series": label,
           "budget": budget, "per_leaf": min(per_leaf, budget), "leaves_per_round": leaves,
           "virtual_loss": vloss, "opponent": opponent, "pairs": args.pairs}
    if args.point_seconds and args.estimate.get((game, series)) and \
            args.estimate[(game, series)] > args.point_seconds:
        row["status"] = f"needs a GPU (estimated {args.estimate[(game, series)]:.0f} s on this machine)"
        writer.writerow(row)
        print(f"{name}: {row['status']}", flush=True)
        return None
    h5 = Path(cfg["output"]["path"])
    h5.unlink(missing_ok=True)
    stdout, seconds = run_match(args.bin, config, row, writer, name,
                                ["--device", str(args.device)] if args.backend == "cuda" else [])
    if stdout is None:
        return seconds
    scores, w, d, l, rate = match_counts(stdout)
    n = len(scores)
    s = float(scores.mean())
    var = float(((scores - s) ** 2).mean())
    half = 1.96 * math.sqrt(var / n) if n > 1 else 0.5
    counts = [int((scores == k / 4).sum()) for k in range(5)]
    row.update(pairs=n, wins=w, draws=d, losses=l, score=round(s, 4), elo=round(elo(s), 1),
               elo_lo=round(elo(s - half), 1), elo_hi=round(elo(s + half), 1),
               seconds=round(seconds, 1), rollouts=round(rate * seconds),
               rollouts_per_s=round(rate), status="ok",
               **{f"penta{k}": c for k, c in enumerate(counts)})
    writer.writerow(row)
    h5.unlink(missing_ok=True)  # the CSV keeps what the analysis needs; files add up to GBs
    print(f"{name}: {w}-{d}-{l} score {s:.3f} Elo {row['elo']:+.0f} "
          f"[{row['elo_lo']:+.0f}, {row['elo_hi']:+.0f}] in {seconds:.0f} s", flush=True)
    return seconds


def record_throughput(args, game: str, path: Path) -> None:
    """This backend's playouts/s for `game` (selfplay bench), a row of path: where a second of
    search lands on the notebook's rollouts axis."""
    done = subprocess.run(["nice", args.bin, "bench", "--game", game, "--backend", args.backend,
                           "--threads", str(args.threads), "--playouts-only", "--seconds", "2"],
                          capture_output=True, text=True)
    rate = None
    for line in done.stdout.splitlines():
        if line.startswith("playouts/s:"):
            rate = float(line.split()[1])
    new = not path.exists() or path.stat().st_size == 0
    with open(path, "a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if new:
            w.writerow(["date", "machine", "backend", "game", "playouts_per_s"])
        w.writerow([datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), machine(),
                    args.backend, game, rate if rate is not None else ""])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", default="ewn,checkers,gomoku")
    p.add_argument("--series", default="reference,previous,batching")
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    p.add_argument("--min-budget", type=int, default=0, help="skip budgets below this")
    p.add_argument("--batching-budget", type=int, default=3000)
    p.add_argument("--point-seconds", type=float, default=900,
                   help="largest estimated seconds a point may take here; 0 = no limit")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", type=int, default=0, help="cuda device ordinal")
    p.add_argument("--out", default=str(HERE / "results/scaling.csv"))
    p.add_argument("--throughput", help="the playouts/s CSV (default: throughput.csv beside --out)")
    p.add_argument("--work", help="the matches' configs and files (default: work/ beside --out)")
    p.add_argument("--bin", default=str(ROOT / "build/release/host/app/selfplay"))
    p.add_argument("--per-leaf", default="1,8,64,256", help="batching: rollouts per leaf")
    p.add_argument("--leaves", default="1,4,16", help="batching: leaves per round")
    p.add_argument("--virtual-loss", default="1,0", help="batching: virtual loss")
    p.add_argument("--engine", action="append", default=[], metavar="KEY=VALUE",
                   help="set a key of the MCTS (and its 'previous' opponent), e.g. progressive_bias=3; "
                        "weights are taken from the match config's directory; repeatable")
    p.add_argument("--tag", default="",
                   help="appended to the series in the CSV (reference+TAG) to tell a variant's points apart")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    args.engine_keys = {}
    for item in args.engine:
        key, sep, value = item.partition("=")
        if not sep or not key:
            p.error(f"--engine {item!r}: expected KEY=VALUE")
        args.engine_keys[key] = yaml.safe_load(value) if value else ""
    if args.engine_keys and not args.tag:
        p.error("--engine needs --tag, so that the variant's rows are told apart from the plain MCTS")
    budgets = [int(b) for b in args.budgets.split(",") if int(b) >= args.min_budget]
    per_leaf_list, leaves_list, vloss_list = ([int(x) for x in v.split(",")] for v in
                                              (args.per_leaf, args.leaves, args.virtual_loss))
    if args.quick:
        args.pairs, budgets = 4, [100, 300]
        per_leaf_list, leaves_list, vloss_list = [1, 8], [4], [1]
        args.batching_budget = 300
    args.estimate = {}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(args.work) if args.work else out.parent / "work"
    work.mkdir(parents=True, exist_ok=True)
    throughput = Path(args.throughput) if args.throughput else out.parent / "throughput.csv"
    with appending_csv(out, COLUMNS) as writer:
        for game in args.games.split(","):
            record_throughput(args, game, throughput)
            cfg = yaml.safe_load(CONFIGS[game].read_text())
            per_leaf = int(cfg["engines"]["player0"].get("rollouts_per_leaf", 8))
            leaves = int(cfg["engines"]["player0"].get("leaves_per_round", 4))
            for series in args.series.split(","):
                if series == "batching":
                    for vloss in vloss_list:
                        for lv in leaves_list:
                            for pl in per_leaf_list:
                                play(args, game, series, args.batching_budget, pl, lv, vloss,
                                     None, writer, work)
                    continue
                for k, budget in enumerate(budgets):
                    lower = budgets[k - 1] if k else None
                    if series == "previous" and lower is None:
                        continue
                    seconds = play(args, game, series, budget, per_leaf, leaves, 1,
                                   lower if series == "previous" else None, writer, work)
                    if seconds is not None and k + 1 < len(budgets):
                        args.estimate[(game, series)] = seconds * budgets[k + 1] / budget


def run_match(binary: str, config: Path, row: dict, writer, name: str,
              extra: list[str] | None = None) -> tuple[str | None, float]:
    """Plays the match of `config` (niced, --quiet); returns its output and the seconds it took.
    A match that fails gets its row written with status "failed: <stderr>" and None for output."""
    start = time.monotonic()
    done = subprocess.run(["nice", binary, "match", str(config), "--quiet"] + (extra or []),
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode == 0:
        return done.stdout, seconds
    row["status"] = "failed: " + done.stderr.strip().replace("\n", " ")[:300]
    writer.writerow(row)
    print(f"{name}: {row['status']}", file=sys.stderr, flush=True)
    return None, seconds


class _FlushingWriter:
    """A csv.DictWriter whose rows reach the disk as they are written."""

    def __init__(self, f, columns: list[str]):
        self._f = f
        self._writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")

    def writeheader(self) -> None:
        self._writer.writeheader()
        self._f.flush()

    def writerow(self, row: dict) -> None:
        self._writer.writerow(row)
        self._f.flush()


@contextlib.contextmanager
def appending_csv(out: Path, columns: list[str]):
    """Appends rows to the CSV `out`, each flushed as it is written (results survive a kill and a
    run resumes from them); writes the header when the file is new or empty."""
    new = not out.exists() or out.stat().st_size == 0
    with open(out, "a", newline="") as f:
        writer = _FlushingWriter(f, columns)
        if new:
            writer.writeheader()
        yield writer


if __name__ == "__main__":
    main()
