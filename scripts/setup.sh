#!/usr/bin/env bash
# Installs what a fresh Debian 12 / Ubuntu machine with Rust lacks for Wuzi, and nothing twice.
#   scripts/setup.sh          what building and running the desktop app needs
#   scripts/setup.sh --test   plus what the whole test suite needs (Xvfb, WebKitWebDriver,
#                             tauri-driver, cargo-fuzz, wasm-bindgen-cli and the wasm target,
#                             Chromium, npm packages, Android targets)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-app}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# Debian packages: the minimal set the desktop app builds with (webkit pulls gtk-3 and
# libsoup-3); xauth must be named or xvfb-run fails.
# fonts-wqy-microhei: the UI speaks 简体中文 too, and a bare Debian desktop has no CJK font.
pkgs=(libwebkit2gtk-4.1-dev build-essential pkg-config curl fonts-wqy-microhei)
if [ "$mode" = "--test" ]; then
  pkgs+=(xvfb xauth webkit2gtk-driver chromium)
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  pkgs+=(nodejs npm)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages present"
fi

# rustfmt and clippy come with rustup's default profile, but not with the minimal one.
if command -v rustup >/dev/null 2>&1; then
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
fi

if [ "$mode" = "--test" ]; then
  if ! command -v tauri-driver >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
    log "cargo install tauri-driver"
    cargo install tauri-driver --version '^2' --locked --quiet
  fi
  # The fuzz stage (scripts/fuzz.sh) runs on stable Rust through cargo-fuzz.
  if ! cargo fuzz --version >/dev/null 2>&1; then
    log "cargo install cargo-fuzz"
    cargo install cargo-fuzz --version '^0.13' --locked --quiet
  fi
  # The web build (scripts/web.sh): the wasm target, and the wasm-bindgen CLI of exactly the
  # version of the wasm-bindgen crate web/Cargo.toml pins (the glue they make must match).
  if command -v rustup >/dev/null 2>&1; then
    rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
  fi
  wasm_bindgen=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' web/Cargo.toml)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wasm_bindgen" ]; then
    log "cargo install wasm-bindgen-cli $wasm_bindgen"
    cargo install wasm-bindgen-cli --version "=$wasm_bindgen" --quiet
  fi
  if [ -f package-lock.json ]; then
    log "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  # Android can be type-checked here (no NDK needed for `cargo check`); the registry for these
  # targets is not guaranteed on every machine, so a failure is reported, not fatal.
  if command -v rustup >/dev/null 2>&1; then
    for t in aarch64-linux-android armv7-linux-androideabi x86_64-linux-android; do
      rustup target list --installed | grep -qx "$t" || rustup target add "$t" >/dev/null 2>&1 ||
        log "WARNING: could not install Rust target $t (Android checks will say so)"
    done
  fi
fi
log "done"
