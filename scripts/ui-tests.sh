#!/usr/bin/env bash
# UI tests: snap.js unit tests (node's test runner), the touch/keyboard tests in headless
# Chromium on the real core (the browser version, built first into target/web/ by
# scripts/web.sh), and a WebKitGTK smoke test when WebKitWebDriver is present. Needs Node 20+ and Debian's chromium (`apt-get install -y chromium`); nothing here
# downloads a browser. Set CHROMIUM=/path/to/chromium to use another binary.
set -euo pipefail
cd "$(dirname "$0")/.."

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [[ -f package-lock.json ]]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
  echo "ui-tests: $chromium not found; install it with: apt-get install -y chromium" >&2
  exit 1
fi

npm run --silent test:snap
scripts/web.sh
npm run --silent test:browser

# The same UI in WebKitGTK, when its WebDriver is installed (Debian: webkit2gtk-driver xvfb xauth).
if [[ -x /usr/bin/WebKitWebDriver ]] && command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x1024x24" npm run --silent test:webkit
else
  echo "ui-tests: WebKitWebDriver or xvfb-run missing; skipping the WebKitGTK smoke test" >&2
fi
