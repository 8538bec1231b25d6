#!/usr/bin/env python3
"""The replay viewer in a real browser: headless Chromium opens pages `selfplay export --format
html` wrote, the test steps through games with the keyboard (DevTools key events, as a person's
keys arrive) and compares the board the page shows, read from its SVG, with the position the rules
give (`selfplay export --format boards`, which replays every game through the rules), for every
game; a page whose engine names are hostile markup shows them as text and runs none of it; a
long game steps to its end.

Usage: tests/viewer_browser_test.py SELFPLAY_BINARY SCRATCH_DIR
Exit 77 (skip) only when Chromium is not installed (scripts/setup.sh installs Debian's chromium).
Chromium is driven over --remote-debugging-pipe (file descriptors 3 and 4, NUL-terminated JSON),
so no Python package beyond the standard library is needed.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path


def fail(message: str) -> None:
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


class Browser:
    """One headless Chromium, one page, spoken to over the DevTools pipe."""

    def __init__(self, binary: str, profile: Path):
        to_chrome = os.pipe()    # we write, Chromium reads on fd 3
        from_chrome = os.pipe()  # Chromium writes on fd 4, we read

        def child_fds():
            read_end, write_end = os.dup(to_chrome[0]), os.dup(from_chrome[1])
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        args = [binary, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--remote-debugging-pipe", "--user-data-dir=" + str(profile),
                "--window-size=1280,1000", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses its sandbox as root
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                        stdout=subprocess.DEVNULL,
                                        stderr=open(profile / "chromium.log", "w"))
        os.close(to_chrome[0])
        os.close(from_chrome[1])
        self.out = os.fdopen(to_chrome[1], "wb")
        self.inp = from_chrome[0]
        self.buffer = b""
        self.next_id = 0
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.errors: list[str] = []

    def call(self, method: str, params: dict | None = None, timeout: float = 30.0) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            message["sessionId"] = self.session
        self.out.write(json.dumps(message).encode() + b"\0")
        self.out.flush()
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self.buffer:
                if time.monotonic() > deadline:
                    fail(method + ": no answer from Chromium within " + str(timeout) + " s")
                chunk = os.read(self.inp, 1 << 16)
                if not chunk:
                    fail(method + ": Chromium closed the pipe")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(line)
            if reply.get("method") == "Runtime.exceptionThrown":
                self.errors.append(json.dumps(reply["params"]["exceptionDetails"])[:500])
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    fail(method + ": " + json.dumps(reply["error"]))
                return reply["result"]

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            fail("page script error in " + expression + ": " + json.dumps(result["exceptionDetails"]))
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})
        deadline = time.monotonic() + 30
        while self.evaluate("document.body && document.body.getAttribute('data-ready')") != "1":
            if time.monotonic() > deadline:
                fail("the viewer did not start within 30 s: " + url + " " + " ".join(self.errors))
            time.sleep(0.05)

    def key(self, key: str, times: int = 1) -> None:
        codes = {"ArrowRight": 39, "ArrowLeft": 37, "ArrowUp": 38, "ArrowDown": 40,
                 "Home": 36, "End": 35}
        for _ in range(times):
            for kind in ("rawKeyDown", "keyUp"):
                self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                     "windowsVirtualKeyCode": codes[key]})

    def close(self) -> None:
        try:
            self.session = None
            self.call("Browser.close", timeout=10)
        except SystemExit:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


SHOWN_BOARD = """[...document.querySelectorAll('#board [data-piece]')]
    .map(g => [Number(g.getAttribute('data-square')), g.getAttribute('data-piece')])"""


def pieces_of(board: str) -> dict[int, str]:
    """The squares holding a piece: every character but empty ('.') and light squares ('-')."""
    return {k: c for k, c in enumerate(board) if c not in ".-"}


def shown(browser: Browser) -> dict[int, str]:
    return {k: c for k, c in browser.evaluate(SHOWN_BOARD)}


def run(binary: str, args: list[str], cwd: Path) -> str:
    done = subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        fail("selfplay " + " ".join(args) + " exited " + str(done.returncode) + ": " + done.stderr)
    return done.stdout


CAMPAIGN = """game: {game}
rules: {rules}
campaign:
  games: 4
  concurrency: 2
  seed: 7
