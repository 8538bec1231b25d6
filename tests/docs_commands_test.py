#!/usr/bin/env python3
"""Every command shown in README.md and docs/*.md runs, or at least parses and checks its config.

Usage: docs_commands_test.py SELFPLAY [SCRATCH] [--self-check] [--verbose] [--only DOC]

The docs' shell blocks (```sh, ```bash, ```shell) are scripts: each block runs in a fresh sandbox
(a copy of configs/, links to tests/data and to the binary's build folder, an empty out/), its
commands in order, so a later line may read what an earlier one wrote. Every line of a shell block
must be classified, or the test fails:

  selfplay ...            the program (also build/release/host/app/selfplay and $bin, behind
                          VAR=value assignments, `printf '...' |` for its stdin, and mpirun/srun
                          with their options, which run as one process here). The subcommand must
                          exist and every option must be in `selfplay SUB --help`. Then, by class:
    run, match            run for real with few games (--games/--pairs capped, --quiet); a
                          --resume of a missing file first runs the same line without it. Configs
                          in SLOW_CONFIGS and every `improve` are parsed instead: the line is run
                          with its config replaced by a missing file, which must fail with our own
                          `error:` (CLI11 has accepted every option and value), and the config is
                          checked with `selfplay config --check [--match|--improve]`.
    bench                 run for real with --seconds capped (and a short --sweep)
    perft                 run for real with --depth capped at PERFT_DEPTH_CAP
    others                run for real as written (demo, config, play, pbrain and engine with the
                          printf's text or an empty stdin, tune, verify, export, convert, merge)
  scripts/...             NOT_RUN: scripts too long for a test; they must exist and pass bash -n
  python3 notebooks/...   the script exists, every option is in its --help, named notebooks exist
  alias selfplay=...      the alias the docs use

The exit code must be 0, or the N of an `exits N` in the line's comment. Placeholders (FILE.h5,
EMPTY.h5, OLD.h5, BIG.yaml) and the files an input names before any command wrote them map to
fixtures this test makes (PLACEHOLDERS, INPUT_FIXTURES, TUNE_INPUTS). A ```yaml or ```text block
whose first line is `# out/NAME` is written to out/NAME in every sandbox of its page (with the
edits of DOC_FILE_EDITS). Blocks without a language may not hold commands, python blocks must
compile, and every relative link of the pages must name a file and heading that exist.

Before the docs, a self-check runs bogus lines (an unknown command, an unknown option, a wrong exit
code, an unclassified line, a command in an untagged block, an input without a fixture, a broken
link) through the same code and fails unless each one is reported; --self-check runs only that.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHELL_LANGS = {"sh", "bash", "shell", "console"}

# Lines of a shell block that are not selfplay: too long or too heavy to run here.
NOT_RUN = {
    "scripts/main.sh": "installs packages, builds Release and plays a 1000-game campaign",
    "scripts/test.sh": "installs packages, builds two trees and runs every test",
    "experiments/gpu-check/prepare.sh": "builds the GPU binaries (about 22 minutes cold)",
}
# Configs whose games take seconds each even when few: parsed and config-checked, not played.
SLOW_CONFIGS = {
    "configs/gomoku/match-best-vs-classic.yaml": "1 s a move",
}
# Games played by `run` (--games) and pairs by `match` (--pairs) at most, per game.
RUN_GAMES_CAP = {"ewn": 10, "checkers": 2, "gomoku": 2}
MATCH_PAIRS_CAP = 1
BENCH_SECONDS_CAP = 0.2
PERFT_DEPTH_CAP = {"ewn": 5, "checkers": 9, "gomoku": 2}
# Doc placeholders: the file the test puts under that name in the sandbox.
PLACEHOLDERS = {
    "FILE.h5": "ewn",
    "EMPTY.h5": "empty",
    "OLD.h5": "format1",
    "BIG.yaml": "big-config",
}
# Inputs of verify/export/merge/convert that a page reads before any of its lines wrote them.
INPUT_FIXTURES = {
    "out/ewn.h5": "ewn",
    "out/big.h5": "ewn",
    "out/two.h5": "ewn",
    "out/ewn-campaign.h5": "ewn",
    "out/checkers.h5": "checkers",
    "out/gomoku.h5": "gomoku",
    "out/match.h5": "ewn-match",
}
# What a tune config reads, placed when missing (its data.inputs).
TUNE_INPUTS = {"configs/ewn/tune.yaml": {"out/ewn-campaign.h5": "ewn"}}
# Edits to files the docs define (`# out/NAME` blocks) that keep their runs short.
DOC_FILE_EDITS = {
    "out/spsa.yaml": [("iterations: 20", "iterations: 1"), ("pairs: 4", "pairs: 1")],
}
# $VARIABLES of doc lines (Slurm's) and their values here.
VARIABLES = {"SLURM_CPUS_PER_TASK": "1", "SLURM_JOB_ID": "1"}
PROGRAMS = {"selfplay", "build/release/host/app/selfplay", "$bin"}
PBRAIN_LINK = "build/release/host/app/pbrain-selfplay"
LAUNCHERS = {"mpirun", "srun"}
BIG_CONFIG = """\
game: ewn
campaign: {games: 32, concurrency: 32}
engines:
  player0: {type: mcts}
  player1: {type: expectimax, weights: configs/ewn/weights/survival-distance.yaml, tt_size_mb: 65536}
