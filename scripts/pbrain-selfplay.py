#!/usr/bin/env python3
"""A minimal Gomocup manager: pbrain-wuzi against itself through the real pipes.

Checks what a tournament manager checks (every answer is a legal move on an empty point,
given within timeout_turn) and reports each brain's answer times measured at the manager's
side of the pipe: from writing the command to reading the move. Standard library only.

usage: scripts/pbrain-selfplay.py [--brain PATH] [--games N] [--turn-ms T] [--match-ms M]
                                  [--size N] [--rule BITS]
"""

import argparse
import os
import subprocess
import sys
import time


def percentile(values, pct):
    if not values:
        return 0.0
    v = sorted(values)
    rank = max(1, -(-pct * len(v) // 100))  # nearest rank
    return v[rank - 1]


class Brain:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.times = []
        self.own = ""  # the brain's own "answered N ms after the command" DEBUG line
        self.fallbacks = 0  # answers that were the quick fallback, not the search's move

    def send(self, line):
        self.proc.stdin.write(line + "\r\n")
        self.proc.stdin.flush()

    def answer(self):
        """The next line that is not MESSAGE/DEBUG."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("brain closed its output")
            line = line.strip()
            if line.upper().startswith(("MESSAGE", "DEBUG")):
                if "answered" in line:
                    self.own = line
                if "fallback" in line:
                    self.fallbacks += 1
                continue
            return line

    def move(self, command):
        start = time.monotonic()
        self.send(command)
        line = self.answer()
        self.times.append((time.monotonic() - start) * 1000.0)
        x, y = (int(v) for v in line.split(","))
        return x, y

    def end(self):
        self.send("END")
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise RuntimeError("brain did not exit within 3 s of END")


def five_at(board, size, x, y):
    me = board.get((x, y))
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == me:
                n += 1
                cx, cy = cx + s * dx, cy + s * dy
        if n >= 5:
            return True
    return False


def play(brains, args, game_no):
    for b in brains:
        b.send(f"INFO timeout_turn {args.turn_ms}")
        b.send(f"INFO timeout_match {args.match_ms}")
        b.send("INFO max_memory 83886080")
        b.send(f"INFO rule {args.rule}")
        b.send(f"START {args.size}")
        if b.answer() != "OK":
            raise RuntimeError("START refused")
    board = {}
    first = game_no % 2
    order = [brains[first], brains[1 - first]]
    last = None
    for ply in range(args.size * args.size):
        brain = order[ply % 2]
        x, y = brain.move("BEGIN" if last is None else f"TURN {last[0]},{last[1]}")
        if not (0 <= x < args.size and 0 <= y < args.size) or (x, y) in board:
            raise RuntimeError(f"illegal move {x},{y} at ply {ply + 1}")
        if args.turn_ms > 0 and brain.times[-1] > args.turn_ms:
            print(f"  late: {brain.times[-1]:.0f} ms at ply {ply + 1} ({brain.own})",
                  file=sys.stderr)
        board[(x, y)] = ply % 2
        last = (x, y)
        if five_at(board, args.size, x, y):
            return f"brain {brains.index(brain) + 1} wins at ply {ply + 1}"
    return "draw"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "target"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brain", default=os.path.join(target, "release", "pbrain-wuzi"))
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--match-ms", type=int, default=0)
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--rule", type=int, default=0)
    args = parser.parse_args()
    if not os.access(args.brain, os.X_OK):
        print(f"no brain at {args.brain}: run `cargo build --release -p wuzi --bin pbrain-wuzi` "
              "or pass --brain", file=sys.stderr)
        return 2

    brains = [Brain(args.brain), Brain(args.brain)]
    try:
        for g in range(args.games):
            result = play(brains, args, g)
            print(f"game {g + 1}: {result}", file=sys.stderr)
            for b in brains:
                b.send("RESTART")
                if b.answer() != "OK":
                    raise RuntimeError("RESTART refused")
    finally:
        for b in brains:
            try:
                b.end()
            except Exception as e:  # report, but end the other brain too
                print(f"END: {e}", file=sys.stderr)
    times = brains[0].times + brains[1].times
    # timeout_turn 0 means "as fast as possible", not a limit.
    late = sum(1 for t in times if args.turn_ms > 0 and t > args.turn_ms)
    print(f"pbrain-wuzi self-play: {args.games} games, {args.size}x{args.size}, rule {args.rule}, "
          f"timeout_turn {args.turn_ms} ms")
    fallbacks = brains[0].fallbacks + brains[1].fallbacks
    print("| answers | p50 ms | p99 ms | max ms | over timeout_turn | fallback moves |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| {len(times)} | {percentile(times, 50):.0f} | {percentile(times, 99):.0f} | "
          f"{max(times):.0f} | {late} | {fallbacks} |")
    return 1 if late else 0


if __name__ == "__main__":
    sys.exit(main())
