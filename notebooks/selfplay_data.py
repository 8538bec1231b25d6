"""Loads selfplay campaign files (HDF5, format version 3 and the older 2 and 1) and bench sweep CSVs into
pandas, and draws the boards of stored games (`selfplay export --format boards`) as inline SVG.

Run with Debian's /usr/bin/python3 (python3-h5py, -numpy, -pandas from scripts/setup.sh). The layout
read here is the one in docs/records.md ("HDF5 schema"); tests/golden/campaign_schema.txt is its dump
(format 3), tests/golden/format1_campaign_schema.txt that of a format-1 file.
"""

from __future__ import annotations

import glob
import html
import json
import operator
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

FORMAT_VERSION = 3
# Every format this loader reads. Format 1 (files written before format 2, EWN only) named two
# columns differently; load_campaign renames them, so every format gives the same DataFrames.
# Format 2 lacks the search columns of /plies and /candidates (format 3): load_campaign fills the
# columns as not recorded (search 0, depth -1, the rest 0 and "") and candidates is empty.
READABLE_VERSIONS = (1, 2, 3)
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
    # /candidates (format 3): game_id, ply, rank, move, visits, value; empty for older files.
    candidates: pd.DataFrame = field(default_factory=pd.DataFrame)
    is_match: bool = False  # a match file (it has /match): engines A and B in game pairs


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
    `die` as `chance`), and so do format-2 files (the search columns as not recorded: `search` 0,
    `depth` -1, `score`, `nodes`, `played`, `think_ms` 0, `pv` "").
    - candidates: /candidates, the root moves each search weighed (game_id, ply, rank, move,
      visits, value), sorted by (game_id, ply, rank); empty for files before format 3.
    Raises ValueError for a format_version other than 1, 2 or 3.
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
        candidates = records_to_frame(f["candidates"][:]) if "candidates" in f else _no_candidates()
        perf_part = _part_of_rows(f["perf"])
        positions, feature_names = _read_positions(f)
        is_match = "match" in f

    if version == 1:
        games = games.rename(columns=FORMAT1_GAMES_COLUMNS)
        plies = plies.rename(columns=FORMAT1_PLIES_COLUMNS)
        plies["chance"] = plies["chance"].astype(np.int8)  # a die, 1..6: uint8 in format 1

    for name, fill in SEARCH_COLUMNS.items():  # format 1 and 2: the search was not recorded
        if name not in plies.columns:
            plies[name] = fill
    if "termination" not in games.columns:  # written before forfeits were recorded
        games.insert(games.columns.get_loc("record_truncated") + 1, "termination", np.uint8(0))
    games = games.sort_values("game_id", ignore_index=True)
    games["draw"] = games["winner"] < 0
    games["first_mover_won"] = games["winner"].astype(int) == games["first_player"].astype(int)

    if complete_games_only:
        finished = games["game_id"].to_numpy()
        plies = plies[plies["game_id"].isin(finished)]
        positions = positions[positions["game_id"].isin(finished)]
        candidates = candidates[candidates["game_id"].isin(finished)]
    candidates = candidates.sort_values(["game_id", "ply", "rank"], ignore_index=True)
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

    return Campaign(path, meta, games, plies, positions, perf, feature_names, candidates, is_match)


def ply_engines(campaign: Campaign) -> pd.Series:
    """Which engine made each ply of campaign.plies (aligned with it): "A" and "B" in a match file
    (A plays player 0 in the even game of each pair, player 1 in the odd one), "player0" and
    "player1" (the config's engines.player0 and engines.player1) in a campaign, whose paired games
    (`campaign.paired: true`) swap the seats in odd games."""
    plies = campaign.plies
    odd = (plies["game_id"].astype(np.int64) % 2 == 1).to_numpy()
    player = plies["player"].astype(int).to_numpy()
    config = campaign.meta.get("config", "")
    swapped = campaign.is_match or re.search(r"^\s*paired:\s*true\b", config, re.MULTILINE) is not None
    engine = np.where(swapped & odd, 1 - player, player)
    names = ("A", "B") if campaign.is_match else ("player0", "player1")
    return pd.Series(np.where(engine == 0, names[0], names[1]), index=plies.index, name="engine")


