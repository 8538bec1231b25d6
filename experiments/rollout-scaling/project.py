#!/usr/bin/env python3
"""What a GPU box buys, projected (issue 44, item 4)

From the measured strength curves (results/scaling.csv), the host's measured rate and the
playout rates, for each game and host core count: the rollouts-per-leaf setting that maximises
Elo at one second a move on a CPU-only box and on a box with a GPU, and the Elo the GPU adds.

The model, each part a measurement or a stated assumption:

- Strength: Elo(N, r) = E8(N) + D(r). E8 is the "reference" series (MCTS at the config's 8
  rollouts a leaf against the game's fixed reference engine), linear in log10 N between measured
  budgets; beyond the largest measured budget it goes on from the last step's slope s per
  decade, ASSUMED to halve with every further decade (d decades on: s (1 - 2^-d) / ln 2, never
  more than 1.44 s in all: every measured curve bends, EWN's flat from 1e3, checkers' from 1e4),
  and such cells are marked extrapolated; below the smallest budget it is the smallest's.
  D(r) is the "batching" series' Elo at r rollouts a leaf minus its Elo at 8 (same budget,
  4 leaves a round, virtual loss), ASSUMED to hold at every budget: it was measured at one
  (3,000 rollouts a move), where 64 a leaf leaves few descents; at larger budgets it likely
  costs less, so the GPU's gain at large r is if anything understated.
- Host: a core makes H leaves (descents) a second of its own time, measured with the null
  backend (`selfplay bench --host`, 8 rollouts a leaf, one core of the 2-core dev machine on
  2026-12-05: EWN 2.9e6, checkers 3.1e6, Gomoku 1.2e6), ASSUMED flat in r and linear in cores.
- CPU-only box, c cores: each leaf costs 1/H + r/P core-seconds (P: CPU playouts a core-second,
  results/throughput.csv's mean over the dev machine's 2 threads, halved); leaves a second =
  c / (1/H + r/P).
- GPU box, c host cores: leaves a second = min(c H, G / r), the host and the GPU overlapping
  (the double-buffered batches); G the GPU's playouts a second: the device check's measurement
  when results/throughput.csv has rows of backend "cuda", else ASSUMED (--gpu-rates; defaults: EWN
  2e9, checkers 5e8, Gomoku 3e7 playouts/s, the last the published 2-4e7 of Gomoku GPU
  programs, the first two from our kernels' CPU cost per playout times an H100's ~500x one core).
  The GPU's busy share is N / (G seconds).

Writes results/projection.csv (one row per game, cores, box and rollouts per leaf) and prints
the best setting per game and core count as a markdown table.

Usage: project.py [--scaling results/scaling.csv] [--throughput results/throughput.csv]
                  [--cores 1,2,4,8,16,32,64] [--seconds 1] [--host-rates ewn=2.9e6,...]
                  [--gpu-rates ewn=2e9,...] [--out results/projection.csv]
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
HOST_RATES = {"ewn": 2.9e6, "checkers": 3.1e6, "gomoku": 1.2e6}
GPU_RATES = {"ewn": 2e9, "checkers": 5e8, "gomoku": 3e7}
CORES = [1, 2, 4, 8, 16, 32, 64]


def parse_rates(text: str, defaults: dict[str, float]) -> dict[str, float]:
    out = dict(defaults)
    for item in filter(None, text.split(",")):
        game, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r}: expected GAME=RATE, e.g. gomoku=3e7")
        out[game] = float(value)
    return out


def strength_curve(rows: pd.DataFrame, game: str) -> tuple[list[float], list[float], int]:
    """log10 budgets and Elo of the game's plain reference series, and its rollouts a leaf."""
    ref = rows[(rows["game"] == game) & (rows["series"] == "reference") & (rows["status"] == "ok")]
    ref = ref.groupby("budget", as_index=False).agg(elo=("elo", "mean"), per_leaf=("per_leaf", "first"))
    ref = ref.sort_values("budget")
    if len(ref) < 2:
        raise ValueError(f"{game}: fewer than two measured budgets in the reference series")
    return [math.log10(b) for b in ref["budget"]], list(ref["elo"]), int(ref["per_leaf"].iloc[0])


def elo_at(curve: tuple[list[float], list[float], int], budget: float) -> tuple[float, bool]:
    """E8 at `budget` and whether it was extrapolated."""
    xs, ys, _ = curve
    x = math.log10(max(budget, 1.0))
    if x <= xs[0]:
        return ys[0], x < xs[0]
    for i in range(1, len(xs)):
        if x <= xs[i]:
            t = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + t * (ys[i] - ys[i - 1]), False
    slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
    return ys[-1] + slope * (1 - 2 ** -(x - xs[-1])) / math.log(2), True


def batching_cost(rows: pd.DataFrame, game: str, base: int) -> dict[int, float]:
    """D(r): Elo at r rollouts a leaf minus Elo at `base`, from the batching series (4 leaves a
    round and virtual loss where measured, else the most measured setting)."""
    b = rows[(rows["game"] == game) & (rows["series"] == "batching") & (rows["status"] == "ok")]
    if b.empty:
        return {base: 0.0}
    pick = b[(b["leaves_per_round"] == 4) & (b["virtual_loss"] == 1)]
    if pick.empty:
        key = b.groupby(["leaves_per_round", "virtual_loss"]).size().idxmax()
        pick = b[(b["leaves_per_round"] == key[0]) & (b["virtual_loss"] == key[1])]
    by_r = pick.groupby("per_leaf")["elo"].mean()
    if base not in by_r.index:
        return {base: 0.0}
    return {int(r): float(e - by_r[base]) for r, e in by_r.items()}