"""
FIXTURE_RUNS = {
    "ewn": ["run", "configs/ewn/campaign.yaml", "--games", "10"],
    "checkers": ["run", "configs/checkers/campaign.yaml", "--games", "2"],
    "gomoku": ["run", "configs/gomoku/campaign.yaml", "--games", "2"],
    "ewn-match": ["match", "configs/ewn/match-mcts-vs-expectimax.yaml", "--pairs", "1"],
}
COMMAND_TIMEOUT_S = 120


class Failure(Exception):
    pass


@dataclass
class Block:
    doc: Path
    line: int  # 1-based line of the opening fence
    lang: str
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Stats:
    counts: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    slow: list[tuple[float, str]] = field(default_factory=list)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


def parse_blocks(doc: Path, text: str) -> list[Block]:
    blocks: list[Block] = []
    current: Block | None = None
    for number, line in enumerate(text.split("\n"), 1):
        fence = re.match(r"^\s*```\s*([\w+-]*)\s*$", line)
        if fence and current is None:
            current = Block(doc, number, fence.group(1).lower())
        elif fence and current is not None and not fence.group(1):
            blocks.append(current)
            current = None
        elif current is not None:
            current.lines.append((number, line))
    if current is not None:
        raise Failure(f"{doc}:{current.line}: a code block is not closed")
    return blocks


def shell_lines(block: Block) -> list[tuple[int, str]]:
    """The commands of a shell block: continuations joined, blank and comment lines dropped."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, line in block.lines:
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        if full and not full.startswith("#"):
            out.append((start, full))
    if pending:
        raise Failure(f"{block.doc}:{start}: a line ends in a backslash with nothing after it")
    return out


def split_comment(line: str) -> tuple[str, str]:
    """The code and the comment of a shell line (a # outside quotes, after a blank)."""
    quote = ""
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line, ""


def printf_text(fmt: str) -> bytes:
    return fmt.replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t").encode()