# The search columns of /plies (format 3) and the values files before it read as.
SEARCH_COLUMNS = {"search": 0, "depth": -1, "score": 0.0, "nodes": 0, "played": 0, "think_ms": 0.0, "pv": ""}
# /plies `search`: which search decided the move.
SEARCH_KINDS = ("none", "random", "flat", "mcts", "alphabeta", "expectimax", "native", "external",
                "book")


def _no_candidates() -> pd.DataFrame:
    return pd.DataFrame({"game_id": np.array([], np.uint64), "ply": np.array([], np.uint16),
                         "rank": np.array([], np.uint16), "move": np.array([], object),
                         "visits": np.array([], np.uint32), "value": np.array([], np.float32)})


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

    Accepts scalars or array-likes; returns (low, high) of the same shape, both within [0, 1] and
    low <= successes / trials <= high (the interval contains the rate; rounding could leave it a
    hair outside at 0 or 1, and error bars take no negative lengths). Where trials == 0 the
    interval is (0, 1). Draws can be counted as half a success.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe_n = np.where(n > 0, n, 1.0)
    p = k / safe_n
    z2 = z * z
    denom = 1.0 + z2 / safe_n
    centre = (p + z2 / (2.0 * safe_n)) / denom
    half = z * np.sqrt(np.maximum(p * (1.0 - p) / safe_n + z2 / (4.0 * safe_n * safe_n), 0.0)) / denom
    low = np.where(n > 0, np.minimum(np.clip(centre - half, 0.0, 1.0), p), 0.0)
    high = np.where(n > 0, np.maximum(np.clip(centre + half, 0.0, 1.0), p), 1.0)
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


# The selfplay binary load_boards runs when SELFPLAY_BIN is not set, relative to the repository root.
DEFAULT_SELFPLAY = os.path.join("build", "release", "host", "app", "selfplay")
BOARD_KEYS = ("game_id", "style", "width", "height", "columns", "rows", "squares", "winner", "players",
              "plies", "boards", "marks")
# Each style's alphabet (viewer.hpp board_lines, core/game_host.hpp BoardFrame): a
# character to (side, what it is); '.' and '-' are empty.
BOARD_PIECES = {
    "ewn": {**{chr(ord("A") + k): (0, str(k + 1)) for k in range(6)},
            **{chr(ord("a") + k): (1, str(k + 1)) for k in range(6)}},
    "checkers": {"b": (0, "man"), "B": (0, "king"), "w": (1, "man"), "W": (1, "king")},
    "gomoku": {"x": (0, "stone"), "o": (1, "stone")},
}
BOARD_EMPTY = {"ewn": ".", "checkers": ".-", "gomoku": "."}
SIDE_NAMES = {"ewn": ("player 0 (red)", "player 1 (blue)"), "checkers": ("Black", "White"),
              "gomoku": ("Black", "White")}
# Characters XML 1.0 does not allow (control characters, lone surrogates); replaced by U+FFFD.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def resolve_selfplay(selfplay: str | os.PathLike | None = None) -> str:
    """Returns the absolute path of the selfplay binary: `selfplay` if given, else the environment
    variable SELFPLAY_BIN, else build/release/host/app/selfplay; tried as given (from the working
    directory), then from the repository root, then on the PATH for a bare name. Raises
    FileNotFoundError naming what was tried when none is an executable file."""
    if selfplay is not None:
        name, how = os.fspath(selfplay), "the selfplay argument"
    elif os.environ.get("SELFPLAY_BIN"):
        name, how = os.environ["SELFPLAY_BIN"], "SELFPLAY_BIN"
    else:
        name, how = DEFAULT_SELFPLAY, "the default"
    candidates = [name, os.path.join(REPO_ROOT, name)]
    if os.sep not in name:
        candidates.append(shutil.which(name) or "")
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    raise FileNotFoundError(
        f"selfplay binary {name} ({how}): no such executable (tried from {os.getcwd()}, from "
        f"{REPO_ROOT}{', on the PATH' if os.sep not in name else ''}); build it (scripts/main.sh) "
        f"or set SELFPLAY_BIN")


