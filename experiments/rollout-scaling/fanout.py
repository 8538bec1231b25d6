#!/usr/bin/env python3
"""More rollouts per host descent at no cost in strength? (issue 44, item 3)

At one budget (rollouts a move, default 3,000), MCTS variants that make one host descent ask for
many rollouts play head to head against MCTS at 1 rollout a leaf and fanout 1 (one leaf a descent),
the same budget, the rest of the game's shipped MCTS match config (engines.player0) kept:

  per_leaf r, fanout F   a descent that expands a node sends its first F children, r rollouts each:
                         up to F x r rollouts a descent (fanout 1: one leaf of r rollouts)

Each point is a match of paired games on the game's openings (each twice, colours swapped), with
the pentanomial Elo of the variant and its 95% interval (../../../shared/reference/statistics.md).
rollouts_per_descent is the configured F x r, an upper bound: a descent sends no more children
than the node has (checkers often has fewer than 10 moves, a forced capture one) nor than the
move's budget left needs. One CSV row per match in
results/fanout.csv; a point already in the CSV with the same pairs is skipped (resume by running
the same command again).

With --equal-descents the variant gets F x r times the budget, so that both engines make about
the same number of host descents a move (equal host time, the GPU's case: the variant's extra
rollouts cost the host nothing but the batch); the budget column is then the opponent's and
variant_budget the variant's.

Usage: fanout.py [--games checkers,gomoku] [--variants 1x64,8x8,64x1,1x8,8x1] [--pairs 100]
                 [--budget 3000] [--threads 2] [--out results/fanout.csv] [--bin PATH] [--quick]
                 [--equal-descents] [--backup mean|best]

--backup best sets the variant's fanout_backup: its fanned nodes learn their best child's mean
once instead of every child's leaf (the CSV's backup column; "mean" before the key existed).
A variant is FANOUTxPER_LEAF. --quick: 4 pairs, budget 300, variants 4x1 and 1x8 (a smoke test).
"""
from __future__ import annotations

import argparse
import csv
import math
import sys
from datetime import datetime, timezone
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import CONFIGS, ROOT, HERE, appending_csv, elo, machine, match_counts, run_match  # noqa: E402

COLUMNS = ["date", "machine", "game", "budget", "fanout", "per_leaf", "rollouts_per_descent",
           "leaves_per_round", "variant_budget", "backup", "opponent", "pairs", "wins", "draws", "losses", "penta0", "penta1",
           "penta2", "penta3", "penta4", "score", "elo", "elo_lo", "elo_hi", "seconds", "status"]


