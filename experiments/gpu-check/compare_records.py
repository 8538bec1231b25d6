#!/usr/bin/env python3
"""Compares the game records of two campaign files bit for bit: every column of /games, /plies,
/positions and (format 3) /candidates except the wall-clock ones (duration_s, time_ms, think_ms),
rows matched by (game_id, ply, rank).
Attributes (backend, device, start time) and /perf (one row per batch) are not records.

Usage: compare_records.py A.h5 B.h5 | --self-test A.h5
Prints one line: `equal: N games, M plies, K positions` (exit 0) or the first difference (exit 1);
exit 3 when h5py is missing (run.sh then diffs `selfplay export` instead). --self-test proves the
comparison can fail: a copy of A with one byte of one stored move changed must differ from A."""
import os
import shutil
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as e:
    print(f"no h5py: {e}")
    sys.exit(3)

IGNORED = {"duration_s", "time_ms", "think_ms"}
NO_GAME = np.uint64(2**64 - 1)


def columns(f, name):
    obj = f[name]
    if isinstance(obj, h5py.Group):
        cols = {k: obj[k][:] for k in obj}
    else:
        data = obj[:]
        cols = {k: data[k] for k in data.dtype.names}
    n = min(len(v) for v in cols.values())  # a killed run can leave columns of different lengths
    keep = cols["game_id"][:n] != NO_GAME
    return {k: v[:n][keep] for k, v in cols.items() if k not in IGNORED}


def order(cols):
    if "rank" in cols:
        return np.lexsort((cols["rank"], cols["ply"], cols["game_id"]))
    if "ply" in cols:
        return np.lexsort((cols["ply"], cols["game_id"]))
    return np.argsort(cols["game_id"], kind="stable")


def compare(a, b, name):
    ca, cb = columns(a, name), columns(b, name)
    if sorted(ca) != sorted(cb):
        return None, f"{name}: columns differ ({sorted(ca)} against {sorted(cb)})"
    na, nb = len(ca["game_id"]), len(cb["game_id"])
    if na != nb:
        return None, f"{name}: {na} rows against {nb}"
    oa, ob = order(ca), order(cb)
    for col in sorted(ca):
        va, vb = np.ascontiguousarray(ca[col][oa]), np.ascontiguousarray(cb[col][ob])
        if va.tobytes() != vb.tobytes():
            rows = va.reshape(na, -1).view(np.uint8) != vb.reshape(nb, -1).view(np.uint8)
            i = int(np.argmax(rows.reshape(na, -1).any(axis=1)))
            where = f"game {ca['game_id'][oa][i]}" + (f" ply {ca['ply'][oa][i]}" if "ply" in ca else "")
            return None, f"{name}.{col} differs first at {where}: {va[i]!r} against {vb[i]!r}"
    return na, None


def self_test(path):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "changed.h5")
        shutil.copyfile(path, copy)
        with h5py.File(copy, "r+") as f:
            plies = f["plies"]
            row = plies[len(plies) // 2]
            row["move"] = bytes([row["move"][0] ^ 1]) + row["move"][1:]
            plies[len(plies) // 2] = row
        code = compare_files(path, copy)
    if code != 1:
        print("self-test FAILED: a changed move went unnoticed")
        return 1
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        return self_test(sys.argv[2])
    if len(sys.argv) != 3:
        print("usage: compare_records.py A.h5 B.h5 | --self-test A.h5")
        return 2
    return compare_files(sys.argv[1], sys.argv[2])


def compare_files(path_a, path_b):
    counts = []
    with h5py.File(path_a, "r") as a, h5py.File(path_b, "r") as b:
        names = ["games", "plies", "positions"] + (["candidates"] if "candidates" in a or "candidates" in b else [])
        for name in names:
            if name not in a or name not in b:
                print(f"/{name} is in one file only")
                return 1
            n, problem = compare(a, b, name)
            if problem:
                print(problem)
                return 1
            counts.append(n)
    if counts[0] == 0:
        print("no games in the files")
        return 1
    print(f"equal: {counts[0]} games, {counts[1]} plies, {counts[2]} positions"
          + (f", {counts[3]} candidates" if len(counts) > 3 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