def load_boards(source: str | os.PathLike, game_id: int | None = None,
                selfplay: str | os.PathLike | None = None) -> list[dict]:
    """Loads the boards of stored games: one dict per game, as `selfplay export FILE --format
    boards` writes its JSON lines (docs/records.md, "Viewing games"): game_id, game, style, width, height,
    columns, rows, squares, opening, first_player, winner (-1 a draw), termination, players,
    problems, plies (dicts: ply, player, chance, move, ...), boards (the board before each ply and
    after the last, width*height characters row by row from the top) and marks (per board, the
    squares to ring: a Gomoku game's winning row).

    `source` (found by resolve_input) is either such a .jsonl file (`--out`), or an HDF5 campaign or
    match file, which is exported by running the selfplay binary (resolve_selfplay: `selfplay`,
    else SELFPLAY_BIN, else the release build). game_id: that game alone (for an HDF5 file, only it
    is exported; ValueError when a .jsonl file lacks it). Raises FileNotFoundError when the binary
    is missing, RuntimeError (with its message) when it fails, ValueError for a line that is not
    a board record; each names the file."""
    path = resolve_input(source)
    if game_id is not None:
        game_id = operator.index(game_id)
        if game_id < 0:
            raise ValueError(f"{path}: game_id {game_id} is negative")
    if h5py.is_hdf5(path):
        binary = resolve_selfplay(selfplay)
        argv = [binary, "export", path, "--format", "boards"]
        if game_id is not None:
            argv += ["--game", str(game_id)]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", errors="replace")
        except OSError as e:
            raise RuntimeError(f"{path}: cannot run {binary}: {e}") from e
        if done.returncode != 0:
            raise RuntimeError(f"{path}: `{' '.join(argv)}` failed (exit code {done.returncode}): "
                               f"{done.stderr.strip() or 'no message'}")
        text, where = done.stdout, f"{path} (exported by {binary})"
    else:
        with open(path, encoding="utf-8", errors="replace") as f:
            text, where = f.read(), path
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{where}:{number}: not a JSON line of `selfplay export --format boards` ({e})") from e
        _check_board_record(record, f"{where}:{number}")
        records.append(record)
    if game_id is not None:
        records = [r for r in records if r["game_id"] == game_id]
        if not records:
            raise ValueError(f"{where}: no game {game_id}")
    return records


def _check_board_record(record, where: str) -> None:
    """Raises ValueError (naming `where`) unless `record` is a board record load_boards returns:
    the keys, a known style, labels for its size, plies as objects, boards of width*height
    characters in its alphabet, one marks list per board."""
    if not isinstance(record, dict):
        raise ValueError(f"{where}: a board record is a JSON object, not {type(record).__name__}")
    missing = [k for k in BOARD_KEYS if k not in record]
    if missing:
        raise ValueError(f"{where}: not a board record of `selfplay export --format boards`, missing {missing}")
    style = record["style"]
    if style not in BOARD_PIECES:
        raise ValueError(f"{where}: unknown board style {style!r} (known: {', '.join(BOARD_PIECES)})")
    width, height = record["width"], record["height"]
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        raise ValueError(f"{where}: board size {width!r} x {height!r}")
    if len(record["columns"]) != width or len(record["rows"]) != height:
        raise ValueError(f"{where}: {len(record['columns'])} column and {len(record['rows'])} row labels "
                         f"for a {width} x {height} board")
    if record["squares"] and len(record["squares"]) != width * height:
        raise ValueError(f"{where}: {len(record['squares'])} square labels for {width * height} squares")
    if not isinstance(record["plies"], list) or not all(isinstance(p, dict) for p in record["plies"]):
        raise ValueError(f"{where}: plies is not a list of objects")
    if not record["boards"] or len(record["marks"]) != len(record["boards"]):
        raise ValueError(f"{where}: {len(record['boards'])} boards and {len(record['marks'])} marks lists")
    alphabet = set(BOARD_PIECES[style]) | set(BOARD_EMPTY[style])
    for k, board in enumerate(record["boards"]):
        if not isinstance(board, str) or len(board) != width * height:
            raise ValueError(f"{where}: board {k} is not a text of {width * height} characters")
        wrong = set(board) - alphabet
        if wrong:
            raise ValueError(f"{where}: board {k} has {sorted(wrong)}, not in the {style} alphabet")
    for k, marks in enumerate(record["marks"]):
        if any(not isinstance(m, int) or not 0 <= m < width * height for m in marks):
            raise ValueError(f"{where}: marks of board {k} are not squares of the board: {marks!r}")


