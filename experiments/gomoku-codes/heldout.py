#!/usr/bin/env python3
"""Held-out openings: the openings of a gomoku_openings file that are not, up to a rotation or
reflection of the 15x15 board, among the shipped ones (configs/gomoku/openings.pos), written with
a header that says what was dropped and how the file was made.

Usage: heldout.py GENERATED.pos OUT.pos "gomoku_openings arguments used" [SHIPPED.pos]
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def openings(path):
    """(line text, stones) of each opening: stones as (colour, x, y), Black first."""
    out = []
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        cells = re.findall(r"([a-o])(\d+)", line)
        if "".join(c + r for c, r in cells) != line:
            sys.exit(f"{path}: not a 15x15 opening: {line}")
        out.append((line, [(i % 2, ord(c) - ord("a"), int(r) - 1) for i, (c, r) in enumerate(cells)]))
    return out


def canonical(stones):
    """The smallest of the eight symmetric images of the stones around h8."""
    images = []
    for turn in range(4):
        for mirror in (False, True):
            image = []
            for colour, x, y in stones:
                u, v = x - 7, y - 7
                if mirror:
                    u = -u
                for _ in range(turn):
                    u, v = -v, u
                image.append((colour, u, v))
            images.append(tuple(sorted(image)))
    return min(images)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    generated, out, how = sys.argv[1], sys.argv[2], sys.argv[3]
    shipped = sys.argv[4] if len(sys.argv) > 4 else ROOT / "configs/gomoku/openings.pos"
    known = {canonical(s) for _, s in openings(shipped)}
    made = openings(generated)
    kept = [line for line, s in made if canonical(s) not in known]
    dropped = [line for line, s in made if canonical(s) in known]
    header = Path(generated).read_text().splitlines()
    header = [h for h in header if h.startswith("#")]
    # The tool's closing lines count the openings before the drop and speak of the built-in file.
    cut = next((i for i, h in enumerate(header) if h.startswith("# `opening: file`")), len(header))
    header = header[:cut] + [
        f"# `opening: file` plays opening k mod {len(kept)} in both games of pair k when paired."
    ]
    lines = [
        "# experiments/gomoku-codes: the openings of seed 2027 that are not, up to a rotation or",
        "# reflection, among the shipped openings (configs/gomoku/openings.pos): dropped "
        + (", ".join(dropped) if dropped else "none") + ".",
        f"# Made by: gomoku_openings {how}, then experiments/gomoku-codes/heldout.py.",
    ] + header + kept
    Path(out).write_text("\n".join(lines) + "\n")
    print(f"{len(made)} openings, {len(dropped)} shipped ones dropped, {len(kept)} written to {out}")


if __name__ == "__main__":
    main()
