#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ for a fixed time (FUZZ_SECONDS each, default 60), starting
# from the seed inputs committed in fuzz/corpus/<target>/. New inputs go to a temporary folder,
# so a run leaves the tree as it was; a crash or a failed invariant ends that target, fails the
# script (after the other targets ran) and leaves the input in fuzz/artifacts/<target>/ (reproduce it with
# `scripts/fuzz.sh TARGET fuzz/artifacts/TARGET/crash-…`).
#
# Stable Rust is enough: `--sanitizer none` keeps cargo-fuzz from asking rustc for a sanitizer
# (a nightly -Z flag); the coverage instrumentation libFuzzer needs is stable -C flags. No
# sanitizer is lost that matters here: the engine forbids unsafe code, so a memory error cannot
# happen, and panics, failed invariants, overflow and debug assertions (`--debug-assertions`)
# are what the fuzzer finds. Needs cargo-fuzz (scripts/setup.sh --test installs it).
#   scripts/fuzz.sh                 every target, FUZZ_SECONDS each
#   scripts/fuzz.sh TARGET [ARGS]   one target; ARGS go to libFuzzer (e.g. a crash file)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: cargo-fuzz is missing: cargo install cargo-fuzz --locked (or scripts/setup.sh --test)" >&2
  exit 1
fi
seconds=${FUZZ_SECONDS:-60}
fuzz() {
  cargo fuzz run --sanitizer none --debug-assertions --fuzz-dir fuzz "$@"
}

if [ $# -gt 0 ]; then
  target=$1
  shift
  fuzz "$target" -- "$@"
  exit
fi

# The lock file is checked first: cargo-fuzz itself has no --locked.
cargo metadata --manifest-path fuzz/Cargo.toml --locked --format-version 1 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
for target in $(cargo fuzz list --fuzz-dir fuzz); do
  mkdir -p "$work/$target"
  echo "fuzz: $target for ${seconds}s"
  # -timeout: one input taking over 10 s is a hang, reported like a crash. libFuzzer's
  # progress lines go to a log; the end of it is shown when the target fails.
  log="$work/$target.log"
  if ! fuzz "$target" "$work/$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 80 "$log" >&2
    echo "fuzz: $target FAILED; the input is in fuzz/artifacts/$target/" >&2
    failed+=("$target")
    continue
  fi
  grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" | sed "s/^/fuzz: $target /"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: every target ran ${seconds}s without a failure"
