#!/usr/bin/env bash
# SPRT of an engine change: builds `pbrain-wuzi` (release) of two revisions, builds `wuzi-arena`
# (crate `wuzi-tools`) from the current tree, and runs `wuzi-arena sprt` (A = REV_A,
# B = REV_B) until the GSPRT accepts H0 or H1. The last line printed is the verdict, ready for
# the commit message.
#
# usage: scripts/sprt.sh [REV_A [REV_B]] [wuzi-arena sprt flags...]
#   REV_A  default: the working tree, uncommitted changes included (also spelled "worktree")
#   REV_B  default: the merge-base of HEAD and main (HEAD itself when HEAD is main)
#   flags  passed to `wuzi-arena sprt`; each replaces the default of the same flag below
#
# Environment (all optional):
#   ARENA_DIR=/tmp/wuzi-arena   sources, per-slot target dirs, binaries, games and logs
#   RULE=freestyle              freestyle | standard | renju
#   SIZE=15
#   OPENINGS=                   default: openings/renju15.txt for renju, else openings/freestyle15.txt
#   TURN_MS=100 (10000 with NODES)  CONCURRENCY=2  THREADS=1  MEMORY_MIB=64  SEED=1
#   ELO0=0  ELO1=5  ALPHA=0.05  BETA=0.05  MAX_PAIRS=5000
#   NODES=                      a fixed node budget per move (pbrain-wuzi --nodes) instead of
#                               the clock: the result no longer depends on the machine's load,
#                               so it may run beside a build (turn-ms then only bounds a move)
#
# Each revision is checked out (git worktree, detached) in its own slot under ARENA_DIR and
# built there with its own CARGO_TARGET_DIR, so testing the next change only rebuilds what
# changed. The binaries are copied out before the run, so rebuilding during a run is safe.
# Of each revision only `pbrain-wuzi` (package `wuzi`) is built, which every revision has,
# from before and after `wuzi-arena` moved from the `wuzi` crate to `wuzi-tools`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

ARENA_DIR=${ARENA_DIR:-/tmp/wuzi-arena}
RULE=${RULE:-freestyle}
SIZE=${SIZE:-15}
if [[ -z "${OPENINGS:-}" ]]; then
    if [[ "$RULE" == renju ]]; then OPENINGS=openings/renju15.txt; else OPENINGS=openings/freestyle15.txt; fi
fi
NODES=${NODES:-}
# With a node budget the turn only bounds a move, so it is generous.
if [[ -n "$NODES" ]]; then TURN_MS=${TURN_MS:-10000}; else TURN_MS=${TURN_MS:-100}; fi
CONCURRENCY=${CONCURRENCY:-2}
THREADS=${THREADS:-1}
MEMORY_MIB=${MEMORY_MIB:-64}
SEED=${SEED:-1}
ELO0=${ELO0:-0}
ELO1=${ELO1:-5}
ALPHA=${ALPHA:-0.05}
BETA=${BETA:-0.05}
MAX_PAIRS=${MAX_PAIRS:-5000}

rev_a=worktree
rev_b=""
if [[ $# -gt 0 && "$1" != --* ]]; then rev_a=$1; shift; fi
if [[ $# -gt 0 && "$1" != --* ]]; then rev_b=$1; shift; fi
if [[ -z "$rev_b" ]]; then
    if git rev-parse --verify --quiet main >/dev/null; then
        rev_b=$(git merge-base HEAD main)
    else
        rev_b=HEAD
    fi
fi
mkdir -p "$ARENA_DIR/bin"

# build SLOT REV: prints the path of a copy of that revision's release pbrain-wuzi.
build() {
    local slot=$1 rev=$2 src label
    if [[ "$rev" == worktree || "$rev" == . ]]; then
        src=$root
        label="worktree-$(git rev-parse --short HEAD)"
        git diff --quiet HEAD -- || label+="+dirty"
    else
        local sha
        sha=$(git rev-parse --verify "$rev^{commit}")
        src=$ARENA_DIR/src-$slot
        if [[ ! -e "$src/.git" ]]; then
            git worktree add --detach --quiet "$src" "$sha"
        else
            git -C "$src" checkout --detach --quiet "$sha"
        fi
        label=$(git rev-parse --short "$sha")
    fi
    echo "building pbrain-wuzi $label ($slot) ..." >&2
    (cd "$src" && CARGO_TARGET_DIR="$ARENA_DIR/target-$slot" \
        cargo build --release --quiet -p wuzi --bin pbrain-wuzi)
    cp "$ARENA_DIR/target-$slot/release/pbrain-wuzi" "$ARENA_DIR/bin/pbrain-wuzi-$slot"
    echo "$label" >"$ARENA_DIR/bin/label-$slot"
}

build a "$rev_a"
build b "$rev_b"
label_a=$(cat "$ARENA_DIR/bin/label-a")
label_b=$(cat "$ARENA_DIR/bin/label-b")
if cmp -s "$ARENA_DIR/bin/pbrain-wuzi-a" "$ARENA_DIR/bin/pbrain-wuzi-b"; then
    echo "note: A ($label_a) and B ($label_b) built to identical binaries; expect H0" >&2
fi

echo "building wuzi-arena from the current tree ..." >&2
cargo build --release --quiet -p wuzi-tools --bin wuzi-arena
arena="${CARGO_TARGET_DIR:-target}/release/wuzi-arena"

# The defaults, except for flags given on the command line.
given() {
    local flag=$1 arg
    for arg in "${extra[@]}"; do
        [[ "$arg" == "$flag" || "$arg" == "$flag="* ]] && return 0
    done
    return 1
}
extra=("$@")
brain_flags=""
if [[ -n "$NODES" ]]; then brain_flags=" --nodes $NODES"; fi
args=(sprt --a "$ARENA_DIR/bin/pbrain-wuzi-a$brain_flags" --b "$ARENA_DIR/bin/pbrain-wuzi-b$brain_flags")
defaults=(
    --name-a "wuzi-$label_a" --name-b "wuzi-$label_b"
    --rule "$RULE" --size "$SIZE" --openings "$OPENINGS" --turn-ms "$TURN_MS"
    --concurrency "$CONCURRENCY" --threads "$THREADS" --memory-mib "$MEMORY_MIB" --seed "$SEED"
    --elo0 "$ELO0" --elo1 "$ELO1" --alpha "$ALPHA" --beta "$BETA" --max-pairs "$MAX_PAIRS"
    --games-out "$ARENA_DIR/games-$label_a-vs-$label_b.jsonl"
)
for ((i = 0; i < ${#defaults[@]}; i += 2)); do
    given "${defaults[i]}" || args+=("${defaults[i]}" "${defaults[i + 1]}")
done
args+=("${extra[@]}")

echo "running: wuzi-arena ${args[*]}" >&2
"$arena" "${args[@]}" | tee "$ARENA_DIR/sprt-$label_a-vs-$label_b.txt"