def expand(token: str) -> str:
    def value(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        if name not in VARIABLES:
            raise Failure(f"variable ${name} has no value in VARIABLES")
        return VARIABLES[name]

    return re.sub(r"\$\{(\w+)\}|\$(\w+)", value, token)


def slug(heading: str) -> str:
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


class Checker:
    def __init__(self, binary: Path, scratch: Path, verbose: bool) -> None:
        self.binary = binary
        self.build = binary.parents[2]
        self.scratch = scratch
        self.verbose = verbose
        self.helps: dict[str, str] = {}
        self.fixtures: dict[str, Path] = {}
        self.stats = Stats()
        self.sandboxes = 0
        self.commands = self.subcommands()

    # --- the program's own description of itself

    def run_binary(self, args: list[str], cwd: Path, stdin: bytes = b"", env=None):
        return subprocess.run(
            [str(self.binary)] + args,
            cwd=cwd,
            input=stdin,
            capture_output=True,
            timeout=COMMAND_TIMEOUT_S,
            env=env,
        )

    def subcommands(self) -> set[str]:
        out = self.run_binary(["--help"], REPO).stdout.decode()
        if "SUBCOMMANDS" not in out.upper():
            raise Failure(f"selfplay --help lists no subcommands:\n{out}")
        section = re.split(r"(?im)^subcommands:\s*$", out)[-1]
        names = set(re.findall(r"(?m)^\s{2}([a-z]+)\s", section))
        if not names:
            raise Failure(f"no subcommands found in selfplay --help:\n{out}")
        return names

    def help_text(self, path: tuple[str, ...]) -> str:
        key = " ".join(path)
        if key not in self.helps:
            self.helps[key] = self.run_binary([*path, "--help"], REPO).stdout.decode()
        return self.helps[key]

    def nested(self, sub: str) -> set[str]:
        """The subcommands of a subcommand (`selfplay egtb build`), none for most."""
        out = self.help_text((sub,))
        if not re.search(r"(?im)^subcommands:\s*$", out):
            return set()
        section = re.split(r"(?im)^subcommands:\s*$", out)[-1]
        return set(re.findall(r"(?m)^\s{2}([a-z]+)\s", section))

    def options(self, sub: str | tuple[str, ...]) -> tuple[set[str], set[str]]:
        """The options of a subcommand (or of a nested one, given as a path), and those of them
        that take a value."""
        path = (sub,) if isinstance(sub, str) else sub
        names, valued = set(), set()
        for line in self.help_text(path).split("\n"):
            m = re.match(r"^\s+((?:-\w,\s*)?--[\w-]+)(\s\S+)?", line)
            if not m:
                continue
            for name in re.findall(r"--?[\w-]+", m.group(1)):
                names.add(name)
                if m.group(2) and not m.group(2).strip().startswith("Excludes"):
                    valued.add(name)
        names.update({"-h", "--help"})
        return names, valued

    # --- fixtures

    def fixture(self, kind: str) -> Path:
        if kind in self.fixtures:
            return self.fixtures[kind]
        folder = self.scratch / "fixtures"
        folder.mkdir(parents=True, exist_ok=True)
        if kind == "empty":
            path = folder / "empty.h5"
            path.write_bytes(b"")
        elif kind == "format1":
            path = REPO / "tests/data/format1-campaign.h5"
        elif kind == "big-config":
            path = folder / "big.yaml"
            path.write_text(BIG_CONFIG)
        elif kind in FIXTURE_RUNS:
            path = folder / f"{kind}.h5"
            path.unlink(missing_ok=True)
            args = FIXTURE_RUNS[kind] + ["--out", str(path), "--quiet"]
            r = self.run_binary(args, REPO)
            if r.returncode != 0:
                raise Failure(f"fixture {kind}: selfplay {' '.join(args)} exited {r.returncode}:\n"
                              f"{r.stderr.decode()[-2000:]}")
        else:
            raise Failure(f"unknown fixture kind {kind}")
        self.fixtures[kind] = path
        return path

    def place(self, sandbox: Path, name: str, kind: str) -> None:
        target = sandbox / name
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.fixture(kind), target)

    def new_sandbox(self, doc_files: dict[str, str]) -> Path:
        self.sandboxes += 1
        box = self.scratch / f"sandbox-{self.sandboxes:03d}"
        if box.exists():
            shutil.rmtree(box)
        box.mkdir(parents=True)
        shutil.copytree(REPO / "configs", box / "configs")
        (box / "tests").mkdir()
        (box / "tests/data").symlink_to(REPO / "tests/data")
        (box / "build").mkdir()
        (box / "build/release").symlink_to(self.build)
        (box / "out").mkdir()
        for name, text in doc_files.items():
            for old, new in DOC_FILE_EDITS.get(name, []):
                if old not in text:
                    raise Failure(f"DOC_FILE_EDITS: '{old}' is not in {name} any more")
                text = text.replace(old, new)
            (box / name).parent.mkdir(parents=True, exist_ok=True)
            (box / name).write_text(text)
        return box

    # --- one line

    def check_line(self, where: str, line: str, sandbox: Path) -> str:
        """Checks one line of a shell block; returns how it was checked."""
        code, comment = split_comment(line)
        m = re.search(r"\bexits? (\d+)\b", comment)
        expected = int(m.group(1)) if m else 0
        try:
            tokens = shlex.split(code)
        except ValueError as e:
            raise Failure(f"cannot split the line: {e}")
        if not tokens:
            raise Failure("an empty command")
        if code.startswith("alias "):
            if code != "alias selfplay=build/release/host/app/selfplay":
                raise Failure(f"unknown alias: {code}")
            return "alias line"
        if tokens[0] in NOT_RUN or (tokens[0] in ("bash", "sh") and len(tokens) > 1
                                    and tokens[1] in NOT_RUN):
            script = tokens[0] if tokens[0] in NOT_RUN else tokens[1]
            path = REPO / script
            if not path.is_file() or not os.access(path, os.X_OK):
                raise Failure(f"{script} is not an executable file")
            r = subprocess.run(["bash", "-n", str(path)], capture_output=True)
            if r.returncode != 0:
                raise Failure(f"bash -n {script}: {r.stderr.decode()}")
            return "script: exists, bash -n (not run)"
        if tokens[0] in ("python3", "/usr/bin/python3"):
            return self.check_python(tokens)
        stdin = b""
        if tokens[0] == "printf":
            if len(tokens) < 4 or tokens[2] != "|":
                raise Failure("only `printf 'TEXT' | selfplay ...` is understood")
            stdin = printf_text(tokens[1])
            tokens = tokens[3:]
        if any(t in ("|", "||", "&&", ";", "<", ">", ">>", "2>", "&") for t in tokens):
            raise Failure("pipes, lists and redirections are not understood (only printf |)")
        env = dict(os.environ)
        while tokens and re.match(r"^[A-Z_][A-Z0-9_]*=", tokens[0]):
            name, value = tokens[0].split("=", 1)
            env[name] = value
            tokens = tokens[1:]
        launcher = ""
        if tokens and tokens[0] in LAUNCHERS:
            launcher = tokens[0]
            i = next((i for i, t in enumerate(tokens) if t in PROGRAMS or t == PBRAIN_LINK), None)
            if i is None:
                raise Failure(f"{launcher} starts no selfplay")
            tokens = tokens[i:]
        if not tokens:
            raise Failure("no command after the assignments")
        tokens = [expand(t) for t in tokens]
        if tokens[0] == PBRAIN_LINK:
            link = self.build / "host/app/pbrain-selfplay"
            if not link.exists():
                raise Failure(f"{link} does not exist (the build makes it)")
            names, _ = self.options("pbrain")
            for t in tokens[1:]:
                if t.startswith("-") and t.split("=", 1)[0] not in names:
                    raise Failure(f"selfplay pbrain has no option {t}")
            return self.execute(tokens[1:], tokens, sandbox, stdin, env, expected,
                                "pbrain-selfplay link: run", program=str(link))
        if tokens[0] not in PROGRAMS:
            raise Failure(f"unclassified line (not selfplay, not in NOT_RUN): {code}")
        how = self.check_selfplay(tokens[1:], sandbox, stdin, env, expected)
        return f"{how} (under {launcher}: as one process)" if launcher else how

    def check_python(self, tokens: list[str]) -> str:
        if len(tokens) >= 2 and tokens[1] == "tests/docs_commands_test.py":
            if tokens[3:] != ["--self-check"]:
                raise Failure("only this test's --self-check is run from a page")
            r = subprocess.run([sys.executable, str(REPO / tokens[1]), str(self.binary),
                                str(self.scratch / "nested"), "--self-check"],
                               capture_output=True, timeout=COMMAND_TIMEOUT_S)
            if r.returncode != 0:
                raise Failure(f"the self-check failed:\n{r.stdout.decode()[-2000:]}")
            return "this test's self-check: run"
        if len(tokens) < 2 or not tokens[1].startswith("notebooks/"):
            raise Failure("only python3 notebooks/SCRIPT lines are understood")
        script = REPO / tokens[1]
        if not script.is_file():
            raise Failure(f"{tokens[1]} does not exist")
        # Its argparse options, read from the source: --help would need the notebook packages.
        known = set(re.findall(r"add_argument\(\s*\"(--[\w-]+)\"", script.read_text()))
        if not known:
            raise Failure(f"{tokens[1]} declares no argparse options")
        for t in tokens[2:]:
            if t.startswith("-") and t.split("=", 1)[0] not in known:
                raise Failure(f"{tokens[1]} has no option {t}")
            if t.endswith(".ipynb") and not (REPO / t).is_file():
                raise Failure(f"no notebook {t}")
        return "python script: options declared, notebooks exist (not run)"

    def check_selfplay(self, args: list[str], sandbox: Path, stdin: bytes, env, expected: int) -> str:
        if not args:
            raise Failure("selfplay without a command")
        sub = args[0]
        if sub not in self.commands:
            raise Failure(f"selfplay has no command '{sub}' (it has {', '.join(sorted(self.commands))})")
        path = (sub,)
        i = 1
        if len(args) > 1 and args[1] in self.nested(sub):
            path, i = (sub, args[1]), 2
        names, valued = self.options(path)
        positionals: list[int] = []
        while i < len(args):
            a = args[i]
            if a.startswith("-") and len(a) > 1 and not re.match(r"^-\d", a):
                name = a.split("=", 1)[0]
                if name not in names:
                    raise Failure(f"selfplay {' '.join(path)} has no option {name}")
                if name in valued and "=" not in a:
                    i += 1
            else:
                positionals.append(i)
            i += 1
        args = list(args)
        for i in positionals:
            if args[i] in PLACEHOLDERS:
                self.place(sandbox, args[i], PLACEHOLDERS[args[i]])
        for flag in ("--out", "-o", "--output"):
            if flag in args:
                value = args[args.index(flag) + 1]
                if value in PLACEHOLDERS:
                    self.place(sandbox, value, PLACEHOLDERS[value])
        if sub in ("verify", "export", "merge", "convert") and positionals:
            name = args[positionals[0]]
            if not (sandbox / name).exists() and not name.startswith("/"):
                if name not in INPUT_FIXTURES:
                    raise Failure(f"'{name}' does not exist when the line runs and has no entry "
                                  "in INPUT_FIXTURES")
                self.place(sandbox, name, INPUT_FIXTURES[name])
        config = args[positionals[0]] if positionals and sub in ("run", "match", "tune",
                                                                 "improve") else ""
        if sub == "tune" and config in TUNE_INPUTS:
            for name, kind in TUNE_INPUTS[config].items():
                self.place(sandbox, name, kind)
        if sub == "improve" or config in SLOW_CONFIGS:
            return self.parse_only(sub, args, positionals[0], sandbox, env, expected)
        how = f"{sub}: run"
        game = self.config_game(sandbox / config) if config else ""
        if sub == "run":
            self.cap(args, "--games", RUN_GAMES_CAP.get(game, 2))
            how = f"{sub}: run, --games capped"
        elif sub == "match":
            self.cap(args, "--pairs", MATCH_PAIRS_CAP)
            how = f"{sub}: run, --pairs capped"
        elif sub == "bench":
            self.cap(args, "--seconds", BENCH_SECONDS_CAP)
            if "--sweep" in args:
                args += ["--sweep-min", "10", "--sweep-max", "12", "--sweep-seconds", "0.01"]
            how = f"{sub}: run, --seconds capped"
        elif sub == "perft":
            game = args[args.index("--game") + 1] if "--game" in args else "ewn"
            self.cap(args, "--depth", PERFT_DEPTH_CAP.get(game, 3))
            how = f"{sub}: run, --depth capped"
        if "--backend" in args and args[args.index("--backend") + 1] == "cuda":
            args[args.index("--backend") + 1] = "auto"  # cuda where there is a device
            how += ", --backend cuda as auto"
        if sub in ("run", "match") and "--quiet" not in args:
            args.append("--quiet")
        if sub in ("run", "match") and "--resume" in args and expected == 0:
            out = self.output_path(args, sandbox / config)
            if out and not (sandbox / out).exists():
                first = [a for a in args if a != "--resume"]
                r = self.run_binary(first, sandbox, env=env)
                if r.returncode != 0:
                    raise Failure(f"making the file to resume, selfplay {' '.join(first)} exited "
                                  f"{r.returncode}: {r.stderr.decode()[-1500:]}")
                how += ", the file to resume made first"
        return self.execute(args, args, sandbox, stdin, env, expected, how)

    def execute(self, args, shown, sandbox, stdin, env, expected, how, program=None) -> str:
        start = time.monotonic()
        cmd = [program or str(self.binary)] + args
        try:
            r = subprocess.run(cmd, cwd=sandbox, input=stdin, capture_output=True,
                               timeout=COMMAND_TIMEOUT_S, env=env)
        except subprocess.TimeoutExpired:
            raise Failure(f"selfplay {' '.join(args)} ran past {COMMAND_TIMEOUT_S} s")
        elapsed = time.monotonic() - start
        self.stats.slow.append((elapsed, "selfplay " + " ".join(args)))
        if r.returncode != expected:
            raise Failure(f"selfplay {' '.join(args)} exited {r.returncode}, expected {expected}:\n"
                          f"{r.stderr.decode(errors='replace')[-2000:]}")
        # An error example must fail for its own reason, not for an option CLI11 does not know.
        if expected != 0 and re.search(rb"not expected|is required", r.stderr):
            raise Failure(f"selfplay {' '.join(args)} failed on its command line, not on what "
                          f"the doc shows:\n{r.stderr.decode(errors='replace')}")
        if self.verbose:
            print(f"    {elapsed:5.2f} s  exit {r.returncode}  selfplay {' '.join(args)}")
        return how + (f", exit {expected}" if expected else "")

    def parse_only(self, sub, args, config_index, sandbox, env, expected) -> str:
        config = args[config_index]
        if expected != 0:
            raise Failure("an error example on a command this test only parses")
        missing = "no-such-config-for-the-parse-check.yaml"
        dry = list(args)
        dry[config_index] = missing
        r = self.run_binary(dry, sandbox, env=env)
        err = r.stderr.decode(errors="replace")
        if r.returncode != 2 or not err.startswith("error:") or missing not in err:
            raise Failure(f"selfplay {' '.join(dry)} should fail on the missing config alone, "
                          f"after CLI11 accepted the options; it exited {r.returncode}:\n{err}")
        kind = {"match": ["--match"], "improve": ["--improve"]}.get(sub, [])
        r = self.run_binary(["config", *kind, "--check", config], sandbox, env=env)
        if r.returncode != 0:
            raise Failure(f"selfplay config {' '.join(kind)} --check {config} exited "
                          f"{r.returncode}: {r.stderr.decode(errors='replace')}")
        why = SLOW_CONFIGS.get(config, "a loop of campaigns and matches")
        return f"{sub}: parsed, config {' '.join(kind + ['--check'])} (not run: {why})"

    @staticmethod
    def cap(args: list[str], option: str, most: float) -> None:
        if option in args:
            i = args.index(option) + 1
            if float(args[i]) > most:
                args[i] = str(most)
        else:
            args += [option, str(most)]

    @staticmethod
    def config_game(path: Path) -> str:
        try:
            m = re.search(r"(?m)^game:\s*(\w+)", path.read_text())
        except OSError:
            return ""
        return m.group(1) if m else "ewn"

    @staticmethod
    def output_path(args: list[str], config: Path) -> str:
        if "--out" in args:
            return args[args.index("--out") + 1]
        try:
            m = re.search(r"(?m)^output:\s*\n(?:\s+.*\n)*?\s+path:\s*(\S+)", config.read_text())
        except OSError:
            return ""
        return m.group(1) if m else ""

    # --- a page

    def check_links(self, doc: Path, text: str) -> None:
        for m in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", text):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            where = f"{doc.relative_to(REPO) if doc.is_relative_to(REPO) else doc}"
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            if not file.exists():
                self.fail(f"{where}: link to {target}: no such file")
                continue
            if anchor and file.suffix == ".md":
                slugs = {slug(h) for h in re.findall(r"(?m)^#+\s+(.*)$", file.read_text())}
                if anchor not in slugs:
                    self.fail(f"{where}: link to {target}: no heading '{anchor}' in {file.name}")

    def check_doc(self, doc: Path, text: str | None = None) -> None:
        text = doc.read_text() if text is None else text
        name = doc.relative_to(REPO) if doc.is_relative_to(REPO) else doc
        self.check_links(doc, text)
        try:
            blocks = parse_blocks(doc, text)
        except Failure as e:
            self.fail(str(e))
            return
        doc_files: dict[str, str] = {}
        for b in blocks:
            if b.lines and b.lang not in SHELL_LANGS:
                m = re.match(r"^# (out/[\w./-]+?):?(\s.*)?$", b.lines[0][1])
                if m:
                    doc_files[m.group(1)] = "\n".join(l for _, l in b.lines) + "\n"
        for b in blocks:
            if b.lang == "python":
                try:
                    compile("\n".join(l for _, l in b.lines), f"{name}:{b.line}", "exec")
                    self.stats.count("python block compiled")
                except SyntaxError as e:
                    self.fail(f"{name}:{b.line}: python block: {e}")
                continue
            if not b.lang:
                for number, line in b.lines:
                    first = line.strip().split(" ")[0]
                    if first in PROGRAMS or first in LAUNCHERS or first in NOT_RUN:
                        self.fail(f"{name}:{number}: a command in a block without a language; "
                                  "tag it ```sh (it is then run) or ```text")
                continue
            if b.lang not in SHELL_LANGS:
                continue
            try:
                lines = shell_lines(b)
            except Failure as e:
                self.fail(str(e))
                continue
            if not lines:
                continue
            sandbox = self.new_sandbox(doc_files)
            for number, line in lines:
                where = f"{name}:{number}"
                try:
                    how = self.check_line(where, line, sandbox)
                    self.stats.count(re.sub(r", exit \d+|, the file to resume made first|"
                                            r", --backend cuda as auto", "", how))
                    if self.verbose:
                        print(f"ok   {where}: {line}\n       {how}")
                except Failure as e:
                    self.fail(f"{where}: {line}\n    {e}")
                except subprocess.TimeoutExpired as e:
                    self.fail(f"{where}: {line}\n    timed out: {e}")

    def fail(self, message: str) -> None:
        self.stats.failures.append(message)
        print("FAIL " + message, flush=True)