def cpu_playout_rate(rates: pd.DataFrame, game: str) -> float | None:
    """CPU playouts a core-second: the mean of the dev machine's 2-thread measurements, halved."""
    mine = rates[(rates["game"] == game) & (rates["backend"] == "cpu")].dropna(subset=["playouts_per_s"])
    return float(mine["playouts_per_s"].mean()) / 2 if len(mine) else None


def gpu_rate(rates: pd.DataFrame, game: str, assumed: dict[str, float]) -> tuple[float, str]:
    mine = rates[(rates["game"] == game) & (rates["backend"] == "cuda")].dropna(subset=["playouts_per_s"])
    if len(mine):
        return float(mine["playouts_per_s"].max()), "measured"
    return assumed[game], "assumed"


def project(rows: pd.DataFrame, rates: pd.DataFrame, cores: list[int] = CORES, seconds: float = 1.0,
            host_rates: dict[str, float] = HOST_RATES, gpu_rates: dict[str, float] = GPU_RATES
            ) -> pd.DataFrame:
    """One row per game, cores, box (cpu | gpu) and rollouts a leaf; `best` marks each game,
    cores and box's best projected setting."""
    out = []
    for game in dict.fromkeys(rows["game"]):
        try:
            curve = strength_curve(rows, game)
        except ValueError as e:
            print(f"project: {e}; left out", file=sys.stderr)
            continue
        p = cpu_playout_rate(rates, game)
        if p is None or game not in host_rates:
            print(f"project: {game}: no CPU playout rate or host rate; left out", file=sys.stderr)
            continue
        g, g_source = gpu_rate(rates, game, gpu_rates)
        h = host_rates[game]
        for r, cost in sorted(batching_cost(rows, game, curve[2]).items()):
            for c in cores:
                for box in ("cpu", "gpu"):
                    if box == "cpu":
                        leaves = c / (1 / h + r / p) * seconds
                        busy = float("nan")
                    else:
                        leaves = min(c * h, g / r) * seconds
                        busy = leaves * r / (g * seconds)
                    budget = leaves * r
                    at = elo_at(curve, budget)
                    out.append({
                        "game": game, "cores": c, "box": box, "per_leaf": r,
                        "rollouts_per_move": budget, "descents_per_move": leaves,
                        "elo": at[0] + cost, "extrapolated": at[1],
                        "batching_cost": cost, "gpu_busy": busy, "gpu_rate": g, "gpu_rate_source": g_source,
                        "host_rate": h, "cpu_rate": p})
    df = pd.DataFrame(out)
    if df.empty:
        return df
    df["best"] = False
    best = df.loc[df.groupby(["game", "cores", "box"])["elo"].idxmax()].index
    df.loc[best, "best"] = True
    return df


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per game and cores: the best CPU-only and GPU settings and the GPU's gain."""
    best = df[df["best"]]
    cpu = best[best["box"] == "cpu"].set_index(["game", "cores"])
    gpu = best[best["box"] == "gpu"].set_index(["game", "cores"])
    s = pd.DataFrame({
        "cpu_per_leaf": cpu["per_leaf"], "cpu_rollouts": cpu["rollouts_per_move"], "cpu_elo": cpu["elo"],
        "gpu_per_leaf": gpu["per_leaf"], "gpu_rollouts": gpu["rollouts_per_move"], "gpu_elo": gpu["elo"],
        "gpu_busy": gpu["gpu_busy"], "extrapolated": cpu["extrapolated"] | gpu["extrapolated"],
        "gpu_rate_source": gpu["gpu_rate_source"]})
    s["gpu_gain"] = s["gpu_elo"] - s["cpu_elo"]
    return s.reset_index()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--scaling", default=str(HERE / "results/scaling.csv"))
    ap.add_argument("--throughput", default=str(HERE / "results/throughput.csv"))
    ap.add_argument("--cores", default=",".join(map(str, CORES)))
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--host-rates", default="")
    ap.add_argument("--gpu-rates", default="")
    ap.add_argument("--out", default=str(HERE / "results/projection.csv"))
    args = ap.parse_args()
    try:
        host = parse_rates(args.host_rates, HOST_RATES)
        gpu = parse_rates(args.gpu_rates, GPU_RATES)
        cores = [int(c) for c in args.cores.split(",")]
    except ValueError as e:
        ap.error(str(e))
    df = project(pd.read_csv(args.scaling), pd.read_csv(args.throughput), cores, args.seconds, host, gpu)
    if df.empty:
        sys.exit("project: nothing to project (no game has a reference curve and rates)")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".csv.tmp")
    df.to_csv(tmp, index=False, float_format="%.6g")
    tmp.replace(out)
    s = summary(df)
    print("| game | cores | CPU only: per leaf, rollouts/move, Elo | with a GPU: per leaf, rollouts/move, "
          "Elo, GPU busy | GPU's gain |")
    print("| --- | --- | --- | --- | --- |")
    for _, r in s.iterrows():
        mark = " (extrapolated)" if r["extrapolated"] else ""
        print(f"| {r['game']} | {r['cores']} | {r['cpu_per_leaf']}, {r['cpu_rollouts']:.2g}, "
              f"{r['cpu_elo']:+.0f} | {r['gpu_per_leaf']}, {r['gpu_rollouts']:.2g}, {r['gpu_elo']:+.0f}, "
              f"{r['gpu_busy']:.0%} ({r['gpu_rate_source']} rate) | {r['gpu_gain']:+.0f}{mark} |")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
