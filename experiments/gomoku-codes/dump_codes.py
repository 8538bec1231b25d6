#!/usr/bin/env python3
"""A readable dump of the pattern-code weights of a Gomoku weights file (docs/gomoku.md, Pattern
codes): per code its line classes spelled out, the weight of the side to move's squares (own) and
of the other side's (opp), largest first; codes that weigh 0 on both sides are left out. Then the
entries of the file's move-score table (`move_scores:`, attack_DDDD / defend_DDDD), if it gives
any: the others are the hand ladder's (games/gomoku/move_scores.hpp).

Usage: dump_codes.py WEIGHTS.yaml [--top N] [--order code|size]
"""
import argparse
import sys

import yaml

CLASSES = ["none", "two", "open two", "three", "open three", "four", "open four", "five"]


def spelled(code: str) -> str:
    parts = [CLASSES[int(d)] for d in code if d != "0"]
    return " + ".join(parts) if parts else "nothing"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights")
    ap.add_argument("--top", type=int, default=0, help="only the N largest (0 = all)")
    ap.add_argument("--order", choices=["size", "code"], default="size")
    a = ap.parse_args()
    try:
        with open(a.weights, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        weights = doc["weights"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as e:
        print(f"dump_codes.py: {a.weights}: not a weights file ({e})", file=sys.stderr)
        return 2
    codes = {}
    for name, value in weights.items():
        for view in ("own", "opp"):
            prefix = f"{view}_code_"
            if str(name).startswith(prefix):
                codes.setdefault(name[len(prefix):], {"own": 0.0, "opp": 0.0})[view] = float(value)
    rows = [(c, w["own"], w["opp"]) for c, w in codes.items() if w["own"] or w["opp"]]
    if a.order == "size":
        rows.sort(key=lambda r: -(abs(r[1]) + abs(r[2])))
    else:
        rows.sort()
    print(f"{a.weights}: {len(rows)} of {len(codes)} codes weigh something"
          + (f", the {a.top} largest:" if a.top and a.top < len(rows) else ""))
    if a.top:
        rows = rows[: a.top]
    print(f"{'code':<6} {'own':>10} {'opp':>10}  lines")
    for code, own, opp in rows:
        print(f"{code:<6} {own:>10.4f} {opp:>10.4f}  {spelled(code)}")
    scores = {}
    for name, value in (doc.get("move_scores") or {}).items():
        for role in ("attack", "defend"):
            if str(name).startswith(role + "_"):
                scores.setdefault(name[len(role) + 1:], {})[role] = float(value)
    if scores:
        print(f"\nmove scores the file gives ({len(scores)} codes; the rest: the hand ladder's):")
        print(f"{'code':<6} {'attack':>10} {'defend':>10}  lines")
        for code in sorted(scores, key=lambda c: -max(abs(v) for v in scores[c].values())):
            cell = lambda role: f"{scores[code][role]:>10.1f}" if role in scores[code] else f"{'-':>10}"
            print(f"{code:<6} {cell('attack')} {cell('defend')}  {spelled(code)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
