"""Loads selfplay campaign files (HDF5, format version 2 and the older 1) and bench sweep CSVs into
pandas.

Run with Debian's /usr/bin/python3 (python3-h5py, -numpy, -pandas from scripts/setup.sh). The layout
read here is the one in README.md ("HDF5 schema"); tests/golden/campaign_schema.txt is its dump
(format 2), tests/golden/format1_campaign_schema.txt that of a format-1 file.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

FORMAT_VERSION = 2
# Every format this loader reads. Format 1 (files written before format 2, EWN only) named two
# columns differently; load_campaign renames them, so both formats give the same DataFrames.
READABLE_VERSIONS = (1, 2)
FORMAT1_GAMES_COLUMNS = {"setup": "opening"}
FORMAT1_PLIES_COLUMNS = {"die": "chance"}
# plies["chance"] of a game without chance (no dice).
NO_CHANCE = -1
# game_id of rows the writer reserved but never filled (a killed campaign may leave some).
FILL_GAME_ID = np.uint64(2**64 - 1)
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def resolve_input(path: str | os.PathLike) -> str:
    """Returns the absolute path of an input file: `path` itself if it exists (absolute, or relative
    to the working directory, which is notebooks/ for an executed notebook), else `path` relative
    to the repository root. Raises FileNotFoundError listing the campaign files and CSVs under
    out/ when neither exists."""
    path = os.fspath(path)
    for candidate in (path, os.path.join(REPO_ROOT, path)):
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    found = sorted(glob.glob(os.path.join(REPO_ROOT, "out", "*.h5")) + glob.glob(os.path.join(REPO_ROOT, "out", "*.csv")))
    hint = ("; files under out/: " + ", ".join(os.path.relpath(f, REPO_ROOT) for f in found)) if found else ""
    raise FileNotFoundError(f"{path}: no such file (tried from {os.getcwd()} and from {REPO_ROOT}){hint}")


@dataclass
class Campaign:
    """One campaign file as DataFrames: meta (root attributes), games, plies, positions, perf."""

    path: str
    meta: dict
    games: pd.DataFrame
    plies: pd.DataFrame
    positions: pd.DataFrame
    perf: pd.DataFrame
    feature_names: list[str] = field(default_factory=list)


def _decode(value):
    """Returns str for HDF5 byte strings (scalars or arrays), a plain Python value for numpy scalars."""
    if isinstance(value, (bytes, np.bytes_)):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "S":
            return [v.decode("utf-8", errors="replace") for v in value.tolist()]
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def records_to_frame(rows: np.ndarray) -> pd.DataFrame:
    """Turns a compound (structured) array into a DataFrame, decoding fixed-length byte strings
    (numpy dtype kind "S") to str and dropping fill rows (game_id == 2**64-1) when there is a
    game_id field."""
    if "game_id" in (rows.dtype.names or ()):
        rows = rows[rows["game_id"] != FILL_GAME_ID]
    columns = {}
    for name in rows.dtype.names:
        col = rows[name]
        if col.dtype.kind == "S":
            columns[name] = np.char.decode(col, "utf-8", errors="replace").astype(object)
        else:
            columns[name] = col
    return pd.DataFrame(columns)


def read_meta(f: h5py.File) -> dict:
    """Returns the root attributes of an open campaign file as a dict of str/int values."""
    return {key: _decode(value) for key, value in f.attrs.items()}


def _read_positions(f: h5py.File) -> tuple[pd.DataFrame, list[str]]:
    """Reads /positions into one DataFrame: game_id, ply, side_to_move, result, then one float32
    column per feature (named by the feature_names attribute). Fill rows are dropped."""
    g = f["positions"]
    game_id = g["game_id"][:]
    n = len(game_id)
    # The writer extends the five datasets one after the other, so a file read mid-write or killed
    # may hold more rows in one than another; only the common prefix is complete (as in the C++
    # CampaignReader::positions_count).
    for name in ("ply", "side_to_move", "result", "features"):
        n = min(n, g[name].shape[0])
    keep = game_id[:n] != FILL_GAME_ID
    features = g["features"]
    names = _decode(features.attrs["feature_names"]) if "feature_names" in features.attrs else []
    if not names:
        names = [f"f{i}" for i in range(features.shape[1])]
    frame = pd.DataFrame(
        {
            "game_id": game_id[:n][keep],
            "ply": g["ply"][:n][keep],
            "side_to_move": g["side_to_move"][:n][keep],
            "result": g["result"][:n][keep],
        }
    )
    values = features[:n][keep]
    feature_frame = pd.DataFrame(values, columns=names, index=frame.index)
    return pd.concat([frame, feature_frame], axis=1), list(names)


def load_campaign(path: str | os.PathLike, complete_games_only: bool = True) -> Campaign:
    """Loads a campaign file (found by resolve_input, opened read-only in SWMR mode, so a running
    or killed campaign is readable) into a Campaign.

    - games: one row per finished game, sorted by game_id; adds `first_mover_won` (bool) and
      `draw` (winner < 0). `termination` is how it ended: 0 by the rules, 1 a time loss, 2 a
      crash, 3 an illegal move of an external (pbrain) engine; 0 in files from before the column. `opening` is how the game started (EWN: the setup, "123456/654321");
      `record` is only a summary of the moves, shortened when `record_truncated` is set:
      full_records(plies) rebuilds every game's moves from /plies.
    - plies: one row per move, sorted by (game_id, ply); `chance` is the chance outcome the move
      was chosen for (EWN: the die), -1 in games without chance. When the game is in `games`,
      adds `outcome`, the mover's result (1 win, 0 loss, 0.5 draw), which `root_value` predicts.
    - positions: game_id, ply, side_to_move, result and one column per feature.
    - perf: one row per rollout batch, in file order; adds `rollouts_per_s`, the backend's rate
      for that batch (rollouts / backend_ms), `part` (0, or for the index over the rank files of
      an MPI campaign the rank that wrote the row), and `elapsed_s`: time_s counts from the start
      of each run, so the runs of a resumed campaign are laid end to end, while the ranks of an
      MPI campaign, which ran side by side, all start at 0.
    - meta: the root attributes (format_version, game, rules, config, seed, ...).

    Fill rows (game_id == 2**64-1) are always dropped. With complete_games_only (the default),
    plies and positions of games without a /games row (unfinished when the file was read) are
    dropped too. Format-1 files give the same columns (their `setup` is read as `opening`, their
    `die` as `chance`). Raises ValueError for a format_version other than 1 or 2.
    """
    path = resolve_input(path)
    with h5py.File(path, "r", swmr=True) as f:
        meta = read_meta(f)
        version = meta.get("format_version")
        if version not in READABLE_VERSIONS:
            raise ValueError(f"{path}: format_version {version!r}, this loader reads {READABLE_VERSIONS}")
        games = records_to_frame(f["games"][:])
        plies = records_to_frame(f["plies"][:])
        perf = records_to_frame(f["perf"][:])
        perf_part = _part_of_rows(f["perf"])
        positions, feature_names = _read_positions(f)

    if version == 1:
        games = games.rename(columns=FORMAT1_GAMES_COLUMNS)
        plies = plies.rename(columns=FORMAT1_PLIES_COLUMNS)
        plies["chance"] = plies["chance"].astype(np.int8)  # a die, 1..6: uint8 in format 1

    if "termination" not in games.columns:  # written before forfeits were recorded
        games.insert(games.columns.get_loc("record_truncated") + 1, "termination", np.uint8(0))
    games = games.sort_values("game_id", ignore_index=True)
    games["draw"] = games["winner"] < 0
    games["first_mover_won"] = games["winner"].astype(int) == games["first_player"].astype(int)

    if complete_games_only:
        finished = games["game_id"].to_numpy()
        plies = plies[plies["game_id"].isin(finished)]
        positions = positions[positions["game_id"].isin(finished)]
    plies = plies.sort_values(["game_id", "ply"], ignore_index=True)
    positions = positions.sort_values(["game_id", "ply"], ignore_index=True)

    winner = plies["game_id"].map(games.set_index("game_id")["winner"]).astype(float)
    outcome = (winner == plies["player"].astype(float)).astype(float)
    outcome[winner < 0] = 0.5
    outcome[winner.isna()] = np.nan
    plies["outcome"] = outcome

    perf = perf.reset_index(drop=True)
    backend_s = perf["backend_ms"].astype(float) / 1000.0
    perf["rollouts_per_s"] = perf["rollouts"].astype(float) / backend_s.where(backend_s > 0)
    perf["part"] = perf_part
    perf["elapsed_s"] = _elapsed(perf)

    return Campaign(path, meta, games, plies, positions, perf, feature_names)


def _part_of_rows(dataset) -> np.ndarray:
    """The part file each row of a dataset comes from: 0 for a plain file; for the index over the
    rank files of an MPI campaign (an HDF5 virtual dataset), the rank file's position in the
    index, i.e. its rank."""
    part = np.zeros(dataset.shape[0], dtype=np.int32)
    if dataset.is_virtual:
        for k, source in enumerate(dataset.virtual_sources()):
            start, end = source.vspace.get_select_bounds()
            part[start[0] : end[0] + 1] = k
    return part


def _elapsed(perf: pd.DataFrame) -> pd.Series:
    """Seconds since the campaign's first start for each perf row. time_s counts from the start of
    each run, so within one part file the runs of a resumed campaign are laid end to end; the
    parts of an MPI campaign (its ranks) ran side by side, so each starts at 0."""
    elapsed = pd.Series(0.0, index=perf.index)
    for _, rows in perf.groupby("part", sort=False):
        time_s = rows["time_s"].astype(float)
        run = (time_s.diff() < 0).cumsum()
        run_start = time_s.groupby(run).max().cumsum().shift(fill_value=0.0)
        elapsed[rows.index] = time_s + run.map(run_start)
    return elapsed


def full_records(plies: pd.DataFrame) -> pd.Series:
    """Returns every game's full record, rebuilt from its plies (a `plies` frame of load_campaign)
    as `selfplay export` writes it: each ply's text in ply order, one space apart, the text being
    "chance:move" (EWN "3:b4-c3"), or the move alone when chance is -1 (a game without chance).
    A Series of str indexed by game_id. Use it rather than games["record"], a summary that is
    shortened when record_truncated is set."""
    ordered = plies.sort_values(["game_id", "ply"])
    moves = ordered["move"].astype(str)
    chance = ordered["chance"].astype(int)
    texts = moves.where(chance == NO_CHANCE, chance.astype(str) + ":" + moves)
    return texts.groupby(ordered["game_id"]).agg(" ".join)


def wilson_interval(successes, trials, z: float = 1.96):
    """Wilson score interval for a binomial proportion (z = 1.96: 95%).

    Accepts scalars or array-likes; returns (low, high) of the same shape, both within [0, 1].
    Where trials == 0 the interval is (0, 1). Draws can be counted as half a success.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe_n = np.where(n > 0, n, 1.0)
    p = k / safe_n
    z2 = z * z
    denom = 1.0 + z2 / safe_n
    centre = (p + z2 / (2.0 * safe_n)) / denom
    half = z * np.sqrt(np.maximum(p * (1.0 - p) / safe_n + z2 / (4.0 * safe_n * safe_n), 0.0)) / denom
    low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


