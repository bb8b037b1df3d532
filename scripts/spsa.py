#!/usr/bin/env python3
"""Tunes the evaluation's weak point values by games (SPSA), not by loss.

The values of the weak combinations (a point whose four lines hold at most open twos: the
combinations of the patterns dead, overline, B1, F1, B2 and F2, ranks 0-125) are summed over
most of the board's empty points, and regression does not find their playing optimum (see
docs/ai-experiments.md, "Evaluation: where refits lose"). This tunes 24 offsets, one per
point table (black/white, waiting/to move) and weak pattern, each added to a combination's
value once per line of that pattern, by simultaneous perturbation stochastic approximation:
every iteration plays the tables moved by +c_k * D against the tables moved by -c_k * D (D a
random +-1 vector) and moves the offsets by r_k * c_k * (wins - losses) * D.

Games are played by wuzi-arena between two pbrain-wuzi processes with `--weights`, at a fixed
node budget, so the result does not depend on the machine's load. The point values are
written in 1/16 unit (`cell-resolution 16`). Every iteration appends the offsets to the log
(--log), and --resume continues from its last line. The result is a candidate, to be checked
by SPRT at fixed nodes and then at a time control (docs/ai.md, "Testing engine changes").

usage: scripts/spsa.py --rule R --base FILE --out FILE [--iterations N] [--pairs P]
                       [--nodes K] [--openings FILE] [--c C] [--r R] [--seed S]
                       [--brain PATH] [--arena PATH] [--log FILE] [--resume]
Standard library only.
"""

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

RESOLUTION = 16  # the engine's CELL_RESOLUTION
WEAK_PATTERNS = 6  # dead, overline, B1, F1, B2, F2: pattern indices 0-5
TABLES = ["cell black waiting", "cell black to-move", "cell white waiting", "cell white to-move"]


def combos():
    """The four patterns of each combination, by rank (the engine's order: a >= b >= c >= d)."""
    out = []
    for a in range(12):
        for b in range(a + 1):
            for c in range(b + 1):
                for d in range(c + 1):
                    out.append((a, b, c, d))
    return out


def read_tables(path):
    """The base file: its lines in order, with point values in 1/16 unit."""
    step = None
    lines = []
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("cell-resolution"):
                step = RESOLUTION // int(line.split()[1])
                continue
            words = line.split()
            label, values = " ".join(words[:3]), [int(v) for v in words[3:]]
            lines.append([label, values])
    step = RESOLUTION if step is None else step
    for entry in lines:
        if entry[0].startswith("cell "):
            entry[1] = [v * step for v in entry[1]]
    labels = [label for label, _ in lines]
    for t in TABLES:
        if t not in labels:
            sys.exit(f"spsa: {path}: no '{t}' line")
    return lines


def apply(lines, theta, ranks):
    """The tables' text with the offsets `theta` (24 numbers, evaluation units) added."""
    out = [f"# weak point values moved by {' '.join(f'{x:+.3f}' for x in theta)}",
           f"cell-resolution {RESOLUTION}"]
    for label, values in lines:
        if label in TABLES:
            t = TABLES.index(label)
            values = list(values)
            for r, patterns in enumerate(ranks):
                if max(patterns) < WEAK_PATTERNS:
                    shift = sum(theta[t * WEAK_PATTERNS + p] for p in patterns)
                    values[r] += round(shift * RESOLUTION)
        out.append(label + " " + " ".join(str(v) for v in values))
    return "\n".join(out) + "\n"