engines:
  player0:
{engine}
  player1:
    type: random
backend:
  name: cpu
  threads: 1
output:
  path: {game}.h5
"""

HOSTILE_NAME = "</script><script>window.pwned=1</script><img src=x onerror=window.pwned=2>"


def owner(label: str, c: str) -> int:
    """The side a piece belongs to, as the rules of each game name them (-1: no piece): "b" is a
    Black man in checkers but blue cube 2 in EWN."""
    if label == "checkers":
        return 0 if c in "bB" else 1 if c in "wW" else -1
    if label == "gomoku":
        return 0 if c == "x" else 1 if c == "o" else -1
    return 0 if "A" <= c <= "F" else 1 if "a" <= c <= "f" else -1


CAPTURED = re.compile(r"has lost (\d+), [^;]*? (\d+)(?:;|$)")


def check_captures(browser: Browser, label: str, record: dict, ply: int) -> None:
    """The captured counts and the red outlines of pieces just taken, against the boards."""
    start, now = record["boards"][0], record["boards"][ply]
    def count(board: str, side: int) -> int:
        return sum(1 for c in board if c not in ".-" and owner(label, c) == side)
    lost = [count(start, s) - count(now, s) for s in (0, 1)]
    text = browser.evaluate("document.getElementById('captured').textContent")
    m = CAPTURED.search(text)
    if not m or [int(m.group(1)), int(m.group(2))] != lost:
        fail(label + " game " + str(record["game_id"]) + " after " + str(ply) + " plies: the page "
             "says " + repr(text) + ", the boards give losses " + str(lost))
    taken = 0
    if ply:
        before, mover = record["boards"][ply - 1], record["plies"][ply - 1]["player"]
        taken = sum(1 for k, c in enumerate(before) if c not in ".-" and now[k] == "." and
                    owner(label, c) != mover)
    shown_taken = browser.evaluate("document.querySelectorAll('#board rect.taken').length")
    if shown_taken != taken:
        fail(label + " game " + str(record["game_id"]) + " after " + str(ply) + " plies: " +
             str(shown_taken) + " squares outlined as taken, the boards give " + str(taken))


def check_game(browser: Browser, html: Path, boards: list[dict], label: str) -> None:
    """Steps through one game of each page with the keyboard and compares every board shown."""
    record = max(boards, key=lambda r: len(r["plies"]))  # the longest game
    browser.open(html.as_uri() + "#game=" + str(record["game_id"]))
    plies = len(record["plies"])
    crowns = [0, 0]  # checkers: plies without and with a crowning
    candidates = 0  # rows of the candidates tables shown
    if len(record["boards"]) != plies + 1:
        fail(label + ": the boards export has " + str(len(record["boards"])) + " boards for " +
             str(plies) + " plies")
    for ply in range(plies + 1):
        if ply:
            browser.key("ArrowRight")
        got, want = shown(browser), pieces_of(record["boards"][ply])
        if got != want:
            fail(label + " game " + str(record["game_id"]) + " after " + str(ply) + " plies: the page "
                 "shows " + json.dumps(sorted(got.items())) + ", the rules give " +
                 json.dumps(sorted(want.items())))
        if label in ("ewn", "checkers"):
            check_captures(browser, label, record, ply)
        if ply < plies:
            candidates += check_search(browser, label, record, ply)
        text = browser.evaluate("document.getElementById('ply').textContent")
        if not text.startswith("ply " + str(ply) + " of " + str(plies)):
            fail(label + ": the ply line says " + repr(text) + " after " + str(ply) + " steps")
        if ply:
            last = browser.evaluate("document.getElementById('last-move').textContent")
            move = record["plies"][ply - 1]
            if move["move"] not in last:
                fail(label + ": the last move line says " + repr(last) + ", not " + move["move"])
            if move["chance"] is not None and "(die " + str(move["chance"]) + ")" not in last:
                fail(label + ": the last move line does not give die " + str(move["chance"]))
            if label == "checkers":
                king = "BW"[move["player"]]
                crowned = record["boards"][ply].count(king) > record["boards"][ply - 1].count(king)
                crowns[crowned] += 1
                if crowned != ("crowned" in last):
                    fail(label + " ply " + str(ply) + ": crowned is " + str(crowned) +
                         " but the page says " + repr(last))
    browser.key("ArrowRight")  # past the end: stays at the end
    if shown(browser) != pieces_of(record["boards"][-1]):
        fail(label + ": a step past the end changed the board")
    browser.key("Home")
    if shown(browser) != pieces_of(record["boards"][0]):
        fail(label + ": Home does not show the start")
    browser.key("End")
    browser.key("ArrowLeft", 2)
    if plies >= 2 and shown(browser) != pieces_of(record["boards"][plies - 2]):
        fail(label + ": End then two steps back is not the board two plies before the end")
    # Down opens the next game of the list, at its start.
    browser.key("ArrowDown")
    title = browser.evaluate("document.getElementById('title').textContent")
    if not title.startswith("Game "):
        fail(label + ": no game title after the down key: " + repr(title))
    if label in ("ewn", "checkers") and not candidates:
        fail(label + ": MCTS played, but no position showed its candidate moves")
    if label == "checkers" and not crowns[1]:
        fail("checkers: the longest game crowns no king, so crowning went unchecked")
    print(label + ": " + str(plies + 1) + " boards of game " + str(record["game_id"]) +
          " match the rules" + (", " + str(crowns[1]) + " crownings" if crowns[1] else ""))


def check_search(browser: Browser, label: str, record: dict, ply: int) -> int:
    """The search panel of the position shown: the search of the move played from it (its kind,
    principal variation and candidate moves) as the boards export has them."""
    move = record["plies"][ply]
    where = label + " game " + str(record["game_id"]) + " ply " + str(ply)
    text = lambda id: browser.evaluate("(document.getElementById('" + id + "') || {}).textContent || ''")
    facts = text("search-facts")
    if not facts.startswith("Search of " + move["move"] + ": " + move["search"]):
        fail(where + ": the search line says " + repr(facts) + ", the file has a " + move["search"] +
             " search of " + move["move"])
    if move["pv"] and text("search-pv") != "Principal variation: " + move["pv"]:
        fail(where + ": the pv line says " + repr(text("search-pv")) + ", the file " + repr(move["pv"]))
    rows = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#candidates tbody tr')]"
        ".map((r) => [...r.cells].map((c) => c.textContent)))"))
    want = move["candidates"]
    if len(rows) != len(want) or any(
            row[:3] != [str(k + 1), c[0], str(c[1])] or abs(float(row[3]) - c[2]) > 0.0006
            for k, (row, c) in enumerate(zip(rows, want))):
        fail(where + ": the candidates table shows " + json.dumps(rows) + ", the file has " +
             json.dumps(want))
    return len(rows)


def reopen(browser: Browser, url: str) -> None:
    """Opens url through a blank page: a change of the hash alone would not load the page again."""
    browser.call("Page.navigate", {"url": "about:blank"})
    deadline = time.monotonic() + 30
    while browser.evaluate("location.href") != "about:blank" and time.monotonic() < deadline:
        time.sleep(0.05)
    browser.open(url)


def expected_mistakes(record: dict) -> set[int]:
    """The plies the viewer must mark as mistakes: for each side, the biggest drops of its value
    from one of its searched plies (rollouts played or counted, or a depth) to its next, up to
    three a side, of at least 0.1."""
    plies = record["plies"]
    searched = [p["played"] > 0 or (p["depth"] or 0) > 0 or p["rollouts"] > 0 for p in plies]
    marked = set()
    for side in (0, 1):
        mine = [k for k, p in enumerate(plies) if p["player"] == side and searched[k]]
        drops = [(plies[a]["value"] - plies[b]["value"], a) for a, b in zip(mine, mine[1:])]
        drops.sort(key=lambda d: (-d[0], d[1]))
        marked |= {a for drop, a in drops[:3] if drop >= 0.1}
    return marked


def check_thoughts(browser: Browser, html: Path, boards: list[dict], label: str) -> None:
    """The value graph (a point a ply, the mistakes ringed, a click opens the ply), the mistakes in
    the move list, and a principal variation drawn on the board while the pointer is on it."""
    record = max(boards, key=lambda r: len(expected_mistakes(r)) * 1000 + len(r["plies"]))
    plies = len(record["plies"])
    reopen(browser, html.as_uri() + "#game=" + str(record["game_id"]))
    where = label + " game " + str(record["game_id"])
    points = browser.evaluate("document.querySelectorAll('#graph circle.point').length")
    if points != plies:
        fail(where + ": the value graph has " + str(points) + " points for " + str(plies) + " plies")
    marked = set(json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#graph circle.mistake')].map((c) => +c.dataset.ply))")))
    listed = set(json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#moves td.mistake')].map((c) => +c.dataset.ply - 1))")))
    want = expected_mistakes(record)
    if not want:
        fail(where + ": no value drop of 0.1 to mark, so the mistakes went unchecked")
    if marked != want or listed != want:
        fail(where + ": mistakes marked at plies " + str(sorted(marked)) + " (graph), " +
             str(sorted(listed)) + " (moves), expected " + str(sorted(want)))
    # A click on a point opens the position its ply was played from, with that ply's search.
    k = plies // 2
    browser.evaluate("document.querySelector('#graph circle[data-ply=\"" + str(k) + "\"]')"
                     ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    text = browser.evaluate("document.getElementById('ply').textContent")
    if not text.startswith("ply " + str(k) + " of "):
        fail(where + ": a click on the point of ply " + str(k) + " shows " + repr(text))
    # The first ply with a line of two plies or more (in the first game that has one): hovering it
    # numbers the line on the board.
    record = next((r for r in boards if any(len(m["pv"].split()) >= 2 for m in r["plies"])), None)
    if record is None:
        fail(label + ": no game has a principal variation of two plies")
    where = label + " game " + str(record["game_id"])
    reopen(browser, html.as_uri() + "#game=" + str(record["game_id"]))
    at = next(p for p, m in enumerate(record["plies"]) if len(m["pv"].split()) >= 2)
    browser.evaluate("document.querySelector('#graph circle[data-ply=\"" + str(at) + "\"]')"
                     ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    browser.evaluate("document.getElementById('search-pv').dispatchEvent(new MouseEvent('mouseenter'))")
    marks = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('#pv-overlay .pv-mark')]"
        ".map((m) => [+m.dataset.order, +m.dataset.square]))"))
    line = record["plies"][at]["pv"].split()
    before, after = record["boards"][at], record["boards"][at + 1]
    changed = {i for i in range(len(before)) if before[i] != after[i]}
    if len(marks) != len(line) or [m[0] for m in marks] != list(range(1, len(line) + 1)):
        fail(where + " ply " + str(at) + ": the line " + repr(line) + " drew marks " + json.dumps(marks))
    if marks[0][1] not in changed:
        fail(where + " ply " + str(at) + ": the line's first mark is on square " + str(marks[0][1]) +
             ", the move played changed " + str(sorted(changed)))
    browser.evaluate("document.getElementById('search-pv').dispatchEvent(new MouseEvent('mouseleave'))")
    if browser.evaluate("document.querySelectorAll('#pv-overlay').length") != 0:
        fail(where + ": the line stays on the board after the pointer left it")
    print(label + ": value graph, " + str(len(want)) + " mistakes and the line of ply " + str(at) +
          " as the file has them")


def check_heatmap(browser: Browser, html: Path, boards: list[dict]) -> None:
    """Gomoku: every candidate of the position shown shaded on its square, the most visited
    darkest."""
    record = boards[0]
    reopen(browser, html.as_uri() + "#game=" + str(record["game_id"]))
    checked = 0
    for ply, move in enumerate(record["plies"]):
        if ply:
            browser.key("ArrowRight")
        want = move["candidates"]
        spots = json.loads(browser.evaluate(
            "JSON.stringify([...document.querySelectorAll('#heatmap circle')]"
            ".map((c) => [+c.dataset.visits, +c.getAttribute('fill-opacity')]))"))
        if len(spots) != len(want) or [s[0] for s in spots] != [c[1] for c in want]:
            fail("gomoku ply " + str(ply) + ": the heatmap shows " + json.dumps(spots) +
                 ", the candidates are " + json.dumps(want))
        if spots and max(spots, key=lambda s: s[1])[0] != max(c[1] for c in want):
            fail("gomoku ply " + str(ply) + ": the darkest spot is not the most visited move")
        checked += len(spots) > 1
    if checked < 3:
        fail("gomoku: fewer than 3 positions with a heatmap of several candidates")
    print("gomoku: the heatmap shows every candidate at " + str(checked) + " positions")


def check_every_game(browser: Browser, html: Path, boards: list[dict], label: str) -> None:
    """Captured counts and taken outlines at every ply of every game of the page (the EWN viewer
    once took blue cube 2, "b", for a Black checkers man)."""
    checked = 0
    for record in boards:
        # Through a blank page: a change of the hash alone would not load the page again.
        browser.call("Page.navigate", {"url": "about:blank"})
        deadline = time.monotonic() + 30
        while browser.evaluate("location.href") != "about:blank" and time.monotonic() < deadline:
            time.sleep(0.05)
        browser.open(html.as_uri() + "#game=" + str(record["game_id"]))
        browser.key("Home")
        plies = len(record["plies"])
        for ply in range(plies + 1):
            if ply:
                browser.key("ArrowRight")
            text = browser.evaluate("document.getElementById('ply').textContent")
            if not text.startswith("ply " + str(ply) + " of " + str(plies)):
                fail(label + " game " + str(record["game_id"]) + ": the ply line says " +
                     repr(text) + " after " + str(ply) + " steps")
            check_captures(browser, label, record, ply)
            checked += 1
    print(label + ": captured counts and taken outlines right at " + str(checked) +
          " positions of " + str(len(boards)) + " games")


def main() -> None:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary = os.path.abspath(sys.argv[1])
    scratch = Path(sys.argv[2]).resolve()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: no chromium on the PATH; scripts/setup.sh installs Debian's chromium")
        sys.exit(77)
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    (scratch / "profile").mkdir()

    pages = []
    mcts = "    type: mcts\n    rollouts_per_move: 24\n    rollouts_per_leaf: 2"
    # Gomoku on 20x20 between random players: long games, up to 400 plies.
    for game, rules, engine in [("ewn", "{}", mcts), ("checkers", "{}", mcts),
                                ("gomoku", "{board_size: 20}", "    type: random")]:
        (scratch / (game + ".yaml")).write_text(CAMPAIGN.format(game=game, rules=rules,
                                                                engine=engine))
        run(binary, ["run", game + ".yaml", "--out", game + ".h5", "--quiet"], scratch)
        run(binary, ["export", game + ".h5", "--format", "html", "--out", game + ".html"], scratch)
        boards = [json.loads(line) for line in
                  run(binary, ["export", game + ".h5", "--format", "boards"], scratch).splitlines()]
        pages.append((game, scratch / (game + ".html"), boards))
    # Gomoku with MCTS keeping its whole root visit distribution: the heatmap.
    (scratch / "heat.yaml").write_text(CAMPAIGN.format(
        game="gomoku", rules="{board_size: 15}",
        engine="    type: mcts\n    rollouts_per_move: 400\n    rollouts_per_leaf: 4")
        .replace("path: gomoku.h5", "path: heat.h5\n  root_policy: true"))
    run(binary, ["run", "heat.yaml", "--out", "heat.h5", "--quiet", "--games", "1"], scratch)
    run(binary, ["export", "heat.h5", "--format", "html", "--out", "heat.html"], scratch)
    heat = [json.loads(line) for line in
            run(binary, ["export", "heat.h5", "--format", "boards"], scratch).splitlines()]

    # A match whose engine is named with markup: its name is data in the page.
    classic = (Path(__file__).resolve().parent.parent / "configs/gomoku/weights/classic.yaml")
    weights = [line if not line.startswith("name:") else "name: " + json.dumps(HOSTILE_NAME)
               for line in classic.read_text().splitlines()]
    (scratch / "hostile.yaml").write_text("\n".join(weights) + "\n")
    (scratch / "match.yaml").write_text("""game: gomoku
