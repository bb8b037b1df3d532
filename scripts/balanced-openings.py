#!/usr/bin/env python3
"""Keeps the openings that self-play did not decide by colour alone.

An opening where black (or white) wins whoever plays it turns every SPRT pair into a 1-1 and
wastes it. This reads the games of a `wuzi-arena match --games-out` run over a candidate list
(each opening played several times) and prints the openings whose games were won by both
colours, in the candidates' order, each with its tally as a comment.

usage: scripts/balanced-openings.py CANDIDATES GAMES.jsonl [--min-games N] > openings/x.txt
Standard library only.
"""

import argparse
import collections
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", help="the openings file the match used")
    ap.add_argument("games", help="the match's --games-out file")
    ap.add_argument("--min-games", type=int, default=4,
                    help="openings played fewer times are dropped (default 4)")
    args = ap.parse_args()

    tally = collections.defaultdict(lambda: [0, 0, 0])  # black, white, draw
    with open(args.games) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                g = json.loads(line)
                opening = " ".join(g["opening"].split())
                result = g["result"]
            except (ValueError, KeyError, AttributeError) as e:
                sys.exit(f"{args.games}:{n}: not a game record ({e})")
            # A forfeit says nothing about the opening.
            if g.get("reason") not in ("five", "full", None):
                continue
            slot = {"black": 0, "white": 1}.get(result, 2)
            tally[opening][slot] += 1

    kept = total = 0
    with open(args.candidates) as f:
        for line in f:
            moves = " ".join(line.split("#", 1)[0].split())
            if not moves:
                continue
            total += 1
            b, w, d = tally.get(moves, (0, 0, 0))
            if b + w + d >= args.min_games and b > 0 and w > 0:
                kept += 1
                print(f"{moves:<24}# black {b}, white {w}, draws {d}")
    print(f"{kept} of {total} candidates kept", file=sys.stderr)


if __name__ == "__main__":
    main()