def play(args, plus_file, minus_file, seed, games_file):
    """Wins minus losses of the plus tables over `args.pairs` pairs."""
    brain = shlex.quote(args.brain)
    cmd = [
        args.arena, "match",
        "--a", f"{brain} --nodes {args.nodes} --weights {args.rule}={shlex.quote(plus_file)}",
        "--name-a", "plus",
        "--b", f"{brain} --nodes {args.nodes} --weights {args.rule}={shlex.quote(minus_file)}",
        "--name-b", "minus",
        "--rule", args.rule, "--turn-ms", "5000", "--threads", "1", "--memory-mib", "64",
        "--concurrency", str(args.concurrency), "--pairs", str(args.pairs),
        "--seed", str(seed), "--games-out", games_file,
    ]
    if args.openings:
        cmd += ["--openings", args.openings]
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"spsa: wuzi-arena failed ({run.returncode}): {run.stderr.strip()[-500:]}")
    score = 0
    with open(games_file) as f:
        for line in f:
            winner = json.loads(line)["winner"]
            score += {"plus": 1, "minus": -1, None: 0}[winner]
    return score


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rule", required=True, choices=["freestyle", "standard", "renju"])
    p.add_argument("--base", required=True, help="tables to start from (src/ai/weights/R.txt)")
    p.add_argument("--out", required=True, help="where the tuned tables go")
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--pairs", type=int, default=2, help="pairs a side per iteration")
    p.add_argument("--nodes", type=int, default=30000)
    p.add_argument("--openings", default=None)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--c", type=float, default=0.5, help="perturbation at the end, eval units")
    p.add_argument("--r", type=float, default=0.002, help="step ratio a/c^2 at the end")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--brain", default="target/release/pbrain-wuzi")
    p.add_argument("--arena", default="target/release/wuzi-arena")
    p.add_argument("--log", default=None, help="offsets after each iteration (default OUT.log)")
    p.add_argument("--resume", action="store_true", help="continue from the log's last line")
    args = p.parse_args()
    if args.iterations < 1 or args.pairs < 1 or args.nodes < 1 or args.c <= 0 or args.r <= 0:
        sys.exit("spsa: --iterations, --pairs, --nodes, --c and --r must be positive")

    lines = read_tables(args.base)
    ranks = combos()
    n = len(TABLES) * WEAK_PATTERNS
    theta, start = [0.0] * n, 0
    log_path = args.log or args.out + ".log"
    if args.resume and os.path.exists(log_path):
        with open(log_path) as f:
            last = [l for l in f if l.strip()]
        if last:
            words = last[-1].split()
            start, theta = int(words[0]), [float(x) for x in words[2:]]
            if len(theta) != n:
                sys.exit(f"spsa: {log_path}: last line has {len(theta)} offsets, not {n}")
    rng = random.Random(args.seed * 1_000_003 + start)
    # Spall's gains, fixed so that the last iteration has c_k = c and a_k / c_k^2 = r.
    big_a = 0.1 * args.iterations
    c0 = args.c * args.iterations ** 0.101
    a_end = args.r * args.c ** 2
    a0 = a_end * (big_a + args.iterations) ** 0.602
    with tempfile.TemporaryDirectory() as tmp, open(log_path, "a") as log:
        plus, minus, games = (os.path.join(tmp, x) for x in ("plus.txt", "minus.txt", "g.jsonl"))
        for k in range(start, args.iterations):
            ck = c0 / (k + 1) ** 0.101
            ak = a0 / (k + 1 + big_a) ** 0.602
            delta = [rng.choice((-1, 1)) for _ in range(n)]
            with open(plus, "w") as f:
                f.write(apply(lines, [t + ck * d for t, d in zip(theta, delta)], ranks))
            with open(minus, "w") as f:
                f.write(apply(lines, [t - ck * d for t, d in zip(theta, delta)], ranks))
            if os.path.exists(games):
                os.remove(games)
            result = play(args, plus, minus, args.seed * 100_003 + k, games)
            theta = [t + ak / ck * result * d for t, d in zip(theta, delta)]
            log.write(f"{k + 1} {result:+d} " + " ".join(f"{t:.4f}" for t in theta) + "\n")
            log.flush()
            tmp_out = args.out + ".tmp"
            with open(tmp_out, "w") as f:
                f.write(apply(lines, theta, ranks))
            os.replace(tmp_out, args.out)
    print(" ".join(f"{t:+.3f}" for t in theta))


if __name__ == "__main__":
    main()