def match_config(game: str, budget: int, fanout: int, per_leaf: int, pairs: int, threads: int,
                 path: Path, variant_budget: int | None = None, backup: str = "mean") -> dict:
    cfg = yaml.safe_load(CONFIGS[game].read_text())
    base = CONFIGS[game].parent
    for engine in cfg["engines"].values():
        if engine.get("weights"):
            engine["weights"] = str((base / engine["weights"]).resolve())
    rules = cfg.get("rules", {})
    if rules.get("openings"):
        rules["openings"] = str((base / rules["openings"]).resolve())
    mcts = dict(cfg["engines"]["player0"])
    mcts.update(rollouts_per_move=budget, virtual_loss=1)
    a, b = dict(mcts), dict(mcts)
    if variant_budget:
        a.update(rollouts_per_move=variant_budget)
    if backup != "mean":
        a.update(fanout_backup=backup)
    a.update(rollouts_per_leaf=min(per_leaf, variant_budget or budget), fanout=fanout,
             label=f"fanout {fanout} x {per_leaf}")
    b.update(rollouts_per_leaf=1, fanout=1, label="1 a leaf")
    cfg["engines"] = {"player0": a, "player1": b}
    cfg["match"]["pairs"] = pairs
    cfg["match"].setdefault("sprt", {})["enabled"] = False
    cfg["backend"].update(name="cpu", threads=threads)
    cfg["output"]["path"] = str(path)
    cfg["output"]["positions_per_game"] = 1
    return cfg


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", default="checkers,gomoku")
    p.add_argument("--variants", default="1x64,8x8,64x1,1x8,8x1")
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--budget", type=int, default=3000)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", default=str(HERE / "results/fanout.csv"))
    p.add_argument("--work", help="the matches' configs and files (default: work/ beside --out)")
    p.add_argument("--bin", default=str(ROOT / "build/release/host/app/selfplay"))
    p.add_argument("--quick", action="store_true")
    p.add_argument("--backup", choices=["mean", "best"], default="mean")
    p.add_argument("--equal-descents", action="store_true",
                   help="the variant plays F x r times the budget: equal host descents a move")
    args = p.parse_args()
    if args.quick:
        args.pairs, args.budget, args.variants = 4, 300, "4x1,1x8"
    variants = []
    for v in args.variants.split(","):
        f, sep, r = v.partition("x")
        if not sep or not f.isdigit() or not r.isdigit():
            p.error(f"--variants {v!r}: expected FANOUTxPER_LEAF, e.g. 8x8")
        variants.append((int(f), int(r)))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(args.work) if args.work else out.parent / "work"
    work.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists() and out.stat().st_size > 0:
        with open(out) as f:
            for row in csv.DictReader(f):
                if row["status"] == "ok":
                    done.add((row["game"], int(row["budget"]), int(row["fanout"]),
                              int(row["per_leaf"]), int(row["pairs"]),
                              int(row.get("variant_budget") or row["budget"]),
                              row.get("backup") or "mean"))
    with appending_csv(out, COLUMNS) as writer:
        for game in args.games.split(","):
            for fanout, per_leaf in variants:
                vb = args.budget * fanout * per_leaf if args.equal_descents else args.budget
                key = (game, args.budget, fanout, per_leaf, args.pairs, vb, args.backup)
                name = f"{game}-fanout-{args.budget}-{fanout}x{per_leaf}" + (
                    "-equal-descents" if args.equal_descents else "") + (
                    f"-{args.backup}" if args.backup != "mean" else "")
                if key in done:
                    print(f"{name}: in {out} already", flush=True)
                    continue
                h5 = work / (name + ".h5")
                h5.unlink(missing_ok=True)
                cfg = match_config(game, args.budget, fanout, per_leaf, args.pairs, args.threads, h5,
                                   vb, args.backup)
                config = work / (name + ".yaml")
                config.write_text(yaml.safe_dump(cfg, sort_keys=False))
                row = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "machine": machine(), "game": game, "budget": args.budget,
                       "fanout": fanout, "per_leaf": per_leaf,
                       "rollouts_per_descent": fanout * per_leaf,
                       "leaves_per_round": cfg["engines"]["player0"].get("leaves_per_round", 4),
                       "variant_budget": vb, "backup": args.backup,
                       "opponent": "mcts 1 a leaf", "pairs": args.pairs}
                stdout, seconds = run_match(args.bin, config, row, writer, name)
                if stdout is None:
                    continue
                scores, w, d, l, _ = match_counts(stdout)
                n = len(scores)
                s = float(scores.mean())
                var = float(((scores - s) ** 2).mean())
                half = 1.96 * math.sqrt(var / n) if n > 1 else 0.5
                row.update(pairs=n, wins=w, draws=d, losses=l, score=round(s, 4),
                           elo=round(elo(s), 1), elo_lo=round(elo(s - half), 1),
                           elo_hi=round(elo(s + half), 1), seconds=round(seconds, 1), status="ok",
                           **{f"penta{k}": int((scores == k / 4).sum()) for k in range(5)})
                writer.writerow(row)
                h5.unlink(missing_ok=True)
                print(f"{name}: {w}-{d}-{l} score {s:.3f} Elo {row['elo']:+.0f} "
                      f"[{row['elo_lo']:+.0f}, {row['elo_hi']:+.0f}] in {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
