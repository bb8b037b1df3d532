#!/usr/bin/env python3
"""Positions for the reach yardstick (`wuzi-tools reach`), cut from finished games.

Reads `wuzi-arena` games files (JSON lines: "moves", "reason", "winner", "opening", ...)
and, for every game won by a five and every distance D in --plies (odd), prints the position
D plies before the winning five: the game's winner is to move, and as the game went it made
five D plies later. Whether a forced win exists there is not known; the rule knows nothing of
any engine's evaluation. A position must lie past the game's opening; repeats are printed once.

usage: scripts/reach-positions.py --plies 17,21 [--about TEXT]... GAMES.jsonl... > positions/FILE.txt
The output is an openings-style file: one position a line (RIF moves, black first), `#`
comments. Its header holds the command (games files by their folder's name) and each --about
line (where the games come from); each line's comment names its game's folder, the game's
line in its file and the distance.
"""

import argparse
import json
import sys


def label(path: str) -> str:
    """A games file's name in the output: its folder's name (a run's folder holds one)."""
    return path.split("/")[-2] if "/" in path else path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", default="17,21", help="odd distances before the five")
    ap.add_argument("--about", action="append", default=[], help="a header line")
    ap.add_argument("games", nargs="+", help="wuzi-arena games files (JSON lines)")
    args = ap.parse_args()
    try:
        plies = [int(p) for p in args.plies.split(",")]
    except ValueError:
        ap.error(f"--plies {args.plies!r}: expected odd numbers separated by commas")
    if any(d < 1 or d % 2 == 0 for d in plies):
        ap.error(f"--plies {args.plies!r}: every distance must be odd and positive")

    print(f"# reach positions: scripts/reach-positions.py --plies {args.plies} "
          + " ".join(label(g) for g in args.games))
    for line in args.about:
        print(f"# {line}")
    print("# the side to move won the game; its five came D plies later")
    seen = set()
    for path in args.games:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    g = json.loads(line)
                    moves = g["moves"].split()
                    opening = len(g.get("opening", "").split())
                    decisive = g["reason"] == "five"
                except (ValueError, KeyError, AttributeError) as e:
                    print(f"{path}:{n}: not a games line ({e})", file=sys.stderr)
                    return 2
                if not decisive:
                    continue
                winner = "black" if len(moves) % 2 == 1 else "white"
                for d in plies:
                    cut = len(moves) - d
                    if cut < max(opening, 1):
                        continue
                    pos = " ".join(moves[:cut])
                    if pos in seen:
                        continue
                    seen.add(pos)
                    print(f"{pos}  # {label(path)} game {n}, {winner} to move, "
                          f"five {d} plies later")
    return 0


if __name__ == "__main__":
    sys.exit(main())
