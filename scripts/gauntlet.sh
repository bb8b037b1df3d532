#!/usr/bin/env bash
# Wuzi's Master (this tree's pbrain-wuzi, one search thread) against an outside Gomocup engine,
# managed by this tree's wuzi-arena (crate wuzi-tools).
#
# usage: OPPONENT="/path/to/pbrain-x [args]" scripts/gauntlet.sh [wuzi-arena match flags...]
#
# The yardstick's openings are chosen by rules that know nothing of Wuzi's evaluation, and
# by default every one is played once with each colour (one pair per opening):
#   renju      openings/renju26.txt, renju's 26 canonical openings (52 games)
#   otherwise  openings/central15.txt, 48 of the 80 two- and three-stone central openings up
#              to symmetry, drawn by a seed (96 games); `wuzi-arena yardstick --help` says how
# The balanced files (openings/renju15.txt, openings/freestyle15.txt) were kept by Wuzi's own
# search and serve self-play SPRT (scripts/sprt.sh), not this yardstick.
#
# Environment:
#   OPPONENT       the opponent's command line (required), split like a shell
#   OPPONENT_CWD   its working directory (e.g. where it finds its config and weights)
#   OPPONENT_NAME  its name in the report (default: the program's file name)
#   RULE=freestyle freestyle | standard | renju (the opponent must support it)
#   SIZE=15  TURN_MS=1000  CONCURRENCY=1  THREADS=1  MEMORY_MIB=256  SEED=1
#   OPENINGS=      default: openings/renju26.txt for renju, else openings/central15.txt
#   PAIRS=         default: one pair per opening of the file
#   OUT_DIR=/tmp/wuzi-gauntlet   the games file (JSON lines) and the report
#
# Outside engines are built or downloaded by the user, outside this repository; nothing of
# theirs (code, configs, binaries, build scripts) is ever committed here.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${OPPONENT:-}" ]]; then
    echo "gauntlet: set OPPONENT to the outside engine's command, e.g." >&2
    echo "  OPPONENT=/path/to/pbrain-x OPPONENT_CWD=/path/to scripts/gauntlet.sh" >&2
    exit 2
fi
RULE=${RULE:-freestyle}
SIZE=${SIZE:-15}
TURN_MS=${TURN_MS:-1000}
CONCURRENCY=${CONCURRENCY:-1}
THREADS=${THREADS:-1}
MEMORY_MIB=${MEMORY_MIB:-256}
SEED=${SEED:-1}
if [[ -z "${OPENINGS:-}" ]]; then
    if [[ "$RULE" == renju ]]; then OPENINGS=openings/renju26.txt; else OPENINGS=openings/central15.txt; fi
fi
# One pair per opening: every opening once with each colour.
PAIRS=${PAIRS:-$(grep -cvE '^[[:space:]]*(#|$)' "$OPENINGS")}
OUT_DIR=${OUT_DIR:-/tmp/wuzi-gauntlet}
mkdir -p "$OUT_DIR"

cargo build --release --quiet -p wuzi --bin pbrain-wuzi
cargo build --release --quiet -p wuzi-tools --bin wuzi-arena
bin="${CARGO_TARGET_DIR:-target}/release"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

args=(match --a "$bin/pbrain-wuzi" --name-a "wuzi-master-$commit" --b "$OPPONENT"
    --rule "$RULE" --size "$SIZE" --turn-ms "$TURN_MS" --pairs "$PAIRS"
    --concurrency "$CONCURRENCY" --threads "$THREADS" --memory-mib "$MEMORY_MIB" --seed "$SEED"
    --openings "$OPENINGS" --games-out "$OUT_DIR/games.jsonl")
[[ -n "${OPPONENT_CWD:-}" ]] && args+=(--cwd-b "$OPPONENT_CWD")
[[ -n "${OPPONENT_NAME:-}" ]] && args+=(--name-b "$OPPONENT_NAME")
args+=("$@")

echo "running: wuzi-arena ${args[*]}" >&2
"$bin/wuzi-arena" "${args[@]}" | tee "$OUT_DIR/report.txt"
