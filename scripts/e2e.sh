#!/usr/bin/env bash
# End-to-end tests of the real desktop app under a virtual X display, driven over WebDriver.
#
# Needs (Debian): libwebkit2gtk-4.1-dev xvfb xauth webkit2gtk-driver, and
#   cargo install tauri-driver --version ^2 --locked
# Screenshots and the cold-start measurement land in artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
for tool in xvfb-run tauri-driver WebKitWebDriver; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "e2e: $tool is missing (see the header of $0)" >&2
    exit 1
  fi
done
mkdir -p artifacts

exec xvfb-run -a -s "-screen 0 1280x1024x24" \
  cargo test -p wuzi-app --test e2e -- --ignored --test-threads=1 "$@"