SELF_CHECK_CASES = 11


def self_check(binary: Path, scratch: Path) -> list[str]:
    """Bogus doc lines must fail and a good one must pass; returns what went wrong."""
    cases = {
        "unknown command": "```sh\nselfplay frobnicate\n```\n",
        "unknown option": "```sh\nselfplay demo --games 1 --no-such-option\n```\n",
        "wrong exit code": "```sh\nselfplay demo --games 1   # exits 2\n```\n",
        "unclassified line": "```sh\nmake install\n```\n",
        "command in an untagged block": "```\nselfplay demo --games 1\n```\n",
        "input without fixture": "```sh\nselfplay verify out/no-fixture.h5\n```\n",
        "broken link": "[a page](no-such-page.md)\n",
        "broken anchor": "[a heading](#no-such-heading)\n",
        "bad value": "```sh\nselfplay improve configs/ewn/improve.yaml --generations 0\n```\n",
        "unknown option of a parsed command": "```sh\nselfplay improve configs/ewn/improve.yaml --frob\n```\n",
        "unknown option of a nested command": "```sh\nselfplay egtb verify --pieces 3\n```\n",
    }
    good = "# A page\n\n[here](#a-page)\n\n```sh\nselfplay demo --games 1   # two\nselfplay perft --position \"ABC2/DE3/F3f/3ed/2cba 0 1\" --depth 2\n```\n"
    assert len(cases) == SELF_CHECK_CASES
    problems = []
    folder = scratch / "self-check"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for what, text in list(cases.items()) + [("good", good)]:
        page = folder / "page.md"
        page.write_text(text)
        c = Checker(binary, folder / "work", verbose=False)
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            c.check_doc(page)
        failed = bool(c.stats.failures)
        if failed and what != "good":
            reason = [l.strip() for l in c.stats.failures[0].split("\n")[1:] if l.strip()]
            print(f"  self-check {what}: " + (reason or [c.stats.failures[0]])[0][:150])
        if what == "good" and failed:
            problems.append(f"self-check: a good page failed: {c.stats.failures}")
        elif what != "good" and not failed:
            problems.append(f"self-check: '{what}' was not reported")
    return problems


