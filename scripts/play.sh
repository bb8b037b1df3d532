#!/usr/bin/env bash
# Sets up what is missing, builds the desktop app and opens the game.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec cargo run --release -p wuzi-app --features custom-protocol
