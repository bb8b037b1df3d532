#!/usr/bin/env python3
"""Reach of an outside Gomocup brain: does it announce a proven win within the turn?

The same positions as `wuzi-tools reach` (positions/reach-*.txt: RIF moves a line, `#`
comments), searched by another engine through the Gomocup protocol, so that Wuzi's reach can
be read against an absolute yardstick:

    scripts/reach-brain.py --brain /path/pbrain-rapfi --cwd /path --rule renju \\
        --turn-ms 1000 positions/reach-renju.txt

Each position goes to a fresh brain process: START 15, INFO rule / timeout_turn /
timeout_match / max_memory / thread_num 1, BOARD with the side to move's stones as 1 and the
opponent's as 2, DONE, and the brain's move is awaited before END. A position counts as
proven when the last value the brain printed before its move matches --win (default: Rapfi's
`Eval +M<n>`, a mate for the side to move). Brains print their values in their own formats, so
--win and --value say where to look. Coordinates are x = the letter's index, y = the number
minus one: a reflection of the board, which changes no rule.

Prints a line per position and a summary: proven, by side to move and by distance to the
five (the positions' comments say both), and the median time to the brain's move on the
proven ones. Exit 2 for a positions file with a bad move or no position, 1 when the brain
gives no move (it is killed 10 s past its turn).
"""

import argparse
import re
import statistics
import subprocess
import sys
import threading
import time

RULES = {"freestyle": 0, "standard": 1, "renju": 4}


def positions(path):
    """(line number, moves, comment) of every position; exits 2 on a bad move."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            moves, _, note = line.partition("#")
            moves = moves.split()
            if not moves:
                continue
            try:
                points = [point(m) for m in moves]
            except ValueError as e:
                print(f"{path}:{number}: {e}", file=sys.stderr)
                sys.exit(2)
            if len(set(points)) != len(points):
                print(f"{path}:{number}: a point is played twice", file=sys.stderr)
                sys.exit(2)
            out.append((number, moves, note.strip()))
    return out


def point(move):
    m = re.fullmatch(r"([a-o])(\d{1,2})", move)
    if not m or not 1 <= int(m.group(2)) <= 15:
        raise ValueError(f"not a 15x15 RIF move: {move!r}")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def ask(args, moves):
    """The brain's last value before its move, and the seconds from DONE to the move."""
    p = subprocess.Popen(
        [args.brain], cwd=args.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, bufsize=1,
    )

    def send(text):
        p.stdin.write(text + "\n")
        p.stdin.flush()

    try:
        send("START 15")
        for line in p.stdout:
            if line.strip() in ("OK", "ERROR") or line.startswith("ERROR"):
                break
        for key, value in [
            ("rule", RULES[args.rule]),
            ("timeout_turn", args.turn_ms),
            ("timeout_match", 10**8),
            ("time_left", 10**8),
            ("max_memory", args.memory_mib << 20),
            ("thread_num", 1),
        ]:
            send(f"INFO {key} {value}")
        send("BOARD")
        me = len(moves) % 2
        for k, m in enumerate(moves):
            x, y = point(m)
            send(f"{x},{y},{1 if k % 2 == me else 2}")
        # A brain that never answers is killed 10 s past its turn.
        watchdog = threading.Timer(args.turn_ms / 1000 + 10, p.kill)
        watchdog.start()
        start = time.monotonic()
        send("DONE")
        value, moved = None, False
        for line in p.stdout:
            line = line.strip()
            found = args.value.search(line)
            if found:
                value = found.group(1)
            if re.fullmatch(r"\d+,\d+", line):
                moved = True
                break
        elapsed = time.monotonic() - start
        watchdog.cancel()
        if not moved:
            raise RuntimeError(f"the brain gave no move (last value {value})")
        send("END")
        p.wait(timeout=5)
    except (subprocess.TimeoutExpired, BrokenPipeError, RuntimeError) as e:
        p.kill()
        print(f"{args.brain}: {e or type(e).__name__}", file=sys.stderr)
        sys.exit(1)
    return value, elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions")
    ap.add_argument("--brain", required=True, help="the Gomocup brain's executable")
    ap.add_argument("--cwd", help="the brain's working directory")
    ap.add_argument("--rule", required=True, choices=sorted(RULES))
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--memory-mib", type=int, default=128)
    ap.add_argument("--value", default=r"Eval (\S+)", type=re.compile,
                    help="regex whose group 1 is a value the brain prints (default Rapfi's)")
    ap.add_argument("--win", default=r"\+?M\d+", type=re.compile,
                    help="a value that is a proven win for the side to move")
    args = ap.parse_args()
    todo = positions(args.positions)
    if not todo:
        print(f"{args.positions}: no positions", file=sys.stderr)
        sys.exit(2)
    rows = []
    for i, (number, moves, note) in enumerate(todo, 1):
        value, elapsed = ask(args, moves)
        won = value is not None and args.win.fullmatch(value) is not None
        rows.append((won, elapsed, note))
        shown = f"win {value}" if won else f"not proven (value {value})"
        print(f"{i:>4}/{len(todo)} line {number:>4}  {shown}  {elapsed:.2f} s  # {note}",
              flush=True)
    proven = [r for r in rows if r[0]]
    print(f"proven {len(proven)} of {len(rows)}")
    for side in ("black", "white"):
        for plies in sorted({m.group(1) for r in rows
                             for m in [re.search(r"five (\d+) plies", r[2])] if m}):
            group = [r for r in rows if f"{side} to move" in r[2] and f"five {plies} plies" in r[2]]
            if group:
                print(f"  {side} to move, five {plies} plies later: "
                      f"{sum(r[0] for r in group)} of {len(group)}")
    if proven:
        print(f"median time to the move on the proven ones: "
              f"{statistics.median(r[1] for r in proven):.2f} s")


if __name__ == "__main__":
    main()