def main() -> int:
    argv = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    only = None
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1]
        argv.remove(only)
    if not argv:
        print(__doc__)
        return 2
    binary = Path(argv[0]).resolve()
    if not binary.is_file():
        print(f"no binary {binary}")
        return 1
    scratch = Path(argv[1]).resolve() if len(argv) > 1 else Path(tempfile.mkdtemp(prefix="docs-"))
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    start = time.monotonic()
    problems = self_check(binary, scratch)
    for p in problems:
        print("FAIL " + p)
    print(f"self-check: {SELF_CHECK_CASES - len(problems)} bogus pages reported, good page "
          f"{'failed' if any('good page' in p for p in problems) else 'passed'} "
          f"({time.monotonic() - start:.1f} s)")
    if "--self-check" in flags:
        return 1 if problems else 0
    checker = Checker(binary, scratch / "docs", "--verbose" in flags)
    docs = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
    for doc in docs:
        if only and doc.name != only:
            continue
        checker.check_doc(doc)
    total = sum(checker.stats.counts.values())
    print(f"\n{total} doc lines checked in {time.monotonic() - start:.1f} s:")
    for what, n in sorted(checker.stats.counts.items(), key=lambda kv: -kv[1]):
        print(f"  {n:4d}  {what}")
    slowest = sorted(checker.stats.slow, reverse=True)[:5]
    if slowest:
        print("slowest runs: " + "; ".join(f"{t:.1f} s {c[:70]}" for t, c in slowest))
    failures = checker.stats.failures + problems
    if failures:
        print(f"\n{len(failures)} FAILED")
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