SWEEP_COLUMNS = [
    "backend", "device", "policy", "batch_rollouts", "leaves", "rollouts_per_leaf", "batches",
    "kernel_playouts_per_s", "e2e_playouts_per_s", "plies_per_s",
]


def load_sweep(paths) -> pd.DataFrame:
    """Loads one or more `selfplay bench --sweep --csv` files into one DataFrame.

    `paths` is a path or a list of paths; a str may also be a comma-separated list (as in the
    SELFPLAY_SWEEP_CSV environment variable); each is found by resolve_input. Adds `source` (the
    file) and `label` ("backend: device"). Raises ValueError naming the file if a column is missing.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [p.strip() for p in os.fspath(paths).split(",") if p.strip()]
    paths = [resolve_input(p) for p in paths]
    frames = []
    for path in paths:
        frame = pd.read_csv(path)
        missing = [c for c in SWEEP_COLUMNS if c not in frame.columns]
        if missing:
            raise ValueError(f"{path}: not a bench sweep CSV, missing columns {missing}")
        frame["source"] = path
        frames.append(frame)
    if not frames:
        raise ValueError("no sweep CSV given")
    sweep = pd.concat(frames, ignore_index=True)
    sweep["label"] = sweep["backend"].astype(str) + ": " + sweep["device"].astype(str)
    return sweep.sort_values(["label", "policy", "batch_rollouts"], ignore_index=True)


HOST_CAPACITY_COLUMNS = ["threads", "games", "at_once", "seconds", "rollouts_per_s", "leaves_per_s", "games_per_s"]


def load_host_capacity(path: str | os.PathLike) -> pd.DataFrame:
    """Loads the CSV of `experiments/host-capacity/run.sh`: one row per host thread count.

    Adds `per_thread` (rollouts/s per thread) and `scaling` (per-thread rate against the one-thread
    run's, 1.0 = linear; NaN when no one-thread run is in the file). Raises ValueError naming the
    file if a column is missing or a thread count repeats.
    """
    path = resolve_input(path)
    frame = pd.read_csv(path)
    missing = [c for c in HOST_CAPACITY_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: not a host-capacity CSV, missing columns {missing}")
    if frame["threads"].duplicated().any():
        raise ValueError(f"{path}: a thread count appears twice")
    frame = frame.sort_values("threads", ignore_index=True)
    frame["per_thread"] = frame["rollouts_per_s"] / frame["threads"]
    one = frame.loc[frame["threads"] == 1, "rollouts_per_s"]
    frame["scaling"] = frame["per_thread"] / one.iloc[0] if len(one) else float("nan")
    return frame
