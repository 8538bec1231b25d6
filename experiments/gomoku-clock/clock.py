#!/usr/bin/env python3
"""How late a Gomocup engine answers: two instances of an engine play each other through the
pbrain protocol, as a tournament manager runs them (INFO timeout_turn T, INFO timeout_match 0,
START n, BEGIN / TURN x,y), and every answer's latency is measured from the moment the command
is written to the moment the move line is read. Games (freestyle, judged here) restart until `moves` answers are in.

Usage: clock.py [--moves N] [--turn-ms T] [--size 15] [--openings POS] [--csv FILE] -- ENGINE [ARGS...]
--openings: game k starts from opening k of a Gomocup pos file (configs/gomoku/openings.pos), sent
to each engine with BOARD at its first move (then TURN), which puts the engines in the middle
games whose threat searches take the longest.
Prints one summary line; --csv gets one row per answer (game, ply, latency_ms, and the position
answered in the pos format, to replay a slow answer).
Exit 0 when it ran (an overrun is a result, not an error), 2 on a protocol failure."""
import argparse
import subprocess
import sys
import time


class Engine:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def answer(self):
        """The next line that is not MESSAGE/DEBUG/UNKNOWN chatter."""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.strip()
            if line and not line.startswith(("MESSAGE", "DEBUG", "UNKNOWN")):
                return line

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def five(stones, x, y, size):
    """Whether the stone on (x, y) stands in five or more in a row of stones (freestyle)."""
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and (cx, cy) in stones:
                n += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if n >= 5:
            return True
    return False


def read_openings(path):
    """The openings of a pos file: lists of (x, y), Black's stone first."""
    out = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        stones, i = [], 0
        while i < len(line):
            x = ord(line[i]) - ord("a")
            j = i + 1
            while j < len(line) and line[j].isdigit():
                j += 1
            stones.append((x, int(line[i + 1:j]) - 1))
            i = j
        out.append(stones)
    return out


def pos_string(moves):
    """The moves in the pos format (e6k9k6: columns a-o, rows 1-15 from the top)."""
    return "".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in moves)


def board_command(moves, mover_parity):
    """BOARD for the engine whose stones are the moves of parity mover_parity (1 own, 2 other)."""
    lines = ["BOARD"]
    for k, (x, y) in enumerate(moves):
        lines.append(f"{x},{y},{1 if k % 2 == mover_parity else 2}")
    lines.append("DONE")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--turn-ms", type=int, default=100)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--openings")
    ap.add_argument("--csv")
    ap.add_argument("engine", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    argv = a.engine[1:] if a.engine and a.engine[0] == "--" else a.engine
    if not argv:
        ap.error("name the engine after --")
    openings = read_openings(a.openings) if a.openings else []
    engines = [Engine(argv), Engine(argv)]
    rows = []
    try:
        for e in engines:
            e.send(f"INFO timeout_turn {a.turn_ms}")
            e.send("INFO timeout_match 0")
        game = 0
        while len(rows) < a.moves:
            game += 1
            for e in engines:
                e.send(f"START {a.size}" if game == 1 else "RESTART")
                if e.answer() != "OK":
                    raise RuntimeError("START/RESTART not answered OK")
            opening = openings[(game - 1) % len(openings)] if openings else []
            moves = list(opening)
            taken = set(moves)
            sides = (set(moves[0::2]), set(moves[1::2]))  # by colour: Black, White
            seen = [False, False]  # each engine gets BOARD before its first move of the game
            mover = 0
            while len(rows) < a.moves and len(taken) < a.size * a.size:
                colour = len(moves) % 2
                if not seen[mover]:
                    command = board_command(moves, colour) if moves else "BEGIN"
                    seen[mover] = True
                else:
                    command = f"TURN {moves[-1][0]},{moves[-1][1]}"
                t0 = time.monotonic()
                engines[mover].send(command)
                reply = engines[mover].answer()
                ms = (time.monotonic() - t0) * 1000.0
                x, y = (int(v) for v in reply.split(","))
                if (x, y) in taken or not (0 <= x < a.size and 0 <= y < a.size):
                    raise RuntimeError(f"illegal move {reply}")
                taken.add((x, y))
                moves.append((x, y))
                sides[colour].add((x, y))
                rows.append((game, len(moves), ms, pos_string(moves[:-1])))
                if five(sides[colour], x, y, a.size):
                    break  # the game is over: the next one starts
                mover = 1 - mover
    except (RuntimeError, ValueError) as err:
        print(f"clock.py: {err}", file=sys.stderr)
        return 2
    finally:
        for e in engines:
            e.close()
    lat = sorted(r[2] for r in rows)
    worst = max(rows, key=lambda r: r[2])
    over = [v - a.turn_ms for v in lat if v > a.turn_ms]
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(f"{len(rows)} answers at timeout_turn {a.turn_ms} ms in {game} games: "
          f"median {lat[len(lat) // 2]:.1f} ms, p99 {p99:.1f} ms, max {lat[-1]:.1f} ms, "
          f"{len(over)} over the limit (largest overrun {max(over) if over else 0:.1f} ms); "
          f"slowest: game {worst[0]}, answer to {worst[3] or 'the empty board'}")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("game,ply,latency_ms,position\n")
            for g, p, ms, pos in rows:
                f.write(f"{g},{p},{ms:.2f},{pos}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