campaign:
  concurrency: 1
  seed: 3
engines:
  player0:
    type: alphabeta
    label: "deep <b>one</b>"
    weights: hostile.yaml
    depth: 1
  player1:
    type: random
backend:
  name: cpu
  threads: 1
output:
  path: match.h5
match:
  pairs: 1
""")
    run(binary, ["match", "match.yaml", "--out", "match.h5", "--quiet"], scratch)
    run(binary, ["export", "match.h5", "--format", "html", "--out", "match.html"], scratch)
    page = (scratch / "match.html").read_text()
    if "<script>window.pwned" in page or "<img src=x" in page:
        fail("the hostile name is in the page as markup")

    browser = Browser(chromium, scratch / "profile")
    try:
        for game, html, boards in pages:
            check_game(browser, html, boards, game)
            if game in ("ewn", "checkers"):
                check_every_game(browser, html, boards, game)
                check_thoughts(browser, html, boards, game)
        check_heatmap(browser, scratch / "heat.html", heat)
        browser.open((scratch / "match.html").as_uri())
        if browser.evaluate("typeof window.pwned") != "undefined":
            fail("a script in an engine's name ran")
        if browser.evaluate("document.querySelectorAll('img').length") != 0:
            fail("an engine's name made an element")
        title = browser.evaluate("document.getElementById('title').textContent")
        if HOSTILE_NAME not in title:
            fail("the hostile name is not shown as text: " + repr(title))
        print("hostile names: shown as text, nothing ran")
        # The match's header: the engines (A with its label) and the result over the counted pair.
        header = browser.evaluate("document.getElementById('match').textContent")
        if "engine A  deep <b>one</b> (" not in header or "Elo" not in header \
                or "pairs counted       1 of 1" not in header:
            fail("the match header lacks the labelled engine, the Elo or the pairs: " + repr(header))
        program = browser.evaluate("document.getElementById('program').textContent")
        if not program.startswith("played by selfplay ") or "exported by selfplay " not in program:
            fail("the header does not name the programs: " + repr(program))
        if "deep <b>one</b> (" not in title:
            fail("the label is not in the game's title: " + repr(title))
        # The pair's other game, one click away.
        first = browser.evaluate("document.getElementById('title').textContent")
        browser.evaluate("document.getElementById('pair-link').click()")
        second = browser.evaluate("document.getElementById('title').textContent")
        if not first.startswith("Game 0:") or not second.startswith("Game 1:"):
            fail("the pair link does not open the pair's other game: " + repr((first, second)))
        pair = browser.evaluate("document.getElementById('pair').textContent")
        if not pair.startswith("Pair 0: the other game, game 0"):
            fail("game 1 does not link back to game 0: " + repr(pair))
        print("match: header with the labelled engines and the result, pair links both ways")
        if browser.errors:
            fail("script errors on the pages: " + " | ".join(browser.errors))
    finally:
        browser.close()
    print("PASS")


if __name__ == "__main__":
    main()
