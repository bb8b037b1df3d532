#!/usr/bin/env bash
# The browser version: the app core and the engine built to wasm32-unknown-unknown (crate
# wuzi-web), run in a Web Worker behind the same UI, as an installable PWA that works offline.
#   scripts/web.sh              builds the site into target/web/
#   scripts/web.sh serve [PORT] builds it, then serves it on http://127.0.0.1:PORT/ (8080)
# Needs the wasm32-unknown-unknown target and the wasm-bindgen CLI of the version in
# web/Cargo.toml (scripts/setup.sh installs both).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
OUT=target/web

build() {
  local want have
  want=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' web/Cargo.toml)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}') || true
  if [ "$have" != "$want" ]; then
    echo "web.sh: needs wasm-bindgen $want (found: ${have:-none}); run scripts/setup.sh" >&2
    exit 1
  fi
  cargo build -p wuzi-web --lib --release --locked --target wasm32-unknown-unknown
  rm -rf "$OUT"
  mkdir -p "$OUT"
  wasm-bindgen --target web --no-typescript --out-dir "$OUT" \
    "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/wuzi_web.wasm"
  # The UI as the Tauri app ships it, then the browser's host beside it.
  find ui -maxdepth 1 -type f \( -name '*.js' -o -name '*.css' \) -exec cp {} "$OUT"/ \;
  cp web/worker.js web/web-host.js web/manifest.webmanifest "$OUT"/
  cp src-tauri/icons/icon.svg "$OUT"/icon.svg
  cp src-tauri/icons/icon.png "$OUT"/icon-512.png
  cp src-tauri/icons/128x128@2x.png "$OUT"/icon-256.png
  # index.html: the host script before the UI's first module, the manifest, and a policy as
  # strict as the app's (plus running the .wasm).
  local csp="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
  local anchor='<script type="module" src="main.js"></script>'
  grep -qF "$anchor" ui/index.html || { echo "web.sh: ui/index.html has no $anchor" >&2; exit 1; }
  python3 - "$csp" "$anchor" ui/index.html "$OUT/index.html" <<'PY'
import sys
csp, anchor, src, dst = sys.argv[1:]
html = open(src, encoding="utf-8").read()
head = (f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '  <link rel="manifest" href="manifest.webmanifest">\n'
        '  <link rel="apple-touch-icon" href="icon-256.png">\n'
        '  <script src="web-host.js"></script>\n  ')
open(dst, "w", encoding="utf-8").write(html.replace(anchor, head + anchor, 1))
PY
  # The service worker caches every file of the site; its version is their hash.
  local files version
  files=$(cd "$OUT" && find . -type f ! -name sw.js | sed 's|^\./||' | sort)
  version=$(cd "$OUT" && echo "$files" | xargs sha256sum | sha256sum | cut -c1-16)
  python3 - "$version" "$OUT/sw.js" web/sw.js $files <<'PY'
import json, sys
version, dst, src, *files = sys.argv[1:]
text = open(src, encoding="utf-8").read()
text = text.replace("__VERSION__", version).replace("__FILES__", json.dumps(["./"] + files))
open(dst, "w", encoding="utf-8").write(text)
PY
  echo "web.sh: built $OUT/ ($(du -h "$OUT/wuzi_web_bg.wasm" | cut -f1) of wasm, version $version)"
}

case "${1:-build}" in
  build) build ;;
  serve)
    build
    port=${2:-8080}
    echo "web.sh: serving $OUT/ on http://127.0.0.1:$port/"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$OUT" "$port"
    ;;
  *) echo "usage: scripts/web.sh [serve [PORT]]" >&2; exit 2 ;;
esac
