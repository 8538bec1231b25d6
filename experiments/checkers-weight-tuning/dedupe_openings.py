#!/usr/bin/env python3
"""Turns `selfplay export --format pdn` games into an openings file, one game per line, each
position once. Usage: dedupe_openings.py GAMES.pdn OUT.pdn SELFPLAY_BINARY

Games with the same moves are kept once here; two games whose different moves reach the same
position (a transposition) are found by selfplay's own openings reader, which names the line of the
second: that line is dropped and the file read again."""
import os
import re
import subprocess
import sys
import tempfile


def games(text):
    """The movetext of each game: its moves without numbers, tags or result."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        moves = [w for line in block.splitlines() if not line.startswith("[")
                 for w in line.split()]
        moves = [re.sub(r"^\d+\.+", "", w) for w in moves]
        moves = [w for w in moves if w and w not in ("1-0", "0-1", "1/2-1/2", "*")]
        if moves:
            out.append(" ".join(moves))
    return out


def main():
    source, target, binary = sys.argv[1:4]
    with open(source) as f:
        lines = list(dict.fromkeys(games(f.read())))
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "check.yaml")
        with open(config, "w") as f:
            f.write("game: checkers\nrules: {start: file, openings: %s}\n" % os.path.abspath(target))
        for _ in range(len(lines)):
            with open(target, "w") as f:
                f.write("".join(line + " *\n" for line in lines))
            r = subprocess.run([binary, "config", "--check", config], capture_output=True, text=True)
            if r.returncode == 0:
                break
            m = re.search(re.escape(os.path.abspath(target)) + r":(\d+):\d+: .* is listed twice",
                          r.stdout + r.stderr)
            if not m:
                sys.exit("dedupe_openings.py: " + (r.stdout + r.stderr).strip())
            del lines[int(m.group(1)) - 1]
    print("   %d openings (of %s)" % (len(lines), source))


if __name__ == "__main__":
    main()