def xml_text(value) -> str:
    """`value` as text safe inside an SVG/XML element or a quoted attribute: & < > " ' escaped,
    characters XML does not allow replaced by U+FFFD."""
    return html.escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)


@dataclass(frozen=True, repr=False)
class BoardSvg:
    """An SVG picture; Jupyter shows it inline (_repr_svg_), str() and `.svg` are its text."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"BoardSvg({len(self.svg)} characters of SVG)"

    def __str__(self) -> str:
        return self.svg


def _element(tag: str, text=None, **attrs) -> str:
    """One SVG element; attribute names take '-' for '_' (font_size -> font-size), values and text
    are escaped."""
    body = "".join(f' {k.rstrip("_").replace("_", "-")}="{xml_text(_number(v))}"' for k, v in attrs.items())
    if text is None:
        return f"<{tag}{body}/>"
    return f"<{tag}{body}>{xml_text(text)}</{tag}>"


def _number(v):
    """Coordinates with at most two decimals, other values unchanged."""
    return f"{v:.2f}".rstrip("0").rstrip(".") if isinstance(v, float) else v


def board_svg(record: dict, ply: int = -1, caption: bool = True) -> BoardSvg:
    """Draws a game's board after `ply` plies (0 the start; negative counts from the end, -1 the
    last board) from a record of load_boards, in the look of the replay viewer
    (host/records/viewer/viewer.js): column and row labels on every side, checkers' square numbers,
    EWN's cubes with their numbers (red player 0, blue player 1), checkers' men and kings (a ring
    and a K), Gomoku's stones on the intersections. The squares the last move changed are
    outlined (red where a piece of the side not moving was taken; Gomoku: a dot on the new stone),
    the board's marks (a won Gomoku game's five) ringed in red. With `caption`, the game, ply,
    last move, who is to move or the result, and the players are written below it.

    Each piece is a <g> element with data-piece (its character) and data-square (row * width +
    column); the outlines have class "last" or "taken", the rings class "mark", both with
    data-square; a king's ring has class "king". Every text from the record is escaped. Raises
    ValueError for a record that is not a board record, IndexError for a ply it has no board for."""
    _check_board_record(record, f"game {record.get('game_id', '?')}" if isinstance(record, dict) else "record")
    boards = record["boards"]
    index = ply + len(boards) if ply < 0 else ply
    if not 0 <= index < len(boards):
        raise IndexError(f"game {record['game_id']}: no board after ply {ply} "
                         f"(it has boards after 0 to {len(boards) - 1} plies)")
    style, width, height = record["style"], record["width"], record["height"]
    cells, before = boards[index], boards[index - 1] if index > 0 else None
    changed = {k for k in range(len(cells)) if before is not None and cells[k] != before[k]}
    marks = set(record["marks"][index])
    plies = record["plies"]
    mover = plies[index - 1].get("player") if 0 < index <= len(plies) else None

    if style == "gomoku":
        body, (w, h) = _gomoku_svg(record, cells, changed, marks)
    else:
        body, (w, h) = _squares_svg(record, cells, before, changed, marks, mover)
    lines = _caption_lines(record, index) if caption else []
    line_height = 16
    w = max(w, 16 + 6.5 * max((len(line) for line in lines), default=0))
    h_total = h + (len(lines) * line_height + 8 if lines else 0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(float(w))}" height="{_number(float(h_total))}" '
             f'viewBox="0 0 {_number(float(w))} {_number(float(h_total))}" font-family="sans-serif" role="img" '
             f'data-style="{xml_text(style)}" data-game-id="{xml_text(record["game_id"])}" data-ply="{index}">',
             _element("title", f"game {record['game_id']} after ply {index}")]
    parts += body
    for k, line in enumerate(lines):
        parts.append(_element("text", line, class_="caption", x=8, y=h + 4 + (k + 1) * line_height - 4,
                              font_size=13, fill="#222"))
    parts.append("</svg>")
    return BoardSvg("\n".join(parts))


def _labels(record: dict, x0: float, y0: float, step: float, offset: float, w: float, h: float,
            pad: float) -> list[str]:
    """The column labels above and below the board (x0, y0)-(x0 + w, y0 + h), the row labels left
    and right of it, `pad` away; label i centred at x0 + i * step + offset."""
    out = []
    for i, c in enumerate(record["columns"]):
        x = x0 + i * step + offset
        out.append(_element("text", c, x=x, y=y0 - pad, text_anchor="middle", font_size=12, fill="#444"))
        out.append(_element("text", c, x=x, y=y0 + h + pad + 10, text_anchor="middle", font_size=12, fill="#444"))
    for i, r in enumerate(record["rows"]):
        y = y0 + i * step + offset + 4
        out.append(_element("text", r, x=x0 - pad, y=y, text_anchor="end", font_size=12, fill="#444"))
        out.append(_element("text", r, x=x0 + w + pad, y=y, text_anchor="start", font_size=12, fill="#444"))
    return out


def _gomoku_svg(record: dict, cells: str, changed: set, marks: set) -> tuple[list[str], tuple[float, float]]:
    """The Gomoku board: a grid, stones on its intersections."""
    width, height = record["width"], record["height"]
    step, m = (24 if width > 15 else 28), 46
    size = (m * 2 + (width - 1) * step, m * 2 + (height - 1) * step)
    out = [_element("rect", x=0, y=0, width=size[0], height=size[1], fill="#dcb35c")]
    for i in range(width):
        out.append(_element("line", x1=m + i * step, y1=m, x2=m + i * step, y2=m + (height - 1) * step,
                            stroke="#5a4120", stroke_width=1))
    for j in range(height):
        out.append(_element("line", x1=m, y1=m + j * step, x2=m + (width - 1) * step, y2=m + j * step,
                            stroke="#5a4120", stroke_width=1))
    out += _labels(record, m, m, step, 0, (width - 1) * step, (height - 1) * step, step * 0.5 + 8)
    for k, c in enumerate(cells):
        if c not in BOARD_PIECES["gomoku"]:
            continue
        x, y = m + (k % width) * step, m + (k // width) * step
        out.append(f'<g data-square="{k}" data-piece="{xml_text(c)}">')
        out.append(_element("circle", cx=x, cy=y, r=step * 0.45, fill="#111" if c == "x" else "#f8f8f8",
                            stroke="#000", stroke_width=1))
        if k in changed:
            out.append(_element("circle", class_="last", data_square=k, cx=x, cy=y, r=step * 0.12, fill="#e03030"))
        if k in marks:
            out.append(_element("circle", class_="mark", data_square=k, cx=x, cy=y, r=step * 0.5, fill="none",
                                stroke="#e03030", stroke_width=3))
        out.append("</g>")
    for k in sorted(marks - {k for k, c in enumerate(cells) if c in BOARD_PIECES["gomoku"]}):
        x, y = m + (k % width) * step, m + (k // width) * step  # a mark without a stone
        out.append(_element("circle", class_="mark", data_square=k, cx=x, cy=y, r=step * 0.5, fill="none",
                            stroke="#e03030", stroke_width=3))
    return out, size


def _squares_svg(record: dict, cells: str, before: str | None, changed: set, marks: set,
                 mover: int | None) -> tuple[list[str], tuple[float, float]]:
    """The EWN and checkers boards: pieces inside squares."""
    style, width, height = record["style"], record["width"], record["height"]
    checkers = style == "checkers"
    pieces = BOARD_PIECES[style]
    step, m = (52 if checkers else 64), 28
    size = (m * 2 + width * step, m * 2 + height * step)
    out = _labels(record, m, m, step, step / 2, width * step, height * step, 8)
    squares = record["squares"]
    for k, c in enumerate(cells):
        x, y = m + (k % width) * step, m + (k // width) * step
        fill = ("#f0d9b5" if c == "-" else "#b58863") if checkers else "#f3efe6"
        out.append(_element("rect", x=x, y=y, width=step, height=step, fill=fill,
                            stroke="none" if checkers else "#999"))
        if squares and squares[k]:
            out.append(_element("text", squares[k], class_="square", x=x + 3, y=y + 11, font_size=10, fill="#fff"))
        if k in changed:
            # A square the last move changed: red where a piece of the side not moving was taken.
            taken = (before is not None and before[k] in pieces and c not in pieces
                     and mover is not None and pieces[before[k]][0] != mover)
            out.append(_element("rect", class_="taken" if taken else "last", data_square=k, x=x + 2, y=y + 2,
                                width=step - 4, height=step - 4, fill="none",
                                stroke="#d03030" if taken else "#f5c400", stroke_width=3))
        if k in marks:
            out.append(_element("rect", class_="mark", data_square=k, x=x + 1, y=y + 1, width=step - 2, height=step - 2,
                                fill="none", stroke="#e03030", stroke_width=2))
        if c not in pieces:
            continue
        side, kind = pieces[c]
        cx, cy = x + step / 2, y + step / 2
        out.append(f'<g data-square="{k}" data-piece="{xml_text(c)}">')
        if checkers:
            out.append(_element("circle", cx=cx, cy=cy, r=step * 0.38, fill="#2b2b2b" if side == 0 else "#f5f1e6",
                                stroke="#000" if side == 0 else "#666", stroke_width=1.5))
            if kind == "king":
                out.append(_element("circle", class_="king", cx=cx, cy=cy, r=step * 0.26, fill="none",
                                    stroke="#d4a017", stroke_width=2))
                out.append(_element("text", "K", x=cx, y=cy + 5, text_anchor="middle", font_size=15,
                                    font_weight="bold", fill="#d4a017"))
        else:
            out.append(_element("rect", x=x + step * 0.14, y=y + step * 0.14, width=step * 0.72,
                                height=step * 0.72, rx=8, fill="#c0392b" if side == 0 else "#2c6fb7", stroke="#333"))
            out.append(_element("text", kind, x=cx, y=cy + 9, text_anchor="middle", font_size=26,
                                font_weight="bold", fill="#fff"))
        out.append("</g>")
    return out, size


def _caption_lines(record: dict, index: int) -> list[str]:
    """The caption under a board: the game and ply with the last move, who is to move (with the
    chance outcome, EWN's die) or the result, the replay's problems, and the players."""
    sides = SIDE_NAMES[record["style"]]
    plies, boards = record["plies"], record["boards"]
    line = f"game {record['game_id']}, after ply {index} of {len(plies)}"
    if 0 < index <= len(plies):
        last = plies[index - 1]
        chance = last.get("chance")
        line += f"; last move {'' if chance is None else f'{chance}:'}{last.get('move', '?')}"
    lines = [line]
    if index < len(plies):
        nxt = plies[index]
        player = nxt.get("player")
        to_move = sides[player] if player in (0, 1) else f"player {player}"
        chance = nxt.get("chance")
        lines.append(f"to move: {to_move}" + ("" if chance is None else f", die {chance}"))
    elif index == len(boards) - 1 and not record.get("problems"):
        winner = record["winner"]
        result = sides[winner] + " won" if winner in (0, 1) else "a draw"
        lines.append(f"final position: {result}" + (f" ({record['termination']})" if record.get("termination") else ""))
    for problem in record.get("problems") or []:
        lines.append(f"replay stopped: {_shorten(problem, 100)}")
    players = record["players"]
    lines.append("; ".join(f"{sides[s]}: {_shorten(players[s], 48) or '?'}" for s in (0, 1) if s < len(players)))
    return lines


def _shorten(text, at: int) -> str:
    """`text` as str, cut to `at` characters with an ellipsis."""
    text = str(text)
    return text if len(text) <= at else text[: at - 1] + "\u2026"


LINEAGE_VERDICTS = {0: "initial", 1: "accept", 2: "reject"}


@dataclass
class Lineage:
    """DIR/lineage.h5 of `selfplay improve` (docs/improve.md): one row per generation."""
    game: str
    rows: pd.DataFrame      # the /lineage columns; verdict as text, penta split into penta_0..4
    weights: pd.DataFrame   # per generation the candidate's weights (generation 0: the initial ones)
    config: str
    # With tune.spsa: per generation the candidate's values of the champion engine's tuned keys
    # (generation 0: the champion engine's); no columns without it.
    engine: pd.DataFrame = field(default_factory=pd.DataFrame)
    # With gate.references: per generation the champion's pairs, elo, elo_lo, elo_hi against each
    # reference, columns "NAME.elo" and so on (NaN where not measured); no columns without them.
    references: pd.DataFrame = field(default_factory=pd.DataFrame)
    reference_names: list = field(default_factory=list)


def load_lineage(path: str | os.PathLike) -> Lineage:
    """Reads a lineage file. Raises ValueError naming the file when it is not one."""
    path = resolve_input(path)
    with h5py.File(path, "r") as f:
        if _decode(f.attrs.get("kind", b"")) != "selfplay improve lineage" or "lineage" not in f:
            raise ValueError(f"{path}: not a selfplay improve lineage file (no /lineage)")
        table = f["lineage"][()]
        rows = {}
        for name in table.dtype.names:
            column = table[name]
            if name == "penta":
                for k in range(5):
                    rows[f"penta_{k}"] = column[:, k].astype(np.int64)
            elif column.dtype.kind == "S":
                rows[name] = [_decode(v) for v in column]
            else:
                rows[name] = column
        frame = pd.DataFrame(rows)
        frame["verdict"] = frame["verdict"].map(LINEAGE_VERDICTS).fillna("?")
        features = [_decode(v) for v in f["weights"].attrs["features"]]
        weights = pd.DataFrame(f["weights"][()], columns=features)
        weights.index.name = "generation"
        engine = pd.DataFrame(index=weights.index)
        if "engine" in f:
            keys = [_decode(v) for v in f["engine"].attrs["keys"]]
            engine = pd.DataFrame(f["engine"][()], columns=keys)
            engine.index.name = "generation"
        references = pd.DataFrame(index=weights.index)
        names = []
        if "references" in f:
            names = [_decode(v) for v in f["references"].attrs["names"]]
            columns = [f"{n}.{c}" for n in names for c in ("pairs", "elo", "elo_lo", "elo_hi")]
            references = pd.DataFrame(f["references"][()], columns=columns)
            references.index.name = "generation"
        return Lineage(game=_decode(f.attrs["game"]), rows=frame, weights=weights,
                       config=_decode(f.attrs["config"]), engine=engine, references=references,
                       reference_names=names)
